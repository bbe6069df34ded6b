"""What the commands say: a replay wrong from its first move, what an export
wrote and never overwrote, --version, help, every benchmark's --help, screenshots --out."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import tool

from companion import __version__, i18n
from companion.engine.simulate import simulate
from companion.records.record import Record, write
from splendor_companion.program import main

ROOT = Path(__file__).resolve().parent.parent
Capture = pytest.CaptureFixture[str]


def test_replay_of_a_record_wrong_from_its_first_move(tmp_path: Path, capsys: Capture) -> None:
    doc = json.loads(write(Record.of(simulate(players=2, seed=1))))
    doc["moves"][0]["player"] = 1
    path = tmp_path / "g.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["replay", str(path)]) == 1
    out = capsys.readouterr().out
    assert "Move 1 is illegal" in out
    assert "The 0 moves" not in out and "It is the first move" in out


def test_version_and_help_command(capsys: Capture) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out == f"splendor-companion {__version__}\n"

    assert main(["help"]) == 0
    assert "export" in capsys.readouterr().out
    assert main(["help", "export"]) == 0
    assert "--to FOLDER" in capsys.readouterr().out
    assert main(["help", "exprot"]) == 2
    assert "there is no command exprot" in capsys.readouterr().err


@pytest.mark.parametrize("module", ["ui.bench", "hardware.bench", "companion.coach.bench"])
def test_every_benchmarks_help_is_help(module: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", module, "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0
    assert done.stdout.startswith(f"usage: python -m {module}")
    assert "median" not in done.stdout  # nothing measured


def test_screenshots_to_a_scratch_folder_leave_the_tracked_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    screenshots = tool("screenshots")
    tracked = tmp_path / "docs-screenshots"
    tracked.mkdir()
    (tracked / "table.png").write_bytes(b"tracked")
    monkeypatch.setattr(screenshots, "TARGET", tracked)

    def pytest_run(command: list[str], *, env: dict[str, str], **kw: Any) -> Any:
        # The screenshot tests, as far as the tool sees them: pictures in its folder.
        (Path(env["SPLENDOR_SCREENSHOTS"]) / "table.png").write_bytes(b"new")
        return subprocess.CompletedProcess(command, 0)

    monkeypatch.setattr(screenshots.subprocess, "run", pytest_run)
    scratch = tmp_path / "scratch"
    assert screenshots.main(["--out", str(scratch)]) == 0
    assert (scratch / "table.png").read_bytes() == b"new"
    assert (tracked / "table.png").read_bytes() == b"tracked"


def test_a_language_the_companion_does_not_speak_in_splendor_lang_is_said_once(
    monkeypatch: pytest.MonkeyPatch, capsys: Capture
) -> None:
    """SPLENDOR_LANG is the companion's own setting: a slip ("klingon") is said, in the
    language used instead, with the choices; the command still runs."""
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    monkeypatch.setenv("SPLENDOR_LANG", "klingon")
    i18n.set_language(None)  # the environment's, as a command starts (the suite pins en)
    assert main(["games"]) == 0
    said = capsys.readouterr().err.splitlines()
    assert (
        said.count(
            "SPLENDOR_LANG=klingon n'est pas une langue du compagnon\u00a0; Français est utilisé. "
            "Donnez-lui l'une de ces valeurs\u00a0: en, fr, it, pt, sv."
        )
        == 1
    ), said
    # Given --lang, the variable is not read; a list with one known language is fine.
    assert main(["--lang", "it", "games"]) == 0
    assert "SPLENDOR_LANG" not in capsys.readouterr().err
    monkeypatch.setenv("SPLENDOR_LANG", "tlh:sv")
    assert main(["games"]) == 0
    assert "SPLENDOR_LANG" not in capsys.readouterr().err
