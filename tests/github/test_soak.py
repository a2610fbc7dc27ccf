"""The fault-injection soak (issue 12): 200 randomized runs of pr / issues / comment / dispatch with lost
responses, slow responses, 5xx, rate limits and concurrent pairs -> 0 duplicates, final state consistent.

The engine is :mod:`tests.github.soak`; ``benchmarks/gh_soak.py`` runs a bigger one and prints timings.
"""

from __future__ import annotations

import pytest

from tests.github.soak import soak

pytestmark = pytest.mark.usefixtures("tight_timeout")  # faults sleep past a 1 s client timeout


def test_soak_200_runs_leaves_no_duplicates(tmp_path, capsys):
    figures, found = soak(runs=200, seed=12, work=tmp_path)
    assert figures["runs"] == 200
    assert (
        figures["faults injected"] >= 80 and figures["concurrent pairs"] >= 10
    )  # the faults really happened
    assert found == {k: 0 for k in found} and len(found) >= 10, found
    with capsys.disabled():
        print(f"\nsoak: {dict(figures)}; duplicates/inconsistencies: {found}")


def test_the_soak_leaves_the_process_environment_as_it_found_it(tmp_path, capsys):
    """The soak sets a token for its threads; a token left behind sent later tests' dry runs to the real API."""
    import os

    keys = ("GITHUB_TOKEN", "GITHUB_REPOSITORY", "QUARKCI_GH_LOGIN")
    before = {k: os.environ.get(k) for k in keys}
    soak(runs=8, seed=3, work=tmp_path)
    assert {k: os.environ.get(k) for k in keys} == before
