"""How long a game review takes: ``python -m companion.coach.review_bench``.

Figures, not pass/fail (tests never assert timings), in the reader's language. The goal (a
review a player waits for at the table): a 60-move two-player game reviewed in under 30 s on
a Raspberry Pi 4, at the review's default budget.

The honest figure first: the review timed here, one process, then scaled to a Pi 4 by this
machine's measured speed (the hard level's playouts a second here, against the 400 a Pi 4
runs: the ratio by which the companion's own budget is scaled). Then the budget alone (the
review's playouts at 400 a second), which leaves out the work around the playouts.

Each game is fixed by its number: the games of two medium players, dealt by seeds 0, 1,
2..., that last 60 moves or more, cut at 60 moves.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Sequence

from ..ai.players import Hard, make
from ..ai.search import PI_ROLLOUTS_PER_SECOND, rollouts_for
from ..arguments import command_line
from ..i18n import _, number
from ..records.record import Record, replay
from .play import play
from .review import default_playouts, review

MOVES = 60


def game(n: int) -> Record:
    """Game ``n``: the ``n``-th game of two medium players (the deal seeded by its number)
    that lasts :data:`MOVES` moves or more, cut at :data:`MOVES`."""
    seed = 0
    found = -1
    while True:
        played = play([make("medium", seed=seed), make("medium", seed=seed + 1)], seed=seed)
        seed += 1
        if len(played.moves) >= MOVES:
            found += 1
            if found == n:
                record = Record.of(played)
                record.moves = record.moves[:MOVES]
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
            "The time to review a 60-move two-player game at the review's default budget, "
            "here and scaled to a Raspberry Pi 4."
        ),
    ) as parser:
        parser.add_argument("--games", type=int, default=3, help=_("games reviewed"))
        parser.add_argument(
            "--playouts", type=int, default=default_playouts(), help=_("playouts a move")
        )
        args = parser.parse_args(argv)
        if args.games < 1 or args.playouts < 1:
            parser.error(_("--games and --playouts must be 1 or more"))
    times: list[float] = []
    pi: list[float] = []
    for n in range(args.games):
        record = game(n)
        start = time.perf_counter()
        review(record, args.playouts, seed=n)
        spent = time.perf_counter() - start
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
            "(slowest {worst} s; goal: under 30 s)"
        ).format(
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
            total=number(args.playouts * MOVES),
            rate=number(PI_ROLLOUTS_PER_SECOND),
            seconds=number(args.playouts * MOVES / PI_ROLLOUTS_PER_SECOND, 1),
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
