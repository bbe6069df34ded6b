"""A finished game as a BG Stats play: the "push a play" link a phone opens, and its JSON.

BG Stats (3.3.2 and later) opens ``https://app.bgstatsapp.com/createPlay.html?data=<JSON>``
with the play filled in for the player to check and save; it also posts it to
BoardGameGeek when asked. No account and no network on the Pi: the link travels as a QR
code, or as a file.

``sourcePlayId`` is made from what never changes in a game (its start time, its players and
the table laid out at setup), so scanning the same game twice, from the end screen and
later from the history, gives BG Stats the same play, which it recognises.

>>> from companion.engine.simulate import simulate
>>> from companion.records.record import Record
>>> game = simulate(players=2, seed=3)
>>> data = play(Record.of(game, started_at="2026-11-21T20:15:00Z"), duration_min=42)
>>> data["playDate"], data["durationMin"], data["game"]["bggId"]
('2026-11-21 20:15:00', 42, 148228)
>>> [p["winner"] for p in data["players"]] == [n in game.winners() for n in game.names]
True
>>> link(data).startswith("https://app.bgstatsapp.com/createPlay.html?data=")
True
>>> read_link(link(data)) == data
True
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any
from urllib.parse import quote, unquote, urlsplit

from ..errors import ErrorCode, TextError
from ..journal.seats import companion_levels, companion_title
from ..journal.store import Store
from ..records.playtime import played_minutes
from ..records.record import BGSTATS_SOURCE, Record, moment, replay
from .stats import persons, spelling

SOURCE_NAME = BGSTATS_SOURCE  # what replay and import recognise as this export
BGG_ID = 148228  # Splendor on BoardGameGeek: how BG Stats knows the game without asking
GAME_NAME = "Splendor"
SOURCE_GAME_ID = "splendor"
# The prefix of the companion's player ids: ``splendor-companion/hard``.
COMPANION_ID = "splendor-companion"
CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html?data="
# Characters left as they are in the link: a shorter link is a smaller QR code, easier to
# scan from a chair. ``:`` and ``,`` are allowed in a query as they are; the rest is encoded.
_SAFE = ":,"


def bgstats_time(text: str | None) -> str | None:
    """An ISO 8601 time as BG Stats wants it, in UTC: ``YYYY-MM-DD HH:MM:SS``.

    A time without a zone is taken as UTC (the journal writes UTC); text that is not a
    time, or a date out of :func:`companion.records.record.moment`'s range, gives ``None`` (BG
    Stats then uses the day the play is saved).

    >>> bgstats_time("2026-11-21T21:15:00+01:00")
    '2026-11-21 20:15:00'
    >>> bgstats_time("yesterday") is None
    True
    """
    at = moment(text)  # None too for a date beyond what can be written (an old journal's)
    return None if at is None else at.strftime("%Y-%m-%d %H:%M:%S")


def player_id(name: str) -> str:
    """The same spelling is the same player, on every kiosk: ``Zoé`` and ``Zoé`` (NFC/NFD)
    too, so BG Stats matches the player once and remembers."""
    return spelling(name)


def play_id(record: Record) -> str:
    """Stable per game: the same on every export and every scan of it."""
    setup = record.setup
    key = json.dumps(
        [
            record.extra.get("started_at", ""),
            list(setup.players),
            list(setup.nobles),
            [list(row) for row in setup.market],
        ],
        ensure_ascii=False,
    )
    return "sc-" + hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]


def play(
    record: Record,
    duration_min: int | None = None,
    person: Callable[[str], str] | None = None,
) -> dict[str, Any]:
    """The play BG Stats reads, from a record (replayed, so scores are the engine's).

    ``person`` turns a name as typed into the person it is (after two spellings were
    merged); ``winner`` and ``startPlayer`` are on every player, as BG Stats' Android app
    needs them.
    """
    game = replay(record).game
    who = person or (lambda name: name)
    winners = set(game.winners())
    ranks = {s.seat: s.rank for s in game.standings()}
    levels = companion_levels(record.extra, len(game.seats))
    players = []
    for seat in game.seats:
        level = levels[seat.seat]
        if level is None:
            name = who(seat.name)
            source_id = player_id(name)
        else:
            name, source_id = _companion(levels, seat.seat, level)
        players.append(
            {
                "name": name,
                "sourcePlayerId": source_id,
                "score": seat.points,
                "winner": seat.name in winners,
                "startPlayer": seat.seat == 0,
                "rank": ranks[seat.seat],
            }
        )
    data: dict[str, Any] = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": play_id(record),
    }
    date = bgstats_time(record.extra.get("started_at")) or bgstats_time(
        record.extra.get("ended_at")
    )
    if date is not None:
        data["playDate"] = date
    if duration_min is not None:
        data["durationMin"] = duration_min
    data["game"] = {
        "name": GAME_NAME,
        "bggId": BGG_ID,
        "highestWins": True,
        "sourceGameId": SOURCE_GAME_ID,
    }
    data["players"] = players
    return data


def _companion(levels: tuple[str | None, ...], seat: int, level: str) -> tuple[str, str]:
    """The companion's seat as a BG Stats player: its name and its player id.

    The push-a-play format has no field for a player who is not a person, so the name
    says it (``Companion (hard)``, in the kiosk's language) and the id is the app's own
    (``splendor-companion/hard``) where a person's id is their name: a person called
    "Companion (hard)" stays another player. Each level is one opponent in BG Stats,
    whatever the seat was called at the table; a second companion at the same level in
    one game is a second player (``Companion 2 (hard)``).
    """
    n = levels[: seat + 1].count(level)
    source_id = f"{COMPANION_ID}/{level}" + (f"/{n}" if n > 1 else "")
    return companion_title(level, n), source_id


def stored_play(store: Store, game_id: int) -> dict[str, Any]:
    """The play of a game of the journal: its length from the journal, merged names."""
    record = store.record(game_id, with_journal=True)
    return play(record, played_minutes(record), persons(store))


def link(data: dict[str, Any]) -> str:
    """The "push a play" link: what the QR code holds."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return CREATE_PLAY + quote(text, safe=_SAFE)


def read_link(url: str) -> dict[str, Any]:
    """The play a link holds (tests, and anyone checking a code): the inverse of :func:`link`."""
    query = urlsplit(url).query
    if not query.startswith("data="):
        raise TextError(ErrorCode.NOT_A_PLAY_LINK, "this is not a BG Stats link to a play")
    data: dict[str, Any] = json.loads(unquote(query[len("data=") :]))
    return data


def document(data: dict[str, Any]) -> str:
    """The play as a JSON file (``export --format bgstats``): the link's JSON, indented."""
    return json.dumps(data, ensure_ascii=False, indent=2, allow_nan=False) + "\n"
