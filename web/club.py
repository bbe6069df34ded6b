"""A club's journal, made quickly: thousands of finished games for the page's figures at a
club's size (``python -m web.bench --games 10000``) and the tests of its pages' sizes.

A few simulated games are journaled move by move as the app journals them (``Session``),
then their rows are copied, each copy a game of its own an hour after the one before
(SQLite copies rows much faster than the rules replay games). The made file is kept in
the temporary folder under the count's name, and copied from there the next time.
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

from companion.journal.store import SCHEMA_VERSION, Store

from .sample import finished_game

SEEDS = 12  # games actually played; the others are their copies


def club_journal(folder: Path, games: int, cache: Path | None = None, seeds: int = SEEDS) -> Path:
    """``folder/games.sqlite3`` holding ``games`` finished games (a copy of the one kept in
    ``cache``, the temporary folder by default, made there the first time)."""
    cache = Path(tempfile.gettempdir()) / "splendor-club" if cache is None else cache
    kept = cache / f"games-{games}-{seeds}-schema{SCHEMA_VERSION}.sqlite3"
    if not kept.exists():
        cache.mkdir(parents=True, exist_ok=True)
        making = cache / f"making-{games}"
        shutil.rmtree(making, ignore_errors=True)
        making.mkdir()
        _make(making / "games.sqlite3", games, seeds)
        (making / "games.sqlite3").replace(kept)
        shutil.rmtree(making, ignore_errors=True)
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / "games.sqlite3"
    shutil.copyfile(kept, target)
    return target


def _make(path: Path, games: int, count: int) -> None:
    with Store(path) as store:
        seeds = [finished_game(store, players=2 + seed % 3, seed=seed) for seed in range(count)]
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("BEGIN")
        start = datetime(2020, 1, 1, 18, 0, tzinfo=UTC)
        for number in range(len(seeds), games):
            source = seeds[number % len(seeds)]
            at = (start + timedelta(hours=number)).strftime("%Y-%m-%dT%H:%M:%SZ")
            new = db.execute(
                "INSERT INTO games (started_at, updated_at, ended_at, players, record, state, "
                "winners) SELECT ?, ?, ?, players, record, state, winners FROM games "
                "WHERE id = ?",
                (at, at, at, source),
            ).lastrowid
            db.execute(
                "INSERT INTO moves (game_id, seq, move, active) "
                "SELECT ?, seq, move, active FROM moves WHERE game_id = ?",
                (new, source),
            )
            db.execute(
                "INSERT INTO events (game_id, at, kind, seq, detail) "
                "SELECT ?, at, kind, seq, detail FROM events WHERE game_id = ?",
                (new, source),
            )
        db.execute("COMMIT")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        db.close()
