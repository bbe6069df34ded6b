"""The review's chances as rates: what a chance said turned out to win, by table size.

The knots are fitted by ``python -m companion.coach.calibrate --fit`` (isotonic regression of
the share won on the chance the review said, from games played on by experts; see
docs/review.md): each is (chance said, share won), the chance said rising. Between two knots a
chance is read on the straight line between them; below the first and above the last, on
the line to (0, 0) and to (1, 1): a lost game is 0, a won one 1, whatever the fit saw.

>>> calibrated(0.0, 2), calibrated(1.0, 4), round(calibrated(0.5, 2), 2)
(0.0, 1.0, 0.5)
>>> calibrated(0.5, 5)  # a table size with no fit: the chance as said
0.5
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

KNOTS: dict[int, tuple[tuple[float, float], ...]] = {
    # python -m companion.coach.calibrate --fit: games 1000 to 1180 (calibrate --games 181
    # --every 4) and 100 to 199 (review_bench --verify --first 100), reviewed at the default
    # budget, played on by experts at 40 playouts a decision (the same moves' worth at three
    # and four players); games 0 to 99 stay out, for --verify (docs/review.md).
    2: (
        (0.1483, 0.0361),
        (0.3177, 0.2167),
        (0.4147, 0.4349),
        (0.4765, 0.4706),
        (0.5162, 0.5227),
        (0.5679, 0.5491),
        (0.6475, 0.7065),
        (0.8208, 0.9289),
    ),  # 1,974 chances
    3: (
        (0.0879, 0.0484),
        (0.2057, 0.1775),
        (0.2555, 0.2511),
        (0.287, 0.2893),
        (0.3252, 0.3391),
        (0.3636, 0.367),
        (0.4059, 0.4352),
        (0.5979, 0.6016),
    ),  # 4,638
    4: (
        (0.0626, 0.0164),
        (0.1519, 0.0911),
        (0.1887, 0.1641),
        (0.2166, 0.2023),
        (0.2355, 0.2216),
        (0.257, 0.2679),
        (0.2988, 0.3239),
        (0.4636, 0.5326),
    ),  # 7,676
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
