"""The routing corpus (tests/router_cases.yaml): every case must route as expected (100 %).

Accuracy is reported per split (tuned / held-out) in the test output and asserted at 100 %.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.router.scoring import REAL_CATALOG, check

TESTS = Path(__file__).resolve().parents[1]
CASES = yaml.safe_load((TESTS / "router_cases.yaml").read_text("utf-8"))["cases"]


def test_corpus_size_and_splits():
    assert len(CASES) >= 80
    assert {c["split"] for c in CASES} == set(SPLITS)
    assert sum(c["split"] == "heldout_c" for c in CASES) >= 15


SPLITS = ("tuned", "heldout", "heldout_b", "heldout_c", "tuned_v2", "tuned_v3", "tuned_v4")


@pytest.mark.parametrize("split", SPLITS)
def test_corpus_accuracy(split, capsys):
    cases = [c for c in CASES if c["split"] == split and c.get("catalog") != REAL_CATALOG]
    failures = [(c["goal"], why) for c in cases if (why := check(c).error)]
    accuracy = 1 - len(failures) / len(cases)
    with capsys.disabled():
        print(f"\nrouter corpus [{split}]: {len(cases) - len(failures)}/{len(cases)} = {accuracy:.1%}")
    assert failures == [], "\n".join(f"{g!r}: {w}" for g, w in failures)


@pytest.mark.real
def test_corpus_cases_over_the_real_0_13_bundle(capsys):
    cases = [c for c in CASES if c.get("catalog") == REAL_CATALOG]
    failures = [(c["goal"], why) for c in cases if (why := check(c).error)]
    with capsys.disabled():
        print(f"\nrouter corpus [{REAL_CATALOG}]: {len(cases) - len(failures)}/{len(cases)}")
    assert len(cases) >= 5 and failures == [], "\n".join(f"{g!r}: {w}" for g, w in failures)
