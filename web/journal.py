"""The journal as the web page reads it: opened read-only, followed, reopened when needed.

:class:`Journal` never writes: it opens the app's SQLite file with ``mode=ro``
(:meth:`companion.journal.store.Store.reading_only`), takes no lock and creates no file. It notices
a move the app journals by SQLite's ``PRAGMA data_version`` (one cheap query), and opens
the file again when it changed under it (the app started a fresh journal, or the file
appeared after the server started). Whether the app is running is read from the
system's table of locks (``/proc/locks``): the app holds an exclusive ``flock`` on
``games.sqlite3.lock`` while it runs; probing that lock ourselves could make an app that
starts at that instant refuse its own journal.
"""

from __future__ import annotations

import contextlib
import os
import time
from dataclasses import dataclass
from pathlib import Path

from companion.journal.store import Store, StoreError

# A journal that cannot be read (damaged: checking it takes a second on a club's) is tried
# again when its file changes, or after this long (its folder's rights changed, say).
RETRY_SECONDS = 5.0


@dataclass(frozen=True, slots=True)
class _Signature:
    """What says the file under the open connection is still the same journal. Without a
    ``-wal`` beside it the journal is read as it lies (``immutable``: SQLite adds no file),
    so then any change of the file itself (a command that imported, finished or reviewed
    a game and closed, which folds its WAL back into the file) is a reason to open it
    again; with one, SQLite's ``data_version`` says every commit."""

    inode: int | None
    wal: bool
    stamp: tuple[int, int] | None  # the file's (mtime_ns, size) while no -wal is beside it


def _signature(path: Path) -> _Signature:
    wal = path.with_name(path.name + "-wal").exists()
    try:
        found = path.stat()
    except OSError:
        return _Signature(None, wal, None)
    return _Signature(found.st_ino, wal, None if wal else (found.st_mtime_ns, found.st_size))


def writer_running(path: Path, locks: Path = Path("/proc/locks")) -> bool | None:
    """Whether a companion holds the journal's writer lock (``None``: cannot tell).

    Read from the system's table of locks, without taking any lock ourselves."""
    lock = path.with_name(path.name + ".lock")
    try:
        found = lock.stat()
    except FileNotFoundError:
        return False
    except OSError:
        return None
    inode = f"{os.major(found.st_dev):02x}:{os.minor(found.st_dev):02x}:{found.st_ino}"
    try:
        table = locks.read_text()
    except OSError:
        return None
    for line in table.splitlines():
        parts = line.split()
        # "1: FLOCK  ADVISORY  WRITE 8786 fe:00:2146825 0 EOF"
        if len(parts) > 5 and parts[1] == "FLOCK" and parts[5] == inode:
            return True
    return False


class Journal:
    """The app's journal, read-only; :meth:`store` is the connection to read it with."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._store: Store | None = None
        self._signature: _Signature | None = None
        self._version: tuple[_Signature, int] | None = None
        self._checked: int | None = None  # the inode of the file last checked whole
        self._failed: _Signature | None = None  # the file as it was when it could not be read
        self._failed_at = 0.0
        self.problem: StoreError | None = None
        """Why the journal cannot be read now (damaged, foreign, newer), or ``None``."""

    def store(self) -> Store | None:
        """The open journal (opened again if the file changed); ``None`` with
        :attr:`problem` set when it cannot be read."""
        now = _signature(self.path)
        if self._store is not None and now != self._signature:
            self.close()
        if (
            self._store is None
            and self.problem is not None
            and now == self._failed
            and time.monotonic() - self._failed_at < RETRY_SECONDS
        ):
            return None  # the same file as when it could not be read: not read again yet
        if self._store is None:
            # The whole file checked once per file (a new inode): a commit of a command
            # changes the file's time, and checking a club's journal again at each would
            # hold every phone for a second (this runs on the server's event loop).
            check = now.inode is None or now.inode != self._checked
            try:
                self._store = Store.reading_only(self.path, check=check)
            except StoreError as err:
                self.problem, self._failed, self._failed_at = err, now, time.monotonic()
                return None
            self.problem, self._failed = None, None
            self._signature = now
            self._checked = now.inode
        return self._store

    def version(self) -> tuple[object, ...]:
        """Changes whenever the journal does: a move, an undo, a new game, a new file."""
        store = self.store()
        if store is None:
            return ("problem", str(self.problem))
        try:
            return (self._signature, store.data_version())
        except Exception:  # a file swapped under a connection: read it again next time
            self.close()
            return ("reopen",)

    def running(self) -> bool | None:
        return writer_running(self.path)

    def close(self) -> None:
        if self._store is not None:
            with contextlib.suppress(Exception):
                self._store.close()
        self._store = None
        self._signature = None
