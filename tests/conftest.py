"""Runs the suite on one backend: ``--backend cpu`` (default, CI) or ``--backend gpu`` (GPU host).

Every test sees the chosen device as ember's current device; tests marked ``gpu`` are skipped on the
CPU backend.
"""

from __future__ import annotations

import numpy as np
import pytest

import ember


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--backend", choices=("cpu", "gpu"), default="cpu", help="device ember's columns live on"
    )


def pytest_configure(config: pytest.Config) -> None:
    backend = config.getoption("--backend")
    ember.config.set(device=backend)  # raises with the install hint when the GPU is asked for and absent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--backend") == "gpu":
        return
    skip = pytest.mark.skip(reason="needs --backend gpu on a GPU host")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    return request.config.getoption("--backend")


@pytest.fixture
def xp(backend: str):
    """The array module of the backend under test (numpy or cupy)."""
    return ember.backend.xp() if backend == "gpu" else np
