"""Speed figures of the engine, printed for the README: ``python -m companion.bench``.

Figures, not pass/fail: tests never assert timings. Goals (issue 2): ``apply`` with its
validation under 100 us at p99, a 120-move record replayed in under 20 ms, and at least
300 random legal games per second with legal-move generation at every move.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from .game import Game
from .i18n import ngettext, number, translate
from .record import Record, read, replay, write
from .session import Session
from .simulate import DEFAULT_NAMES, Dealer, choose, random_setup, simulate
from .store import Store


def _games(seeds: range) -> int:
    moves = 0
    for seed in seeds:
        moves += len(simulate(players=2 + seed % 3, seed=seed).moves)
    return moves


def _warm(_: int) -> None:
    # A companion runs for hours: measure the engine with its move caches filled, as it
    # is after the first games, not while it fills them.
    _games(range(10_000, 10_100))


def games_per_second(n: int, workers: int) -> tuple[float, float]:
    """Random legal games per second (and moves per game) on ``workers`` processes."""
    if workers == 1:
        _warm(0)
        start = time.perf_counter()
        moves = _games(range(n))
    else:
        chunks = [range(i, n, workers) for i in range(workers)]
        with ProcessPoolExecutor(workers) as pool:
            list(pool.map(_warm, range(workers)))
            start = time.perf_counter()
            moves = sum(pool.map(_games, chunks))
    elapsed = time.perf_counter() - start
    return n / elapsed, moves / n


def apply_times(n_games: int) -> list[float]:
    """Microseconds per ``push`` (validation included) over the moves of random games."""
    times = []
    for seed in range(n_games):
        rng = random.Random(seed)
        game = Game(random_setup(rng, DEFAULT_NAMES[: 2 + seed % 3]))
        dealer = Dealer(game, rng)
        while not game.over and not game.stalled:
            move = dealer.deal(choose(rng, list(game.legal_moves())))
            t0 = time.perf_counter_ns()
            game.push(move)
            times.append((time.perf_counter_ns() - t0) / 1000)
    return times


def long_record(min_moves: int = 120) -> str:
    """A real 4-player record of at least ``min_moves`` moves, cut to exactly that many."""
    seed = 0
    while True:
        game = simulate(players=4, seed=seed)
        if len(game.moves) >= min_moves:
            record = Record(game.setup, list(game.moves)[:min_moves])
            return write(record)
        seed += 1


def replay_ms(text: str, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = replay(read(text))
        times.append((time.perf_counter() - t0) * 1000)
        assert result.valid
    return times


def journal_figures(text: str, repeat: int) -> tuple[list[float], list[float]]:
    """Milliseconds to journal one move (durably), and to resume a 120-move game."""
    record = read(text)
    with tempfile.TemporaryDirectory() as folder:
        store = Store(Path(folder) / "games.sqlite3")
        commits = []
        for _ in range(max(1, repeat // 40)):
            session = Session.start(store, record.setup)
            for move in record.moves:
                t0 = time.perf_counter()
                session.play(move)
                commits.append((time.perf_counter() - t0) * 1000)
        resumes = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            Session.resume(store, session.game_id)
            resumes.append((time.perf_counter() - t0) * 1000)
        store.close()
    return commits, resumes


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(quick: bool = False) -> int:
    n = 60 if quick else 600
    workers = os.cpu_count() or 1
    say = print
    say(
        ngettext(
            "Splendor Companion engine benchmark ({n} core)",
            "Splendor Companion engine benchmark ({n} cores)",
            workers,
        ).format(n=workers)
    )
    rate1, per_game = games_per_second(n, 1)
    say(
        translate("random legal games/s, 1 process: {rate} ({moves} moves a game)").format(
            rate=number(rate1), moves=number(per_game)
        )
    )
    if workers > 1:
        rate, _moves = games_per_second(n, workers)
        say(
            translate("random legal games/s, {n} processes: {rate}").format(
                n=workers, rate=number(rate)
            )
        )
    # The app freezes what it has loaded once started (ui.application), so that the
    # collector does not walk the card data and move caches again and again: do the same.
    gc.collect()
    gc.freeze()
    times = apply_times(20 if quick else 200)
    say(
        ngettext(
            "apply + validation, us: median {median}, p99 {p99} ({n} move)",
            "apply + validation, us: median {median}, p99 {p99} ({n} moves)",
            len(times),
        ).format(
            median=number(statistics.median(times), 1),
            p99=number(percentile(times, 0.99), 1),
            n=number(len(times)),
        )
    )
    text = long_record()
    replays = replay_ms(text, 20 if quick else 200)
    commits, resumes = journal_figures(text, 20 if quick else 200)
    for template, values in (
        (
            translate("replay a 120-move record (read+apply), ms: median {median}, p99 {p99}"),
            replays,
        ),
        (translate("journal one move (commit, fsync), ms: median {median}, p99 {p99}"), commits),
        (
            translate("resume a 120-move game from the journal, ms: median {median}, p99 {p99}"),
            resumes,
        ),
    ):
        say(
            template.format(
                median=number(statistics.median(values), 2),
                p99=number(percentile(values, 0.99), 2),
            )
        )
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    raise SystemExit(main(parser.parse_args().quick))
