"""ember.config: options set for the process or for a ``with`` block, EMBER_DEVICE, and the clear error
that names the fix when the GPU is asked for on a machine without one."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import numpy as np
import pytest

import ember
from ember.backend import DeviceUnavailableError, current_device, gpu_available, xp

no_gpu = pytest.mark.skipif(gpu_available(), reason="needs a machine without a usable GPU")


@pytest.fixture(autouse=True)
def restore_options() -> Iterator[None]:
    """Every test leaves the options as the session set them (conftest chose the backend)."""
    saved = dict(ember.config._options)
    yield
    with ember.config._lock:
        ember.config._options.clear()
        ember.config._options.update(saved)


def python(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("EMBER_DEVICE", "EMBER_FALLBACK")}
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env={**clean, **env}
    )


def test_set_process_wide() -> None:
    ember.config.set(fallback="pandas")
    assert ember.config.get("fallback") == "pandas"
    ember.config.set(fallback="raise")
    assert ember.config.get("fallback") == "raise"


def test_set_as_context_manager_restores() -> None:
    before = ember.config.get("display.max_rows")
    with ember.config.set(display__max_rows=5, fallback="pandas") as cfg:
        assert isinstance(cfg, ember.config.set)
        assert ember.config.get("display.max_rows") == 5
        assert ember.config.get("fallback") == "pandas"
        with ember.config.set(display__max_rows=7):
            assert ember.config.get("display.max_rows") == 7
        assert ember.config.get("display.max_rows") == 5
    assert ember.config.get("display.max_rows") == before
    assert ember.config.get("fallback") == "raise"


def test_context_manager_restores_after_exception() -> None:
    with pytest.raises(RuntimeError), ember.config.set(fallback="pandas"):
        raise RuntimeError("boom")
    assert ember.config.get("fallback") == "raise"


def test_device_cpu_uses_numpy() -> None:
    with ember.config.set(device="cpu"):
        assert current_device() == "cpu"
        assert xp() is np


def test_values_are_case_insensitive() -> None:
    with ember.config.set(device="CPU", fallback="Pandas"):
        assert ember.config.get("device") == "cpu"
        assert ember.config.get("fallback") == "pandas"


@pytest.mark.parametrize(("key", "value"), [("device", "tpu"), ("device", ""), ("fallback", "ignore")])
def test_bad_values_raise_and_change_nothing(key: str, value: str) -> None:
    before = ember.config.get(key)
    with pytest.raises(ValueError, match=key):
        ember.config.set(**{key: value})
    assert ember.config.get(key) == before


def test_unknown_option() -> None:
    with pytest.raises(KeyError, match="unknown ember option"):
        ember.config.set(colour="red")
    with pytest.raises(KeyError, match="unknown ember option"):
        ember.config.get("colour")


def test_reset_forgets_settings() -> None:
    ember.config.set(fallback="pandas")
    ember.config.reset()
    assert ember.config.get("fallback") == ember.config._defaults["fallback"]


@no_gpu
def test_gpu_without_gpu_names_the_fixes() -> None:
    before = ember.config.get("device")
    with pytest.raises(DeviceUnavailableError) as exc:
        ember.config.set(device="gpu")
    message = str(exc.value)
    assert 'pip install "ember[cuda12]"' in message
    assert "EMBER_DEVICE=cpu" in message
    assert ember.config.get("device") == before  # a failed request changes nothing
    with pytest.raises(DeviceUnavailableError):
        with ember.config.set(device="gpu"):
            pass  # pragma: no cover
    assert ember.config.get("device") == before


@no_gpu
def test_auto_falls_back_to_cpu_without_gpu() -> None:
    with ember.config.set(device="auto"):
        assert current_device() == "cpu"
        assert xp() is np


def test_ember_device_env_read_at_import() -> None:
    code = "import ember; print(ember.config.get('device'), ember.backend.current_device())"
    proc = python(code, EMBER_DEVICE="CPU")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["cpu", "cpu"]
    proc = python("import ember; print(ember.config.get('device'))")
    assert proc.stdout.strip() == "auto"


def test_ember_fallback_env_read_at_import() -> None:
    proc = python("import ember; print(ember.config.get('fallback'))", EMBER_FALLBACK="pandas")
    assert proc.stdout.strip() == "pandas", proc.stderr


@no_gpu
def test_ember_device_gpu_env_without_gpu() -> None:
    """import works (the GPU is probed on first use); first use raises with the install hint."""
    code = (
        "import ember\n"
        "try:\n"
        "    ember.backend.current_device()\n"
        "except ember.backend.DeviceUnavailableError as e:\n"
        "    print('ERR', e)\n"
    )
    proc = python(code, EMBER_DEVICE="gpu")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("ERR") and "EMBER_DEVICE=cpu" in proc.stdout


def test_ember_device_bad_env_value() -> None:
    code = (
        "import ember\n"
        "try:\n"
        "    ember.backend.current_device()\n"
        "except ValueError as e:\n"
        "    print('ERR', e)\n"
    )
    proc = python(code, EMBER_DEVICE="tpu")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("ERR") and "EMBER_DEVICE" in proc.stdout


@pytest.mark.gpu
def test_gpu_device_uses_cupy() -> None:
    with ember.config.set(device="gpu"):
        assert current_device() == "gpu"
        assert xp().__name__ == "cupy"
