"""Summaries of measured values: the one percentile definition every report and benchmark uses.

Linear interpolation between the two nearest ranks (numpy's default, Excel's PERCENTILE.INC, R type 7), so
the 50th percentile is the median that `statistics.median` gives, for odd and even counts alike.
"""

from __future__ import annotations

import math
from typing import Iterable

__all__ = ["percentile", "percentiles"]


def percentile(values: Iterable[float], q: float) -> float:
    """The q-th percentile (0 <= q <= 100) of `values`, interpolated linearly; NaN for no values."""
    if not 0 <= q <= 100:
        raise ValueError(f"a percentile is between 0 and 100, got {q}")
    ordered = sorted(float(v) for v in values)
    if not ordered:
        return float("nan")
    rank = q / 100 * (len(ordered) - 1)
    low = math.floor(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def percentiles(values: Iterable[float], qs: Iterable[float] = (50, 95, 99)) -> dict[str, float]:
    """{"p50": ..., "p95": ..., ...} for the given percentiles (names as the reports print them)."""
    ordered = sorted(float(v) for v in values)
    return {f"p{q:g}": percentile(ordered, q) for q in qs}
