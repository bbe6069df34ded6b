"""The expert's judgement of a position: the hand-tuned one's ingredients, weighed by what
wins games.

:func:`~.value.outlook` (easy to hard) weighs a seat's standing by hand and compares it
with its best rival's. The expert judges the same ingredients (points, bonuses, tokens,
nobles in reach, the best cards in reach, its reserve) and a few the hand-tuned one lacks
(whose turn it is, what the seat can buy right now), with weights fitted to the outcomes of
many thousands of two-player games (a logistic regression: ``python -m companion.coach.fit``
plays the games and prints :data:`WEIGHTS`). Held out from the fit, it names the winner of
a position more often than the hand-tuned judgement does (docs/companion.md has the
figures).

A seat's standing is its table size's weights (:data:`WEIGHTS_AT`) times its
:func:`features`, plus the weight of its place in the turn order after the seat to act
(:data:`PLACES_AT`); its chance is ``exp(standing)`` over the sum of every seat's (a
conditional logit, fitted for each size; at two seats, the logistic function of its lead):

>>> import random
>>> from companion.engine.simulate import random_setup
>>> game = Game(random_setup(random.Random(1), ["Ada", "Ben"]))
>>> ada, ben = outlooks(game)
>>> ada > ben  # nothing built yet: Ada, to act, is a move ahead
True
>>> round(ada + ben, 9)  # two seats: one's chance is the other's loss
1.0

Everything here reads the public state only, like :mod:`.value`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..engine.cards import Card, Noble
from ..engine.game import Game, Seat
from .value import market, progress, pulls, reach, shortfall

FEATURES = (
    "points",
    "bonuses up to 12",
    "bonuses beyond 12",
    "tokens",
    "gold",
    "nobles' pull",
    "best cards in reach",
    "cards reserved",
    "tokens short of the reserve",
    "at the winning points",
    "points buyable now",
    "cards buyable now",
)
"""What :func:`features` measures of a seat, in order (the names ``fit`` prints)."""

WEIGHTS = (
    0.3171,  # points
    0.5338,  # bonuses up to 12
    0.1057,  # bonuses beyond 12
    0.0348,  # tokens
    -0.2740,  # gold
    0.4221,  # nobles' pull
    0.2801,  # best cards in reach
    0.0715,  # cards reserved
    -0.0173,  # tokens short of the reserve
    0.5036,  # at the winning points
    -0.0855,  # points buyable now
    0.0816,  # cards buyable now
)
"""Each feature's weight at a table of two, fitted by ``python -m companion.coach.fit`` (its
defaults: 6,000 games of each size of the playouts' policy, the two-player ones from seed
1,000,000; a test run with ``-m long`` checks that the fit still gives these)."""

TURN = 0.2507
"""The weight of being the seat to act at a table of two: a move ahead of the other."""

WEIGHTS_AT: dict[int, tuple[float, ...]] = {
    2: WEIGHTS,
    3: (
        0.3670,  # points
        0.6353,  # bonuses up to 12
        0.1196,  # bonuses beyond 12
        0.0653,  # tokens
        -0.1540,  # gold
        0.4425,  # nobles' pull
        0.3167,  # best cards in reach
        -0.0583,  # cards reserved
        -0.0098,  # tokens short of the reserve
        0.7897,  # at the winning points
        -0.1098,  # points buyable now
        0.0563,  # cards buyable now
    ),
    4: (
        0.4112,  # points
        0.6421,  # bonuses up to 12
        0.0027,  # bonuses beyond 12
        0.0686,  # tokens
        -0.1370,  # gold
        0.2838,  # nobles' pull
        0.3086,  # best cards in reach
        -0.0166,  # cards reserved
        -0.0167,  # tokens short of the reserve
        0.9655,  # at the winning points
        -0.0754,  # points buyable now
        0.0099,  # cards buyable now
    ),
}
"""Each table size's weights, fitted on that size's games (``fit`` prints them)."""

PLACES_AT: dict[int, tuple[float, ...]] = {
    2: (TURN, 0.0),
    3: (0.4077, 0.2108, 0.0000),
    4: (0.4641, 0.3128, 0.1528, 0.0000),
}
"""The weight of each place in the turn order, the seat to act first (the last 0): at a
larger table, the seat to act is a move ahead and the seat after it is next."""


def features(seat: Seat, cards: Sequence[Card], nobles: Sequence[Noble]) -> list[float]:
    """What the judgement weighs of ``seat``, with ``cards`` face up and ``nobles`` on the
    table (see :data:`FEATURES`)."""
    t, b = seat.tokens, seat.bonuses
    total = b[0] + b[1] + b[2] + b[3] + b[4]
    own = [c for c in seat.reserved if isinstance(c, Card)]
    within = (*cards, *own)
    buyable = [c.points for c in within if shortfall(seat, c) == 0]
    return [
        float(seat.points),
        float(min(total, 12)),
        float(max(0, total - 12)),
        float(min(t[0] + t[1] + t[2] + t[3] + t[4], seat.rules.token_limit)),
        float(t[5]),
        sum(n.points * progress(b, n) for n in nobles),
        sum(reach(seat, within, pulls(seat, nobles))[:3]),
        float(len(own)),
        float(sum(min(shortfall(seat, c), 8) for c in own)),
        1.0 if seat.points >= seat.rules.winning_points else 0.0,
        float(max(buyable, default=0)),
        float(min(len(buyable), 4)),
    ]


def standing(
    seat: Seat, cards: Sequence[Card], nobles: Sequence[Noble], weights: Sequence[float] = WEIGHTS
) -> float:
    """The seat's weighted :func:`features` (before its place's weight)."""
    return sum(w * f for w, f in zip(weights, features(seat, cards, nobles), strict=True))


def outlooks(game: Game) -> tuple[float, ...]:
    """Every seat's chance of winning as judged: 1 a win, 0 a loss (a shared win shared
    out), else its share of the seats' ``exp(standing)`` (at two seats, the logistic
    function of its lead over the other)."""
    if game.over or game.stalled:
        ranks = [s.rank for s in sorted(game.standings(), key=lambda s: s.seat)]
        first = ranks.count(1)
        return tuple(1.0 / first if r == 1 else 0.0 for r in ranks)
    cards, nobles = market(game), game.nobles
    to_act, size = game.to_act, len(game.seats)
    weights, places = WEIGHTS_AT[size], PLACES_AT[size]
    scores = [
        standing(s, cards, nobles, weights) + places[(i - to_act) % size]
        for i, s in enumerate(game.seats)
    ]
    if size == 2:
        a, b = scores  # as the two-player expert was measured: each against the other
        return (1.0 / (1.0 + math.exp(b - a)), 1.0 / (1.0 + math.exp(a - b)))
    return tuple(softmax(scores))


def softmax(scores: Sequence[float]) -> list[float]:
    """Each of ``scores`` as its share of all once raised to the power of e: the
    conditional logit's chances (what ``coach.fit`` fits them to).

    >>> [round(p, 3) for p in softmax([0.0, 0.0, math.log(2.0)])]
    [0.25, 0.25, 0.5]
    """
    top = max(scores)
    raised = [math.exp(v - top) for v in scores]
    total = sum(raised)
    return [v / total for v in raised]


def chance(game: Game, seat: int) -> float:
    """``seat``'s chance of winning as judged (its part of :func:`outlooks`)."""
    return outlooks(game)[seat]
