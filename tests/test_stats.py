"""The one percentile definition: linear interpolation, as numpy and statistics.median."""

from __future__ import annotations

import math
import statistics

import numpy as np
import pytest

from onepass.stats import percentile, percentiles


@pytest.mark.parametrize("values", [[1, 2, 3, 4], [5, 1, 9], [0.3] * 7 + [2.5], [42.0], list(range(101))])
def test_percentile_matches_numpy_and_the_median(values):
    for q in (0, 1, 10, 25, 50, 90, 95, 99, 100):
        assert math.isclose(percentile(values, q), float(np.percentile(values, q)), abs_tol=1e-12)
    assert percentile(values, 50) == statistics.median(values)


def test_percentiles_names_and_edges():
    assert percentiles([3, 1, 2], (50, 99.9)) == {"p50": 2.0, "p99.9": percentile([1, 2, 3], 99.9)}
    assert math.isnan(percentile([], 50))
    with pytest.raises(ValueError):
        percentile([1], 101)
