"""``import ember`` stays small: no CuPy, Dask, scikit-learn or matplotlib until they are used, and
the test helpers import without hypothesis. Each check runs in a fresh interpreter."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

HEAVY = ("cupy", "cupyx", "dask", "distributed", "sklearn", "matplotlib", "torch", "jax", "numba", "polars")


def loaded_after(code: str) -> set[str]:
    """Top-level package names in sys.modules after running ``code`` in a fresh interpreter."""
    script = f"{code}\nimport sys, json\nprint(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}})))"
    env = {k: v for k, v in os.environ.items() if k != "EMBER_DEVICE"}
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, env=env
    )
    assert proc.returncode == 0, proc.stderr
    return set(json.loads(proc.stdout.strip().splitlines()[-1]))


@pytest.mark.parametrize(
    "code",
    [
        "import ember",
        "import ember.column",
        "import ember.interop",
        "import ember.testing",
        "import ember.cli",
    ],
)
def test_import_is_light(code: str) -> None:
    heavy = loaded_after(code) & set(HEAVY)
    assert not heavy, f"{code!r} imported {sorted(heavy)}"


def test_import_ember_does_not_import_hypothesis() -> None:
    assert "hypothesis" not in loaded_after("import ember; import ember.testing")


def test_testing_imports_without_hypothesis() -> None:
    code = (
        "import sys\n"
        "sys.modules['hypothesis'] = None  # as if it were not installed\n"
        "import ember.testing\n"
        "ember.testing.assert_eq(1.0, 1.0)\n"
        "try:\n"
        "    ember.testing.strategies\n"
        "except ImportError:\n"
        "    print('strategies need hypothesis')\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "strategies need hypothesis" in proc.stdout


def test_version() -> None:
    import ember

    assert isinstance(ember.__version__, str) and ember.__version__.count(".") == 2
