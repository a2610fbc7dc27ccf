"""The fault-injection soak (issue 12): 200 randomized runs of pr / issues / comment / dispatch with lost
responses, slow responses, 5xx, rate limits and concurrent pairs -> 0 duplicates, final state consistent.

The engine is :mod:`tests.github.soak`; ``benchmarks/gh_soak.py`` runs a bigger one and prints timings.
"""

from __future__ import annotations

from tests.github.soak import soak


def test_soak_200_runs_leaves_no_duplicates(tmp_path, capsys):
    figures, found = soak(runs=200, seed=12, work=tmp_path)
    assert figures["runs"] == 200
    assert figures["faults injected"] >= 80 and figures["concurrent pairs"] >= 10  # the faults really happened
    assert found == {k: 0 for k in found} and len(found) >= 10, found
    with capsys.disabled():
        print(f"\nsoak: {dict(figures)}; duplicates/inconsistencies: {found}")
