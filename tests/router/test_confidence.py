"""Confidence = agreement (quarkci/router/confidence.py): a rule route stands only when the classifier reads
the same role; a disagreement is a question with both readings; the classifier never introduces PTQ."""

from __future__ import annotations

import pytest

from quarkci.router import route
from quarkci.router.catalog import load_catalog
from quarkci.router.confidence import AGREE, FALLBACK, combine
from quarkci.router.model import ASK, Opinion, corpus
from quarkci.router.roles import resolve_roles
from quarkci.router.route import Decision, Facts
from quarkci.router.route import decide as rule_decision

CATALOG, LABEL = load_catalog(None)
NAMES = resolve_roles(CATALOG)
PTQ = ("quark-torch-ptq", "quark-onnx-ptq")


def _opinion(*ranked: tuple[str, float]) -> Opinion:
    return Opinion(tuple(ranked))


RULE_PTQ = Decision("ptq_workflow", "the goal says quantize")
NO_RULE = Decision(None, "nothing recognised", ("model_intake", "ptq_workflow", "quark_install"))


def test_an_agreeing_confident_classifier_keeps_the_rule_route():
    d = combine(RULE_PTQ, _opinion(("ptq_workflow", AGREE), (ASK, 0.2)), "quantize x", Facts(), NAMES)
    assert d is RULE_PTQ
    # negative controls: the same role under the threshold, or another role on top, asks with both readings
    low = combine(RULE_PTQ, _opinion(("ptq_workflow", AGREE - 0.01), ("eval", 0.2)), "q", Facts(), NAMES)
    assert low.role is None and low.interpretations == ("ptq_workflow", "eval")
    other = combine(RULE_PTQ, _opinion(("env_preflight", 0.8), ("ptq_workflow", 0.1)), "q", Facts(), NAMES)
    assert other.role is None and other.interpretations[:2] == ("ptq_workflow", "env_preflight")
    asked = combine(RULE_PTQ, _opinion((ASK, 0.9), ("model_intake", 0.05)), "q", Facts(), NAMES)
    assert asked.role is None and asked.interpretations == ("ptq_workflow", "model_intake")


def test_the_classifier_routes_alone_only_when_very_sure_and_never_to_ptq():
    sure = _opinion(("eval", FALLBACK), (ASK, 0.05))
    d = combine(NO_RULE, sure, "evaluate phi-2 on mmlu", Facts(), NAMES)
    assert d.role == "eval" and ("env_preflight", d.prerequisites[0][1]) == d.prerequisites[0]
    assert combine(NO_RULE, _opinion(("eval", FALLBACK - 0.01)), "e", Facts(), NAMES) is NO_RULE
    for ptq in ("ptq_workflow", "onnx_ptq_workflow"):
        assert combine(NO_RULE, _opinion((ptq, 0.999)), "q", Facts(), NAMES) is NO_RULE
    assert combine(NO_RULE, _opinion((ASK, 0.99)), "q", Facts(), NAMES) is NO_RULE
    assert combine(NO_RULE, _opinion(("export", 0.99)), "q", Facts(), NAMES) is NO_RULE  # no default skill


def test_a_confident_misroute_of_the_rules_becomes_a_question():
    goal = (
        "hold off on quantizing Mistral-7B for now - first tell me how many linear layers it has and "
        "whether anything looks risky"
    )
    assert (
        rule_decision(goal, Facts(), NAMES, CATALOG).role == "ptq_workflow"
    )  # the parse misses the deferral
    doc = route(goal, CATALOG, LABEL).document
    assert doc["workflow"] == "undecided"
    options = [i["role"] for i in doc["route"]["interpretations"]]
    assert options[:2] == ["ptq_workflow", "model_intake"]
    assert "the classifier reads 'model_intake'" in doc["route"]["reason"]
    # negative control: where both read the same role the route stands
    assert route("quantize llama to fp8", CATALOG, LABEL).document["workflow"] == "quark-torch-ptq"


NOT_NOW = [e for e in corpus() if "negat" in e.kind or "defer" in e.kind]


def test_the_corpus_has_negated_and_deferred_quantize_goals_in_every_language():
    assert len(NOT_NOW) >= 200
    assert {"en", "de", "fr", "es", "zh", "ja", "ko"} <= {e.lang for e in NOT_NOW if e.lang}


@pytest.mark.parametrize("example", NOT_NOW, ids=lambda e: e.goal[:40])
def test_no_negated_or_deferred_quantize_goal_reaches_ptq(example):
    assert route(example.goal, CATALOG, LABEL).document["workflow"] not in PTQ
