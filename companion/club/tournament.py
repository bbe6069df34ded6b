"""A tournament night on the club: the players present, the rounds seated Swiss-style
(:mod:`companion.club.pairing`), each kiosk's table, the results as the games end, and the
standings after each round.

**Results.** A table's game is the first game over pushed to the club after the round was
seated whose people are the table's (as the club's merges count them). In it a player
scores the share of the others they finished ahead of, a tie counting half: at a table of
4 the winner alone scores 1, second 2/3, third 1/3, last 0; at a table of 3, 1, 1/2 and 0.
The standings rank by total score, then total prestige points, then the club's rating.

**Tables and kiosks.** A kiosk asking for its table (``club tournament table``, the
statistics screen's Club view) is given the first table of the round no kiosk has taken,
and the same one each time it asks again.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..i18n import _, day
from ..journal.store import resolve
from ..text import check_name, normal_name
from .link import ClubError, need
from .pairing import met_pairs, seat, table_sizes
from .ratings import names_of


@dataclass(frozen=True, slots=True)
class Tournament:
    id: int
    name: str
    started_at: datetime


@dataclass(frozen=True, slots=True)
class Table:
    """A table of a round: its players (best first) and, once played, their ranks."""

    round: int
    number: int
    players: tuple[str, ...]
    kiosk: str | None
    ranks: tuple[int, ...] | None = None
    points: tuple[int, ...] | None = None

    @property
    def done(self) -> bool:
        return self.ranks is not None


@dataclass(frozen=True, slots=True)
class Entry:
    """A player's line of the tournament's standings."""

    person: str
    score: float
    points: int
    played: int


def current(conn: Any) -> Tournament | None:
    row = conn.execute(
        "SELECT id, name, started_at FROM tournaments WHERE ended_at IS NULL"
    ).fetchone()
    return None if row is None else Tournament(*row)


def _open(conn: Any) -> Tournament:
    found = current(conn)
    if found is None:
        raise ClubError(
            "no tournament is open: start one with 'club tournament start'", code="no-tournament"
        )
    return found


def night_name(today: dt.date | None = None) -> str:
    """A tournament's name when the organiser gives none: the night and its date, so that
    the club's past nights are told apart ("Tournament night, Nov 29, 2026")."""
    return _("Tournament night, {date}").format(date=day(today or dt.date.today()))


def start(conn: Any, name: str) -> Tournament:
    """A new tournament; refused while another is open."""
    if current(conn) is not None:
        raise ClubError(
            "a tournament is already open: end it first ('club tournament end')",
            code="tournament-open",
        )
    try:
        with conn.transaction():
            row = conn.execute(
                "INSERT INTO tournaments (name) VALUES (%s) RETURNING id, name, started_at",
                (name,),
            ).fetchone()
    except need("psycopg").errors.UniqueViolation:
        raise ClubError(
            "a tournament is already open: end it first ('club tournament end')",
            code="tournament-open",
        ) from None
    return Tournament(*row)


def end(conn: Any) -> Tournament:
    found = _open(conn)
    with conn.transaction():
        conn.execute("UPDATE tournaments SET ended_at = now() WHERE id = %s", (found.id,))
    return found


def register(conn: Any, names: list[str]) -> list[str]:
    """The players present (as the club's merges count them); the whole list after."""
    found = _open(conn)
    aliases = names_of(conn)
    for name in names:
        check_name(normal_name(name))
    with conn.transaction():
        for name in names:
            conn.execute(
                "INSERT INTO tournament_players (tournament, person) VALUES (%s, %s) "
                "ON CONFLICT DO NOTHING",
                (found.id, resolve(aliases, normal_name(name))),
            )
    return players(conn, found.id)


def drop(conn: Any, name: str) -> bool:
    """A player who leaves the tournament (their results stay); ``False`` if not in it."""
    found = _open(conn)
    person = resolve(names_of(conn), normal_name(name))
    with conn.transaction():
        cursor = conn.execute(
            "DELETE FROM tournament_players WHERE tournament = %s AND person = %s",
            (found.id, person),
        )
    return bool(cursor.rowcount)


def players(conn: Any, tournament: int) -> list[str]:
    rows = conn.execute(
        "SELECT person FROM tournament_players WHERE tournament = %s ORDER BY person",
        (tournament,),
    ).fetchall()
    return [r[0] for r in rows]


def collect(conn: Any, tournament: int) -> None:
    """Each table still waiting takes its game, if the club has it now."""
    waiting = conn.execute(
        "SELECT round, table_no, players, paired_at FROM tournament_tables "
        "WHERE tournament = %s AND game IS NULL ORDER BY round, table_no",
        (tournament,),
    ).fetchall()
    if not waiting:
        return
    aliases = names_of(conn)
    since = min(w[3] for w in waiting)
    used = {
        r[0]
        for r in conn.execute(
            "SELECT game FROM tournament_tables WHERE game IS NOT NULL AND tournament = %s",
            (tournament,),
        ).fetchall()
    }
    games = conn.execute(
        "SELECT fingerprint, pushed_at, players, levels FROM games "
        "WHERE state = 'over' AND pushed_at >= %s ORDER BY pushed_at, arrival",
        (since,),
    ).fetchall()
    with conn.transaction():
        for round_no, table_no, seated, paired_at in waiting:
            wanted = sorted(seated)
            for fingerprint, pushed_at, names, levels in games:
                if fingerprint in used or pushed_at < paired_at:
                    continue
                if any(lv is not None for lv in levels):
                    continue
                if sorted(resolve(aliases, normal_name(n)) for n in names) == wanted:
                    conn.execute(
                        "UPDATE tournament_tables SET game = %s WHERE tournament = %s "
                        "AND round = %s AND table_no = %s",
                        (fingerprint, tournament, round_no, table_no),
                    )
                    used.add(fingerprint)
                    break


def tables(conn: Any, round_no: int | None = None) -> list[Table]:
    """The tables of a round (the latest when ``round_no`` is not given), results collected."""
    found = _open(conn)
    collect(conn, found.id)
    if round_no is None:
        round_no = latest_round(conn, found.id)
    rows = conn.execute(
        "SELECT t.round, t.table_no, t.players, t.kiosk, g.players, g.ranks, g.points "
        "FROM tournament_tables t LEFT JOIN games g ON g.fingerprint = t.game "
        "WHERE t.tournament = %s AND t.round = %s ORDER BY t.table_no",
        (found.id, round_no),
    ).fetchall()
    aliases = names_of(conn)
    return [_table(aliases, *row) for row in rows]


def _table(
    aliases: dict[str, str],
    round_no: int,
    number: int,
    seated: list[str],
    kiosk: str | None,
    names: list[str] | None,
    ranks: list[int] | None,
    points: list[int] | None,
) -> Table:
    if names is None or ranks is None or points is None:
        return Table(round_no, number, tuple(seated), kiosk)
    seat_of = {resolve(aliases, normal_name(n)): i for i, n in enumerate(names)}
    return Table(
        round_no,
        number,
        tuple(seated),
        kiosk,
        tuple(ranks[seat_of[p]] for p in seated),
        tuple(points[seat_of[p]] for p in seated),
    )


def latest_round(conn: Any, tournament: int) -> int:
    row = conn.execute(
        "SELECT coalesce(max(round), 0) FROM tournament_tables WHERE tournament = %s",
        (tournament,),
    ).fetchone()
    return int(row[0])


def score(rank: int, ranks: tuple[int, ...]) -> float:
    """A player's share of the others they finished ahead of (a tie counts half).

    >>> score(1, (1, 2, 3, 4)), score(2, (1, 2, 3)), score(1, (1, 1, 3))
    (1.0, 0.5, 0.75)
    """
    others = len(ranks) - 1
    below = sum(r > rank for r in ranks)
    tied = sum(r == rank for r in ranks) - 1
    return (below + tied / 2) / others if others else 0.0


def standings(conn: Any) -> list[Entry]:
    """The tournament's standings after the games played so far."""
    found = _open(conn)
    collect(conn, found.id)
    return _standings(conn, found.id)


def _standings(conn: Any, tournament: int) -> list[Entry]:
    rows = conn.execute(
        "SELECT t.round, t.table_no, t.players, t.kiosk, g.players, g.ranks, g.points "
        "FROM tournament_tables t JOIN games g ON g.fingerprint = t.game "
        "WHERE t.tournament = %s",
        (tournament,),
    ).fetchall()
    aliases = names_of(conn)
    total: dict[str, float] = defaultdict(float)
    points: dict[str, int] = defaultdict(int)
    played: dict[str, int] = defaultdict(int)
    for row in rows:
        table = _table(aliases, *row)
        assert table.ranks is not None and table.points is not None
        for person, rank, pts in zip(table.players, table.ranks, table.points, strict=True):
            total[person] += score(rank, table.ranks)
            points[person] += pts
            played[person] += 1
    rating = dict(
        conn.execute("SELECT who, mu - 3 * sigma FROM ratings WHERE kind = 'person'").fetchall()
    )
    everyone = set(players(conn, tournament)) | set(played)
    order = sorted(
        everyone,
        key=lambda p: (-total[p], -points[p], -rating.get(p, float("-inf")), p),
    )
    return [Entry(p, total[p], points[p], played[p]) for p in order]


def pair(conn: Any) -> list[Table]:
    """Seat the next round: refused while a table of the round before has no result."""
    found = _open(conn)
    collect(conn, found.id)
    round_no = latest_round(conn, found.id)
    if round_no:
        left = [t for t in tables(conn, round_no) if not t.done]
        if left:
            raise ClubError(
                "round {round} is still being played at table {table}: its game ends first",
                code="round-unfinished",
                round=round_no,
                table=left[0].number,
            )
    present = players(conn, found.id)
    if len(present) < 2:
        raise ClubError(
            "a round needs at least two players: register them with 'club tournament add'",
            code="too-few-players",
        )
    order = [e.person for e in _standings(conn, found.id) if e.person in present]
    seated_before = conn.execute(
        "SELECT round, players FROM tournament_tables WHERE tournament = %s", (found.id,)
    ).fetchall()
    rounds: dict[int, list[list[str]]] = defaultdict(list)
    for r, seated in seated_before:
        rounds[r].append(list(seated))
    plan = seat(order, met_pairs(list(rounds.values())))
    assert [len(t) for t in plan] == table_sizes(len(order))
    with conn.transaction():
        for number, table in enumerate(plan, start=1):
            conn.execute(
                "INSERT INTO tournament_tables (tournament, round, table_no, players) "
                "VALUES (%s, %s, %s, %s)",
                (found.id, round_no + 1, number, table),
            )
    return tables(conn, round_no + 1)


def my_table(conn: Any, kiosk: str) -> Table | None:
    """This kiosk's table in the current round: the one it took, else the first no kiosk
    has taken (``None`` when every table is taken or played)."""
    found = _open(conn)
    round_no = latest_round(conn, found.id)
    with conn.transaction():
        row = conn.execute(
            "SELECT table_no FROM tournament_tables WHERE tournament = %s AND round = %s "
            "AND kiosk = %s",
            (found.id, round_no, kiosk),
        ).fetchone()
        if row is None:
            row = conn.execute(
                "UPDATE tournament_tables SET kiosk = %s WHERE (tournament, round, table_no) = "
                "(SELECT tournament, round, table_no FROM tournament_tables WHERE tournament = %s "
                "AND round = %s AND kiosk IS NULL AND game IS NULL ORDER BY table_no LIMIT 1 "
                "FOR UPDATE SKIP LOCKED) RETURNING table_no",
                (kiosk, found.id, round_no),
            ).fetchone()
    if row is None:
        return None
    return next(t for t in tables(conn, round_no) if t.number == row[0])
