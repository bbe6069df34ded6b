"""Options that were dropped without a word, now refused with the rule, and
nothing done: --think without --seats, names, stats --vs, the app's options, --to FILE."""

from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path

import pytest

from companion.engine.simulate import simulate
from companion.records.record import Record
from splendor_companion.program import main
from tests.journal import stored

ROOT = Path(__file__).resolve().parent.parent
Capture = pytest.CaptureFixture[str]


def test_think_without_seats_is_refused(tmp_path: Path, capsys: Capture) -> None:
    out = tmp_path / "g.json"
    assert main(["simulate", "--think", "5", "--out", str(out)]) == 2
    assert "--seats" in capsys.readouterr().err
    assert not out.exists()


def test_names_refuses_what_it_cannot_do_and_says_when_nothing_is_merged(
    data: Path, capsys: Capture
) -> None:
    stored(data, Record.of(simulate(players=2, seed=1)))
    assert main(["names"]) == 0
    assert capsys.readouterr().out == "No names are merged.\n"
    assert main(["names", "--merge", "ada", "Ada", "--unmerge", "Ben"]) == 2
    assert "not both" in capsys.readouterr().err
    assert main(["names"]) == 0
    assert capsys.readouterr().out == "No names are merged.\n"  # the merge was not made either
    assert main(["names", "--unmerge", "Zed"]) == 2
    assert "Zed is not merged" in capsys.readouterr().err


def test_stats_vs_refuses_one_player_twice_and_names_who_never_played(
    data: Path, capsys: Capture
) -> None:
    stored(data, Record.of(simulate(players=2, seed=1)))
    assert main(["stats", "--vs", "Ada", "Ada"]) == 2
    assert "two different names" in capsys.readouterr().err
    assert main(["stats", "--vs", "Ada", "Zed"]) == 2
    said = capsys.readouterr()
    assert "Zed played no finished game" in said.err
    assert said.out == ""  # no line of zeros
    assert main(["stats", "--vs", "Ada", "Ben"]) == 0


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--size", "12x"], "WIDTHxHEIGHT in pixels, like 800x480, not 12x"),
        (["--size", "50x50"], "at least 100 pixels wide and high"),
        (["--size", "800x480", "games"], "--size is for the app"),
        (["--fullscreen", "games"], "--fullscreen is for the app"),
    ],
)
def test_the_apps_options_are_never_dropped(
    data: Path, args: list[str], says: str, capsys: Capture
) -> None:
    refused_as_read = args[0] == "--size" and args[-1] != "games"  # by argparse: exit 2
    with pytest.raises(SystemExit, match="2") if refused_as_read else nullcontext():
        assert main(args) == 2
    said = capsys.readouterr()
    assert says in said.err
    assert said.out == ""  # no games listed as if the option had been taken
