"""The companion's seats on the command line: a game of companions only is
nobody's loss, seats marked as everywhere, and no BG Stats play of a game not over."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.engine.simulate import simulate
from companion.records.record import Record
from splendor_companion.program import main
from tests.journal import companions, stored

ROOT = Path(__file__).resolve().parent.parent
Capture = pytest.CaptureFixture[str]


def test_a_game_of_companions_only_is_no_game_of_the_people(data: Path, capsys: Capture) -> None:
    stored(data, companions(["hard", "easy"], seed=1))
    assert main(["stats"]) == 0
    out = capsys.readouterr().out
    assert "won by the people" not in out  # neither level beat "the people": none played

    stored(data, companions([None, "hard"], seed=2))
    assert main(["stats"]) == 0
    out = capsys.readouterr().out
    assert "Companion (hard): 1 game, won by the people" in out
    assert "Companion (easy)" not in out


def test_games_marks_the_companions_seats_as_the_other_outputs_do(
    data: Path, tmp_path: Path, capsys: Capture
) -> None:
    game = stored(data, companions([None, "hard"], seed=2))
    assert main(["games"]) == 0
    assert "Ada, Ben (hard)" in capsys.readouterr().out
    assert main(["export", str(game), "--format", "txt"]) == 0
    assert capsys.readouterr().out.startswith("Splendor: Ada, Ben (hard)\n")


def test_bgstats_export_of_an_unfinished_game_is_refused(
    data: Path, tmp_path: Path, capsys: Capture
) -> None:
    game = stored(data, Record.of(simulate(players=2, seed=3, max_moves=9)))
    out = tmp_path / "play.bgstats.json"
    assert main(["export", str(game), "--format", "bgstats", "--out", str(out)]) == 2
    assert "is not over" in capsys.readouterr().err
    assert not out.exists()
    assert main(["export", str(game), "--format", "bgstats"]) == 2
    assert "sourcePlayId" not in capsys.readouterr().out

    # Into a folder, every other format is written, and the one left out is said.
    assert main(["export", str(game), "--to", str(tmp_path / "usb")]) == 0
    said = capsys.readouterr()
    assert "BG Stats" in said.err
    assert sorted(p.suffix for p in (tmp_path / "usb").iterdir()) == [".csv", ".json", ".txt"]
