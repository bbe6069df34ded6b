"""The club's outbox in the journal: the finished games the club does not have yet.

The journal queues a game in the transaction that finishes it (``Store._set_state``); the
push (:mod:`companion.club.push`) runs apart from the table, in a thread of the app or in
``splendor-companion club push``, so it cannot share the app's connection (SQLite's are
one thread's) nor take the journal's one-writer lock (the app holds it). It opens a
connection of its own that writes the ``outbox`` table alone, in short transactions that
SQLite serialises with the app's; the games themselves it reads through a read-only
:meth:`Store.reading_only`. A row is deleted only once the club has committed its game.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

from ..errors import ErrorCode, StoreError
from .store import Store, now, schema_problem


@dataclass(frozen=True, slots=True)
class Waiting:
    """A game waiting for the club: when it was queued, how many pushes failed, the last why."""

    game_id: int
    queued_at: str
    tries: int
    last_error: str | None


class Outbox:
    """The outbox of the journal at ``path`` (which must exist, at the current schema)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if not self.path.is_file():
            raise StoreError(
                "there is no games journal at {path} yet: play or import a game first",
                code=ErrorCode.NO_GAME,
                path=str(self.path),
            )
        uri = f"{self.path.absolute().as_uri()}?mode=rw"
        self._db = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=10.0)
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        problem = schema_problem(self.path, version)
        if problem is not None:
            self._db.close()
            raise problem

    def waiting(self) -> list[Waiting]:
        """The games waiting, in the order they finished."""
        rows = self._db.execute(
            "SELECT game_id, queued_at, tries, last_error FROM outbox ORDER BY queued_at, game_id"
        ).fetchall()
        return [Waiting(*row) for row in rows]

    def queue_finished(self) -> int:
        """Queue every finished game not queued yet (a kiosk joining brings its history);
        returns how many were added."""
        return self._write(
            "INSERT OR IGNORE INTO outbox (game_id, queued_at) "
            "SELECT id, COALESCE(ended_at, updated_at) FROM games WHERE state != 'playing'",
            (),
        )

    def done(self, game_id: int) -> None:
        """The club has the game (committed): it leaves the outbox."""
        self._write("DELETE FROM outbox WHERE game_id = ?", (game_id,))

    def failed(self, game_id: int, reason: str) -> None:
        """A push of the game failed (why, for ``club status``); it stays queued."""
        self._write(
            "UPDATE outbox SET tries = tries + 1, last_error = ? WHERE game_id = ?",
            (f"{now()} {reason}", game_id),
        )

    def _write(self, sql: str, params: tuple[object, ...]) -> int:
        """One statement in a transaction of its own; how many rows it changed."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            changed = self._db.execute(sql, params).rowcount
            self._db.execute("COMMIT")
            return changed
        except BaseException:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise

    def journal(self) -> Store:
        """The journal read-only, whoever writes it (its games' records, as they are now)."""
        return Store.reading_only(self.path)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Outbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
