"""The suite and the tools that are not the product leave a person's data alone: run with
``SPLENDOR_DATA_DIR``, ``KIVY_HOME``, ``HOME`` and the working folder naming a kiosk's real
folders (a journal with games, the app's settings, Kivy's), a run passes and every file
there is byte for byte, mode and time as it was (companion.scratch, the top conftest.py)."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.engine.simulate import simulate
from companion.journal.store import GameState, Store
from companion.records.record import Record

ROOT = Path(__file__).resolve().parent.parent
Snapshot = dict[str, tuple[int, int, str]]


def kiosk(root: Path) -> dict[str, str]:
    """A kiosk's folders as deploy.sh leaves them, with games played, and the environment
    its service user has (deploy.sh's environment file)."""
    data, home = root / "data", root / "home"
    (data / "kivy").mkdir(parents=True)
    (home / ".local" / "share").mkdir(parents=True)
    with Store(data / "games.sqlite3") as store:
        for seed in (1, 2):
            game = simulate(players=3, seed=seed, max_moves=30)
            store.import_record(Record.of(game), GameState.of(game))
    (data / "settings.ini").write_text(
        "[companion]\nlanguage = sv\nrotation = 0\nhints = 1\n", encoding="utf-8"
    )
    (data / "kivy" / "config.ini").write_text("[kivy]\nlog_level = info\n", encoding="utf-8")
    (home / ".bashrc").write_text("export SPLENDOR_DATA_DIR=~/data\n", encoding="utf-8")
    env = {
        **os.environ,
        "SPLENDOR_DATA_DIR": str(data),
        "KIVY_HOME": str(data / "kivy"),
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "SPLENDOR_ROTATION": "90",
        "SPLENDOR_RFID_PORT": "/dev/ttyUSB7",
        "SPLENDOR_WEB": "yes",
    }
    env.pop("SPLENDOR_TEST_WINDOW", None)
    return env


def snapshot(root: Path) -> Snapshot:
    """Every file and folder under ``root``: its mode, its modification time, its bytes."""
    seen: Snapshot = {}
    for path in sorted(root.rglob("*")):
        info = path.lstat()
        digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "folder"
        seen[str(path.relative_to(root))] = (info.st_mode, info.st_mtime_ns, digest)
    return seen


def test_the_tests_leave_a_kiosks_games_settings_and_home_as_they_were(tmp_path: Path) -> None:
    env = kiosk(tmp_path)
    before = snapshot(tmp_path)
    tests = ROOT / "tests"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-n",
            "0",
            "-p",
            "no:cacheprovider",
            # The app's settings written (a rotation, which the kiosk's environment sets too)...
            f"{tests}/gui/test_settings.py::test_a_rotation_applies_at_once_and_the_screen_follows",
            # ... the command line with no data folder of its own, and with one ...
            f"{tests}/test_cli.py::test_simulate_without_a_seed_says_the_seed_that_plays_it_again",
            f"{tests}/test_cli.py::test_export_all_in_one_format_writes_only_that_format",
            # ... and the web page's server.
            f"{tests}/web/test_web_pages.py::test_hostile_names_show_as_text",
        ],
        # From the kiosk's data folder: nothing lands in the working folder either.
        cwd=tmp_path / "data",
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "4 passed" in run.stdout
    assert snapshot(tmp_path) == before


@pytest.mark.long
def test_the_screenshot_tool_leaves_a_kiosk_as_it_was(tmp_path: Path) -> None:
    env = kiosk(tmp_path / "kiosk")
    before = snapshot(tmp_path / "kiosk")
    run = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "screenshots.py"), "--out", str(tmp_path / "x")],
        cwd=tmp_path / "kiosk" / "data",
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
        check=False,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert list((tmp_path / "x").glob("*.png"))
    assert snapshot(tmp_path / "kiosk") == before


TOOLS = {
    "ui.bench": ["-m", "ui.bench"],
    "web.bench": ["-m", "web.bench", "--clients", "2", "--moves", "4", "--pace", "0.2"],
    "coach.bench": [
        "-m",
        "companion.coach.bench",
        "--games",
        "2",
        "--timing-games",
        "1",
        "--workers",
        "1",
    ],
    "faults": [str(ROOT / "tools" / "faults.py"), "--quick"],
    "web.screenshots": ["-m", "web.screenshots", "--out", "shots"],
}


@pytest.mark.long
@pytest.mark.parametrize("tool", list(TOOLS))
def test_the_benchmarks_and_tools_leave_a_kiosk_as_it_was(tmp_path: Path, tool: str) -> None:
    env = kiosk(tmp_path / "kiosk")
    env["PYTHONPATH"] = str(ROOT)
    env["SPLENDOR_LANG"] = "en"
    out = tmp_path / "work"
    out.mkdir()
    before = snapshot(tmp_path / "kiosk")
    run = subprocess.run(
        [sys.executable, *TOOLS[tool]],
        cwd=out,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "Traceback" not in run.stderr
    assert snapshot(tmp_path / "kiosk") == before
    if tool == "web.screenshots":  # a relative --out is the working folder's, as typed
        assert list((out / "shots").glob("*.png"))
