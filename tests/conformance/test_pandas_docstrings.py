"""The examples of pandas' own docstrings, run with ember (scripts/pandas_docstrings.py): none gives a
value that differs from pandas' except the known ones listed here, and the runner does catch a wrong
value when one is planted."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import ember as em

_PATH = Path(__file__).resolve().parents[2] / "scripts" / "pandas_docstrings.py"


def _load_runner():
    name = "pandas_docstrings"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, _PATH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


runner = _load_runner()

# The areas this test runs (all of them take ~10 s on one core; `make doctest-pandas` writes the report).
AREAS = runner.AREAS

# Examples where ember is known to give a value that differs from pandas', each with its reason.
# Remove an entry when its fix lands (test_known_wrong_list_is_current says which ones pass now).
# Examples whose input comes from one of these (cascade_of) are covered by it.
KNOWN_WRONG: dict[str, str] = {}


@pytest.fixture(scope="module")
def results():
    return runner.run_all(AREAS, timeout=10.0)


def test_no_new_wrong_examples(results):
    wrong = [r for r in results if r.status == "wrong"]
    new = [
        f"{r.id} ({r.kind}): {r.source[:80]!r}\n    {r.detail[:300]}"
        for r in wrong
        if r.id not in KNOWN_WRONG and r.cascade_of not in KNOWN_WRONG
    ]
    assert not new, "ember differs from pandas in these docstring examples:\n" + "\n".join(new)


def test_known_wrong_list_is_current(results):
    by_id = {r.id: r for r in results}
    fixed = [i for i in KNOWN_WRONG if i in by_id and by_id[i].status != "wrong"]
    assert not fixed, f"no longer wrong (remove from KNOWN_WRONG): {fixed}"


def test_runner_ran_the_areas(results):
    counts = runner.counts(results)
    for area in AREAS:
        assert counts[area]["pass"] > 0, area
    assert counts["overall"]["total"] > 3000


def _run(text, **overrides):
    doc = runner.Doc("seeded", "top-level", text)
    return {r.index: r for r in runner.run_doc(doc, timeout=10.0, overrides=overrides)}


SEEDED = """
>>> s1 = pd.Series([1, 2])
>>> s2 = pd.Series([3])
>>> pd.concat([s1, s2])
0    1
1    2
0    3
dtype: int64
>>> both = pd.concat([s1, s2])
>>> int(s1.sum())
3
"""


def test_seeded_values_pass_when_right():
    res = _run(SEEDED)
    assert [res[i].status for i in range(5)] == ["pass"] * 5, [(r.id, r.detail) for r in res.values()]


def test_seeded_wrong_value_order_dtype_and_state_are_caught():
    res = _run(SEEDED, concat=lambda objs, **kw: em.concat(objs[::-1], **kw))
    assert res[2].status == "wrong" and res[2].kind == "value"
    assert res[3].status == "wrong" and res[3].kind == "state"  # bound, never printed
    res = _run(SEEDED, concat=lambda objs, **kw: em.concat(objs, **kw).astype("float64"))
    assert res[2].status == "wrong" and "dtype" in res[2].detail
    res = _run(SEEDED, concat=lambda objs, **kw: em.concat(objs, ignore_index=True))
    assert res[2].status == "wrong" and "index" in res[2].detail.lower()


def test_accepting_what_pandas_rejects_is_wrong():
    text = """
>>> pd.to_numeric(pd.Series(["a"]))
Traceback (most recent call last):
ValueError: Unable to parse string "a" at position 0
"""
    assert _run(text)[0].status == "pass"
    res = _run(text, to_numeric=lambda arg, **kw: em.Series([0.0]))
    assert res[0].status == "wrong" and res[0].kind == "accepts"


def test_unsupported_blocks_later_examples_and_errors_are_errors():
    def refuse(*args, **kwargs):
        raise NotImplementedError("concat: seeded")

    res = _run(SEEDED, concat=refuse)
    assert res[2].status == "unsupported"
    assert res[3].status == "unsupported"
    assert res[4].status == "pass"  # does not use the missing result
    text = SEEDED + ">>> both.sum()\nnp.int64(6)\n"
    res = _run(text, concat=refuse)
    assert res[5].status == "unsupported" and res[5].blocked_by == "seeded#3"

    def fail(*args, **kwargs):
        raise ValueError("seeded")

    assert _run(SEEDED, concat=fail)[2].status == "error"


def test_repr_only_differences_are_not_wrong():
    runner.compare(6, np.int64(6))
    runner.compare(1.5, np.float64(1.5))
    runner.compare(em.Series, pd.Series)
    runner.compare(["a"], pd.Index(["a"]).names.__class__(["a"]))
    with pytest.raises(runner.Different):
        runner.compare(6.0, np.int64(6))  # float where pandas gives an integer
    with pytest.raises(runner.Different):
        runner.compare(np.float32(1.5), np.float64(1.5))
    with pytest.raises(runner.Different):
        runner.compare(pd.Series([1, 2], index=[1, 0]), pd.Series([1, 2]))
