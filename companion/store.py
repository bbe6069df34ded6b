"""The journal: every game and every declared move, in one SQLite file.

Each move is committed (WAL, ``synchronous=FULL``) before the app shows it as done, so a
companion unplugged mid-game loses nothing it acknowledged. Undo and redo are journaled
too. A damaged or foreign file is never overwritten: it is set aside under a new name and
a fresh journal is started, with a notice for the table.

>>> import tempfile, pathlib
>>> from companion.simulate import simulate
>>> store = Store(pathlib.Path(tempfile.mkdtemp()) / "games.sqlite3")
>>> game = simulate(players=2, seed=1, max_moves=3)
>>> game_id = store.create_game(game.setup)
>>> for move in game.moves:
...     _ = store.append_move(game_id, move, GameState.of(game))
>>> [str(m) for m in store.moves(game_id)] == [str(m) for m in game.moves]
True
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from . import __version__
from .errors import RecordError
from .game import Game
from .i18n import os_reason, translate
from .moves import Move
from .record import Record, document, move_document, read_document, read_move
from .setup import Setup

APPLICATION_ID = 0x53504C44  # "SPLD": marks a file as ours, so a foreign one is recognised
SCHEMA_VERSION = 3

# Each entry takes the schema from the version before it to its own number (index + 1).
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        started_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        ended_at TEXT,
        players TEXT NOT NULL,
        record TEXT NOT NULL,
        state TEXT NOT NULL DEFAULT 'playing',
        winners TEXT NOT NULL DEFAULT '[]'
    );
    CREATE TABLE moves (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        move TEXT NOT NULL,
        active INTEGER NOT NULL DEFAULT 1,
        PRIMARY KEY (game_id, seq)
    );
    """,
    """
    CREATE TABLE events (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        at TEXT NOT NULL,
        kind TEXT NOT NULL,
        seq INTEGER,
        detail TEXT
    );
    CREATE INDEX events_by_game ON events(game_id, id);
    INSERT INTO events (game_id, at, kind, seq, detail)
        SELECT game_id, (SELECT updated_at FROM games WHERE id = game_id), 'move', seq, NULL
        FROM moves WHERE active = 1 ORDER BY game_id, seq;
    """,
    # Two spellings of one person: ``name`` (as typed at the table) counts as ``person``.
    # Records keep the names as typed; a merge is one row, so it is undone by deleting it.
    """
    CREATE TABLE aliases (
        name TEXT PRIMARY KEY,
        person TEXT NOT NULL,
        at TEXT NOT NULL
    );
    """,
)


class StoreError(Exception):
    """The journal cannot do what was asked; ``message`` says why and what to do."""

    def __init__(self, template: str, **params: Any) -> None:
        self.template = template
        self.params = params
        super().__init__(template)

    @property
    def message(self) -> str:
        return translate(self.template).format(**self.params)

    def __str__(self) -> str:
        return self.message


def now() -> str:
    """The current time, UTC, ISO 8601 to the second: ``2026-11-21T20:15:00Z``."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def resolve(aliases: dict[str, str], name: str) -> str:
    """The person a name counts as, following merges (``Ada`` -> ``ada`` -> ``Ada L.``).

    >>> resolve({"ada": "Ada", "Ada": "Ada L."}, "ada")
    'Ada L.'
    """
    seen = {name}
    while name in aliases and aliases[name] not in seen:
        name = aliases[name]
        seen.add(name)
    return name


@dataclass(frozen=True, slots=True)
class GameState:
    """What the games list shows without replaying: playing, over or stalled, and who won."""

    state: str
    winners: tuple[str, ...]

    @classmethod
    def of(cls, game: Game) -> GameState:
        state = "over" if game.over else "stalled" if game.stalled else "playing"
        return cls(state, tuple(game.winners()))


@dataclass(frozen=True, slots=True)
class GameInfo:
    """A line of the games list."""

    id: int
    started_at: str
    updated_at: str
    ended_at: str | None
    players: tuple[str, ...]
    state: str
    winners: tuple[str, ...]
    moves: int

    @property
    def finished(self) -> bool:
        return self.state != "playing"


@dataclass(frozen=True, slots=True)
class Event:
    """A line of a game's journal: a move, an undo, a redo, a bank audit..."""

    at: str
    kind: str
    seq: int | None
    detail: dict[str, Any] | None


class Store:
    """The games journal in one SQLite file. Open it once and keep it; close it at exit."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.notices: list[str] = []
        """Things the table should be told, like a damaged file that was set aside."""
        self._db = self._open()

    # ------------------------------------------------------------------ opening

    def _open(self) -> sqlite3.Connection:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise StoreError(
                "cannot create the folder {folder}: {reason}",
                folder=str(self.path.parent),
                reason=os_reason(err),
            ) from None
        problem = self._check_existing()
        if problem is not None:
            self._set_aside(problem)
        try:
            db = self._connect()
            self._migrate(db)
        except sqlite3.DatabaseError as err:
            raise StoreError(
                "cannot open the games journal {path}: {reason}", path=str(self.path), reason=err
            ) from None
        return db

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, isolation_level=None, timeout=5.0)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
        return db

    def _check_existing(self) -> str | None:
        """``None`` when the file is ours (or absent), else why it cannot be used."""
        if not self.path.exists() or self.path.stat().st_size == 0:
            return None
        try:
            db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
            try:
                app_id = db.execute("PRAGMA application_id").fetchone()[0]
                tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
                check = db.execute("PRAGMA quick_check").fetchone()[0]
            finally:
                db.close()
        except sqlite3.DatabaseError:
            return "damaged"
        if check != "ok":
            return "damaged"
        if app_id != APPLICATION_ID and (app_id != 0 or tables > 0):
            return "foreign"
        return None

    def _set_aside(self, problem: str) -> None:
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
        target = self.path.with_name(f"{self.path.name}.{problem}-{stamp}")
        n = 1
        while target.exists():
            n += 1
            target = self.path.with_name(f"{self.path.name}.{problem}-{stamp}-{n}")
        for suffix in ("-wal", "-shm"):
            side = self.path.with_name(self.path.name + suffix)
            if side.exists():
                side.rename(target.with_name(target.name + suffix))
        self.path.rename(target)
        template = (
            translate(
                "The games journal {path} was damaged: it was kept as {kept} and a new one started."
            )
            if problem == "damaged"
            else translate(
                "{path} is not a Splendor Companion journal: it was kept as {kept} and a new "
                "one started."
            )
        )
        self.notices.append(template.format(path=self.path, kept=target.name))

    def _migrate(self, db: sqlite3.Connection) -> None:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreError(
                "the games journal {path} was written by a newer Splendor Companion "
                "(schema {found}, this one knows {known}): update the app",
                path=str(self.path),
                found=version,
                known=SCHEMA_VERSION,
            )
        for target in range(version + 1, SCHEMA_VERSION + 1):
            db.execute("BEGIN IMMEDIATE")
            try:
                for statement in MIGRATIONS[target - 1].split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                db.execute(f"PRAGMA user_version={target}")
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ writing

    @contextmanager
    def _transaction(self, doing: str) -> Iterator[sqlite3.Connection]:
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
        except sqlite3.Error as err:
            raise StoreError(
                "cannot save {doing} to {path}: {reason}. Nothing was changed; free some "
                "space or check the storage, then try again.",
                doing=translate(doing),
                path=str(self.path),
                reason=err,
            ) from None

    def create_game(
        self, setup: Setup, extra: dict[str, Any] | None = None, started_at: str | None = None
    ) -> int:
        """A new game in the journal; returns its id."""
        at = started_at or now()
        writer = {"app": {"name": "splendor-companion", "version": __version__}}
        head = Record(setup, [], {"started_at": at, **writer, **(extra or {})})
        with self._transaction("the new game") as db:
            game_id = self._insert_game(db, head, at)
            db.execute(
                "INSERT INTO events (game_id, at, kind) VALUES (?, ?, 'start')", (game_id, at)
            )
        return game_id

    @staticmethod
    def _insert_game(db: sqlite3.Connection, record: Record, at: str) -> int:
        """The games row of a record (its moves go to their own table)."""
        head = document(Record(record.setup, [], record.extra))
        del head["moves"]
        cursor = db.execute(
            "INSERT INTO games (started_at, updated_at, players, record) VALUES (?, ?, ?, ?)",
            (at, at, json.dumps(list(record.players)), json.dumps(head)),
        )
        game_id = cursor.lastrowid
        assert game_id is not None
        return game_id

    def _set_state(self, db: sqlite3.Connection, game_id: int, at: str, state: GameState) -> None:
        db.execute(
            "UPDATE games SET updated_at = ?, state = ?, winners = ?, ended_at = ? WHERE id = ?",
            (
                at,
                state.state,
                json.dumps(list(state.winners)),
                at if state.state != "playing" else None,
                game_id,
            ),
        )

    def append_move(self, game_id: int, move: Move, state: GameState) -> int:
        """Journal a move (forgetting any undone ones); returns its 1-based number."""
        at = now()
        with self._transaction("the move") as db:
            db.execute("DELETE FROM moves WHERE game_id = ? AND active = 0", (game_id,))
            (seq,) = db.execute(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM moves WHERE game_id = ?", (game_id,)
            ).fetchone()
            db.execute(
                "INSERT INTO moves (game_id, seq, move) VALUES (?, ?, ?)",
                (game_id, seq, json.dumps(move_document(move))),
            )
            db.execute(
                "INSERT INTO events (game_id, at, kind, seq) VALUES (?, ?, 'move', ?)",
                (game_id, at, seq),
            )
            self._set_state(db, game_id, at, state)
        result: int = seq
        return result

    def undo(self, game_id: int, state: GameState) -> None:
        """Mark the last move undone (it can be redone until a new move is journaled)."""
        self._switch(game_id, state, "undo")

    def redo(self, game_id: int, state: GameState) -> None:
        """Bring back the first undone move."""
        self._switch(game_id, state, "redo")

    def _switch(self, game_id: int, state: GameState, kind: str) -> None:
        # An undo deactivates the last move in play; a redo reactivates the first undone.
        pick, active, now_active = ("MAX", 1, 0) if kind == "undo" else ("MIN", 0, 1)
        at = now()
        with self._transaction("the undo" if kind == "undo" else "the redo") as db:
            (seq,) = db.execute(
                f"SELECT {pick}(seq) FROM moves WHERE game_id = ? AND active = ?",
                (game_id, active),
            ).fetchone()
            if seq is None:
                if kind == "undo":
                    raise StoreError("there is no move to undo")
                raise StoreError("there is no undone move to redo")
            db.execute(
                "UPDATE moves SET active = ? WHERE game_id = ? AND seq = ?",
                (now_active, game_id, seq),
            )
            db.execute(
                "INSERT INTO events (game_id, at, kind, seq) VALUES (?, ?, ?, ?)",
                (game_id, at, kind, seq),
            )
            self._set_state(db, game_id, at, state)

    def log_event(self, game_id: int, kind: str, detail: dict[str, Any]) -> None:
        """Add a line to a game's journal that changes no state (a bank audit, say)."""
        with self._transaction("the journal entry") as db:
            db.execute(
                "INSERT INTO events (game_id, at, kind, detail) VALUES (?, ?, ?, ?)",
                (game_id, now(), kind, json.dumps(detail)),
            )

    def import_record(self, record: Record, state: GameState) -> int:
        """Store a whole record (already checked by replay) as a game; returns its id."""
        at = record.extra.get("started_at") or now()
        with self._transaction("the imported game") as db:
            game_id = self._insert_game(db, record, at)
            db.executemany(
                "INSERT INTO moves (game_id, seq, move) VALUES (?, ?, ?)",
                [
                    (game_id, i, json.dumps(move_document(m)))
                    for i, m in enumerate(record.moves, start=1)
                ],
            )
            db.execute(
                "INSERT INTO events (game_id, at, kind, detail) VALUES (?, ?, 'import', ?)",
                (game_id, now(), json.dumps({"moves": len(record.moves)})),
            )
            self._set_state(db, game_id, record.extra.get("ended_at") or at, state)
        return game_id

    def merge_name(self, name: str, person: str) -> None:
        """From now on ``name`` counts as ``person`` in the statistics (see :meth:`unmerge_name`).

        Refused when it would make a person play against themselves, or go round in a circle.
        """
        people = self.aliases()
        target = resolve(people, person)
        if resolve(people, name) == target:
            raise StoreError("{name} is already counted as {person}", name=name, person=target)
        people[name] = target
        for info in self.games():
            persons = [resolve(people, p) for p in info.players]
            if len(set(persons)) < len(persons):
                raise StoreError(
                    "{name} and {person} played in the same game (game {id}): they are two players",
                    name=name,
                    person=target,
                    id=info.id,
                )
        with self._transaction("the merge of two names") as db:
            db.execute(
                "INSERT OR REPLACE INTO aliases (name, person, at) VALUES (?, ?, ?)",
                (name, target, now()),
            )

    def unmerge_name(self, name: str) -> None:
        """``name`` counts as itself again."""
        with self._transaction("the separation of two names") as db:
            db.execute("DELETE FROM aliases WHERE name = ?", (name,))

    def aliases(self) -> dict[str, str]:
        """Each merged spelling and the name it counts as."""
        rows = self._db.execute("SELECT name, person FROM aliases ORDER BY name").fetchall()
        return {name: person for name, person in rows}

    def delete_game(self, game_id: int) -> None:
        with self._transaction("the deletion") as db:
            db.execute("DELETE FROM games WHERE id = ?", (game_id,))

    # ------------------------------------------------------------------ reading

    def _row(self, game_id: int) -> tuple[Any, ...]:
        row = self._db.execute(
            "SELECT id, started_at, updated_at, ended_at, players, state, winners, record, "
            "(SELECT count(*) FROM moves WHERE game_id = games.id AND active = 1) "
            "FROM games WHERE id = ?",
            (game_id,),
        ).fetchone()
        if row is None:
            raise StoreError("there is no game {id} in the journal", id=game_id)
        return tuple(row)

    @staticmethod
    def _info(row: tuple[Any, ...]) -> GameInfo:
        return GameInfo(
            id=row[0],
            started_at=row[1],
            updated_at=row[2],
            ended_at=row[3],
            players=tuple(json.loads(row[4])),
            state=row[5],
            winners=tuple(json.loads(row[6])),
            moves=row[8],
        )

    def info(self, game_id: int) -> GameInfo:
        return self._info(self._row(game_id))

    def games(self) -> list[GameInfo]:
        """Every game, the most recent first."""
        rows = self._db.execute(
            "SELECT id, started_at, updated_at, ended_at, players, state, winners, NULL, "
            "(SELECT count(*) FROM moves WHERE game_id = games.id AND active = 1) "
            "FROM games ORDER BY started_at DESC, id DESC"
        ).fetchall()
        return [self._info(tuple(r)) for r in rows]

    def latest_unfinished(self) -> GameInfo | None:
        """The game to offer to resume: the last one touched that is still being played."""
        row = self._db.execute(
            "SELECT id FROM games WHERE state = 'playing' ORDER BY updated_at DESC, id DESC"
        ).fetchone()
        return None if row is None else self.info(row[0])

    def _moves(self, game_id: int, active: int) -> list[Move]:
        rows = self._db.execute(
            "SELECT seq, move FROM moves WHERE game_id = ? AND active = ? ORDER BY seq",
            (game_id, active),
        ).fetchall()
        moves = []
        for seq, text in rows:
            try:
                moves.append(read_move(json.loads(text), f"moves[{seq - 1}]"))
            except (ValueError, RecordError) as err:
                raise StoreError(
                    "game {id} has an unreadable move {seq} in the journal: {reason}",
                    id=game_id,
                    seq=seq,
                    reason=err,
                ) from None
        return moves

    def moves(self, game_id: int) -> list[Move]:
        """The moves in play, in order."""
        return self._moves(game_id, 1)

    def undone(self, game_id: int) -> list[Move]:
        """Moves undone and not yet replaced, next to redo first."""
        return self._moves(game_id, 0)

    def record(self, game_id: int, with_journal: bool = False) -> Record:
        """The game as a record of the spec (moves in play; extras kept).

        ``with_journal`` adds the table's log under ``annotations.journal``: every move,
        undo, redo and bank audit with its time, for the export after play.
        """
        row = self._row(game_id)
        head = json.loads(row[7])
        head["moves"] = []
        record = read_document(head)
        record.moves = self.moves(game_id)
        # An imported game keeps its record's own times: the row's are those of the import.
        if not self._imported(game_id):
            record.extra.setdefault("started_at", row[1])
            if row[3]:
                record.extra["ended_at"] = row[3]
        if with_journal:
            log = []
            for event in self.events(game_id):
                entry: dict[str, Any] = {"at": event.at, "event": event.kind}
                if event.seq is not None:
                    entry["move"] = event.seq
                if event.detail:
                    entry.update(event.detail)
                log.append(entry)
            annotations = dict(record.extra.get("annotations") or {})
            annotations["journal"] = log
            record.extra["annotations"] = annotations
        return record

    def _imported(self, game_id: int) -> bool:
        found = self._db.execute(
            "SELECT 1 FROM events WHERE game_id = ? AND kind = 'import' LIMIT 1", (game_id,)
        ).fetchone()
        return found is not None

    def events(self, game_id: int) -> list[Event]:
        rows = self._db.execute(
            "SELECT at, kind, seq, detail FROM events WHERE game_id = ? ORDER BY id", (game_id,)
        ).fetchall()
        return [Event(at, kind, seq, json.loads(d) if d else None) for at, kind, seq, d in rows]

    def integrity(self) -> str:
        """``ok``, or what SQLite's integrity check found."""
        result: str = self._db.execute("PRAGMA integrity_check").fetchone()[0]
        return result
