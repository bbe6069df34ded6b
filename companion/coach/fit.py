"""The expert's judgement fitted to games: ``python -m companion.coach.fit``.

Plays games of two, three and four players in which every seat follows the playouts' policy
(the moves the searches' playouts make, so the positions are those the expert's search
judges at its leaves), keeps about every second position from the second round on, and fits
for each table size a conditional logit of who won: each seat's score is the weights times
its :func:`~companion.ai.fitted.features` plus a weight for its place in the turn order
after the seat to act (the last place weighs 0), and its chance is ``exp(score)`` over the
sum of every seat's. At two seats that is the logistic regression of the winner on the
difference of the two seats' features and on whose turn it is. It prints the weights, to be
written into :mod:`companion.ai.fitted`, and how well the fit names the winner of positions
held out of it (one in five), beside the hand-tuned :func:`~companion.ai.value.outlook` and
beside chance alone (one seat in the table's size).

Everything is seeded (game ``n`` of a size by seed ``FIRST_SEED[size] + n``): the same
options print the same weights on any machine. A shared victory, or a game that does not
end, teaches nothing and is left out.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial

from .. import scratch
from ..ai.fitted import FEATURES, TURN, WEIGHTS, features, softmax
from ..ai.search import policy
from ..ai.value import market, outlook
from ..arguments import command_line, whole_number
from ..engine.game import Game
from ..engine.simulate import DEFAULT_NAMES, MAX_MOVES, Dealer, random_setup
from ..i18n import _, number, percent
from .review import shares

FIRST_SEED = {2: 1_000_000, 3: 3_000_000, 4: 4_000_000}
"""Game ``n`` of each size is dealt and played from seed ``FIRST_SEED[size] + n`` (the
two-player games are those the first fit was made from)."""
SIZES = (2, 3, 4)
L2 = 1e-3  # a little ridge, so that a feature that barely varies keeps a small weight
HELD_OUT = 5  # one position in HELD_OUT is kept out of the fit, to judge it


@dataclass(frozen=True)
class Sample:
    """One position: each seat's inputs in turn order from the seat to act (its features,
    then one 1 for its place among the first ``size - 1``), which of them won (an index
    in that order), and the hand-tuned judgement's chances as shares, in the same order."""

    seats: tuple[tuple[float, ...], ...]
    winner: int
    hand: tuple[float, ...]


def inputs(game: Game) -> tuple[tuple[tuple[float, ...], ...], tuple[int, ...]]:
    """Every seat's inputs (features and place) in turn order from the seat to act, and
    the seats in that order."""
    size = len(game.seats)
    order = tuple((game.to_act + k) % size for k in range(size))
    cards, nobles = market(game), game.nobles
    rows = tuple(
        (
            *features(game.seat(s), cards, nobles),
            *(1.0 if place == k else 0.0 for place in range(size - 1)),
        )
        for k, s in enumerate(order)
    )
    return rows, order


def samples(game_number: int, players: int = 2) -> list[Sample]:
    """The positions of game ``game_number`` of ``players`` seats (about every second one
    from the second round on)."""
    rng = random.Random(FIRST_SEED[players] + game_number)
    game = Game(random_setup(rng, DEFAULT_NAMES[:players]))
    dealer = Dealer(game, rng)
    seen: list[tuple[tuple[tuple[float, ...], ...], tuple[int, ...], tuple[float, ...]]] = []
    while not game.over and not game.stalled and len(game.moves) < MAX_MOVES:
        if len(game.moves) >= 2 * players and rng.random() < 0.5:
            # A seat once drawn here to see the position from; kept so that the games (and
            # so the two-player weights the expert plays with) stay those of the first fit.
            rng.randrange(players)
            rows, order = inputs(game)
            hand = shares([outlook(game, s) for s in order])
            seen.append((rows, order, hand))
        game.push(dealer.deal(policy(game, rng)))
    first = [s.seat for s in game.standings() if s.rank == 1] if game.over else []
    if len(first) != 1:
        return []
    return [Sample(rows, order.index(first[0]), hand) for rows, order, hand in seen]


def chances(w: Sequence[float], sample: Sample) -> list[float]:
    """Each seat's chance that weights ``w`` give, in the sample's order.

    >>> chances([1.0, 0.0], Sample(((1.0, 1.0), (1.0, 0.0)), 0, (0.5, 0.5)))
    [0.5, 0.5]
    """
    return softmax([sum(a * b for a, b in zip(w, x, strict=True)) for x in sample.seats])


def fit(data: Sequence[Sample], iterations: int = 12, l2: float = L2) -> list[float]:
    """The weights of the conditional logit of the winner on each seat's inputs, by
    Newton's method (no intercept: one weight for every seat's same input).

    >>> data = [Sample(((x,), (0.0,)), int(x < 0), (0.5, 0.5)) for x in (-2.0, -1.0, 1.0, 2.0)]
    >>> noisy = [Sample(((0.5,), (0.0,)), 1, (0.5, 0.5)), Sample(((-0.5,), (0.0,)), 0, (0.5, 0.5))]
    >>> fit(data + noisy)[0] > 0
    True
    """
    d = len(data[0].seats[0])
    w = [0.0] * d
    for _step in range(iterations):
        gradient = [0.0] * d
        hessian = [[0.0] * d for _ in range(d)]
        for sample in data:
            p = chances(w, sample)
            mean = [sum(pk * x[i] for pk, x in zip(p, sample.seats, strict=True)) for i in range(d)]
            won = sample.seats[sample.winner]
            for i in range(d):
                gradient[i] += mean[i] - won[i]
            for pk, x in zip(p, sample.seats, strict=True):
                c = [x[i] - mean[i] for i in range(d)]
                for i in range(d):
                    if c[i] == 0.0:
                        continue
                    row, ci = hessian[i], pk * c[i]
                    for j in range(i, d):
                        row[j] += ci * c[j]
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


def two_players(sample: Sample) -> tuple[float, ...]:
    """The chances the two-player weights give at a larger table, as the expert judged
    before it had a fit for each size: each seat's lead over its best rival, through the
    logistic function, as shares of all."""
    n = len(FEATURES)
    scores = [
        sum(a * b for a, b in zip(WEIGHTS, x[:n], strict=True)) + (TURN if k == 0 else 0.0)
        for k, x in enumerate(sample.seats)
    ]
    leads = [
        1.0 / (1.0 + math.exp(max(v for j, v in enumerate(scores) if j != i) - mine))
        for i, mine in enumerate(scores)
    ]
    return shares(leads)


def judged(said: Sequence[Sequence[float]], data: Sequence[Sample]) -> tuple[float, float]:
    """How often ``said`` (each sample's chances) names the winner (the seat given the
    highest chance), and the mean log loss of the winner's chance (lower is better)."""
    right = sum(
        1
        for p, s in zip(said, data, strict=True)
        if max(range(len(p)), key=p.__getitem__) == s.winner
    )
    loss = -sum(math.log(max(p[s.winner], 1e-12)) for p, s in zip(said, data, strict=True))
    return right / len(data), loss / len(data)


def report(size: int, games: int, workers: int) -> list[float]:
    """Play ``games`` games of ``size`` seats, fit, print how well the fit and the
    hand-tuned judgement do on the positions held out and the weights; the weights."""
    start = time.perf_counter()
    with ProcessPoolExecutor(workers) as pool:
        played = pool.map(partial(samples, players=size), range(games), chunksize=20)
        data = [s for game in played for s in game]
    # Held out by position, in a fixed order: the fit never sees them.
    train = [s for i, s in enumerate(data) if i % HELD_OUT]
    test = [s for i, s in enumerate(data) if not i % HELD_OUT]
    w = fit(train)
    print(
        _(
            "{players} players: {positions} positions from {games} games, fitted in {seconds} s"
        ).format(
            players=size,
            positions=number(len(data)),
            games=number(games),
            seconds=number(time.perf_counter() - start),
        )
    )
    fitted = judged([chances(w, s) for s in test], test)
    hand = judged([s.hand for s in test], test)
    rows = [(_("fitted"), fitted), (_("hand-tuned"), hand)]
    if size > 2:
        two = judged([two_players(s) for s in test], test)
        rows.insert(1, (_("two-player fit"), two))
    for name, (right, loss) in rows:
        print(
            _(
                "{name}: names the winner of {right} of {n} positions held out; log loss {loss}"
            ).format(name=name, right=percent(right), n=number(len(test)), loss=number(loss, 4))
        )
    print(
        _("chance alone: {right}; log loss {loss}").format(
            right=percent(1 / size), loss=number(math.log(size), 4)
        )
    )
    print(f"WEIGHTS[{size}] = (")
    for name, weight in zip(FEATURES, w, strict=False):
        print(f"    {weight:.4f},  # {name}")
    print(")")
    places = [*w[len(FEATURES) :], 0.0]
    print(f"PLACES[{size}] = ({', '.join(f'{p:.4f}' for p in places)})")
    return w


def main(argv: Sequence[str] | None = None) -> int:
    with command_line(
        "python -m companion.coach.fit",
        _(
            "Fit the expert's judgement to games of the playouts' policy, for each table "
            "size, and print its weights."
        ),
    ) as parser:
        parser.add_argument(
            "--games",
            type=whole_number(100, 1_000_000),
            default=6000,
            help=_("games played at each table size"),
        )
        parser.add_argument(
            "--players",
            type=int,
            nargs="+",
            choices=SIZES,
            default=list(SIZES),
            help=_("the table sizes to fit"),
        )
        parser.add_argument("--workers", type=whole_number(1, 64), default=2, help=_("processes"))
        args = parser.parse_args(argv)
    scratch.enter("splendor-fit-")  # never a kiosk's folders, whatever is set
    for size in args.players:
        report(size, args.games, args.workers)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
