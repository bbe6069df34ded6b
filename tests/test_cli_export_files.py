"""What an export to a file or a folder says, and that it never overwrites."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.engine.simulate import simulate
from companion.records.record import Record
from splendor_companion.program import main
from tests.journal import stored

Capture = pytest.CaptureFixture[str]


def test_export_out_says_what_it_wrote(data: Path, tmp_path: Path, capsys: Capture) -> None:
    game = stored(data, Record.of(simulate(players=2, seed=1)))
    out = tmp_path / "g.json"
    assert main(["export", str(game), "--out", str(out)]) == 0
    assert f"Written: {out}" in capsys.readouterr().err


def test_a_second_export_never_overwrites(data: Path, tmp_path: Path, capsys: Capture) -> None:
    game = stored(data, Record.of(simulate(players=2, seed=1)))
    usb = tmp_path / "usb"
    assert main(["export", str(game), "--to", str(usb), "--format", "txt"]) == 0
    (first,) = usb.iterdir()
    capsys.readouterr()

    # The same export again: the file is there with those bytes, left as it is.
    assert main(["export", str(game), "--to", str(usb), "--format", "txt"]) == 0
    assert f"Already there, the same: {first}" in capsys.readouterr().out
    assert list(usb.iterdir()) == [first]

    # A file of that name that differs (edited, another kiosk's game) is kept: a new name.
    first.write_text("my notes", encoding="utf-8")
    assert main(["export", str(game), "--to", str(usb), "--format", "txt"]) == 0
    second = first.with_name(first.name.replace(".txt", "-2.txt"))
    assert f"Written: {second}" in capsys.readouterr().out
    assert first.read_text(encoding="utf-8") == "my notes"
    assert second.read_text(encoding="utf-8").startswith("Splendor: Ada, Ben")
