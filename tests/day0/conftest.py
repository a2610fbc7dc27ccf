"""Fixtures for the day-0 ML tier: the session's demo model (tests/ml_fixtures.py), a baseline cache
shared by the runs."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def demo_source(demo_model: Path) -> Path:
    """The session's demo model (built once, shared with the PTQ tests) as the day-0 source."""
    pytest.importorskip("lm_eval")
    return demo_model


@pytest.fixture(scope="session")
def shared_cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("day0-cache")
