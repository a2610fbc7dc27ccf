"""Fixtures for the day-0 ML tier: one demo model per session, a baseline cache shared by the runs."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def demo_source(tmp_path_factory) -> Path:
    pytest.importorskip("torch")
    pytest.importorskip("quark")
    pytest.importorskip("lm_eval")
    from quarkci.cli import main

    os.environ["HF_HUB_OFFLINE"] = "1"
    out = tmp_path_factory.mktemp("day0-demo") / "demo"
    assert main(["demo-model", "--out", str(out)]) == 0
    return out


@pytest.fixture(scope="session")
def shared_cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("day0-cache")
