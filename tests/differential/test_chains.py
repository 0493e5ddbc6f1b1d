"""Differential fuzzing of ember against pandas, CI-sized: random frames, random chains of operations.

Each chain runs on pandas and on ember (``em.from_pandas``) and the two are compared after every step
(see fuzz_engine.py). A chain passes when the results are equal, when ember raises NotImplementedError,
or when both raise; it fails when ember raises where pandas answered, answers where pandas raised, or
answers differently. The examples are fixed (hypothesis derandomized, NumPy seeds), so CI is
deterministic; known open divergences are listed in fuzz_known.py. The long run is ``make fuzz``
(``python tests/differential/run.py --chains N``).

EMBER_FUZZ_CI_EXAMPLES / EMBER_FUZZ_CI_CHAINS scale the two tests.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fuzz_engine as fe  # noqa: E402
from fuzz_known import KNOWN, KNOWN_RESULTS, known, known_result  # noqa: E402
from fuzz_ops import TABLE  # noqa: E402

import ember as em  # noqa: E402

EXAMPLES = int(os.environ.get("EMBER_FUZZ_CI_EXAMPLES", 150))
CHAINS = int(os.environ.get("EMBER_FUZZ_CI_CHAINS", 800))
BLOCKS = 4
SEED = 20251204


COLLECT = os.environ.get("EMBER_FUZZ_COLLECT")  # a file: list the divergences there instead of failing


def _fail_if_divergent(pobj, steps, out, shrink: bool = False) -> None:
    if out.status != fe.DIVERGENCE or known_result(out, steps, pobj):
        return
    if shrink:
        pobj, steps, out = fe.shrink(pobj, steps, out, budget=80)
    if COLLECT:
        with open(COLLECT, "a") as f:
            f.write(
                f"--- [{out.step.op}] {out.kind}\n# {out.signature}\n{fe.repro(pobj, steps[: out.steps_run], out)}\n\n"
            )
        return
    pytest.fail(
        f"ember diverges from pandas at step {out.steps_run} [{out.step.op}] ({out.kind}):\n"
        f"{fe.repro(pobj, steps[: out.steps_run], out)}",
        pytrace=False,
    )


@settings(
    max_examples=EXAMPLES,
    derandomize=os.environ.get("HYPOTHESIS_PROFILE") != "explore",
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
@given(st.data())
def test_chains_hypothesis(data):
    pobj, steps, out = fe.fuzz_one(fe.HypothesisDrawer(data), TABLE, known)
    _fail_if_divergent(pobj, steps, out)


@pytest.mark.parametrize("block", range(BLOCKS))
def test_chains_seeded(block):
    per = CHAINS // BLOCKS
    for i in range(block * per, (block + 1) * per):
        pobj, steps, out = fe.fuzz_one(fe.RngDrawer([SEED, i]), TABLE, known)
        _fail_if_divergent(pobj, steps, out, shrink=True)


# ------------------------------------------------------------------- the fuzzer's own machinery


def test_compare_sees_differences():
    s = pd.Series([1.0, np.nan, 3.0], index=[2, 0, 1], name="a")
    assert fe.compare(s, em.from_pandas(s)) is None
    assert fe.compare(s, em.from_pandas(s.astype("float32"))) is not None  # dtype
    assert fe.compare(s, em.from_pandas(s.reset_index(drop=True))) is not None  # index
    assert fe.compare(s, em.from_pandas(s.rename("b"))) is not None  # name
    assert fe.compare(s, em.from_pandas(s.fillna(0))) is not None  # a missing value
    assert fe.compare(s, em.from_pandas(s + 1e-9)) is None  # within pandas' float tolerance
    df = pd.DataFrame({"a": [1, 2], "b": ["x", "y"]})
    assert fe.compare(df, em.from_pandas(df[["b", "a"]])) is not None  # column order
    assert fe.compare(3, 3.0000001) is None and fe.compare(3, 4) is not None


def test_run_chain_outcomes():
    df = pd.DataFrame({"a": [3, 1, 2], "b": ["x", "y", None]})
    ok = fe.Step("sort", (fe.Attr("sort_values"), fe.Call(("a",), {"kind": "stable"})))
    assert fe.run_chain(df, [ok]).status == fe.PASS
    bad_key = fe.Step("getitem", (fe.Item("zz"),))
    out = fe.run_chain(df, [bad_key])
    assert out.status == fe.BOTH_RAISE and out.kind == "pd:KeyError/em:KeyError"
    # a step whose two sides differ by construction: a divergence, and its repro names the step
    differs = fe.Step("module", (fe.Attr("__module__"),))
    out = fe.run_chain(df, [ok, differs])
    assert out.status == fe.DIVERGENCE and out.steps_run == 2 and out.key == ("module", "values")
    text = fe.repro(df, [ok, differs], out)
    assert "r = r.sort_values('a', kind='stable')" in text and "r = r.__module__" in text


def test_repro_code_round_trips():
    bad = []
    for i in range(60):
        d = fe.RngDrawer([7, i])
        obj = fe.draw_frame(d) if i % 2 else fe.draw_series(d)
        if not fe._roundtrips(obj, fe.obj_code(obj)):
            bad.append(fe.obj_code(obj))
    assert not bad, bad[:3]


def test_known_lists_are_well_formed():
    for entry in (*KNOWN, *KNOWN_RESULTS):
        assert len(entry) == 3 and all(isinstance(x, str) and x for x in entry), entry
