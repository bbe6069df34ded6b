"""The companion at a table of three or four: one player against a field of another level.

A lineup is one player (the *hero*, like the expert) against ``size - 1`` seats of one other
level (like hard). Every deal is played ``size`` times, the hero in each seat in turn
(deal ``n // size``, the hero's seat ``n % size``), so no seat order favours either side;
each seat's player is seeded by the game's number and its seat. The hero's score in a game
is 1 for a win, ``1 / k`` for a victory shared by ``k`` seats (the tie-break of E2 decides
first), 0 otherwise; its fair share is ``1 / size``.

For the ladder (:func:`pairwise`), a game of several players counts as a game between every
two seats of different players: the better placed one scores 1, a shared place 0.5 each. The
Elo fit of :mod:`.ladder` then rates players from tables of any size.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from ..ai.players import Player, make
from ..engine.game import Game
from ..engine.moves import Move
from .play import play

SEAT_SEED = 100_000  # each seat's player is seeded by the game's number plus this times its seat


@dataclass(frozen=True)
class TableGame:
    """One game of a lineup: who sat where and where each seat placed (1 = first)."""

    players: tuple[str, ...]  # each seat's player, in seat order
    ranks: tuple[int, ...]  # each seat's place; ties share a place
    # The seconds of each decision of the first seat of a player seated once (the hero's):
    # a measure of this machine at that moment, not of the game.
    times: tuple[float, ...] = field(default=(), compare=False)

    def score(self, seat: int) -> float:
        """``seat``'s score: 1 a win, ``1/k`` a victory shared by ``k`` seats, else 0."""
        if self.ranks[seat] != 1:
            return 0.0
        return 1.0 / sum(1 for r in self.ranks if r == 1)


def seating(hero: str, field: str, size: int, number: int) -> tuple[str, ...]:
    """Game ``number``'s seats: the hero at seat ``number % size``, the field elsewhere.

    >>> seating("expert", "hard", 3, 4)
    ('hard', 'expert', 'hard')
    """
    seat = number % size
    return tuple(hero if i == seat else field for i in range(size))


def table_game(job: tuple[tuple[str, ...], int, int]) -> TableGame:
    """Play one game: ``job`` is (each seat's player, playouts a decision, game number).

    The deal is seeded by the number divided by the table's size, so the ``size`` games of a
    deal see the same cards with the seats rotated."""
    players, rollouts, number = job
    size = len(players)
    seats: list[Player] = [
        make(level, seed=number + SEAT_SEED * seat, rollouts=rollouts)
        for seat, level in enumerate(players)
    ]
    times: list[float] = []
    alone = [i for i, p in enumerate(players) if players.count(p) == 1]
    if alone:
        seats[alone[0]] = Timed(seats[alone[0]], times)
    game = play(seats, seed=number // size)
    finished = game.over or game.stalled
    ranks = {s.seat: s.rank for s in game.standings()}
    # A game cut at the move limit has no winner: every seat scores 0 (counted, not hidden).
    return TableGame(
        players, tuple(ranks[i] if finished else size + 1 for i in range(size)), tuple(times)
    )


class Timed:
    """A player whose every decision's seconds are written down."""

    def __init__(self, player: Player, times: list[float]) -> None:
        self.player, self.times, self.level = player, times, player.level

    def choose(self, game: Game) -> Move:
        start = time.perf_counter()
        move = self.player.choose(game)
        self.times.append(time.perf_counter() - start)
        return move


def lineup(
    hero: str,
    field: str,
    size: int,
    games: int,
    rollouts: int,
    workers: int,
    first: int = 0,
    told: Callable[[int, TableGame], None] | None = None,
) -> list[TableGame]:
    """``games`` games of ``hero`` against ``size - 1`` seats of ``field``, seats rotated,
    numbered from ``first`` (a long run can be played in parts: the same number is the same
    game). ``told`` hears of each game, in order, as soon as it and those before it end."""
    jobs = [(seating(hero, field, size, n), rollouts, n) for n in range(first, first + games)]
    out = []
    for number, game in zip(range(first, first + games), _played(jobs, workers), strict=True):
        if told is not None:
            told(number, game)
        out.append(game)
    return out


def _played(jobs: Sequence[tuple[tuple[str, ...], int, int]], workers: int) -> Iterator[TableGame]:
    if workers == 1:
        yield from map(table_game, jobs)
        return
    with ProcessPoolExecutor(workers) as pool:
        # One game a piece: a game's result is told as soon as it and those before it end.
        yield from pool.map(table_game, jobs)


def hero_scores(games: Sequence[TableGame], hero: str) -> list[float]:
    """The hero's score in each game (the one seat that is not the field's)."""
    out = []
    for g in games:
        seat = next(i for i, p in enumerate(g.players) if p == hero)
        out.append(g.score(seat))
    return out


def pairwise(games: Sequence[TableGame]) -> dict[tuple[str, str], list[float]]:
    """Every two seats of different players in every game, as one two-player result.

    >>> g = TableGame(("expert", "hard", "hard"), (2, 1, 3))
    >>> pairwise([g])
    {('expert', 'hard'): [0.0, 1.0]}
    """
    out: dict[tuple[str, str], list[float]] = {}
    for g in games:
        for i, a in enumerate(g.players):
            for j in range(i + 1, len(g.players)):
                b = g.players[j]
                if a == b:
                    continue
                ra, rb = g.ranks[i], g.ranks[j]
                score = 1.0 if ra < rb else 0.5 if ra == rb else 0.0
                key, value = ((a, b), score) if a < b else ((b, a), 1.0 - score)
                out.setdefault(key, []).append(value)
    return out
