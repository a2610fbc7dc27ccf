"""The routing corpus (tests/router_cases.yaml): every case must route as expected (100 %).

Accuracy is reported per split (tuned / held-out) in the test output and asserted at 100 %.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from quarkci.router import route
from quarkci.router.catalog import load_catalog
from quarkci.router.roles import resolve_roles

TESTS = Path(__file__).resolve().parents[1]
CASES = yaml.safe_load((TESTS / "router_cases.yaml").read_text("utf-8"))["cases"]
FIXTURES = TESTS / "fixtures" / "router"
CATALOG, LABEL = load_catalog(None)
NAMES = resolve_roles(CATALOG)


def _run(case):
    ctx = case.get("ctx") or {}
    env = str(FIXTURES / f"env_{ctx['env']}.env_context.json") if "env" in ctx else None
    ws = str(FIXTURES / "ok.workspace_context.json") if ctx.get("ws") else None
    return route(case["goal"], CATALOG, LABEL, env_context=env, workspace_context=ws)


def _check(case) -> str | None:
    """None when the case routes as expected, else what went wrong."""
    result = _run(case)
    doc, exp = result.document, case["expect"]
    if exp.get("undecided"):
        got = [i["role"] for i in doc["route"].get("interpretations", [])]
        if doc["workflow"] != "undecided" or got != exp["interpretations"] or not doc["open_questions"]:
            return f"expected undecided {exp['interpretations']}, got {doc['workflow']} {got}"
        return None
    want_skill = NAMES[exp["role"]]
    want_next = NAMES[exp.get("next", exp["role"])]
    if (doc["workflow"], doc["route"]["next_skill"]) != (want_skill, want_next):
        return f"expected {want_skill} first {want_next}, got {doc['workflow']} first {doc['route']['next_skill']}"
    return None


def test_corpus_size_and_splits():
    assert len(CASES) >= 80
    assert {c["split"] for c in CASES} == set(SPLITS)
    assert sum(c["split"] == "heldout_c" for c in CASES) >= 15


SPLITS = ("tuned", "heldout", "heldout_b", "heldout_c")


@pytest.mark.parametrize("split", SPLITS)
def test_corpus_accuracy(split, capsys):
    cases = [c for c in CASES if c["split"] == split]
    failures = [(c["goal"], why) for c in cases if (why := _check(c))]
    accuracy = 1 - len(failures) / len(cases)
    with capsys.disabled():
        print(f"\nrouter corpus [{split}]: {len(cases) - len(failures)}/{len(cases)} = {accuracy:.1%}")
    assert failures == [], "\n".join(f"{g!r}: {w}" for g, w in failures)
