"""Matches between levels and the ladder of ratings the benchmark prints
(``python -m companion.coach.bench --ladder``).

A match is two-player games between two players at one budget, seats alternated (the first
named plays first in even games), each game fixed by its number: the table's deal by the
number, the first player by the number, the second by the number plus 100,000. A shared
victory counts half a win.

The ladder is a round robin: every pair of players, the same number of games each. The
ratings are Elo points fitted to all the results at once (Bradley-Terry's maximum
likelihood, by Hunter's MM iteration): a player rated 400 points above another is expected
to win ten games in eleven against it. Each pair's games count one extra draw, so that a
player who lost every game still has a finite rating; the ratings are anchored at
:data:`ANCHOR` for one player (the greedy player: the outside baseline). Their 95%
intervals come from the bootstrap: each pair's games drawn again with replacement,
:data:`SAMPLES` times, the ratings fitted anew, the 2.5th and 97.5th percentiles kept.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor

from ..ai.players import make
from .play import play

ANCHOR = 1000.0  # the anchored player's rating
SAMPLES = 200  # bootstrap samples of the intervals
PRIOR = 0.5  # each side's share of the one extra draw a pair counts

Pair = tuple[str, str]
Results = Mapping[Pair, Sequence[float]]  # per pair (a, b): a's score in each game


def duel(job: tuple[str, str, int, int]) -> float:
    """Game ``number`` of ``a`` against ``b`` at ``rollouts`` playouts a decision (the
    searching levels'; the others ignore it): ``a``'s score, 1, 0.5 or 0."""
    a, b, rollouts, number = job
    first = make(a, seed=number, rollouts=rollouts)
    second = make(b, seed=number + 100_000, rollouts=rollouts)
    me = number % 2
    game = play([first, second] if me == 0 else [second, first], seed=number)
    ranks = {s.seat: s.rank for s in game.standings()}
    winners = sum(1 for r in ranks.values() if r == 1)
    return 1.0 / winners if ranks[me] == 1 and (game.over or game.stalled) else 0.0


def match(a: str, b: str, games: int, rollouts: int, workers: int) -> list[float]:
    """``a``'s score in each of ``games`` games against ``b``."""
    jobs = [(a, b, rollouts, n) for n in range(games)]
    if workers == 1:
        return [duel(j) for j in jobs]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(duel, jobs, chunksize=2))


def round_robin(
    players: Sequence[str], games: int, rollouts: int, workers: int
) -> dict[Pair, list[float]]:
    """Every pair of ``players``, ``games`` games each, in one pool of processes."""
    pairs = [(a, b) for i, a in enumerate(players) for b in players[i + 1 :]]
    jobs = [(a, b, rollouts, n) for a, b in pairs for n in range(games)]
    if workers == 1:
        scores = [duel(j) for j in jobs]
    else:
        with ProcessPoolExecutor(workers) as pool:
            scores = list(pool.map(duel, jobs, chunksize=2))
    return {pair: scores[i * games : (i + 1) * games] for i, pair in enumerate(pairs)}


def interval(scores: Sequence[float]) -> tuple[float, float, float]:
    """The win rate of ``scores`` and its 95% confidence interval (Wilson's score interval:
    sound near 0% and 100% too)."""
    n = len(scores)
    rate = sum(scores) / n
    z = 1.96
    centre = (rate + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(rate * (1 - rate) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return rate, max(0.0, centre - half), min(1.0, centre + half)


def fit(results: Results, anchor: str, rating: float = ANCHOR) -> dict[str, float]:
    """Each player's Elo rating from ``results`` (Bradley-Terry, one extra draw a pair),
    ``anchor`` rated ``rating``."""
    players = sorted({p for pair in results for p in pair})
    wins = dict.fromkeys(players, 0.0)
    games: dict[Pair, float] = {}
    for (a, b), scores in results.items():
        won = sum(scores)
        wins[a] += won + PRIOR
        wins[b] += len(scores) - won + PRIOR
        n = len(scores) + 2 * PRIOR
        games[(a, b)] = games.get((a, b), 0.0) + n
        games[(b, a)] = games.get((b, a), 0.0) + n
    strength = dict.fromkeys(players, 1.0)
    for _round in range(10_000):
        new = {
            p: wins[p]
            / sum(n / (strength[p] + strength[q]) for (x, q), n in games.items() if x == p)
            for p in players
        }
        # Only ratios matter: keep the anchor at 1 so the iteration cannot drift.
        new = {p: s / new[anchor] for p, s in new.items()}
        done = max(abs(math.log(new[p] / strength[p])) for p in players) < 1e-10
        strength = new
        if done:
            break
    return {p: rating + 400.0 * math.log10(strength[p]) for p in players}


def bootstrap(
    results: Results, anchor: str, rng: random.Random, samples: int = SAMPLES
) -> dict[str, tuple[float, float]]:
    """Each player's 95% interval: the ratings of ``samples`` resamplings of each pair's
    games."""
    drawn: dict[str, list[float]] = {}
    for _sample in range(samples):
        again = {pair: rng.choices(list(s), k=len(s)) for pair, s in results.items()}
        for p, r in fit(again, anchor).items():
            drawn.setdefault(p, []).append(r)
    out = {}
    for p, ratings in drawn.items():
        ratings.sort()
        out[p] = (ratings[int(0.025 * len(ratings))], ratings[int(0.975 * len(ratings)) - 1])
    return out
