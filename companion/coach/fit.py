"""The expert's judgement fitted to games: ``python -m companion.coach.fit``.

Plays two-player games in which both seats follow the playouts' policy (the moves the
searches' playouts make, so the positions are those the expert's search judges at its
leaves), keeps about every second position from the fifth move on, and fits a logistic
regression of who won on the difference between the two seats'
:func:`~companion.ai.fitted.features` and on whose turn it is. It prints the weights, to be
written into :mod:`companion.ai.fitted`, and how well the fit names the winner of positions
held out of it (one in five), beside the hand-tuned :func:`~companion.ai.value.outlook`.

Everything is seeded (game ``n`` by seed ``1,000,000 + n``): the same options print the same
weights on any machine. A shared victory, or a game that does not end, teaches nothing and
is left out.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from .. import scratch
from ..ai.fitted import FEATURES, features
from ..ai.search import policy
from ..ai.value import market, outlook
from ..arguments import command_line, whole_number
from ..engine.game import Game
from ..engine.simulate import DEFAULT_NAMES, MAX_MOVES, Dealer, random_setup
from ..i18n import _, number, percent

FIRST_SEED = 1_000_000  # game n is dealt and played from seed FIRST_SEED + n
L2 = 1e-3  # a little ridge, so that a feature that barely varies keeps a small weight
HELD_OUT = 5  # one position in HELD_OUT is kept out of the fit, to judge it


@dataclass(frozen=True)
class Sample:
    """One position seen from one seat: its features less the other's, then whose turn it
    is (1 its own, -1 the other's); whether that seat won; the hand-tuned outlook."""

    x: tuple[float, ...]
    won: float
    hand: float


def samples(game_number: int) -> list[Sample]:
    """The positions of game ``game_number``, each from a seat drawn at random."""
    rng = random.Random(FIRST_SEED + game_number)
    game = Game(random_setup(rng, DEFAULT_NAMES[:2]))
    dealer = Dealer(game, rng)
    seen: list[tuple[int, tuple[float, ...], float]] = []
    while not game.over and not game.stalled and len(game.moves) < MAX_MOVES:
        if len(game.moves) >= 4 and rng.random() < 0.5:
            me = rng.randrange(2)
            cards, nobles = market(game), game.nobles
            mine, theirs = (features(game.seat(s), cards, nobles) for s in (me, 1 - me))
            turn = 1.0 if game.to_act == me else -1.0
            diff = (*(a - b for a, b in zip(mine, theirs, strict=True)), turn)
            seen.append((me, diff, outlook(game, me)))
        game.push(dealer.deal(policy(game, rng)))
    first = [s.seat for s in game.standings() if s.rank == 1] if game.over else []
    if len(first) != 1:
        return []
    winner = first[0]
    return [Sample(x, 1.0 if me == winner else 0.0, hand) for me, x, hand in seen]


def logistic(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def predicted(w: Sequence[float], x: Sequence[float]) -> float:
    """The chance that weights ``w`` give a sample's ``x``."""
    return logistic(sum(a * b for a, b in zip(w, x, strict=True)))


def fit(data: Sequence[Sample], iterations: int = 12, l2: float = L2) -> list[float]:
    """The weights of the logistic regression of ``won`` on ``x`` (no intercept: the two
    seats' places are symmetric), by Newton's method.

    >>> data = [Sample((x,), float(x > 0), 0.5) for x in (-2.0, -1.0, -0.5, 0.5, 1.0, 2.0)]
    >>> fit(data + [Sample((0.5,), 0.0, 0.5), Sample((-0.5,), 1.0, 0.5)])[0] > 0
    True
    """
    d = len(data[0].x)
    w = [0.0] * d
    for _step in range(iterations):
        gradient = [0.0] * d
        hessian = [[0.0] * d for _ in range(d)]
        for sample in data:
            x = sample.x
            p = predicted(w, x)
            residual, curve = p - sample.won, p * (1.0 - p)
            for i in range(d):
                gradient[i] += residual * x[i]
                row = hessian[i]
                for j in range(i, d):
                    row[j] += curve * x[i] * x[j]
        n = len(data)
        for i in range(d):
            gradient[i] = gradient[i] / n + l2 * w[i]
            for j in range(i, d):
                hessian[i][j] = hessian[i][j] / n + (l2 if i == j else 0.0)
                hessian[j][i] = hessian[i][j]
        step = solve(hessian, gradient)
        w = [a - b for a, b in zip(w, step, strict=True)]
    return w


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``matrix``'s inverse times ``vector`` (Gauss-Jordan with partial pivoting).

    >>> solve([[2.0, 0.0], [0.0, 4.0]], [2.0, 2.0])
    [1.0, 0.5]
    """
    d = len(vector)
    rows = [[*row, vector[i]] for i, row in enumerate(matrix)]
    for c in range(d):
        pivot = max(range(c, d), key=lambda r: abs(rows[r][c]))
        rows[c], rows[pivot] = rows[pivot], rows[c]
        for r in range(d):
            if r != c:
                factor = rows[r][c] / rows[c][c]
                for k in range(c, d + 1):
                    rows[r][k] -= factor * rows[c][k]
    return [rows[i][d] / rows[i][i] for i in range(d)]


def judged(chances: Sequence[float], data: Sequence[Sample]) -> tuple[float, float]:
    """How often ``chances`` name the winner (above or below one half), and their mean log
    loss (lower is better)."""
    right = sum(1 for p, s in zip(chances, data, strict=True) if (p > 0.5) == (s.won == 1.0))
    loss = -sum(
        math.log(max(p if s.won else 1.0 - p, 1e-12)) for p, s in zip(chances, data, strict=True)
    )
    return right / len(data), loss / len(data)


def main(argv: Sequence[str] | None = None) -> int:
    with command_line(
        "python -m companion.coach.fit",
        _(
            "Fit the expert's judgement to two-player games of the playouts' policy and "
            "print its weights."
        ),
    ) as parser:
        parser.add_argument(
            "--games", type=whole_number(100, 1_000_000), default=6000, help=_("games played")
        )
        parser.add_argument("--workers", type=whole_number(1, 64), default=2, help=_("processes"))
        args = parser.parse_args(argv)
    scratch.enter("splendor-fit-")  # never a kiosk's folders, whatever is set
    start = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        games = pool.map(samples, range(args.games), chunksize=20)
        data = [s for game in games for s in game]
    # Held out by position, in a fixed order: the fit never sees them.
    train = [s for i, s in enumerate(data) if i % HELD_OUT]
    test = [s for i, s in enumerate(data) if not i % HELD_OUT]
    w = fit(train)
    print(
        _("{positions} positions from {games} games, fitted in {seconds} s").format(
            positions=number(len(data)),
            games=number(args.games),
            seconds=number(time.perf_counter() - start),
        )
    )
    fitted = judged([predicted(w, s.x) for s in test], test)
    hand = judged([s.hand for s in test], test)
    for name, (right, loss) in ((_("fitted"), fitted), (_("hand-tuned"), hand)):
        print(
            _(
                "{name}: names the winner of {right} of {n} positions held out; log loss {loss}"
            ).format(name=name, right=percent(right), n=number(len(test)), loss=number(loss, 4))
        )
    print("WEIGHTS = (")
    for name, weight in zip(FEATURES, w, strict=False):
        print(f"    {weight:.4f},  # {name}")
    print(")")
    print(f"TURN = {w[-1]:.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
