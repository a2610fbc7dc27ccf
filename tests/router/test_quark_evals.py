"""Quark's own routing evals as a test set: the queries of every bundled skill's ``evals/evals.json`` in the
real amd-quark 0.13 wheel (downloaded at test time into the wheel cache; their text is not committed),
routed over the 0.13 bundled catalog (``--skills bundled:amd-quark==0.13``).

The set (issue 25): every item that names an ``expected_skill`` (``null`` means the router must ask:
``undecided``) or sets ``skill_should_trigger: true`` (the skill the evals file belongs to). Meta skills (skill
creator, skill sync) are routes: the bundle holds them. Denominator in 0.13: 30 items (ShapeShifter run 14,
skill creator 5, Quant-Perf 5, Quark install 3, PyTorch PTQ 3). Scored strict (the workflow must equal the
expected skill). Items with ``skill_should_trigger: false`` are not in the set; they are checked separately:
they must not route to the skill they belong to.

History: first score of this file's earlier form (33 items, meta skills counted as "ask"), commit 9ae5b4c:
14/33; before issue 25's rebuild (same 33): 23/33. After the rebuild on this set: 30/30, and every
confident route right (``benchmarks/bench_router.py`` prints both figures). With the classifier's agreement
(quarkci/router/confidence.py): 28/30, 27 confident routes, all right (a ShapeShifter run and a Quant-Perf
query are asked: the classifier reads ONNX debug / PTQ).
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import pytest

from quarkci.router import route
from quarkci.router.catalog import load_catalog

TARGET = 0.90
DENOMINATOR = 30


def eval_items(wheel: Path) -> list[tuple[str, dict[str, Any]]]:
    """(skill the evals file belongs to, item) for every item of every ``evals/evals.json`` in ``wheel``."""
    out = []
    with zipfile.ZipFile(wheel) as zf:
        for name in sorted(zf.namelist()):
            if not name.endswith("/evals/evals.json"):
                continue
            data = json.loads(zf.read(name))
            items = (data.get("evaluations") or data.get("evals") or []) if isinstance(data, dict) else data
            out.extend((name.split("/")[-3], item) for item in items)
    return out


def expected(skill: str, item: dict[str, Any]) -> str | None:
    """The workflow the item expects ("undecided" for a null expected_skill), or None: not in the set."""
    if "expected_skill" in item:
        return item["expected_skill"] or "undecided"
    if item.get("skill_should_trigger") is True:
        return skill
    return None


@pytest.fixture(scope="module")
def bundle():
    from tests.realwheels import real_wheel

    wheel = real_wheel("0.13")
    catalog, label = load_catalog(f"bundled:{wheel}")
    return wheel, catalog, label


@pytest.mark.real
def test_quark_0_13_evals_queries(bundle, capsys):
    wheel, catalog, label = bundle
    rows = []
    for skill, item in eval_items(wheel):
        want = expected(skill, item)
        if want is None:
            continue
        got = route(item["prompt"][:4000], catalog, label).document["workflow"]
        rows.append((f"{skill}#{item.get('id')}", want, got))
    right = sum(w == g for _i, w, g in rows)
    confident = [(w, g) for _i, w, g in rows if g != "undecided"]
    precise = sum(w == g for w, g in confident)
    with capsys.disabled():
        print(
            f"\nQuark 0.13 evals.json: accuracy {right}/{len(rows)} = {right / len(rows):.1%}; confident routes "
            f"{len(confident)}, right {precise} = {precise / max(len(confident), 1):.1%}"
        )
        for ident, want, got in rows:
            if want != got:
                print(f"  WRONG {ident}: want {want}, got {got}")
    assert len(rows) == DENOMINATOR  # the denominator stated above (a new wheel's evals change it)
    assert right / len(rows) >= TARGET
    assert precise == len(confident)  # no confident route to a wrong skill


@pytest.mark.real
def test_quark_0_13_evals_that_must_not_trigger_their_skill(bundle):
    wheel, catalog, label = bundle
    checked = 0
    for skill, item in eval_items(wheel):
        if item.get("skill_should_trigger") is False:
            checked += 1
            assert route(item["prompt"][:4000], catalog, label).document["workflow"] != skill, item["id"]
    assert checked >= 4


def test_the_set_rule_counts_what_the_issue_says():
    assert expected("quark-install", {"skill_should_trigger": True}) == "quark-install"
    assert expected("quark-install", {"skill_should_trigger": False}) is None
    assert expected("quark-skill-creator", {"expected_skill": None}) == "undecided"
    assert (
        expected("quark-skill-creator", {"expected_skill": "quark-torch-skill-sync"})
        == "quark-torch-skill-sync"
    )
    assert expected("quark-onnx-shapeshifter-run", {"prompt": "no answer stated"}) is None
