"""The review's chances as rates: what a chance said turned out to win, by table size.

The knots are fitted by ``python -m companion.coach.calibrate --fit`` (isotonic regression of
the share won on the chance the review said, from games played on by experts; see
docs/review.md): each is (chance said, share won), the chance said rising. Between two knots a
chance is read on the straight line between them; below the first and above the last, on
the line to (0, 0) and to (1, 1): a lost game is 0, a won one 1, whatever the fit saw.

>>> calibrated(0.0, 2), calibrated(1.0, 4), round(calibrated(0.5, 2), 3)
(0.0, 1.0, 0.5)
>>> calibrated(0.5, 5)  # a table size with no fit: the chance as said
0.5
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

KNOTS: dict[int, tuple[tuple[float, float], ...]] = {
    # python -m companion.coach.calibrate --games 181 --every 4: games 1000 to 1180, reviewed
    # at the default budget, played on by experts at 40 playouts a decision (the table's
    # share of it at three and four players; docs/review.md).
    2: (
        (0.1519, 0.0414),
        (0.3135, 0.2348),
        (0.4188, 0.4187),
        (0.4821, 0.4791),
        (0.5156, 0.5182),
        (0.5657, 0.5521),
        (0.6526, 0.7083),
        (0.8306, 0.9408),
    ),  # 1,554 chances
    3: (
        (0.0897, 0.0486),
        (0.206, 0.184),
        (0.2549, 0.2535),
        (0.2872, 0.2763),
        (0.3268, 0.3303),
        (0.3695, 0.3893),
        (0.4242, 0.4747),
        (0.6275, 0.6277),
    ),  # 3,639
    4: (
        (0.0713, 0.0205),
        (0.1616, 0.1166),
        (0.1967, 0.1757),
        (0.2264, 0.2147),
        (0.2493, 0.2727),
        (0.2664, 0.2752),
        (0.2989, 0.322),
        (0.4646, 0.5178),
    ),  # 6,048
}
"""Per table size, (chance said, share won), from ``calibrate --fit`` (docs/review.md)."""


def calibrated(said: float, players: int) -> float:
    """The share of games won from positions where the review said ``said``, at a table of
    ``players``; ``said`` itself where no fit is known."""
    knots = KNOTS.get(players)
    return through(knots, said) if knots else said


def through(knots: Sequence[tuple[float, float]], said: float) -> float:
    """``said`` read through ``knots``: on the straight line between the two around it.

    >>> through(((0.2, 0.1), (0.6, 0.7)), 0.4)
    0.4
    """
    points = ((0.0, 0.0), *knots, (1.0, 1.0))
    for (x0, y0), (x1, y1) in pairwise(points):
        if said <= x1:
            if x1 <= x0:
                return y1
            return y0 + (y1 - y0) * (max(said, x0) - x0) / (x1 - x0)
    return 1.0
