"""How long a game review takes: ``python -m companion.coach.review_bench``.

Figures, not pass/fail (tests never assert timings), in the reader's language. The goal (a
review a player waits for at the table): a 60-move two-player game reviewed in under 30 s on
a Raspberry Pi 4, at the review's default budget.

The honest figure first: the review timed here, one process, then scaled to a Pi 4 by this
machine's measured speed (the hard level's playouts a second here, against the 400 a Pi 4
runs: the ratio by which the companion's own budget is scaled). Then the budget alone (the
review's playouts, its deeper checks' included, at 400 a second), which leaves out the work
around the playouts.

Each game is fixed by its number: the games of two medium players, dealt by seeds 0, 1,
2..., that last 60 moves or more, cut at 60 moves.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from .. import scratch
from ..ai.players import Hard, make
from ..ai.search import PI_ROLLOUTS_PER_SECOND, playouts_at, rollouts_for
from ..arguments import command_line
from ..i18n import _, ngettext, number, percent
from ..records.record import Record, replay
from . import kept
from .ladder import interval
from .play import play
from .review import CONFIRM, default_playouts, review
from .verify import (
    BINS,
    DEEPER,
    ENOUGH,
    EVERY,
    Checked,
    Said,
    brier,
    calibration,
    check_advice,
    play_out,
    table_game,
)

# The game timed at each table size: its length in moves, and the goal on a Pi 4 in seconds.
LENGTHS = {2: (60, 30), 3: (80, 45), 4: (100, 60)}


def game(n: int, players: int = 2) -> Record:
    """Game ``n``: the ``n``-th game of ``players`` medium players (the deal seeded by its
    number) that lasts as many moves as :data:`LENGTHS` says or more, cut there."""
    moves = LENGTHS[players][0]
    seed = 0
    found = -1
    while True:
        played = play([make("medium", seed=seed + i) for i in range(players)], seed=seed)
        seed += 1
        if len(played.moves) >= moves:
            found += 1
            if found == n:
                record = Record.of(played)
                record.moves = record.moves[:moves]
                return record


def playout_rate(record: Record) -> float:
    """This machine's playouts a second: the hard level deciding at the table's default
    budget on a few of ``record``'s positions."""
    rollouts = rollouts_for(1.0)
    spent = 0.0
    decisions = 0
    for at in range(4, len(record.moves), max(1, len(record.moves) // 6)):
        position = Record(record.setup, record.moves[:at])
        now = replay(position).game
        start = time.perf_counter()
        Hard(seed=at, rollouts=rollouts).choose(now)
        spent += time.perf_counter() - start
        decisions += 1
    return decisions * rollouts / spent if spent else float(PI_ROLLOUTS_PER_SECOND)


def main(argv: Sequence[str] | None = None) -> int:
    with command_line(
        "python -m companion.coach.review_bench",
        _(
            "The time to review a 60-move two-player game (or --players 3 or 4) at the "
            "review's default budget, here and scaled to a Raspberry Pi 4."
        ),
    ) as parser:
        parser.add_argument("--games", type=int, default=3, help=_("games reviewed"))
        parser.add_argument(
            "--playouts", type=int, default=default_playouts(), help=_("playouts a move")
        )
        parser.add_argument(
            "--verify",
            action="store_true",
            help=_(
                "check the review instead: its costly moves judged again by a deeper search, "
                "and its chances set beside games played on by experts (--games games of 2, 3 "
                "and 4 players)"
            ),
        )
        parser.add_argument(
            "--deeper",
            type=int,
            default=DEEPER,
            help=_("with --verify: the deeper search's budget, in times the review's"),
        )
        parser.add_argument(
            "--play-playouts",
            type=int,
            default=rollouts_for(0.1),
            help=_("with --verify: the experts' playouts a decision when a game is played on"),
        )
        parser.add_argument(
            "--every",
            type=int,
            default=EVERY,
            help=_("with --verify: one position in this many is played on"),
        )
        parser.add_argument(
            "--first",
            type=int,
            default=0,
            help=_("with --verify: the first game's number (game n is the same game anywhere)"),
        )
        parser.add_argument(
            "--save",
            type=Path,
            metavar="FILE",
            help=_(
                "with --verify: keep each game's verdicts in FILE as soon as it is checked, "
                "and read back those already there instead of checking them again (a long "
                "check can be stopped and taken up again)"
            ),
        )
        parser.add_argument("--workers", type=int, default=2, help=_("processes"))
        parser.add_argument(
            "--players",
            type=int,
            choices=sorted(LENGTHS),
            default=2,
            help=_(
                "players of the games timed: 2 (60 moves, goal 30 s on a Pi 4), 3 (80 moves, "
                "45 s) or 4 (100 moves, 60 s)"
            ),
        )
        args = parser.parse_args(argv)
        if args.games < 1 or args.playouts < 1:
            parser.error(_("--games and --playouts must be 1 or more"))
        if min(args.deeper, args.play_playouts, args.every, args.workers) < 1:
            parser.error(_("--deeper, --play-playouts, --every and --workers must be 1 or more"))
        if args.first < 0:
            parser.error(_("--first must be 0 or more"))
        settings: kept.Settings = (args.playouts, args.deeper, args.play_playouts, args.every)
        read_back: dict[int, kept.Result] = {}
        save = None
        if args.save is not None:
            save = args.save.resolve()  # the bench works from a scratch folder
            try:
                read_back = kept.read(save, settings)
            except kept.KeptError as e:
                parser.error(str(e))
    scratch.enter("splendor-review-bench-")  # never a kiosk's folders, whatever is set
    if args.verify:
        verify(args.games, settings, args.workers, args.first, save, read_back)
        return 0
    times: list[float] = []
    pi: list[float] = []
    budgets: list[int] = []  # playouts a game, the checks' included
    for n in range(args.games):
        record = game(n, args.players)
        start = time.perf_counter()
        done = review(record, args.playouts, seed=n)
        spent = time.perf_counter() - start
        checks = len(done.checked or {})
        budgets.append(args.playouts * (len(record.moves) + CONFIRM * checks))
        rate = playout_rate(record)
        times.append(spent)
        pi.append(spent * rate / PI_ROLLOUTS_PER_SECOND)
        print(
            _(
                "game {n}: {moves} moves reviewed in {seconds} s here ({rate} playouts/s); "
                "on a Raspberry Pi 4 about {pi} s"
            ).format(
                n=n,
                moves=len(record.moves),
                seconds=number(spent, 1),
                rate=number(rate),
                pi=number(pi[-1], 1),
            )
        )
    print(
        _(
            "{playouts} playouts a move: median {median} s here, {pi} s on a Raspberry Pi 4 "
            "(slowest {worst} s; goal: under {goal} s)"
        ).format(
            goal=number(LENGTHS[args.players][1]),
            playouts=number(args.playouts),
            median=number(statistics.median(times), 1),
            pi=number(statistics.median(pi), 1),
            worst=number(max(pi), 1),
        )
    )
    print(
        _(
            "the budget alone: {total} playouts a game at {rate} playouts/s on a Raspberry Pi 4 "
            "is {seconds} s (the work around the playouts left out)"
        ).format(
            total=number(statistics.median(budgets)),
            rate=number(PI_ROLLOUTS_PER_SECOND),
            seconds=number(statistics.median(budgets) / PI_ROLLOUTS_PER_SECOND, 1),
        )
    )
    return 0


def verified(job: tuple[int, int, int, int, int]) -> tuple[list[Checked], list[Said], int]:
    """Game ``n`` reviewed, its advice checked and its chances played out; and how many
    costly-looking moves the review's own check left out."""
    n, playouts, deeper, play_playouts, every = job
    record = table_game(n)
    done = review(record, playouts, seed=n)
    left_out = sum(1 for margin in (done.checked or {}).values() if margin <= 0)
    return (
        check_advice(record, done, playouts * deeper, seed=n),
        play_out(record, done, play_playouts, seed=n, every=every),
        left_out,
    )


def verify(
    games: int,
    settings: kept.Settings,
    workers: int,
    first: int = 0,
    save: Path | None = None,
    done: dict[int, kept.Result] | None = None,
) -> None:
    """Print how often a deeper search confirms the review's advice, and how its chances
    compare with what was won, at each table size, over games ``first`` to ``first + games
    - 1``: those in ``done`` read back, the others checked (and kept in ``save``), each told
    on standard error as it ends."""
    playouts, deeper, play_playouts, every = settings
    start = time.perf_counter()
    done = dict(done or {})
    wanted = range(first, first + games)
    todo = [n for n in wanted if n not in done]
    if len(todo) < games:
        print(
            ngettext(
                "{n} of the {games} game read back from {path}",
                "{n} of the {games} games read back from {path}",
                games,
            ).format(n=number(games - len(todo)), games=number(games), path=save),
            file=sys.stderr,
        )
    jobs = [(n, playouts, deeper, play_playouts, every) for n in todo]
    for n, result in zip(todo, _checked(jobs, workers), strict=True):
        done[n] = result
        if save is not None:
            kept.append(save, n, settings, result)
        confirmed = sum(1 for c in result[0] if c.confirmed)
        print(
            ngettext(
                "game {n} checked: {confirmed} of {costly} costly move confirmed",
                "game {n} checked: {confirmed} of {costly} costly moves confirmed",
                len(result[0]),
            ).format(n=n, confirmed=number(confirmed), costly=number(len(result[0]))),
            file=sys.stderr,
            flush=True,
        )
    results = [done[n] for n in wanted]
    checked = [c for r in results for c in r[0]]
    said = [s for r in results for s in r[1]]
    left_out = sum(r[2] for r in results)
    # The time is this run's: a game read back took none of it, and is said as such.
    seconds = number(time.perf_counter() - start)
    if not todo:
        timing = _("every one read back from {path}").format(path=save)
    elif len(todo) < games:
        timing = ngettext(
            "{seconds} s for the {n} game checked in this run",
            "{seconds} s for the {n} games checked in this run",
            len(todo),
        ).format(seconds=seconds, n=number(len(todo)))
    else:
        timing = _("{seconds} s").format(seconds=seconds)
    print(
        ngettext(
            "{n} game reviewed at {playouts} playouts a move (tables of 2, 3 and 4 "
            "players, alternating); {timing}",
            "{n} games reviewed at {playouts} playouts a move (tables of 2, 3 and 4 "
            "players, alternating); {timing}",
            games,
        ).format(n=number(games), playouts=number(playouts), timing=timing)
    )
    print(
        ngettext(
            "The review's own check ({times} times its budget) left out {n} costly-looking "
            "move the deeper search there did not confirm",
            "The review's own check ({times} times its budget) left out {n} costly-looking "
            "moves the deeper search there did not confirm",
            left_out,
        ).format(times=number(CONFIRM), n=number(left_out))
    )
    print(
        _("Advice judged again with {times} times the budget ({playouts} playouts a move):").format(
            times=number(deeper), playouts=number(playouts * deeper)
        )
    )
    for size in (None, 2, 3, 4):
        rows = [c for c in checked if size is None or c.players == size]
        where = _("all tables") if size is None else _players(size)
        if not rows:
            print("  " + _("{where}: no costly move").format(where=where))
            continue
        rate, low, high = interval([1.0 if c.confirmed else 0.0 for c in rows])
        print(
            "  "
            + ngettext(
                "{where}: the preferred move confirmed better in {rate} (95% interval {low} to "
                "{high}) of {n} costly move; goal 85%",
                "{where}: the preferred move confirmed better in {rate} (95% interval {low} to "
                "{high}) of {n} costly moves; goal 85%",
                len(rows),
            ).format(
                where=where,
                rate=percent(rate),
                low=percent(low),
                high=percent(high),
                n=number(len(rows)),
            )
        )
    print(
        _(
            "Chances against play: from one position in {every}, the game played on by "
            "experts ({playouts} playouts a decision at two players, {three} at three, {four} "
            "at four: the same moves' worth)"
        ).format(
            every=number(every),
            playouts=number(play_playouts),
            three=number(playouts_at(play_playouts, 3)),
            four=number(playouts_at(play_playouts, 4)),
        )
    )
    for size in (2, 3, 4):
        positions = [s for s in said if s.players == size]
        if not positions:
            continue
        uncalibrated = [Said(s.players, s.raw, s.won) for s in positions]
        print(
            "  "
            + _(
                "{where}: Brier score {brier} over {n} chances said ({raw} before calibration)"
            ).format(
                where=_players(size),
                brier=number(brier(positions), 3),
                n=number(len(positions)),
                raw=number(brier(uncalibrated), 3),
            )
        )
        before = calibration(uncalibrated)
        for tenth, (n, mean, won) in enumerate(calibration(positions)):
            if n:
                line = ngettext(
                    "said {low} to {high}: {n} chance, {mean} on average, won {won}",
                    "said {low} to {high}: {n} chances, {mean} on average, won {won}",
                    n,
                ).format(
                    low=percent(tenth / BINS),
                    high=percent((tenth + 1) / BINS),
                    n=number(n),
                    mean=percent(mean),
                    won=percent(won),
                )
                if n >= ENOUGH:
                    line += "; " + _("gap {gap} (goal: 5% at most)").format(
                        gap=percent(abs(mean - won))
                    )
                print("    " + line)
        print(
            "    "
            + _("before calibration: {rows}").format(
                rows=", ".join(
                    _("{low}: {mean} said, {won} won ({n})").format(
                        low=percent(tenth / BINS), mean=percent(m), won=percent(w), n=number(n)
                    )
                    for tenth, (n, m, w) in enumerate(before)
                    if n
                )
            )
        )


def _checked(jobs: Sequence[tuple[int, int, int, int, int]], workers: int) -> Iterator[kept.Result]:
    if workers == 1:
        yield from map(verified, jobs)
        return
    with ProcessPoolExecutor(workers) as pool:
        # In order, each as soon as it and those before it end.
        yield from pool.map(verified, jobs)


def _players(size: int) -> str:
    return ngettext("{n} player", "{n} players", size).format(n=number(size))


if __name__ == "__main__":
    raise SystemExit(main())
