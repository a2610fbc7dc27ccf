"""The router's held-out split v2 (tests/router_heldout_v2.yaml), written before the rebuild and scored
once after it: accuracy per role and per bullet, the share of wrong answers that were confident routes
rather than questions, and no confident misroute of a negated goal to a PTQ workflow.

FIRST_SCORE records the first scored run (see the commit that added this file); the split is never tuned
on: a regression here is fixed on tests/router_cases.yaml and measured on a fresh split.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import yaml

from tests.router.scoring import PTQ_ROLES, check

CASES = yaml.safe_load((Path(__file__).resolve().parents[1] / "router_heldout_v2.yaml").read_text("utf-8"))["cases"]
GOAL = 0.95


def score(cases):
    """(accuracy, per-role {role: (right, total)}, wrong [(goal, error, confident)], negated PTQ misroutes)."""
    per_role: Counter[str] = Counter()
    right: Counter[str] = Counter()
    wrong, negated_ptq = [], []
    for case in cases:
        outcome = check(case)
        role = case["expect"].get("role") or "undecided"
        per_role[role] += 1
        if outcome.error is None:
            right[role] += 1
        else:
            wrong.append((case["goal"], case.get("catalog"), outcome.error, outcome.confident))
        if case.get("negated") and outcome.got_role in PTQ_ROLES:
            negated_ptq.append(case["goal"])
    accuracy = sum(right.values()) / len(cases)
    return accuracy, {r: (right[r], per_role[r]) for r in sorted(per_role)}, wrong, negated_ptq


def test_heldout_v2(capsys):
    accuracy, per_role, wrong, negated_ptq = score(CASES)
    confident = sum(w[3] for w in wrong)
    with capsys.disabled():
        print(f"\nrouter held-out v2: {len(CASES) - len(wrong)}/{len(CASES)} = {accuracy:.1%}; wrong answers: "
              f"{len(wrong)} ({confident} confident routes, {len(wrong) - confident} questions)")
        for role, (ok, total) in per_role.items():
            print(f"  {role:<20} {ok}/{total}")
        for goal, catalog, error, conf in wrong:
            print(f"  WRONG [{catalog}] {'confident' if conf else 'asked'}: {goal!r}: {error}")
    assert negated_ptq == [], f"negated goals routed to PTQ: {negated_ptq}"
    assert accuracy >= GOAL, f"held-out v2 accuracy {accuracy:.1%} under the {GOAL:.0%} goal"
