"""The game clock and the move log: what the journal keeps, what the exports and the log say."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from companion import i18n
from companion.engine.cards import CARDS, NOBLES
from companion.engine.simulate import simulate
from companion.journal.session import Session
from companion.journal.store import Store
from companion.records.movelog import move_log
from companion.records.playtime import clock_text, move_times
from companion.records.record import Record, read
from companion.reports.export import render

START = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)


class Ticking:
    """A clock the test moves by hand: the journal writes down whatever it says."""

    def __init__(self) -> None:
        self.moment = START

    def __call__(self) -> datetime:
        return self.moment

    def wait(self, seconds: float) -> None:
        self.moment += timedelta(seconds=seconds)


def played_game(tmp_path: Path, waits: Callable[[int], float]) -> tuple[Store, int, Ticking]:
    """A simulated 3-player game replayed at the table, move ``n`` after ``waits(n)`` s."""
    clock = Ticking()
    store = Store(tmp_path / "games.sqlite3", clock=clock)
    game = simulate(players=3, seed=4)
    session = Session.start(store, game.setup)
    for n, move in enumerate(game.moves, start=1):
        clock.wait(waits(n))
        session.play(move)
    return store, session.game_id, clock


def test_each_turn_is_timed_and_breaks_are_left_out_of_the_game_time(tmp_path: Path) -> None:
    # Every turn 40 s, but a dinner of 2 hours before move 10.
    store, game_id, _ = played_game(tmp_path, lambda n: 7200 if n == 10 else 40)
    record = store.record(game_id, with_journal=True)
    times = move_times(record)
    assert len(times) == len(record.moves)
    assert times[1].at == START + timedelta(seconds=40)
    assert {t.turn for n, t in times.items() if n != 10} == {timedelta(seconds=40)}
    assert times[10].turn == timedelta()  # the dinner is not the turn's length
    last = times[len(record.moves)]
    assert last.elapsed == timedelta(seconds=40 * (len(record.moves) - 1))
    assert last.at == START + timedelta(seconds=40 * (len(record.moves) - 1) + 7200)


def test_an_undone_move_counts_from_when_it_was_played_again(tmp_path: Path) -> None:
    clock = Ticking()
    store = Store(tmp_path / "games.sqlite3", clock=clock)
    game = simulate(players=2, seed=1, max_moves=3)
    session = Session.start(store, game.setup)
    for move in game.moves[:2]:
        clock.wait(30)
        session.play(move)
    clock.wait(10)
    session.undo()
    clock.wait(20)
    session.redo()
    clock.wait(15)
    session.play(game.moves[2])
    times = move_times(store.record(session.game_id, with_journal=True))
    assert [times[n].turn.seconds for n in (1, 2, 3)] == [30, 60, 15]
    assert times[3].elapsed.seconds == 105


def test_exports_carry_the_game_clock(tmp_path: Path) -> None:
    store, game_id, _ = played_game(tmp_path, lambda n: 30 + n % 7)
    record = store.record(game_id, with_journal=True)
    n = len(record.moves)
    turns = [30 + k % 7 for k in range(1, n + 1)]

    doc = json.loads(render(record, "json"))
    assert doc["annotations"]["clock"] == {"played_seconds": sum(turns), "turn_seconds": turns}
    assert read(render(record, "json")).moves == record.moves  # still a valid record

    rows = list(csv.DictReader(io.StringIO(render(record, "csv"))))
    assert [int(r["turn_seconds"]) for r in rows] == turns
    assert rows[0]["played_at"] == "2026-11-21T20:00:31Z"

    text = render(record, "txt")
    assert f"Played for {clock_text(timedelta(seconds=sum(turns)))}" in text
    assert re.search(r"\[\d+:\d\d\] Round \d+, move \d+:", text)


def test_an_imported_game_without_times_has_no_clock_and_no_empty_promises(
    tmp_path: Path,
) -> None:
    store = Store(tmp_path / "games.sqlite3")
    game = simulate(players=2, seed=2)
    from companion.journal.store import GameState

    game_id = store.import_record(Record.of(game), GameState.of(game))
    record = store.record(game_id, with_journal=True)
    assert move_times(record) == {}
    assert "clock" not in json.loads(render(record, "json")).get("annotations", {})
    assert "Played for" not in render(record, "txt")
    assert {r["turn_seconds"] for r in csv.DictReader(io.StringIO(render(record, "csv")))} == {""}


def test_the_move_log_tells_every_move_newest_first_without_ids(tmp_path: Path) -> None:
    store, game_id, _ = played_game(tmp_path, lambda n: 25)
    record = store.record(game_id, with_journal=True)
    log = move_log(record)
    assert [e.number for e in log] == list(range(len(record.moves), 0, -1))
    assert log[0].round >= log[-1].round == 1
    ids = set(CARDS) | set(NOBLES)
    for entry in log:
        assert entry.player in entry.words
        assert not ids & set(re.findall(r"\w+", entry.words)), entry.words
        assert entry.time is not None and entry.time.turn == timedelta(seconds=25)
    buys = [e for e in log if " buys " in e.words]
    assert buys and all(e.card is not None for e in buys)
    card = buys[0].card
    assert card is not None
    assert f"a {card.bonus.key} level-{card.level} card" in buys[0].words
    assert any("A noble visits" in e.words for e in log)


def test_the_move_log_speaks_french(tmp_path: Path) -> None:
    store, game_id, _ = played_game(tmp_path, lambda n: 25)
    i18n.set_language("fr")
    log = move_log(store.record(game_id, with_journal=True))
    words = " ".join(e.words for e in log)
    assert " prend " in words and " achète " in words
    assert " takes " not in words and " buys " not in words
