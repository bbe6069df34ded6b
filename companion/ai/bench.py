"""The companion's strength and speed, printed for the README: ``python -m companion.ai.bench``.

Figures, not pass/fail (tests never assert win rates or timings). Goals (issue 15): over
two-player games, hard beats easy in at least 80% and the plain greedy player in at least
70%; the median and p99 time per decision of the hard level.

Each game is fixed by its number: seats alternate (hard plays first in even games), the
table's deal is seeded by the game number, each player by the game number too. A shared
victory counts half a win.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from .play import make, play
from .players import DEFAULT_THINK
from .search import PI_ROLLOUTS_PER_SECOND, rollouts_for


@dataclass(frozen=True)
class Outcome:
    score: float  # 1 a win of the hard seat, 0.5 a shared victory, 0 a loss
    times: tuple[float, ...]  # seconds per decision of the hard seat


def one_game(args: tuple[str, int, int]) -> Outcome:
    rival, rollouts, number = args
    hard = make("hard", seed=number, rollouts=rollouts)
    other = make(rival, seed=number + 100_000)
    me = number % 2
    seats = [hard, other] if me == 0 else [other, hard]
    times: list[float] = []
    timings: list[float] = []
    game = play(seats, seed=number, timings=timings)
    # Decisions alternate with the seats; keep the hard seat's.
    times = timings[me::2]
    ranks = {s.seat: s.rank for s in game.standings()}
    winners = sum(1 for r in ranks.values() if r == 1)
    score = 1.0 / winners if ranks[me] == 1 and (game.over or game.stalled) else 0.0
    return Outcome(score, tuple(times))


def match(rival: str, games: int, rollouts: int, workers: int) -> list[Outcome]:
    jobs = [(rival, rollouts, n) for n in range(games)]
    if workers == 1:
        return [one_game(j) for j in jobs]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(one_game, jobs, chunksize=4))


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.ai.bench", description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="games per match (200)")
    parser.add_argument(
        "--think",
        type=float,
        default=0.25,
        help="the hard level's budget, in seconds on a Raspberry Pi 4 (0.25: the benchmark's "
        "budget, a quarter of the table's default, to fit this machine)",
    )
    parser.add_argument("--workers", type=int, default=2, help="processes (2)")
    parser.add_argument(
        "--timing-games",
        type=int,
        default=10,
        help="games against greedy at the table's default budget (1 s on a Pi 4), timed (10)",
    )
    args = parser.parse_args(argv)
    rollouts = rollouts_for(args.think)
    print(
        f"hard: {rollouts} playouts a decision ({args.think:g} s on a Raspberry Pi 4 at "
        f"{PI_ROLLOUTS_PER_SECOND} playouts/s); {args.games} two-player games per match, "
        f"{args.workers} processes"
    )
    every: list[float] = []
    for rival, goal in (("easy", 0.8), ("greedy", 0.7)):
        start = time.perf_counter()
        outcomes = match(rival, args.games, rollouts, args.workers)
        rate = sum(o.score for o in outcomes) / len(outcomes)
        times = [t for o in outcomes for t in o.times]
        every += times
        print(
            f"hard vs {rival}: wins {rate:.1%} (goal {goal:.0%}) over {len(outcomes)} games; "
            f"per decision median {statistics.median(times) * 1000:.1f} ms, "
            f"p99 {percentile(times, 0.99) * 1000:.1f} ms; "
            f"{time.perf_counter() - start:.0f} s"
        )
    print(
        f"hard, all decisions: median {statistics.median(every) * 1000:.1f} ms, "
        f"p99 {percentile(every, 0.99) * 1000:.1f} ms, "
        f"{len(every) / (sum(every) or 1) * rollouts:.0f} playouts/s on this machine"
    )
    if args.timing_games:
        full = rollouts_for(DEFAULT_THINK)
        outcomes = match("greedy", args.timing_games, full, 1)
        times = [t for o in outcomes for t in o.times]
        rate = sum(o.score for o in outcomes) / len(outcomes)
        print(
            f"hard at the table's default ({full} playouts, 1 s on a Pi 4), one process, "
            f"{len(outcomes)} games vs greedy (wins {rate:.0%}): per decision median "
            f"{statistics.median(times) * 1000:.1f} ms, p99 {percentile(times, 0.99) * 1000:.1f} ms"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
