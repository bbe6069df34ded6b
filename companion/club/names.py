"""Names merged club-wide: a merge made at one kiosk is the club's, seen at every kiosk,
refused as ``names --merge`` refuses it on a kiosk (one person twice in a game, a circle)."""

from __future__ import annotations

from typing import Any

from ..journal.store import resolve
from ..text import check_name, normal_name
from .link import ClubError
from .ratings import names_of, spellings


def merge(conn: Any, name: str, person: str, kiosk: str) -> str:
    """From now on ``name`` counts as ``person`` in the club; the person it counts as."""
    name, person = normal_name(name), normal_name(person)
    check_name(name)
    check_name(person)
    with conn.transaction():
        conn.execute("LOCK TABLE names IN SHARE ROW EXCLUSIVE MODE")
        aliases = names_of(conn)
        target = resolve(aliases, person)
        if resolve(aliases, name) == target:
            raise ClubError("{name} is already counted as {person}", name=name, person=target)
        together = conn.execute(
            "SELECT count(*) FROM games g WHERE EXISTS (SELECT 1 FROM unnest(g.players, g.levels) "
            "AS s(n, lv) WHERE lv IS NULL AND n = ANY(%s)) AND EXISTS (SELECT 1 FROM "
            "unnest(g.players, g.levels) AS s(n, lv) WHERE lv IS NULL AND n = ANY(%s))",
            (spellings(aliases, name), spellings(aliases, target)),
        ).fetchone()[0]
        if together:
            raise ClubError(
                "{name} and {person} played in the same game at the club: they are two players",
                name=name,
                person=target,
            )
        conn.execute(
            "INSERT INTO names (name, person, kiosk) VALUES (%s, %s, %s) "
            "ON CONFLICT (name) DO UPDATE SET person = excluded.person, kiosk = excluded.kiosk, "
            "at = now()",
            (name, target, kiosk),
        )
    return target


def unmerge(conn: Any, name: str) -> bool:
    """``name`` counts as itself again in the club; ``False`` when it was not merged."""
    with conn.transaction():
        cursor = conn.execute("DELETE FROM names WHERE name = %s", (normal_name(name),))
    return bool(cursor.rowcount)
