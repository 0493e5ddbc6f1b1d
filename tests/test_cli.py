"""``ember info | demo | bench``: in-process and as ``python -m ember``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import types
from typing import Any

import pytest

import ember
from ember import cli
from ember.backend import INSTALL_HINT, gpu_available

no_gpu = pytest.mark.skipif(gpu_available(), reason="checks the report of a machine without a GPU")


def run_module(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ember", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **env},
    )


def test_info_in_process(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["info"]) == 0
    out = capsys.readouterr().out
    assert "device in use" in out
    for name in ("ember", "cupy", "numpy", "pandas", "pyarrow", "python"):
        assert f"  {name} " in out
    assert ember.__version__ in out


def test_info_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["info", "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["device"] in ("cpu", "gpu")
    assert info["versions"]["ember"] == ember.__version__
    assert info["versions"]["python"].count(".") == 2


@no_gpu
def test_info_without_gpu_prints_reason_and_hint(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["info"]) == 0
    out = capsys.readouterr().out
    assert "GPU               none" in out
    assert INSTALL_HINT in out
    assert 'pip install "ember[cuda12]"' in out


@no_gpu
def test_info_subprocess_without_gpu() -> None:
    proc = run_module("info")
    assert proc.returncode == 0, proc.stderr
    assert INSTALL_HINT in proc.stdout
    assert "device in use     cpu" in proc.stdout


def test_info_subprocess_respects_ember_device() -> None:
    proc = run_module("info", "--json", EMBER_DEVICE="cpu")
    assert proc.returncode == 0, proc.stderr
    info = json.loads(proc.stdout)
    assert info["device"] == "cpu" and info["device_option"] == "cpu"


@pytest.mark.gpu
def test_info_with_gpu(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["info", "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["gpu"] is True and info["gpu_name"]
    assert info["gpu_memory_total_gib"] >= info["gpu_memory_free_gib"] > 0
    assert info["cuda_runtime"].count(".") == 1
    assert info["versions"]["cupy"]


def test_help_lists_subcommands() -> None:
    proc = run_module("--help")
    assert proc.returncode == 0
    for name in ("info", "demo", "bench"):
        assert name in proc.stdout


def test_no_subcommand_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        cli.main([])
    assert exc.value.code == 2
    assert "info" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["demo", "bench"])
def test_delegates_arguments(command: str, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, Any] = {}

    def fake_main(argv: list[str]) -> int:
        seen["argv"] = argv
        return 3

    module = types.ModuleType(f"ember.{command}")
    module.main = fake_main  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, f"ember.{command}", module)
    assert cli.main([command, "--json", "out.json", "--help"]) == 3
    assert seen["argv"] == ["--json", "out.json", "--help"]


def test_delegate_module_not_installed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def missing(name: str) -> Any:
        raise ModuleNotFoundError(f"No module named {name!r}", name=name)

    monkeypatch.setattr(cli.importlib, "import_module", missing)
    assert cli.main(["bench"]) == 2
    assert "no ember.bench module" in capsys.readouterr().err
