"""How long a game was played, in minutes, from the times its journal wrote down.

The table's log (``annotations.journal`` of a record exported with its journal) has the time
of the start, of every move, undo, redo and bank audit. The game's length is the time from
the start to its last move, less the breaks: a gap of more than :data:`BREAK` between two
entries is a table that stopped (dinner, the night, a game resumed next week), not a turn.
A record without a log (written elsewhere) has only its start and end: their difference,
when it is a plausible evening.

>>> from companion.records.record import Record
>>> from companion.engine.simulate import simulate
>>> record = Record.of(simulate(players=2, seed=1, max_moves=2))
>>> record.extra["annotations"] = {"journal": [
...     {"at": "2026-11-21T20:00:00Z", "event": "start"},
...     {"at": "2026-11-21T20:01:30Z", "event": "move", "move": 1},
...     {"at": "2026-11-21T20:02:00Z", "event": "audit"},
...     {"at": "2026-11-22T09:00:00Z", "event": "move", "move": 2},
... ]}
>>> played_minutes(record)  # the night between the two moves is not play
2
>>> [(t.move, t.turn.seconds, t.elapsed.seconds) for t in move_times(record).values()]
[(1, 90, 90), (2, 30, 120)]

The second move's turn is the half minute before the night (the bank audited), not the
night.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import pairwise
from typing import Any

from .record import Record, moment

BREAK = timedelta(minutes=20)
LONGEST = timedelta(hours=12)  # start to end without a log: longer is not one sitting
_PLAY_EVENTS = {"start", "move", "undo", "redo", "audit"}


def local_time(value: Any) -> str | None:
    """A record's or the journal's time (UTC) as this machine's local date and time,
    ``2026-11-21 21:15``: what every output shows a person (``games``, the text export,
    file names). ``None`` when it is not a time that can be written.

    >>> local_time("2026-11-21T20:15:07Z")[:10], local_time("yesterday")
    ('2026-11-21', None)
    """
    at = moment(value)
    if at is None:
        return None
    try:
        return at.astimezone().strftime("%Y-%m-%d %H:%M")
    except (OverflowError, OSError, ValueError):  # a clock that cannot turn it local
        return None


def _moment(value: Any) -> datetime | None:
    # In UTC; None for a date no part of the program can write (an older journal's).
    return moment(value)


def minutes(times: list[datetime]) -> int | None:
    """Played minutes over a list of journal times: the sum of gaps up to :data:`BREAK`."""
    if len(times) < 2:
        return None
    played = timedelta()
    for before, after in pairwise(times):
        gap = after - before
        if timedelta() <= gap <= BREAK:
            played += gap
    return max(1, round(played.total_seconds() / 60))


def _journal(record: Record) -> list[dict[str, Any]] | None:
    annotations = record.extra.get("annotations")
    log = annotations.get("journal") if isinstance(annotations, dict) else None
    return [e for e in log if isinstance(e, dict)] if isinstance(log, list) else None


@dataclass(frozen=True, slots=True)
class MoveTime:
    """When a move was played, how long its turn took and the game's time so far.

    ``turn`` and ``elapsed`` leave out the breaks (a gap over :data:`BREAK`), as the
    game's length does: a turn that spans dinner is the minutes before and after it.
    """

    move: int  # 1-based
    at: datetime
    turn: timedelta
    elapsed: timedelta


def move_times(record: Record) -> dict[int, MoveTime]:
    """Each move's time from the table's log, by move number; empty without a log.

    A move undone and played again counts from when it was last played. The module's
    example shows a turn across a night.
    """
    log = _journal(record)
    if not log:
        return {}
    played = timedelta()
    last: datetime | None = None
    when: dict[int, tuple[datetime, timedelta]] = {}
    for entry in log:
        if entry.get("event") not in _PLAY_EVENTS:
            continue
        moment = _moment(entry.get("at"))
        if moment is None:
            continue
        if last is not None and timedelta() <= moment - last <= BREAK:
            played += moment - last
        last = moment
        number = entry.get("move")
        if entry.get("event") in ("move", "redo") and isinstance(number, int):
            when[number] = (moment, played)
    out: dict[int, MoveTime] = {}
    before = timedelta()
    for number in range(1, len(record.moves) + 1):
        if number not in when:
            return out  # an imported game: no times from here on
        at, elapsed = when[number]
        out[number] = MoveTime(number, at, max(timedelta(), elapsed - before), elapsed)
        before = elapsed
    return out


def clock_annotation(record: Record) -> dict[str, Any] | None:
    """The game clock for a record's ``annotations.clock``: its length and each turn's.

    ``None`` when the log has no times (a game imported from elsewhere).
    """
    times = move_times(record)
    if not times:
        return None
    return {
        "played_seconds": int(times[max(times)].elapsed.total_seconds()),
        "turn_seconds": [int(times[n].turn.total_seconds()) for n in sorted(times)],
    }


def clock_text(span: timedelta) -> str:
    """``0:42`` (minutes and seconds) under an hour, ``1:05:09`` past it.

    >>> clock_text(timedelta(seconds=75)), clock_text(timedelta(hours=1, seconds=9))
    ('1:15', '1:00:09')
    """
    seconds = int(span.total_seconds())
    hours, rest = divmod(seconds, 3600)
    minutes_, secs = divmod(rest, 60)
    return f"{hours}:{minutes_:02d}:{secs:02d}" if hours else f"{minutes_}:{secs:02d}"


def played_minutes(record: Record) -> int | None:
    """The game's length in minutes, or ``None`` when nothing says it."""
    log = _journal(record)
    if log is not None:
        entries = [e for e in log if e.get("event") in _PLAY_EVENTS]
        last_move = max((i for i, e in enumerate(entries) if e.get("event") != "audit"), default=-1)
        times = [_moment(e.get("at")) for e in entries[: last_move + 1]]
        known = [t for t in times if t is not None]
        if len(known) >= 2:
            return minutes(known)
    start = _moment(record.extra.get("started_at"))
    end = _moment(record.extra.get("ended_at"))
    if start is None or end is None or not timedelta() < end - start <= LONGEST:
        return None
    return max(1, round((end - start).total_seconds() / 60))
