"""Pickling an ember frame through the Dask serializers keeps its column axis' type, as pandas does."""

import pickle

import pandas as pd
import pytest

import ember as em

pytest.importorskip("dask")
import ember.dask  # noqa: E402,F401  (registers ember's pickle reducers)
from ember.dask.serialize import dask_deserialize_ember, dask_serialize_ember  # noqa: E402

BUILDS = {
    "no_columns_selected": lambda m: m.DataFrame({"a": [1, 2]})[[]],
    "empty_constructor": lambda m: m.DataFrame(),
    "empty_columns_list": lambda m: m.DataFrame(columns=[]),
    "int_labels": lambda m: m.DataFrame({0: [1.0], 1: [2.0]}),
}


@pytest.mark.parametrize("name", list(BUILDS))
def test_pickle_keeps_the_column_axis(name):
    expected = BUILDS[name](pd)
    got = pickle.loads(pickle.dumps(BUILDS[name](em))).to_pandas()
    pd.testing.assert_index_equal(got.columns, expected.columns, exact=True)


@pytest.mark.parametrize("name", list(BUILDS))
def test_dask_serializers_keep_the_column_axis(name):
    expected = BUILDS[name](pd)
    header, frames = dask_serialize_ember(BUILDS[name](em))
    got = dask_deserialize_ember(header, frames).to_pandas()
    pd.testing.assert_index_equal(got.columns, expected.columns, exact=True)
