"""Kiosks for the club's tests: games with chosen names in real journals, the command
line, and the club read back through the owner's connection."""

from __future__ import annotations

import contextlib
import io
from dataclasses import replace
from pathlib import Path
from typing import Any

import psycopg

from companion.cli import main
from companion.engine.simulate import simulate
from companion.journal.store import GameState, Store
from companion.records.record import Record, replay


def named_game(seed: int, names: list[str], levels: list[str | None] | None = None) -> Record:
    """A whole random game played by ``names`` (``levels``: the companion's seats)."""
    game = simulate(players=len(names), seed=seed)
    extra: dict[str, Any] = {}
    if levels is not None:
        extra["app"] = {"name": "test", "seats": ["person" if lv is None else lv for lv in levels]}
    return Record(replace(game.setup, players=tuple(names)), list(game.moves), extra)


def store(data: Path, *records: Record) -> list[int]:
    """Each record stored in the journal of ``data`` as ``import`` does (queued for the
    club as a game ending at the table is); their numbers."""
    ids = []
    with Store(data / "games.sqlite3") as journal:
        for record in records:
            ids.append(journal.import_record(record, GameState.of(replay(record).game)))
    return ids


def cli(*argv: str) -> tuple[int, str, str]:
    """The command line in this process: exit status, output, errors."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def club_rows(owner: str, sql: str, *params: object) -> list[tuple[Any, ...]]:
    """What the club holds, read as its owner."""
    with psycopg.connect(owner) as conn:
        return list(conn.execute(sql, params).fetchall())


def waiting(data: Path) -> list[int]:
    """The games of the journal's outbox."""
    from companion.journal.outbox import Outbox

    with Outbox(data / "games.sqlite3") as outbox:
        return [w.game_id for w in outbox.waiting()]
