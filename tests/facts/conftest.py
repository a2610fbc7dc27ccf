"""Shared snapshots for the extractor tests: the miniature checkout and a wheel zipped from it."""

from __future__ import annotations

import pytest

from quarkci.upstream.checkout import CheckoutSnapshot
from quarkci.upstream.wheel import WheelSnapshot
from tests.upstream.miniwheel import MINI_CHECKOUT, build_mini_wheel


@pytest.fixture(scope="session")
def checkout() -> CheckoutSnapshot:
    return CheckoutSnapshot(MINI_CHECKOUT)


@pytest.fixture(scope="session")
def wheel(tmp_path_factory) -> WheelSnapshot:
    return WheelSnapshot(build_mini_wheel(tmp_path_factory.mktemp("wheel")))


def by_name(items):
    """``{name: [item, ...]}``."""
    out: dict[str, list] = {}
    for item in items:
        out.setdefault(item.name, []).append(item)
    return out
