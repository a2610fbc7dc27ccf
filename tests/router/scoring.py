"""Shared scoring of router cases (tests/router_cases.yaml, tests/router_heldout_v2.yaml).

A case: ``goal``, ``expect`` (``role``/``next``/``prereq``/``constraints``, or ``undecided`` with the
exact ``interpretations`` or a subset ``offers``), optional ``ctx`` (env/ws fixtures), optional
``catalog`` (default | extended).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from quarkci.router import route
from quarkci.router.catalog import load_catalog
from quarkci.router.roles import resolve_roles

TESTS = Path(__file__).resolve().parents[1]
FIXTURES = TESTS / "fixtures" / "router"
PTQ_ROLES = ("ptq_workflow", "onnx_ptq_workflow")
REAL_CATALOG = "bundled-0.13"  # the real amd-quark 0.13 bundle, downloaded at test time (@pytest.mark.real)


@cache
def catalog(name: str):
    """(skills, label) of catalog ``name``: default | extended | bundled-0.13."""
    if name == REAL_CATALOG:
        from tests.realwheels import real_wheel

        return load_catalog(f"bundled:{real_wheel('0.13')}")
    return load_catalog(None if name == "default" else str(FIXTURES / name))


@cache
def names(name: str) -> dict[str, str]:
    """Role -> skill name in catalog ``name``."""
    return resolve_roles(catalog(name)[0])


@dataclass(frozen=True)
class Outcome:
    """``error`` is None when the case routed as expected; ``confident`` says whether a wrong answer was a
    route (True) or a question (False); ``got_role`` is the role routed to (None when undecided)."""

    error: str | None
    confident: bool
    got_role: str | None


def run_case(case: dict[str, Any]) -> dict[str, Any]:
    """The session context document the router builds for ``case``."""
    ctx = case.get("ctx") or {}
    env = str(FIXTURES / f"env_{ctx['env']}.env_context.json") if "env" in ctx else None
    ws = str(FIXTURES / "ok.workspace_context.json") if ctx.get("ws") else None
    skills, label = catalog(case.get("catalog", "default"))
    return route(case["goal"], skills, label, env_context=env, workspace_context=ws).document


def check(case: dict[str, Any]) -> Outcome:
    """Score one case."""
    doc, exp = run_case(case), case["expect"]
    role_names = names(case.get("catalog", "default"))
    role = doc["route"]["role"] if doc["workflow"] != "undecided" else None
    if exp.get("undecided"):
        got = [i["role"] for i in doc["route"].get("interpretations", [])]
        if doc["workflow"] != "undecided" or not doc["open_questions"]:
            return Outcome(f"expected undecided, got {doc['workflow']} ({role})", True, role)
        if "interpretations" in exp and got != exp["interpretations"]:
            return Outcome(f"expected options {exp['interpretations']}, got {got}", False, None)
        if not set(exp.get("offers", [])) <= set(got):
            return Outcome(f"expected options including {exp['offers']}, got {got}", False, None)
        return Outcome(None, False, None)
    if doc["workflow"] == "undecided":
        return Outcome(
            f"expected {exp.get('role', exp.get('skill'))}, got undecided {[i['role'] for i in doc['route'].get('interpretations', [])]}"
            f" ({doc['route']['reason']})",
            False,
            None,
        )
    want = exp["skill"] if "skill" in exp else role_names[exp["role"]]
    if doc["workflow"] != want:
        return Outcome(f"expected {want}, got {doc['workflow']} ({doc['route']['reason']})", True, role)
    if "next" in exp and doc["route"]["next_skill"] != role_names[exp["next"]]:
        return Outcome(
            f"expected first {role_names[exp['next']]}, got {doc['route']['next_skill']}", True, role
        )
    prereqs = {p["role"] for p in doc["route"]["prerequisites"]}
    if not set(exp.get("prereq", [])) <= prereqs:
        return Outcome(f"expected prerequisites {exp['prereq']}, got {sorted(prereqs)}", True, role)
    for key, value in (exp.get("constraints") or {}).items():
        got_value = doc["constraints"].get(key)
        if str(got_value).lower() != str(value).lower():
            return Outcome(f"expected constraints.{key} = {value!r}, got {got_value!r}", True, role)
    return Outcome(None, False, role)
