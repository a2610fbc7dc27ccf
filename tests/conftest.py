"""Every test runs without side effects on the outside world.

* **No network**: pytest-socket (``--allow-hosts=127.0.0.1,::1`` in pyproject's ``addopts``) makes any
  ``connect`` to another host raise ``SocketConnectBlockedError``; the fake GitHub on loopback still works.
  Tests that really need the network carry a marker saying so, and only those get the socket back:
  ``real`` (downloads real amd-quark wheels from PyPI) and ``e2e`` (runs workflows with act).
* **No model hub**: ``HF_HUB_OFFLINE=1`` for every test, so nothing downloads weights or data sets;
  ``QUARKCI_DOCS_URL`` is unset, so goldens hold the default help URLs, and so is the CI run's id
  (``QUARKCI_RUN_ID``, ``GITHUB_RUN_ID``, ``GITHUB_RUN_ATTEMPT``) and its commit (``GITHUB_SHA``), so
  reports record none.
* **Nothing installed**: tools come from the test extra (scripts/test.sh installs it); a test whose
  tool is missing fails with one line naming it, it never runs pip or apt-get.
* **Parallel-safe**: scripts/test.sh runs the suite on several pytest-xdist workers (``--dist loadgroup``).
  Tests that share a costly session or module fixture are kept on one worker as one ``xdist_group``
  (see :func:`xdist_group_of`); every other test may run on any worker, beside any other, so it keeps
  its files under ``tmp_path``, never at a fixed path that another worker's test could also use.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

NETWORK_MARKERS: tuple[str, ...] = ("real", "e2e")
TESTS = Path(__file__).resolve().parent
# demo_model, analysis, pipeline: built once per session and shared by tests/ptq, tests/day0, tests/workflows
pytest_plugins = ["tests.ml_fixtures"]

os.environ.setdefault("HF_HUB_OFFLINE", "1")
if os.environ.get("PYTEST_XDIST_WORKER"):
    # Workers share the cores: one OpenMP/MKL thread each. With torch's default (a thread per core),
    # its threads spin-wait for each other while other workers hold the cores (measured on 2 cores, 3
    # workers: 1,240 CPU-s and 706 s for the suite with torch's default, 877 CPU-s and 514 s with one).
    for _name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(_name, "1")
# A fork's docs URL (SARIF helpUri) must not leak into the goldens.
os.environ.pop("QUARKCI_DOCS_URL", None)
# Nor the CI run's id and commit (report run_id, head_sha): a test that needs one sets it.
for _name in ("QUARKCI_RUN_ID", "GITHUB_RUN_ID", "GITHUB_RUN_ATTEMPT", "GITHUB_SHA"):
    os.environ.pop(_name, None)


def xdist_group_of(item: pytest.Item) -> str | None:
    """The pytest-xdist group that ``item`` must share a worker with, or None when it may run anywhere.

    * ``ml``: every test of the session's demo model (tests/ml_fixtures.py), so the model, the
      ``quark.torch`` import and the memoised PTQ exports are paid once, not once per worker;
    * ``act``: the workflows run under act (marker ``e2e``): each is minutes of CPU, kept in a row;
    * ``verify``: tests/verify shares one torch cpp_extension build directory (the JIT build is paid
      once);
    * ``real:<path>``: a module of real-wheel tests, whose module fixtures extract a release's facts once.
    """
    if item.get_closest_marker("e2e"):
        return "act"
    if "demo_model" in getattr(item, "fixturenames", ()):
        return "ml"
    path = item.path.resolve()
    if path.is_relative_to(TESTS / "verify"):
        return "verify"
    if item.get_closest_marker("real"):
        return f"real:{path.relative_to(TESTS).as_posix()}"  # the module path, not its bare file name
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Give the socket back only to tests marked as needing the network (see NETWORK_MARKERS); put
    each test that must share a worker into its ``xdist_group`` (read by ``--dist loadgroup``)."""
    for item in items:
        if any(item.get_closest_marker(name) for name in NETWORK_MARKERS):
            item.add_marker(pytest.mark.enable_socket)
        group = xdist_group_of(item)
        if group is not None and not item.get_closest_marker("xdist_group"):
            item.add_marker(pytest.mark.xdist_group(group))
