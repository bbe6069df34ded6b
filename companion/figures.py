"""The benchmarks' arithmetic: what every one of them reports the same way."""

from __future__ import annotations

from collections.abc import Sequence


def percentile(values: Sequence[float], share: float) -> float:
    """The value below which ``share`` of ``values`` lie: the nearest of the sorted values
    (no interpolation, so it is always a time that was measured).

    >>> percentile(range(1, 101), 0.99), percentile([3.0, 1.0, 2.0], 0.5)
    (99, 2.0)
    """
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]
