"""How long a game was played, in minutes, from the times its journal wrote down.

The table's log (``annotations.journal`` of a record exported with its journal) has the time
of the start, of every move, undo, redo and bank audit. The game's length is the time from
the start to its last move, less the breaks: a gap of more than :data:`BREAK` between two
entries is a table that stopped (dinner, the night, a game resumed next week), not a turn.
A record without a log (written elsewhere) has only its start and end: their difference,
when it is a plausible evening.

>>> from companion.record import Record
>>> from companion.simulate import simulate
>>> record = Record.of(simulate(players=2, seed=1, max_moves=2))
>>> record.extra["annotations"] = {"journal": [
...     {"at": "2026-11-21T20:00:00Z", "event": "start"},
...     {"at": "2026-11-21T20:01:30Z", "event": "move", "move": 1},
...     {"at": "2026-11-22T09:00:00Z", "event": "move", "move": 2},
... ]}
>>> played_minutes(record)  # the night between the two moves is not play
2
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from itertools import pairwise
from typing import Any

from .record import Record

BREAK = timedelta(minutes=20)
LONGEST = timedelta(hours=12)  # start to end without a log: longer is not one sitting
_PLAY_EVENTS = {"start", "move", "undo", "redo", "audit"}


def _moment(value: Any) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


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


def played_minutes(record: Record) -> int | None:
    """The game's length in minutes, or ``None`` when nothing says it."""
    annotations = record.extra.get("annotations")
    log = annotations.get("journal") if isinstance(annotations, dict) else None
    if isinstance(log, list):
        entries = [e for e in log if isinstance(e, dict) and e.get("event") in _PLAY_EVENTS]
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
