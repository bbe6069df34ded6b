"""Times as every output shows them: the game's own start in local time, an
import said as an import, in `games`, the exports, their file names and `stats`."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.engine.simulate import simulate
from companion.records.record import Record
from splendor_companion.program import main
from tests.journal import stored

ROOT = Path(__file__).resolve().parent.parent
Capture = pytest.CaptureFixture[str]


@pytest.fixture
def paris(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A machine one hour east of UTC in November."""
    monkeypatch.setenv("TZ", "Europe/Paris")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_games_shows_the_records_start_in_local_time_and_an_import_as_an_import(
    data: Path, tmp_path: Path, paris: None, capsys: Capture
) -> None:
    dated = Record.of(simulate(players=2, seed=1))
    dated.extra["started_at"] = "2026-11-21T20:15:00Z"
    first = stored(data, dated)
    second = stored(data, Record.of(simulate(players=2, seed=2)))  # no start of its own
    assert main(["games"]) == 0
    rows = {line.split()[0]: line for line in capsys.readouterr().out.splitlines()}
    assert "2026-11-21 21:15" in rows[str(first)]  # local, as the kiosk's screens show it
    assert "imported 20" in rows[str(second)]

    # The exports and their file names say the same.
    for game in (first, second):
        assert main(["export", str(game), "--to", str(tmp_path / "usb"), "--format", "txt"]) == 0
    capsys.readouterr()
    names = sorted(p.name for p in (tmp_path / "usb").iterdir())
    assert names[0].startswith("2026-11-21_2115_Ada-Ben_g")
    assert names[1].startswith("imported-20")
    texts = [(tmp_path / "usb" / n).read_text(encoding="utf-8") for n in names]
    assert "Started 2026-11-21 21:15\n" in texts[0]
    assert "Imported 20" in texts[1] and "the record gives no start time" in texts[1]
    assert "Started" not in texts[1]


def test_fastest_win_is_told_by_what_games_shows(data: Path, paris: None, capsys: Capture) -> None:
    record = Record.of(simulate(players=2, seed=1))
    record.extra["started_at"] = "2026-11-21T23:30:00Z"  # the 22nd in Paris
    game = stored(data, record)
    assert main(["stats"]) == 0
    assert f"game {game} (2026-11-22)" in capsys.readouterr().out
