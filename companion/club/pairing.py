"""Seating a tournament's round: Swiss-style by standing, tables of 3 or 4.

**Table sizes.** ``n`` players sit at ``ceil(n / 4)`` tables, as many of them tables of 4
as the numbers allow and the others of 3: 9 players are 3+3+3, 10 are 4+3+3, 11 are
4+4+3, 12 are 4+4+4. Tables of 4 come first (the top of the standings). Only 2 and 5
players cannot be seated so: 2 play one table of 2, 5 play 3+2. One player alone is no
round.

**Seats.** The players are taken in the order of the standings (the first round: the
club's ratings). Each table is filled in turn: its first seat the best player not seated
yet, each next seat the best player not seated who has met no one at the table in an
earlier round (when everyone has, the one with the fewest such meetings). Then, while it
helps, two players of two tables change places when that lowers the number of pairs at
the same table who met before (the pair of players nearest in the standings first, so the
tables stay as close to the standings as the meetings allow). No two people meet twice
when this finds a way; when none is found (too few players for the rounds), the fewest
repeat meetings it found are kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations


def table_sizes(players: int) -> list[int]:
    """How many sit at each table, largest first.

    >>> table_sizes(9), table_sizes(10), table_sizes(11), table_sizes(12), table_sizes(5)
    ([3, 3, 3], [4, 3, 3], [4, 4, 3], [4, 4, 4], [3, 2])
    """
    if players < 2:
        raise ValueError("a round needs at least two players")
    if players in (2, 3, 4):
        return [players]
    if players == 5:
        return [3, 2]
    tables = -(-players // 4)
    threes = 4 * tables - players
    return [4] * (tables - threes) + [3] * threes


Meetings = frozenset[frozenset[str]]


def met_pairs(rounds: Sequence[Sequence[Sequence[str]]]) -> Meetings:
    """Every pair of players who sat at one table in the rounds given."""
    return frozenset(frozenset(p) for r in rounds for t in r for p in combinations(t, 2))


def repeats(table: Sequence[str], met: Meetings) -> int:
    """Pairs at ``table`` who met before."""
    return sum(frozenset(p) in met for p in combinations(table, 2))


def seat(order: Sequence[str], met: Meetings) -> list[list[str]]:
    """The tables of a round for ``order`` (best first), avoiding ``met`` pairs."""
    left = list(order)
    tables: list[list[str]] = []
    for size in table_sizes(len(left)):
        table = [left.pop(0)]
        while len(table) < size:
            best = min(
                range(len(left)),
                key=lambda i: (sum(frozenset((left[i], p)) in met for p in table), i),
            )
            table.append(left.pop(best))
        tables.append(table)
    rank = {p: i for i, p in enumerate(order)}
    improved = True
    while improved:
        improved = False
        swaps = sorted(
            (
                (abs(rank[a] - rank[b]), ti, ai, tj, bj)
                for ti, tj in combinations(range(len(tables)), 2)
                for ai, a in enumerate(tables[ti])
                for bj, b in enumerate(tables[tj])
            ),
        )
        for _gap, ti, ai, tj, bj in swaps:
            before = repeats(tables[ti], met) + repeats(tables[tj], met)
            if before == 0:
                continue
            one, two = list(tables[ti]), list(tables[tj])
            one[ai], two[bj] = two[bj], one[ai]
            if repeats(one, met) + repeats(two, met) < before:
                tables[ti], tables[tj] = one, two
                improved = True
                break
    # Each table in the order of the standings, its best player first.
    return [sorted(t, key=rank.__getitem__) for t in tables]
