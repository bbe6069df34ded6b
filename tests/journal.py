"""Real games journals for the tests: records imported as ``import`` does, games played or
written straight into the file as an older companion might have let them in."""

from __future__ import annotations

import contextlib
import json
import random
import sqlite3
from pathlib import Path

from companion.engine.moves import Move
from companion.engine.setup import Setup
from companion.engine.simulate import Dealer, choose, simulate
from companion.journal.session import Session
from companion.journal.store import GameState, Store
from companion.records.record import Record, read, replay, write

SETUP = Setup.of(
    ["Ada", "Ben", "Cleo"],
    ["N1", "N2", "N3", "N4"],
    ["1W1 1W2 1W3 1W4", "2W1 2W2 2W3 2W4", "3W1 3W2 3W3 3W4"],
)
"""A three-player table with known nobles and market, for a session of random moves."""


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


def store_games(data: Path, seeds: list[int], unfinished: int = 0) -> list[int]:
    """Finished games of these seeds (2 to 4 players), then ``unfinished`` games of 10
    moves played through a session, in the journal of ``data``; their numbers."""
    ids = []
    with Store(data / "games.sqlite3") as store:
        for seed in seeds:
            game = simulate(players=2 + seed % 3, seed=seed)
            ids.append(store.import_record(Record.of(game), GameState.of(game)))
        for seed in range(unfinished):
            game = simulate(players=2, seed=100 + seed, max_moves=10)
            session = Session.start(store, game.setup)
            for move in game.moves:
                session.play(move)
            ids.append(session.game_id)
    return ids


def raw_game(store: Store, players: list[str], started_at: str) -> int:
    """A finished game written straight into the journal, as an older companion might have
    let it in: what reads it back must still hold up."""
    game = simulate(players=len(players), seed=3)
    doc = json.loads(write(Record.of(game)))
    doc["players"] = players
    del doc["moves"]
    # Through a connection of its own, as another program would: the store reads it back.
    with contextlib.closing(sqlite3.connect(store.path)) as raw, raw:
        cursor = raw.execute(
            "INSERT INTO games (started_at, updated_at, players, record, state, winners) "
            "VALUES (?, ?, ?, ?, 'over', '[]')",
            (started_at, started_at, json.dumps(players), json.dumps(doc)),
        )
    assert cursor.lastrowid is not None
    return cursor.lastrowid


def play_random(session: Session, n: int, seed: int = 0) -> list[Move]:
    """Up to ``n`` random legal moves played through ``session`` (fewer if it ends)."""
    rng = random.Random(seed)
    dealer = Dealer(session.game, rng)
    played = []
    for _ in range(n):
        if session.game.over:
            break
        played.append(session.play(dealer.deal(choose(rng, list(session.game.legal_moves())))))
    return played
