"""The journal: every game and every declared move, in one SQLite file.

Each move is committed (WAL, ``synchronous=FULL``) before the app shows it as done, so a
companion unplugged mid-game loses nothing it acknowledged. Undo and redo are journaled
too. A damaged or foreign file is never overwritten: the writer (the app) sets it aside
under a new name and starts a fresh journal, with a notice for the table; a reader says
what is wrong and leaves it where it is.

One writer at a time: a :class:`Store` holds an exclusive lock (``flock``) on
``games.sqlite3.lock`` beside the journal, and on the journal file itself (so that a
deleted lock file lets no second writer in), for as long as it is open; a second one is
refused (``store-busy``, naming the process that holds it) and changes nothing. A reader
(``Store(path, reader=True)``: the command line's ``games``, ``export``, ``stats``) that
finds the journal in use, its folder read-only or its disk full reads it without changing
anything, games still in the WAL file included. And a move is journaled only under the
number the session expected (``out-of-step`` otherwise).

One damaged game never hides the others: a game whose row no longer reads (its players,
setup, a move not JSON) is listed with its :attr:`GameInfo.problem`, and :meth:`Store.record`
refuses it (``unreadable-game``); it stays in the file as it is.

>>> import tempfile, pathlib
>>> from companion.engine.simulate import simulate
>>> store = Store(pathlib.Path(tempfile.mkdtemp()) / "games.sqlite3")
>>> game = simulate(players=2, seed=1, max_moves=3)
>>> game_id = store.create_game(game.setup)
>>> for move in game.moves:
...     _ = store.append_move(game_id, move, GameState.of(game))
>>> [str(m) for m in store.moves(game_id)] == [str(m) for m in game.moves]
True
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import shutil
import sqlite3
import stat
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..engine.game import Game
from ..engine.moves import Move
from ..engine.setup import Setup
from ..errors import ErrorCode, RecordError
from ..errors import StoreError as StoreError  # where callers have always found it
from ..files import NotAFile, check_file
from ..i18n import N_, Later, os_reason, translate
from ..records.record import (
    Record,
    document,
    fingerprint,
    move_document,
    read_document,
    read_move,
)
from ..text import check_name
from ..version import __version__
from .seats import companion_levels

APPLICATION_ID = 0x53504C44  # "SPLD": marks a file as ours, so a foreign one is recognised
SCHEMA_VERSION = 6

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
    # A game's review (companion/coach/review.py), kept once computed: one a game and review
    # version, with the fingerprint of the moves it judged (an undo makes it stale).
    """
    CREATE TABLE reviews (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        record TEXT NOT NULL,
        at TEXT NOT NULL,
        review TEXT NOT NULL,
        PRIMARY KEY (game_id, version)
    );
    """,
    # The club's outbox (docs/club.md): each finished game waits here until the club has
    # it; queued in the transaction that finishes the game, removed once the club has
    # committed it. A kiosk without a club keeps a row a finished game, never read.
    """
    CREATE TABLE outbox (
        game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        queued_at TEXT NOT NULL,
        tries INTEGER NOT NULL DEFAULT 0,
        last_error TEXT
    );
    """,
    # A club's journal holds thousands of games: the list's order, and the game being
    # played, are found through an index rather than by sorting every game.
    """
    CREATE INDEX games_by_start ON games(started_at, id);
    CREATE INDEX games_by_state ON games(state, updated_at, id);
    """,
)


FULL_BELOW = 1 << 20
"""Free bytes under which SQLite's I/O errors are taken for a full disk."""


def _full(err: sqlite3.Error, folder: Path) -> bool:
    """A full disk, however SQLite says it: ``SQLITE_FULL``, or an I/O error (it cannot
    grow its shared-memory file on a full tmpfs) on a disk with next to no room left."""
    name = getattr(err, "sqlite_errorname", "")
    if name == "SQLITE_FULL":
        return True
    if not name.startswith("SQLITE_IOERR"):
        return False
    try:
        found = os.statvfs(folder)
    except OSError:
        return False
    return found.f_bavail * found.f_frsize < FULL_BELOW


def _reason(err: sqlite3.Error, folder: Path) -> object:
    """Why SQLite failed, for a person: a full disk said as one."""
    return Later(N_("the disk is full")) if _full(err, folder) else err


def _damaged(err: sqlite3.Error) -> bool:
    return getattr(err, "sqlite_errorname", "") in ("SQLITE_CORRUPT", "SQLITE_NOTADB")


def _names(text: object) -> tuple[str, ...] | None:
    """A row's list of names (players, winners), or ``None`` when it is damaged."""
    try:
        names = json.loads(text) if isinstance(text, str) else None
    except ValueError:
        return None
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        return None
    return tuple(names)


def _unreadable(game_id: int, why: object) -> StoreError:
    return StoreError(
        "game {id} in the journal cannot be read: {reason}",
        code=ErrorCode.UNREADABLE_GAME,
        id=game_id,
        reason=why,
    )


def _unreadable_move(game_id: int, seq: int, why: object) -> StoreError:
    return StoreError(
        "game {id} has an unreadable move {seq} in the journal: {reason}",
        code=ErrorCode.UNREADABLE_GAME,
        id=game_id,
        seq=seq,
        reason=why,
    )


JOURNAL_STATES: dict[str, str] = {
    ErrorCode.NEWER_JOURNAL: N_(
        "The games journal was written by a newer Splendor Companion: update this one."
    ),
    ErrorCode.OLDER_JOURNAL: N_(
        "The games journal is from an older Splendor Companion: the app updates it when it "
        "next starts."
    ),
    ErrorCode.DAMAGED_JOURNAL: N_(
        "The games journal is damaged: the app keeps it aside and starts a new one when it "
        "next starts."
    ),
    ErrorCode.FOREIGN_JOURNAL: N_("The games journal is not a Splendor Companion journal."),
}
"""The journal's states a reader cannot read, each in one sentence with no path in it
(the web page says them; the app's and the commands' messages say the same with the
file's place): missing reads as a journal with no games, being created too."""


def journal_state(err: StoreError) -> str | None:
    """The sentence of :data:`JOURNAL_STATES` for ``err``, in the current language, or
    ``None`` when ``err`` is not about the journal's state (a full disk, a lock...)."""
    found = JOURNAL_STATES.get(str(err.code))
    return None if found is None else translate(found)


def _state(code: ErrorCode) -> Later:
    return Later(JOURNAL_STATES[code])


def schema_problem(path: Path, version: int, read_only: bool = True) -> StoreError | None:
    """What a journal of schema ``version`` is to this companion, in the one set of words
    the app, the commands and the web page say (:data:`JOURNAL_STATES`): ``None`` when it
    is current (or older, for the writer, which updates it); newer (this companion cannot
    read it: update it), older (the app updates it when it next starts)."""
    if version > SCHEMA_VERSION:
        code = ErrorCode.NEWER_JOURNAL
    elif version < SCHEMA_VERSION and read_only:
        code = ErrorCode.OLDER_JOURNAL
    else:
        return None
    return StoreError(
        "{state} ({path}: schema {found}, this one reads {known})",
        code=code,
        path=str(path),
        found=version,
        known=SCHEMA_VERSION,
        state=_state(code),
    )


def system_clock() -> datetime:
    return datetime.now(UTC)


def now(clock: Callable[[], datetime] = system_clock) -> str:
    """The current time, UTC, ISO 8601 to the second: ``2026-11-21T20:15:00Z``."""
    return clock().astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _levels(seats: str | None, players: int) -> tuple[str | None, ...]:
    """Each seat's level from the record's ``app.seats`` as the journal holds it (JSON)."""
    try:
        found = json.loads(seats) if seats else None
    except ValueError:
        found = None
    return companion_levels({"app": {"seats": found}}, players)


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
        return cls(game.status.value, tuple(game.winners()))


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
    problem: StoreError | None = None
    """Why the game cannot be read (its row damaged), or ``None``. Such a game is listed,
    kept as it is, and left out of exports and statistics."""
    undated: bool = False
    """Imported from a record that gives no start time: ``started_at`` is then the time
    of the import, to be shown as such (never as the game's start)."""
    levels: tuple[str | None, ...] = ()
    """The companion's level at each seat (``None``: a person), as its record says."""

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

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        reader: bool = False,
        clock: Callable[[], datetime] = system_clock,
    ) -> None:
        """Open the journal to write (locked), or with ``reader`` to read it even while
        another companion writes it, its folder is read-only or its disk full (then nothing
        is changed). ``clock``: what time it is, for the journal's entries (a test sets its
        own)."""
        self.path = Path(path)
        self.clock = clock
        """What time it is, for the journal's entries: a test sets a clock of its own."""
        self.notices: list[str] = []
        """Things the table should be told, like a damaged file that was set aside."""
        self.read_only = False
        """True when this store only reads (a reader that found the journal busy)."""
        self.saved = True
        """False for :meth:`unsaved`: a journal in memory, gone when the app closes."""
        self._lock: int | None = None
        self._journal_lock: int | None = None
        self._copy: Path | None = None  # a private copy read in place of the journal
        try:
            self._db = self._open(reader)
        except BaseException:
            self._unlock()
            self._drop_copy()
            raise

    @classmethod
    def unsaved(
        cls, path: str | os.PathLike[str], clock: Callable[[], datetime] = system_clock
    ) -> Store:
        """A journal in memory only, for when no file at all can be had (the data folder
        and the temporary folder both unusable): the table plays on, and is told its games
        are not kept. ``path``: the journal that could not be opened, for messages."""
        store = cls.__new__(cls)
        store.path, store.clock, store.notices = Path(path), clock, []
        store.read_only, store.saved = False, False
        store._lock = store._journal_lock = None
        store._copy = None
        store._db = sqlite3.connect(":memory:", isolation_level=None)
        store._migrate(store._db)
        return store

    @classmethod
    def reading_only(
        cls,
        path: str | os.PathLike[str],
        clock: Callable[[], datetime] = system_clock,
        *,
        check: bool = True,
    ) -> Store:
        """The journal opened only to read (SQLite's ``mode=ro``), whoever writes it: no
        lock taken, no file created, no migration, no set-aside, even when no app runs.
        For a reader that must never be a second writer (the web page, ``web.journal``).
        A journal that does not exist yet reads as one without games. Without a ``-wal``
        file beside it (no writer has it open) it is read as it lies (``immutable``), so
        that SQLite adds no file beside it either: open it again once a ``-wal`` appears.
        ``check``: whether the whole file is checked (``quick_check``: a second or more
        for a club's journal); a reader opening again a file it checked need not."""
        store = cls.__new__(cls)
        store.path, store.clock, store.notices = Path(path), clock, []
        store.read_only, store.saved = True, True
        store._lock = store._journal_lock = None
        store._copy = None
        try:
            store._db = store._open_reading(immutable=not store._wal.exists(), check=check)
        except BaseException:
            store._drop_copy()
            raise
        return store

    def data_version(self) -> int:
        """SQLite's ``PRAGMA data_version``: it changes when another connection (the app)
        commits to the journal. One cheap query, for a reader that follows the game."""
        version: int = self._db.execute("PRAGMA data_version").fetchone()[0]
        return version

    @property
    def durability(self) -> tuple[str, str]:
        """How this connection keeps what it writes: SQLite's journal mode and sync level,
        ``("wal", "full")`` for the app's journal (a move is on the disk before the table
        shows it). For a maintenance tool, or a doubt about a journal's settings."""
        mode: str = self._db.execute("PRAGMA journal_mode").fetchone()[0]
        level: int = self._db.execute("PRAGMA synchronous").fetchone()[0]
        return mode, ("off", "normal", "full", "extra")[level]

    # ------------------------------------------------------------------ opening

    @property
    def lock_path(self) -> Path:
        return self.path.with_name(self.path.name + ".lock")

    def _lock_file(self) -> int:
        """The lock file beside the journal, opened (created when absent)."""
        try:
            flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC
            return os.open(self.lock_path, flags, 0o644)
        except PermissionError:
            if not self.lock_path.exists():
                raise
            # Left by another user (an administrator's command): a lock needs no writing.
            return os.open(self.lock_path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)

    def _check_files(self) -> None:
        """The journal's files are files: SQLite and the lock would write through a link
        (creating its target, or writing over what it points at)."""
        for name in ("", "-wal", "-shm", ".lock"):
            try:
                check_file(self.path.with_name(self.path.name + name))
            except NotAFile as err:
                raise StoreError(
                    "cannot use the games journal {path}: {reason}",
                    code=ErrorCode.NOT_A_FILE,
                    path=str(err.path),
                    reason=str(err),
                ) from None

    def _take_lock(self) -> None:
        """The one-writer lock, held until :meth:`close`. ``StoreError`` when another
        companion holds it or the folder cannot be written."""
        try:
            fd = self._lock_file()
        except OSError as err:
            if err.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
                raise StoreError(
                    "the games folder {folder} is read-only ({reason}): games cannot be "
                    "saved there, and nothing was changed. Make it writable (or remount "
                    "the card read-write), then start again.",
                    code=ErrorCode.READ_ONLY,
                    folder=str(self.path.parent),
                    reason=err.strerror or str(err),
                ) from None
            raise StoreError(
                "cannot use the games journal {path}: {reason}",
                path=str(self.path),
                reason=os_reason(err),
            ) from None
        self._lock = fd
        self._flock(fd)
        # The journal itself too: a lock file deleted while the app runs (by hand, by a
        # cleaner) would otherwise let a second writer take a new one.
        self._journal_lock = self._journal_file()
        if self._journal_lock is not None:
            self._flock(self._journal_lock)
        # Who holds it, for the message of the one refused (not when opened read-only).
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)

    def _journal_file(self) -> int | None:
        """The journal file opened to be locked (created empty when absent, as SQLite
        would), or ``None`` when it is no regular file: SQLite then says what it is."""
        try:
            # Non-blocking: a FIFO in the journal's place must not hang the app.
            flags = os.O_RDONLY | os.O_CREAT | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC
            fd = os.open(self.path, flags, 0o644)
        except OSError:
            return None
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            return None
        return fd

    def _flock(self, fd: int) -> None:
        """An exclusive ``flock`` on ``fd``; ``store-busy`` (all locks let go) when another
        companion holds it."""
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = self._holder(fd)
            self._unlock()
            if holder is None:
                raise StoreError(
                    "the games journal {path} is in use by another Splendor Companion: "
                    "close it first. Nothing was changed.",
                    code=ErrorCode.STORE_BUSY,
                    path=str(self.path),
                ) from None
            raise StoreError(
                "the games journal {path} is in use by another Splendor Companion "
                "(process {pid}): close it first. Nothing was changed.",
                code=ErrorCode.STORE_BUSY,
                path=str(self.path),
                pid=holder,
            ) from None

    def _holder(self, fd: int) -> str | None:
        """The process holding the lock on ``fd``: the system's table of locks says it
        (a lock file emptied or deleted says nothing), else the number in the lock file."""
        found = os.fstat(fd)
        inode = f"{os.major(found.st_dev):02x}:{os.minor(found.st_dev):02x}:{found.st_ino}"
        with contextlib.suppress(OSError):
            for line in Path("/proc/locks").read_text().splitlines():
                parts = line.split()
                # "1: FLOCK  ADVISORY  WRITE 8786 fe:00:2146825 0 EOF"
                if len(parts) > 5 and parts[1] == "FLOCK" and parts[5] == inode:
                    return parts[4] if parts[4].isdigit() and parts[4] != "0" else None
        if self._lock is not None:
            with contextlib.suppress(OSError):
                text = os.pread(self._lock, 32, 0).decode("ascii", "replace").strip()
                if text.isdigit():
                    return text
        return None

    def _unlock(self) -> None:
        # Closing a descriptor releases its lock.
        for fd in (self._journal_lock, self._lock):
            if fd is not None:
                os.close(fd)
        self._lock = self._journal_lock = None

    def _make_folder(self) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except (OSError, ValueError) as err:  # ValueError: a NUL in the path
            raise StoreError(
                "cannot create the folder {folder}: {reason}",
                folder=str(self.path.parent),
                reason=os_reason(err),
            ) from None

    def _open(self, reader: bool) -> sqlite3.Connection:
        try:
            self._make_folder()
        except StoreError:
            if reader and self.path.parent.is_dir():
                return self._open_reading()
            raise
        try:
            self._check_files()
            self._take_lock()
        except StoreError as err:
            if reader and err.code != ErrorCode.NOT_A_FILE:
                # In use, read-only, no room for a lock file: read, changing nothing.
                return self._open_reading()
            raise
        try:
            problem = self._check_existing()
        except StoreError:
            if reader:
                self._unlock()
                return self._open_reading()
            raise
        if problem is not None:
            if reader:
                # Only the writer moves a journal aside: a reader says so and leaves it.
                self._unlock()
                raise self._refusal(problem)
            try:
                self._set_aside(problem)
            except OSError as err:
                raise StoreError(
                    "cannot open the games journal {path}: {reason}",
                    path=str(self.path),
                    reason=os_reason(err),
                ) from None
            # The lock on the journal went with the file set aside: take the new one's.
            if self._journal_lock is not None:
                os.close(self._journal_lock)
                self._journal_lock = self._journal_file()
                if self._journal_lock is not None:
                    self._flock(self._journal_lock)
        try:
            db = self._connect()
        except sqlite3.DatabaseError as err:
            if reader:
                self._unlock()
                return self._open_reading()
            raise self._open_failed(err) from None
        try:
            self._migrate(db)
        except BaseException as err:
            db.close()
            if reader and isinstance(err, sqlite3.DatabaseError):
                self._unlock()
                return self._open_reading()
            if isinstance(err, sqlite3.DatabaseError):
                raise self._open_failed(err) from None
            raise
        if reader:
            # Kept up to date, the journal is read without holding the lock: an app that
            # starts meanwhile gets its journal.
            self._unlock()
            self.read_only = True
        return db

    def _open_failed(self, err: sqlite3.Error) -> StoreError:
        if _full(err, self.path.parent):
            return StoreError(
                "cannot open the games journal {path}: the disk is full. Nothing was "
                "changed; free some space on it (or export the games to a stick and delete "
                "old files), then start again.",
                code=ErrorCode.DISK_FULL,
                path=str(self.path),
            )
        return StoreError(
            "cannot open the games journal {path}: {reason}", path=str(self.path), reason=err
        )

    def _refusal(self, problem: str) -> StoreError:
        """What a reader says of a journal it will not touch: the state's sentence (the
        page's, :data:`JOURNAL_STATES`), then the file and what to do."""
        if problem == "damaged":
            return StoreError(
                "{state} Nothing was read from {path}, and it was left as it is: keep a "
                "copy of it (sqlite3's .recover may save its games).",
                code=ErrorCode.DAMAGED_JOURNAL,
                path=str(self.path),
                state=_state(ErrorCode.DAMAGED_JOURNAL),
            )
        return StoreError(
            "{state} Nothing was read from {path}, and it was left as it is: check "
            "--data-dir, or move the file away.",
            code=ErrorCode.FOREIGN_JOURNAL,
            path=str(self.path),
            state=_state(ErrorCode.FOREIGN_JOURNAL),
        )

    def _uri(self, **options: str) -> str:
        """The journal's SQLite URI: the path percent-encoded (a ``%41``, ``#`` or ``?`` in
        a folder name is part of the name, not of the URI), then the options."""
        query = "&".join(f"{k}={v}" for k, v in options.items())
        return f"{self.path.absolute().as_uri()}?{query}"

    def _open_reading(self, immutable: bool = False, check: bool = True) -> sqlite3.Connection:
        """The journal read-only, changing nothing: no lock, no set-aside, no migration
        (``immutable``: as it lies, when no writer can have it open)."""
        self.read_only = True
        if not self.path.exists():
            db = sqlite3.connect(":memory:", isolation_level=None)
            self._migrate(db)  # an empty journal: no games
            return db
        options = {"mode": "ro", "immutable": "1"} if immutable else {"mode": "ro"}
        try:
            db = sqlite3.connect(self._uri(**options), uri=True, isolation_level=None)
            try:
                version = db.execute("PRAGMA user_version").fetchone()[0]
            except sqlite3.OperationalError:
                # A WAL journal whose ``-shm`` cannot be made (a folder no one may write,
                # a full disk) and no writer open: nothing can change it meanwhile.
                db.close()
                db = self._read_as_it_lies()
                version = db.execute("PRAGMA user_version").fetchone()[0]
            found = db.execute("PRAGMA quick_check").fetchone()[0] if check else "ok"
        except sqlite3.DatabaseError as err:
            if _damaged(err):
                raise self._refusal("damaged") from None
            raise StoreError(
                "cannot read the games journal {path}: {reason}",
                path=str(self.path),
                reason=_reason(err, self.path.parent),
            ) from None
        if found != "ok":
            db.close()
            raise self._refusal("damaged")
        if version == 0:
            app_id = db.execute("PRAGMA application_id").fetchone()[0]
            tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
            db.close()
            if app_id != 0 or tables > 0:
                raise self._refusal("foreign")
            # Being created (the app's first start, this instant: its tables come in one
            # transaction): no games yet; the file, once changed, is opened again.
            db = sqlite3.connect(":memory:", isolation_level=None)
            self._migrate(db)
            return db
        problem = self._schema_problem(version)
        if problem is not None:
            db.close()
            raise problem
        return db

    def _schema_problem(self, version: int) -> StoreError | None:
        return schema_problem(self.path, version, self.read_only)

    @property
    def _wal(self) -> Path:
        return self.path.with_name(self.path.name + "-wal")

    def _read_as_it_lies(self) -> sqlite3.Connection:
        """The journal as it lies, read where its ``-shm`` cannot be made. Games committed
        but still in the WAL file count: read ``immutable``, SQLite would not see them, so
        then a private copy of both files is read instead."""
        try:
            pending = self._wal.stat().st_size > 0
        except FileNotFoundError:
            pending = False
        if not pending:
            return sqlite3.connect(
                self._uri(mode="ro", immutable="1"), uri=True, isolation_level=None
            )
        try:
            self._copy = Path(tempfile.mkdtemp(prefix="splendor-read-"))
            shutil.copyfile(self.path, self._copy / self.path.name)
            shutil.copyfile(self._wal, self._copy / self._wal.name)
        except OSError as err:
            self._drop_copy()
            raise StoreError(
                "the games journal {path} holds games still in {wal}, which can be read "
                "only where a file can be added beside it, and no copy could be made "
                "({reason}). Nothing was changed: make the folder writable or free some "
                "space, or copy the journal and its -wal file to another folder and give "
                "that folder with --data-dir.",
                code=ErrorCode.READ_ONLY,
                path=str(self.path),
                wal=self._wal.name,
                reason=os_reason(err),
            ) from None
        # The copy is ours: SQLite reads its WAL as a writer would, and the journal is
        # not touched.
        return sqlite3.connect(self._copy / self.path.name, isolation_level=None)

    def _drop_copy(self) -> None:
        if self._copy is not None:
            shutil.rmtree(self._copy, ignore_errors=True)
            self._copy = None

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, isolation_level=None, timeout=5.0)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
        except BaseException:
            db.close()
            raise
        return db

    def _check_existing(self) -> str | None:
        """``None`` when the file is ours (or absent), else why it cannot be used."""
        if not self.path.exists() or self.path.stat().st_size == 0:
            return None
        try:
            db = sqlite3.connect(self._uri(mode="ro"), uri=True)
            try:
                app_id = db.execute("PRAGMA application_id").fetchone()[0]
                tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
                check = db.execute("PRAGMA quick_check").fetchone()[0]
            finally:
                db.close()
        except sqlite3.OperationalError as err:
            # Cannot be opened (a folder or a file we may not write, a full disk): that is
            # not damage, and nothing is set aside for it.
            raise self._open_failed(err) from None
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
            problem = self._schema_problem(version)
            assert problem is not None
            raise problem
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
                # A full disk rolls the transaction back by itself: a ROLLBACK then
                # would only hide why ("cannot rollback - no transaction is active").
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise

    def close(self) -> None:
        self._db.close()
        self._unlock()
        self._drop_copy()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ writing

    @contextmanager
    def _transaction(self, doing: str) -> Iterator[sqlite3.Connection]:
        db = self._db
        if self.read_only:
            raise StoreError(
                "cannot save {doing}: the games journal {path} is open read-only (another "
                "Splendor Companion is using it, or its folder is read-only). Nothing was "
                "changed.",
                code=ErrorCode.READ_ONLY,
                doing=translate(doing),
                path=str(self.path),
            )
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
                code=ErrorCode.DISK_FULL
                if _full(err, self.path.parent)
                else ErrorCode.STORE_FAILED,
                doing=translate(doing),
                path=str(self.path),
                reason=_reason(err, self.path.parent),
            ) from None

    def create_game(
        self, setup: Setup, extra: dict[str, Any] | None = None, started_at: str | None = None
    ) -> int:
        """A new game in the journal; returns its id."""
        at = started_at or now(self.clock)
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
            (
                at,
                at,
                json.dumps(list(record.players), allow_nan=False),
                json.dumps(head, allow_nan=False),
            ),
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
                json.dumps(list(state.winners), allow_nan=False),
                at if state.state != "playing" else None,
                game_id,
            ),
        )
        if state.state != "playing":
            # Finished: it waits for the club (an undo then a new end keeps its one row).
            db.execute(
                "INSERT OR IGNORE INTO outbox (game_id, queued_at) VALUES (?, ?)", (game_id, at)
            )

    @staticmethod
    def _out_of_step(game_id: int, expected: int, found: int) -> StoreError:
        return StoreError(
            "game {id} was changed elsewhere: this table is at move {expected}, the journal "
            "at move {found}. Nothing was saved; open the game again to see it as journaled.",
            code=ErrorCode.OUT_OF_STEP,
            id=game_id,
            expected=expected,
            found=found,
        )

    def append_move(
        self, game_id: int, move: Move, state: GameState, number: int | None = None
    ) -> int:
        """Journal a move (forgetting any undone ones); returns its 1-based number.

        ``number``: the number the session gives the move; when the journal's next number
        is another one (someone else wrote the game), ``StoreError`` and nothing is saved.
        """
        at = now(self.clock)
        with self._transaction("the move") as db:
            (seq,) = db.execute(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM moves WHERE game_id = ? AND active = 1",
                (game_id,),
            ).fetchone()
            if number is not None and number != seq:
                raise self._out_of_step(game_id, number, seq)
            db.execute("DELETE FROM moves WHERE game_id = ? AND active = 0", (game_id,))
            db.execute(
                "INSERT INTO moves (game_id, seq, move) VALUES (?, ?, ?)",
                (game_id, seq, json.dumps(move_document(move), allow_nan=False)),
            )
            db.execute(
                "INSERT INTO events (game_id, at, kind, seq) VALUES (?, ?, 'move', ?)",
                (game_id, at, seq),
            )
            self._set_state(db, game_id, at, state)
        result: int = seq
        return result

    def undo(self, game_id: int, state: GameState, number: int | None = None) -> None:
        """Mark the last move undone (it can be redone until a new move is journaled).
        ``number``: the move the session takes back (checked as for :meth:`append_move`)."""
        self._switch(game_id, state, "undo", number)

    def redo(self, game_id: int, state: GameState, number: int | None = None) -> None:
        """Bring back the first undone move (``number``: the one the session expects)."""
        self._switch(game_id, state, "redo", number)

    def _switch(self, game_id: int, state: GameState, kind: str, number: int | None) -> None:
        # An undo deactivates the last move in play; a redo reactivates the first undone.
        pick, active, now_active = ("MAX", 1, 0) if kind == "undo" else ("MIN", 0, 1)
        at = now(self.clock)
        with self._transaction("the undo" if kind == "undo" else "the redo") as db:
            (seq,) = db.execute(
                f"SELECT {pick}(seq) FROM moves WHERE game_id = ? AND active = ?",
                (game_id, active),
            ).fetchone()
            if seq is None:
                if kind == "undo":
                    raise StoreError("there is no move to undo")
                raise StoreError("there is no undone move to redo")
            if number is not None and number != seq:
                raise self._out_of_step(game_id, number, seq)
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
                (game_id, now(self.clock), kind, json.dumps(detail, allow_nan=False)),
            )

    def same_game(self, record: Record) -> int | None:
        """The stored game that ``record`` is, if any: same players in the same order, same
        nobles and face-up cards, same moves in play. Times, the writer and annotations do
        not count: a game exported and imported again is the same game."""
        doc = document(record)
        moves = doc["moves"]
        rows = self._db.execute(
            "SELECT id, record FROM games WHERE players = ? ORDER BY id",
            (json.dumps(list(record.players)),),
        ).fetchall()
        for game_id, head in rows:
            # A damaged game is not this one (and stays as it is).
            with contextlib.suppress(ValueError, TypeError, AttributeError):
                stored_head = json.loads(head)
                if stored_head.get("setup") != doc["setup"]:
                    continue
                if stored_head.get("rules") != doc.get("rules"):
                    continue  # the same table under other rules is another game
                stored = self._db.execute(
                    "SELECT move FROM moves WHERE game_id = ? AND active = 1 ORDER BY seq",
                    (game_id,),
                ).fetchall()
                same = [json.loads(m) for (m,) in stored] == moves
                if same:
                    found: int = game_id
                    return found
        return None

    def import_record(self, record: Record, state: GameState) -> int:
        """Store a whole record (already checked by replay) as a game; returns its id.

        A game already stored (see :meth:`same_game`) is refused: ``StoreError`` with the
        code ``already-stored`` and its number in ``params["id"]``."""
        at = record.extra.get("started_at") or now(self.clock)
        with self._transaction("the imported game") as db:
            known = self.same_game(record)
            if known is not None:
                raise StoreError(
                    "this game is already stored, as game {id}",
                    code=ErrorCode.ALREADY_STORED,
                    id=known,
                )
            game_id = self._insert_game(db, record, at)
            db.executemany(
                "INSERT INTO moves (game_id, seq, move) VALUES (?, ?, ?)",
                [
                    (game_id, i, json.dumps(move_document(m), allow_nan=False))
                    for i, m in enumerate(record.moves, start=1)
                ],
            )
            db.execute(
                "INSERT INTO events (game_id, at, kind, detail) VALUES (?, ?, 'import', ?)",
                (
                    game_id,
                    now(self.clock),
                    json.dumps({"moves": len(record.moves)}, allow_nan=False),
                ),
            )
            self._set_state(db, game_id, record.extra.get("ended_at") or at, state)
        return game_id

    def merge_name(self, name: str, person: str) -> None:
        """From now on ``name`` counts as ``person`` in the statistics (see :meth:`unmerge_name`).

        Refused when it would make a person play against themselves, or go round in a circle.
        """
        check_name(name)
        check_name(person)
        people = self.aliases()
        target = resolve(people, person)
        if resolve(people, name) == target:
            raise StoreError("{name} is already counted as {person}", name=name, person=target)
        people[name] = target
        for info in self.games():
            persons = [resolve(people, p) for p in info.players]
            if len(set(persons)) < len(persons):
                # The companion's seat is nobody's: a person may share its name. A record
                # that cannot be read keeps the refusal (the names alone say they met).
                with contextlib.suppress(StoreError):
                    levels = companion_levels(self.record(info.id).extra, len(persons))
                    persons = [p for p, lv in zip(persons, levels, strict=True) if lv is None]
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
                (name, target, now(self.clock)),
            )

    def unmerge_name(self, name: str) -> None:
        """``name`` counts as itself again."""
        with self._transaction("the separation of two names") as db:
            db.execute("DELETE FROM aliases WHERE name = ?", (name,))

    def aliases(self) -> dict[str, str]:
        """Each merged spelling and the name it counts as."""
        rows = self._db.execute("SELECT name, person FROM aliases ORDER BY name").fetchall()
        return {name: person for name, person in rows}

    def save_review(self, game_id: int, review: dict[str, Any]) -> None:
        """Keep a game's review (:meth:`companion.coach.review.Review.document`): reopened,
        it is shown at once. One a game and version: a newer one replaces it."""
        self._row(game_id)  # the game is there
        text = json.dumps(review, allow_nan=False)
        with self._transaction("the game's review") as db:
            db.execute(
                "INSERT OR REPLACE INTO reviews (game_id, version, record, at, review) "
                "VALUES (?, ?, ?, ?, ?)",
                (game_id, review["version"], review["record"], now(self.clock), text),
            )

    def stored_review(self, game_id: int, version: int, record: str) -> dict[str, Any] | None:
        """The review kept for the game at ``version``, if it is of the moves whose
        fingerprint is ``record`` (none after an undo); ``None`` if none, or unreadable."""
        row = self._db.execute(
            "SELECT review FROM reviews WHERE game_id = ? AND version = ? AND record = ?",
            (game_id, version, record),
        ).fetchone()
        return None if row is None else self._review_document(row[0])

    @staticmethod
    def _review_document(text: str) -> dict[str, Any] | None:
        try:
            doc = json.loads(text)
        except ValueError:
            return None  # a damaged row is computed again, and replaced
        return doc if isinstance(doc, dict) else None

    def delete_game(self, game_id: int) -> None:
        with self._transaction("the deletion") as db:
            db.execute("DELETE FROM games WHERE id = ?", (game_id,))

    # ------------------------------------------------------------------ reading

    # A game's line, and what of its row still reads as JSON (SQLite's own check): a row
    # damaged inside a healthy file is found when listed, without replaying anything.
    _COLUMNS = (
        "id, started_at, updated_at, ended_at, players, state, winners, {record}, "
        "(SELECT count(*) FROM moves WHERE game_id = games.id AND active = 1), "
        "json_valid(record), "
        "(SELECT min(seq) FROM moves WHERE game_id = games.id AND NOT json_valid(move)), "
        "(SELECT count(*) FROM events WHERE game_id = games.id "
        "AND detail IS NOT NULL AND NOT json_valid(detail)), "
        # Imported from a record with no start time: the row's is the import's.
        "CASE WHEN json_valid(record) THEN json_type(record, '$.started_at') IS NULL "
        "AND EXISTS (SELECT 1 FROM events WHERE game_id = games.id AND kind = 'import') END, "
        "CASE WHEN json_valid(record) THEN json_extract(record, '$.app.seats') END"
    )

    def _row(self, game_id: int) -> tuple[Any, ...]:
        if not 0 < game_id < 2**63:  # SQLite's integers: anything else is no game of ours
            raise StoreError(
                "there is no game {id} in the journal", code=ErrorCode.NO_GAME, id=game_id
            )
        row = self._db.execute(
            f"SELECT {self._COLUMNS.format(record='record')} FROM games WHERE id = ?",
            (game_id,),
        ).fetchone()
        if row is None:
            raise StoreError(
                "there is no game {id} in the journal", code=ErrorCode.NO_GAME, id=game_id
            )
        return tuple(row)

    @staticmethod
    def _info(row: tuple[Any, ...]) -> GameInfo:
        players, winners = _names(row[4]), _names(row[6])
        why = None
        if players is None:
            why = N_("its list of players is damaged")
        elif winners is None:
            why = N_("its list of winners is damaged")
        elif not row[9]:
            why = N_("its setup is damaged")
        elif row[11]:
            why = N_("an entry of its log is damaged")
        problem = None if why is None else _unreadable(row[0], Later(why))
        if row[10] is not None:
            problem = _unreadable_move(row[0], row[10], Later(N_("it is not JSON")))
        return GameInfo(
            id=row[0],
            started_at=str(row[1]),
            updated_at=str(row[2]),
            ended_at=None if row[3] is None else str(row[3]),
            players=players or (),
            state=str(row[5]),
            winners=winners or (),
            moves=row[8],
            problem=problem,
            undated=bool(row[12]),
            levels=_levels(row[13], len(players or ())),
        )

    def info(self, game_id: int) -> GameInfo:
        return self._info(self._row(game_id))

    def games(self, limit: int | None = None, offset: int = 0) -> list[GameInfo]:
        """Every game, the most recent first; a damaged one too, with its ``problem``.
        ``limit`` and ``offset``: a page of them (a club's journal holds thousands): the
        lines are made for that page's games only."""
        page = "" if limit is None else f" LIMIT {int(limit)} OFFSET {int(offset)}"
        rows = self._db.execute(
            f"SELECT {self._COLUMNS.format(record='NULL')} FROM games WHERE id IN "
            f"(SELECT id FROM games ORDER BY started_at DESC, id DESC{page}) "
            "ORDER BY started_at DESC, id DESC"
        ).fetchall()
        return [self._info(tuple(r)) for r in rows]

    def count_games(self) -> int:
        count: int = self._db.execute("SELECT count(*) FROM games").fetchone()[0]
        return count

    def latest_readable(self) -> GameInfo | None:
        """The most recent game that can be read (:meth:`games`' first such line), found
        without making a line for every game: newest first, one row at a time."""
        rows = self._db.execute("SELECT id FROM games ORDER BY started_at DESC, id DESC")
        for (game_id,) in rows:
            info = self.info(game_id)
            if info.problem is None:
                return info
        return None

    def latest_unfinished(self) -> GameInfo | None:
        """The game to offer to resume: the last one touched that is still being played
        (and can be read: a damaged one is listed with the others, not offered)."""
        rows = self._db.execute(
            "SELECT id FROM games WHERE state = 'playing' ORDER BY updated_at DESC, id DESC"
        )
        for (game_id,) in rows.fetchall():
            info = self.info(game_id)
            if info.problem is None:
                return info
        return None

    def _moves(self, game_id: int, active: int) -> list[Move]:
        rows = self._db.execute(
            "SELECT seq, move FROM moves WHERE game_id = ? AND active = ? ORDER BY seq",
            (game_id, active),
        ).fetchall()
        moves = []
        for seq, text in rows:
            try:
                moves.append(read_move(json.loads(text), f"moves[{seq - 1}]"))
            except (ValueError, TypeError, RecordError) as err:
                raise _unreadable_move(game_id, seq, err) from None
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
        problem = self._info(row).problem
        if problem is not None:
            raise problem
        head = json.loads(row[7])
        if not isinstance(head, dict):
            raise _unreadable(game_id, Later(N_("its setup is damaged")))
        head["moves"] = []
        try:
            record = read_document(head)
        except RecordError as err:
            # Written by an older companion that let it in (a name no one can type, say).
            raise StoreError(
                "game {id} in the journal cannot be read: {reason}",
                code=ErrorCode.UNREADABLE_GAME,
                id=game_id,
                reason=err.message,
            ) from None
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
            review = self._review_for(game_id, record)
            if review is not None:
                annotations["review"] = review
            record.extra["annotations"] = annotations
        return record

    def _review_for(self, game_id: int, record: Record) -> dict[str, Any] | None:
        """The newest review stored for exactly these moves, for the exports (a reader of
        the export takes only a review of a version it knows: :mod:`companion.coach.review`)."""
        row = self._db.execute(
            "SELECT review FROM reviews WHERE game_id = ? AND record = ? "
            "ORDER BY version DESC LIMIT 1",
            (game_id, fingerprint(record)),
        ).fetchone()
        return None if row is None else self._review_document(row[0])

    def _imported(self, game_id: int) -> bool:
        found = self._db.execute(
            "SELECT 1 FROM events WHERE game_id = ? AND kind = 'import' LIMIT 1", (game_id,)
        ).fetchone()
        return found is not None

    def events(self, game_id: int) -> list[Event]:
        rows = self._db.execute(
            "SELECT at, kind, seq, detail FROM events WHERE game_id = ? ORDER BY id", (game_id,)
        ).fetchall()
        events = []
        for at, kind, seq, text in rows:
            detail = json.loads(text) if text else None
            if detail is not None and not isinstance(detail, dict):
                raise _unreadable(game_id, Later(N_("an entry of its log is damaged")))
            events.append(Event(at, kind, seq, detail))
        return events

    def integrity(self) -> str:
        """``ok``, or what SQLite's integrity check found."""
        result: str = self._db.execute("PRAGMA integrity_check").fetchone()[0]
        return result
