"""Every test runs without side effects on the outside world.

* **No network**: pytest-socket (``--allow-hosts=127.0.0.1,::1`` in pyproject's ``addopts``) makes any
  ``connect`` to another host raise ``SocketConnectBlockedError``; the fake GitHub on loopback still works.
  Tests that really need the network carry a marker saying so, and only those get the socket back:
  ``real`` (downloads real amd-quark wheels from PyPI) and ``e2e`` (runs workflows with act).
* **No model hub**: ``HF_HUB_OFFLINE=1`` for every test, so nothing downloads weights or data sets;
  ``QUARKCI_DOCS_URL`` is unset, so goldens hold the default help URLs.
* **Nothing installed**: tools come from the test extra (scripts/test.sh installs it); a test whose
  tool is missing fails with one line naming it, it never runs pip or apt-get.
"""

from __future__ import annotations

import os

import pytest

NETWORK_MARKERS: tuple[str, ...] = ("real", "e2e")
# demo_model, analysis, pipeline: built once per session and shared by tests/ptq, tests/day0, tests/workflows
pytest_plugins = ["tests.ml_fixtures"]

os.environ.setdefault("HF_HUB_OFFLINE", "1")
# A fork's docs URL (SARIF helpUri) must not leak into the goldens.
os.environ.pop("QUARKCI_DOCS_URL", None)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Give the socket back only to tests marked as needing the network (see NETWORK_MARKERS)."""
    for item in items:
        if any(item.get_closest_marker(name) for name in NETWORK_MARKERS):
            item.add_marker(pytest.mark.enable_socket)
