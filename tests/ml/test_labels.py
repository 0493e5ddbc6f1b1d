"""Host label encoding: the counting fast path for small integer ranges equals np.unique's answer."""

from __future__ import annotations

import numpy as np
import pytest

from ember.ml._base import unique_inverse


@pytest.mark.parametrize(
    "y",
    [
        np.random.default_rng(0).integers(-5, 9, 10_000),
        np.random.default_rng(1).integers(0, 3, 10_000).astype(np.uint8),
        np.random.default_rng(2).integers(0, 2**40, 10_000),  # wide range: the sorting path
        np.arange(5),
        np.array(["b", "a", "b"]),
    ],
    ids=["small-signed", "uint8", "wide", "tiny", "strings"],
)
def test_unique_inverse_equals_numpy(y):
    classes, inv = unique_inverse(y)
    ref_classes, ref_inv = np.unique(y, return_inverse=True)
    assert classes.dtype == ref_classes.dtype
    np.testing.assert_array_equal(classes, ref_classes)
    np.testing.assert_array_equal(inv, ref_inv)
