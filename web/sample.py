"""A data folder with games to show: the screenshots' and the benchmark's (never the
tests', which make their own). A finished 4-player game with its clock, and the demo's
game in progress (``companion.demo``)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from companion.demo import demo_game
from companion.engine.simulate import simulate
from companion.journal.session import Session
from companion.journal.store import Store

NAMES = ("Ada", "Ben", "Cleo", "Dev")


def ticking(start: datetime, step: timedelta) -> Callable[[], datetime]:
    """A clock that moves on by ``step`` each time it is read: turns of a plausible length."""
    moment = [start]

    def clock() -> datetime:
        moment[0] += step
        return moment[0]

    return clock


def finished_game(store: Store, players: int = 4, seed: int = 11) -> int:
    """A whole simulated game journaled move by move, 45 s a turn."""
    game = simulate(players=players, seed=seed)
    saved = store.clock
    store.clock = ticking(datetime(2026, 11, 21, 20, 0, tzinfo=UTC), timedelta(seconds=45))
    try:
        session = Session.start(store, game.setup)
        for move in game.moves:
            session.play(move)
    finally:
        store.clock = saved
    return session.game_id


def sample_folder(folder: Path) -> tuple[Store, int, int]:
    """``folder/games.sqlite3`` with a finished game and one being played, kept open as
    the app keeps it (so the page shows the game as running): the store, the finished
    game's id, the live one's. Close the store when done."""
    folder.mkdir(parents=True, exist_ok=True)
    store = Store(folder / "games.sqlite3")
    over = finished_game(store)
    live = demo_game(store, 4)
    return store, over, live
