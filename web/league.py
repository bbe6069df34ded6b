"""The club's league page (``/league``): the ratings of every person and companion level
across the club's kiosks, the latest games and, on a tournament night, the round's
tables. Read from the club's PostgreSQL in a thread (the page's server never waits on the
network with the table's page), kept a few seconds for the phones that ask together.

A kiosk that joined no club says so; a club that cannot be reached says why (docs/club.md).
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aiohttp import web

from companion.club import link, ratings, tournament
from companion.errors import CompanionError
from companion.i18n import number
from companion.journal.seats import level_word
from companion.text import printable

if TYPE_CHECKING:
    from .server import Site

KEPT_SECONDS = 5.0  # one reading of the club serves the phones that ask within it
_kept: dict[str, tuple[float, dict[str, Any]]] = {}


def read(folder: Path) -> dict[str, Any]:
    """What the page shows, as plain data (in a thread: it may wait on the network)."""
    club = link.joined(folder)
    if club is None:
        return {"club": None}
    found = _kept.get(club.conninfo)
    if found is not None and time.monotonic() - found[0] < KEPT_SECONDS:
        return found[1]
    with link.connect(club) as conn:
        # Read only, as every phone page: the kiosks keep the ratings up to date.
        league = ratings.league(conn)
        tables = tournament.tables(conn) if tournament.current(conn) else []
    values = {
        "club": printable(club.kiosk),
        "games": league.games,
        "kiosks": league.kiosks,
        "people": [_line(r, printable(r.who)) for r in league.people],
        "levels": [_line(r, level_word(r.who)) for r in league.levels],
        "latest": [
            {
                "kiosk": printable(g.kiosk),
                "players": [
                    printable(p) if lv is None else f"{printable(p)} ({level_word(lv)})"
                    for p, lv in zip(g.players, g.levels, strict=True)
                ],
                "ranks": list(g.ranks),
                "points": list(g.points),
            }
            for g in league.latest
        ],
        "tables": [
            {
                "round": t.round,
                "number": t.number,
                "players": [printable(p) for p in t.players],
                "done": t.done,
            }
            for t in tables
        ],
    }
    _kept[club.conninfo] = (time.monotonic(), values)
    return values


def _line(r: ratings.Rating, who: str) -> dict[str, Any]:
    return {"who": who, "rating": number(r.ordinal, 1), "games": r.games}


async def page(site: Site, request: web.Request) -> web.Response:
    """``/league``. A club that cannot be read is said on the page (its message rendered
    in the page's language), never a server error."""
    problem: CompanionError | None = None
    try:
        values = await asyncio.to_thread(read, site.journal.path.parent)
    except CompanionError as err:
        values, problem = {"club": "?"}, err
    return site._page(request, "league.html", {**values, "problem": problem, "page": "league"})
