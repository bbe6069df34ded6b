"""The review's chances as rates: what a chance said turned out to win, by table size.

The knots are fitted by ``python -m companion.coach.calibrate --fit`` (isotonic regression of
the share won on the chance the review said, from games played on by experts; see
docs/review.md): each is (chance said, share won), the chance said rising. Between two knots a
chance is read on the straight line between them; below the first and above the last, on
the line to (0, 0) and to (1, 1): a lost game is 0, a won one 1, whatever the fit saw.

>>> calibrated(0.0, 2), calibrated(1.0, 4), calibrated(0.5, 2)
(0.0, 1.0, 0.5)
>>> calibrated(0.5, 5)  # a table size with no fit: the chance as said
0.5
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

KNOTS: dict[int, tuple[tuple[float, float], ...]] = {
    # python -m companion.coach.calibrate --games 61 --every 4: games 1000 to 1060, reviewed
    # at the default budget, played on by experts at 40 playouts a decision (docs/review.md).
    2: (
        (0.1145, 0.0),
        (0.2665, 0.1429),
        (0.4241, 0.384),
        (0.5, 0.5),
        (0.5508, 0.5604),
        (0.6993, 0.8222),
        (0.8855, 1.0),
    ),  # 508 chances
    3: (
        (0.0987, 0.0491),
        (0.2216, 0.1363),
        (0.275, 0.3009),
        (0.336, 0.3523),
        (0.4394, 0.4486),
        (0.694, 0.719),
    ),  # 1,260
    4: (
        (0.0612, 0.0112),
        (0.1551, 0.0817),
        (0.1981, 0.1667),
        (0.223, 0.2349),
        (0.2484, 0.2621),
        (0.2934, 0.3072),
        (0.5162, 0.6012),
    ),  # 2,020
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
