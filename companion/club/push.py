"""The push: the journal's outbox sent to the club, apart from the table.

Each waiting game is inserted in a transaction of its own, ``ON CONFLICT DO NOTHING`` on
its fingerprint, and leaves the outbox only after the club committed it. Whatever stops a
push half-way (the club's server, the network, the kiosk unplugged), a game is then
either still waiting, or at the club and still waiting (pushed again, it is found there
and changes nothing), or at the club and gone from the outbox: never lost, never twice.

:class:`Pusher` runs the push in a thread of the app: the table never waits on the club.
It looks at the outbox every :attr:`Pusher.every` seconds (a game's end queues it in the
journal) or when woken, and while the club cannot be reached it tries again after a wait
that doubles from :data:`FIRST_WAIT` up to :data:`LONGEST_WAIT` (a kiosk offline for a month
catches up on its first success).
"""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import CompanionError
from ..journal.outbox import Outbox
from ..journal.store import StoreError
from .games import ClubGame, club_game
from .link import Club, ClubError, connect, joined, need, reason_of

log = logging.getLogger(__name__)

FIRST_WAIT = 5.0  # seconds before the first retry
LONGEST_WAIT = 1800.0  # never more than half an hour between tries

INSERT = """
INSERT INTO games (fingerprint, kiosk, kiosk_game, finished_at, state, players, levels,
                   ranks, points, record, review)
VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)
ON CONFLICT (fingerprint) DO NOTHING
"""


@dataclass(frozen=True, slots=True)
class Pushed:
    """What a push did: games the club did not have, games it had already, games still
    waiting (taken back after their end, or not readable), and why it stopped, if it did."""

    added: int
    known: int
    waiting: int
    error: CompanionError | None = None


def insert(conn: Any, kiosk: str, game_id: int, game: ClubGame) -> bool:
    """One game into the club, committed; ``True`` when it was not there yet."""
    jsonb = need("psycopg.types.json").Jsonb
    if conn.info.transaction_status != need("psycopg.pq").TransactionStatus.IDLE:
        # Inside a transaction the block below would be a savepoint, its end no commit.
        raise RuntimeError("a game is pushed in a transaction of its own: no transaction open")
    with conn.transaction():
        cursor = conn.execute(
            INSERT,
            (
                game.fingerprint,
                kiosk,
                game_id,
                game.finished_at,
                game.state,
                list(game.players),
                list(game.levels),
                list(game.ranks),
                list(game.points),
                jsonb(game.record),
                None if game.review is None else jsonb(game.review),
            ),
        )
        added = bool(cursor.rowcount == 1)
    return added


def push_waiting(
    journal: Path, club: Club, *, after_each: Callable[[int], None] | None = None
) -> Pushed:
    """Push every game of the outbox of ``journal`` to ``club``, then bring the ratings up
    to date. ``ClubError`` when the club cannot be reached at the start; a failure
    half-way is in the result (``error``), the games pushed before it done.
    ``after_each``: called with each game's number once it left the outbox (the tests)."""
    added = known = 0
    with Outbox(journal) as outbox:
        waiting = outbox.waiting()
        if not waiting:
            return Pushed(0, 0, 0)
        conn = connect(club)
        store = outbox.journal()
        left = 0
        try:
            for entry in waiting:
                try:
                    info = store.info(entry.game_id)
                    if not info.finished:
                        left += 1  # taken back after its end: it waits for its new end
                        continue
                    record = store.record(entry.game_id, with_journal=True)
                except StoreError as err:
                    outbox.failed(entry.game_id, err.message)
                    left += 1
                    continue
                game = club_game(record, info.ended_at or info.updated_at)
                try:
                    if insert(conn, club.kiosk, entry.game_id, game):
                        added += 1
                    else:
                        known += 1
                except need("psycopg").Error as err:
                    outbox.failed(entry.game_id, reason_of(err))
                    error = ClubError(
                        "the club stopped answering: {reason}",
                        code="club-unreachable",
                        reason=reason_of(err),
                    )
                    return Pushed(added, known, len(outbox.waiting()), error)
                outbox.done(entry.game_id)
                if after_each is not None:
                    after_each(entry.game_id)
            if added:
                _rate(conn)
        finally:
            store.close()
            conn.close()
    return Pushed(added, known, left)


def _rate(conn: Any) -> None:
    """The ratings brought up to date with the games just pushed; without openskill the
    next kiosk (or ``club standings``) that has it does it."""
    from .ratings import update

    try:
        update(conn)
    except ClubError as err:
        log.info("ratings not updated: %s", err.message)
    except need("psycopg").Error as err:
        log.info("ratings not updated: %s", reason_of(err))


def backoff(
    tries: int,
    rng: random.Random | None = None,
    first: float = FIRST_WAIT,
    longest: float = LONGEST_WAIT,
) -> float:
    """The wait before try number ``tries + 1`` after ``tries`` failures in a row: doubling
    from ``first`` to ``longest``, shortened at random by up to a quarter so that a club's
    kiosks back from one outage do not all knock at once."""
    wait: float = min(longest, first * 2 ** max(0, tries - 1))
    return wait * (1 - 0.25 * (rng or random).random())


class Pusher:
    """Pushes the outbox of ``journal`` to the club joined in ``folder``, in a thread.
    The club is read again before each push: a kiosk that joins or leaves needs no restart."""

    def __init__(
        self,
        journal: Path,
        folder: Path | None = None,
        every: float = 30.0,
        first_wait: float = FIRST_WAIT,
    ) -> None:
        self.journal = journal
        self.folder = folder
        self.every = every
        self.first_wait = first_wait
        self.tries = 0
        """Failed pushes in a row (0: the last one worked)."""
        self.last: Pushed | None = None
        self.error: CompanionError | None = None
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> Pusher:
        self._thread = threading.Thread(target=self._run, name="club-push", daemon=True)
        self._thread.start()
        return self

    def wake(self) -> None:
        """Push now (a game just ended), not at the next look."""
        self._wake.set()

    def stop(self, timeout: float = 10.0) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def push_once(self) -> float:
        """One push if a club is joined; the seconds to wait before the next."""
        try:
            club = joined(self.folder)
            if club is None or not self.journal.exists():
                return self.every
            self.last = push_waiting(self.journal, club)
            self.error = self.last.error
        except CompanionError as err:  # the club unreachable, a missing part, the journal
            self.error = err
        except Exception as err:  # a bug must not end the thread: said in the log, retried
            log.exception("club push failed")
            self.error = ClubError("the push failed: {reason}", reason=repr(err))
        if self.error is None:
            self.tries = 0
            return self.every
        self.tries += 1
        log.info("club push: %s", self.error.message)
        return backoff(self.tries, first=self.first_wait)

    def _run(self) -> None:
        wait = 0.0
        while not self._stop.is_set():
            self._wake.wait(wait)
            self._wake.clear()
            if self._stop.is_set():
                break
            wait = self.push_once()
