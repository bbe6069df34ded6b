"""The club's ratings: OpenSkill's Plackett-Luce model over every game over, in the order
the games ended, each person and each companion level a player of its own.

A seat is a person (the name as the club's merges count it) or a companion level
(``easy``... as the record's seats say), and its rank is the tie-break's (E2: points, then
fewest cards; a shared rank is a tie). A game where one player holds two seats (two
companions of one level) rates its other seats; a stalled game (A7) has no result and is
not rated. The ratings are kept with the history of each game's change
(``rating_history``), so a game arriving late (a kiosk back after a month) rates again from
its end only, and a new merge of names rates everything again.

Any kiosk brings the ratings up to date after its push (:func:`update`), one at a time (a
transaction-scoped advisory lock); readers read the tables.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..journal.store import resolve
from ..text import normal_name
from .link import need

LOCK = 0x53504C44_3338  # the ratings' advisory lock: "SPLD" and 38
PERSON, LEVEL = "person", "level"

Player = tuple[str, str]  # (kind, who)


def names_of(conn: Any) -> dict[str, str]:
    """The club's merges: each spelling and the name it counts as."""
    rows = conn.execute("SELECT name, person FROM names ORDER BY name").fetchall()
    return {normal_name(n): normal_name(p) for n, p in rows}


def player(name: str, level: str | None, aliases: dict[str, str]) -> Player:
    """Who sits at a seat for the ratings: a companion's level, or a person (merged)."""
    if level is not None:
        return (LEVEL, level)
    return (PERSON, resolve(aliases, normal_name(name)))


def _names_hash(aliases: dict[str, str]) -> str:
    return hashlib.sha256(json.dumps(sorted(aliases.items())).encode()).hexdigest()


def rate_game(
    model: Any,
    ratings: dict[Player, tuple[float, float, int]],
    players: Sequence[Player],
    ranks: Sequence[int],
) -> list[tuple[Player, float, float]]:
    """One game's change to ``ratings`` (updated in place); each rated player's new
    (mu, sigma). Players holding two seats are left out; fewer than two left: no change."""
    seats = [(p, r) for p, r in zip(players, ranks, strict=True) if players.count(p) == 1]
    if len(seats) < 2:
        return []
    teams = []
    for p, _rank in seats:
        mu, sigma, _games = ratings.get(p, (model.mu, model.sigma, 0))
        teams.append([model.rating(mu=mu, sigma=sigma)])
    rated = model.rate(teams, ranks=[r for _p, r in seats])
    changed = []
    for (p, _rank), (new,) in zip(seats, rated, strict=True):
        ratings[p] = (new.mu, new.sigma, ratings.get(p, (0.0, 0.0, 0))[2] + 1)
        changed.append((p, float(new.mu), float(new.sigma)))
    return changed


def update(conn: Any) -> int:
    """Rate the games that arrived since the last update (from the earliest one's end, or
    all of them after a change of merges); the number of games rated."""
    model = need("openskill.models").PlackettLuce()
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK,))
        through_at, through_fp, seen, stored_hash = conn.execute(
            "SELECT through_at, through_fingerprint, seen_arrival, names_hash "
            "FROM rating_state FOR UPDATE"
        ).fetchone()
        aliases = names_of(conn)
        top = conn.execute("SELECT coalesce(max(arrival), 0) FROM games").fetchone()[0]
        now_hash = _names_hash(aliases)
        start: tuple[datetime, str] | None
        if now_hash != stored_hash:
            start = None  # everything again
        elif top == seen:
            return 0
        else:
            start = conn.execute(
                "SELECT finished_at, fingerprint FROM games WHERE arrival > %s "
                "ORDER BY finished_at, fingerprint LIMIT 1",
                (seen,),
            ).fetchone()
            if start is None:
                return 0
            start = (start[0], start[1])
        if start is None:
            conn.execute("DELETE FROM rating_history")
        else:
            conn.execute(
                "DELETE FROM rating_history WHERE (finished_at, fingerprint) >= (%s, %s)", start
            )
        if start is None or (through_at is not None and start <= (through_at, through_fp)):
            # Rewound: the ratings as they were before ``start``, from their history.
            ratings = _from_history(conn)
        else:
            ratings = _current(conn)
        query = (
            "SELECT fingerprint, finished_at, players, levels, ranks FROM games "
            "WHERE state = 'over' {where} ORDER BY finished_at, fingerprint"
        )
        if start is None:
            rows = conn.execute(query.format(where="")).fetchall()
        else:
            rows = conn.execute(
                query.format(where="AND (finished_at, fingerprint) >= (%s, %s)"), start
            ).fetchall()
        history = []
        last = (through_at, through_fp) if start is not None else (None, None)
        for fingerprint, finished_at, players, levels, ranks in rows:
            seats = [player(n, lv, aliases) for n, lv in zip(players, levels, strict=True)]
            for (kind, who), mu, sigma in rate_game(model, ratings, seats, ranks):
                history.append((fingerprint, finished_at, kind, who, mu, sigma))
            if last[0] is None or (finished_at, fingerprint) > last:
                last = (finished_at, fingerprint)
        with conn.cursor().copy(
            "COPY rating_history (fingerprint, finished_at, kind, who, mu, sigma) FROM STDIN"
        ) as copy:
            for row in history:
                copy.write_row(row)
        conn.execute("DELETE FROM ratings")
        with conn.cursor().copy("COPY ratings (kind, who, mu, sigma, games) FROM STDIN") as copy:
            for (kind, who), (mu, sigma, games) in ratings.items():
                copy.write_row((kind, who, mu, sigma, games))
        conn.execute(
            "UPDATE rating_state SET through_at = %s, through_fingerprint = %s, "
            "seen_arrival = %s, names_hash = %s",
            (last[0], last[1], top, now_hash),
        )
        return len(rows)


def _current(conn: Any) -> dict[Player, tuple[float, float, int]]:
    rows = conn.execute("SELECT kind, who, mu, sigma, games FROM ratings").fetchall()
    return {(k, w): (mu, sigma, g) for k, w, mu, sigma, g in rows}


def _from_history(conn: Any) -> dict[Player, tuple[float, float, int]]:
    rows = conn.execute(
        "SELECT DISTINCT ON (kind, who) kind, who, mu, sigma, "
        "count(*) OVER (PARTITION BY kind, who) FROM rating_history "
        "ORDER BY kind, who, finished_at DESC, fingerprint DESC"
    ).fetchall()
    return {(k, w): (mu, sigma, g) for k, w, mu, sigma, g in rows}


# ------------------------------------------------------------------ reading


@dataclass(frozen=True, slots=True)
class Rating:
    """A line of the standings: the rating shown is OpenSkill's ordinal (mu - 3 sigma), a
    cautious figure that rises as games make the club surer of a player."""

    kind: str
    who: str
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


def standings(conn: Any, kind: str = PERSON, limit: int | None = None) -> list[Rating]:
    """The players of ``kind`` (persons, or companion levels), best first."""
    rows = conn.execute(
        "SELECT kind, who, mu, sigma, games FROM ratings WHERE kind = %s "
        "ORDER BY mu - 3 * sigma DESC, who LIMIT %s",
        (kind, limit),
    ).fetchall()
    return [Rating(*row) for row in rows]


@dataclass(frozen=True, slots=True)
class Step:
    """A person's rating after one game."""

    at: datetime
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


def history(conn: Any, who: str, kind: str = PERSON) -> list[Step]:
    """A player's rating over time, game by game."""
    rows = conn.execute(
        "SELECT finished_at, mu, sigma FROM rating_history WHERE kind = %s AND who = %s "
        "ORDER BY finished_at, fingerprint",
        (kind, who),
    ).fetchall()
    return [Step(*row) for row in rows]


@dataclass(frozen=True, slots=True)
class Meeting:
    """Two persons over the club's games they played together."""

    a: str
    b: str
    games: int
    a_ahead: int
    b_ahead: int
    a_wins: int
    b_wins: int


def spellings(aliases: dict[str, str], person: str) -> list[str]:
    """Every name that counts as ``person`` (``person`` itself first)."""
    return [person, *sorted(n for n in aliases if n != person and resolve(aliases, n) == person)]


def head_to_head(conn: Any, a: str, b: str) -> Meeting:
    """How ``a`` and ``b`` (as the club counts them) did when they met."""
    aliases = names_of(conn)
    a, b = (resolve(aliases, normal_name(n)) for n in (a, b))
    rows = conn.execute(
        "SELECT players, levels, ranks FROM games WHERE state = 'over' "
        "AND players && %s AND players && %s",
        (spellings(aliases, a), spellings(aliases, b)),
    ).fetchall()
    games = a_ahead = b_ahead = a_wins = b_wins = 0
    for players, levels, ranks in rows:
        seat = {
            player(n, lv, aliases)[1]: r
            for n, lv, r in zip(players, levels, ranks, strict=True)
            if lv is None
        }
        if a not in seat or b not in seat:
            continue
        games += 1
        a_ahead += seat[a] < seat[b]
        b_ahead += seat[b] < seat[a]
        a_wins += seat[a] == 1
        b_wins += seat[b] == 1
    return Meeting(a, b, games, a_ahead, b_ahead, a_wins, b_wins)


@dataclass(frozen=True, slots=True)
class LeagueGame:
    """A line of the club's latest games."""

    finished_at: datetime
    kiosk: str
    players: tuple[str, ...]
    levels: tuple[str | None, ...]
    ranks: tuple[int, ...]
    points: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class League:
    """What the league page shows: the standings, the levels, the latest games."""

    games: int
    kiosks: int
    people: list[Rating]
    levels: list[Rating]
    latest: list[LeagueGame]


def league(conn: Any, latest: int = 10) -> League:
    """The league as it stands (read only: the kiosks keep it up to date)."""
    games, kiosks = conn.execute("SELECT count(*), count(DISTINCT kiosk) FROM games").fetchone()
    rows = conn.execute(
        "SELECT finished_at, kiosk, players, levels, ranks, points FROM games "
        "ORDER BY finished_at DESC, fingerprint DESC LIMIT %s",
        (latest,),
    ).fetchall()
    return League(
        games=games,
        kiosks=kiosks,
        people=standings(conn, PERSON),
        levels=standings(conn, LEVEL),
        latest=[LeagueGame(r[0], r[1], *(tuple(x) for x in r[2:])) for r in rows],
    )


def persons_in(rows: Iterable[Rating]) -> list[str]:
    return [r.who for r in rows]
