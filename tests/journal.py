"""A real games journal for the command line's tests: records imported as ``import`` does."""

from __future__ import annotations

from pathlib import Path

from companion.engine.simulate import simulate
from companion.journal.store import GameState, Store
from companion.records.record import Record, read, replay, write


def stored(data: Path, record: Record) -> int:
    """``record`` imported into the journal of the data folder ``data``; its number."""
    game = read(write(record))
    with Store(data / "games.sqlite3") as store:
        return store.import_record(game, GameState.of(replay(game).game))


def companions(seats: list[str | None], seed: int = 1) -> Record:
    """A game whose record says which seats the companion played (``None``: a person)."""
    levels = ["person" if s is None else s for s in seats]
    game = simulate(players=len(seats), seed=seed)
    return Record.of(game, app={"name": "test", "seats": levels})
