"""Routing (:mod:`quarkci.router.route`) of every kind of miss issue 25 describes, as quarkci's own
sentences in several languages (tests/router_issue25.yaml), and what confidence means: confident only
when the catalog's descriptions agree, else two or three options."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from quarkci.router import route
from quarkci.router.catalog import CatalogSkill, load_catalog, split_description
from quarkci.router.parse import parse
from quarkci.router.roles import resolve_roles
from quarkci.router.route import MARGIN, UNDECIDED, Facts
from quarkci.router.route import decide as rule_decision
from tests.router.scoring import PTQ_ROLES, REAL_CATALOG, check, run_case

TESTS = Path(__file__).resolve().parents[1]
DATA = yaml.safe_load((TESTS / "router_issue25.yaml").read_text("utf-8"))
KINDS = DATA["kinds"]
CASES = [(kind, case) for kind, cases in KINDS.items() for case in cases]
CASES += [(probe, case) for probe, cases in DATA["probes"].items() for case in cases]
DEFAULT, LABEL = load_catalog(None)


def _id(item: tuple[str, dict]) -> str:
    return f"{item[0]}:{item[1]['goal'][:40]}"


def _run(kind: str, case: dict) -> None:
    outcome = check(case)
    assert outcome.error is None, f"[{kind}] {case['goal']!r}: {outcome.error}"
    if case.get("negated"):
        assert outcome.got_role not in PTQ_ROLES


@pytest.mark.parametrize(
    "kind, case", [c for c in CASES if c[1].get("catalog") != REAL_CATALOG], ids=map(_id, CASES)
)
def test_each_kind_of_miss_routes_right(kind, case):
    _run(kind, case)


@pytest.mark.real
@pytest.mark.parametrize(
    "kind, case", [c for c in CASES if c[1].get("catalog") == REAL_CATALOG], ids=map(_id, CASES)
)
def test_each_kind_of_miss_routes_right_over_the_real_0_13_bundle(kind, case):
    _run(kind, case)


def test_every_kind_is_covered_in_several_languages():
    assert len(KINDS) >= 11
    cjk = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]")
    for kind, cases in KINDS.items():
        if kind == "models_with_spaces":
            continue
        non_english = [c for c in cases if cjk.search(c["goal"]) or re.search(r"[äöüßéèàñ¿¡]", c["goal"])]
        assert len(non_english) >= 1, kind
    negated = [c for cases in KINDS.values() for c in cases if c.get("negated")]
    assert len(negated) >= 14  # at least two per language


def test_quantize_with_unknown_hardware_records_the_gap_and_keeps_the_route():
    for case in KINDS["quantize_with_unknown_hardware"]:
        doc = run_case(case)
        assert doc["workflow"] == "quark-torch-ptq", case["goal"]
        assert doc["route"]["prerequisites"][0]["role"] == "env_preflight"
        assert any("quark-env-preflight" in q for q in doc["open_questions"])
    english = run_case(KINDS["quantize_with_unknown_hardware"][0])
    assert any("the goal says the hardware is not known" in q for q in english["open_questions"])


def test_installs_stated_before_a_workflow_are_its_prerequisites_in_install_order():
    doc = run_case(KINDS["installs_before_a_workflow"][0])
    assert doc["workflow"] == "quark-torch-ptq"
    assert [p["skill"] for p in doc["route"]["prerequisites"]] == [
        "quark-env-preflight",
        "quark-torch-install",
        "quark-install",
        "quark-workspace-validate",
    ]


def test_a_failure_log_names_no_second_install():
    doc = route(
        "pip install amd-quark fails: Building wheel for onnx ... error: subprocess-exited-with-error",
        DEFAULT,
        LABEL,
    ).document
    assert doc["workflow"] == "quark-install"
    assert [p["role"] for p in doc["route"]["prerequisites"]] == [
        "env_preflight"
    ]  # onnx is Quark's dependency


# --- confidence ----------------------------------------------------------------------------------------


def _skill(name: str, description: str, layer: str = "l1-atomic") -> CatalogSkill:
    pos, neg = split_description(description)
    return CatalogSkill(name, pos, neg, layer)


def test_a_route_is_confident_only_when_the_descriptions_agree():
    goal = "quantize Qwen/Qwen3-8B to fp8 with AWQ calibration"
    agreeing = route(goal, DEFAULT, LABEL)
    assert agreeing.document["workflow"] == "quark-torch-ptq"
    margin = agreeing.decision.scores[0][1] - agreeing.decision.scores[1][1]
    assert margin >= MARGIN
    # negative control: the PTQ workflow's description says little of the goal, another skill's says it all
    bare = _skill("quark-torch-ptq", "End-to-end post-training quantization workflow.", "l2-workflows")
    recipes = _skill(
        "quark-qwen-recipes",
        "Qwen fp8 recipes: Qwen3 checkpoints with AWQ calibration, fp8 weights, Qwen3-8B presets.",
    )
    catalog = [bare if s.name == bare.name else s for s in DEFAULT] + [recipes]
    asked = route(goal, catalog, "test catalog")
    doc = asked.document
    assert doc["workflow"] == UNDECIDED
    options = [i["skill"] for i in doc["route"]["interpretations"]]
    assert options[:2] == ["quark-torch-ptq", "quark-qwen-recipes"] and 2 <= len(options) <= 3
    assert "do not confirm quark-torch-ptq" in doc["route"]["reason"]


def test_an_ambiguous_reading_offers_two_or_three_skills():
    for goal in ("compare these two runs", "deploy my model with vllm", "I want to set up Quark"):
        doc = route(goal, DEFAULT, LABEL).document
        assert doc["workflow"] == UNDECIDED and 2 <= len(doc["route"]["interpretations"]) <= 3, goal


@pytest.mark.parametrize(
    "goal, workflow",
    [
        ("quantizing can wait; now tell me which GPU this is", "quark-env-preflight"),
        ("la cuantización la aparcamos, ahora revisa qué GPU hay", "quark-env-preflight"),
        (
            "Quantisierung hat Zeit, jetzt bitte das Modell Qwen/Qwen2-7B analysieren",
            "quark-torch-model-intake",
        ),
        ("量化先放一放，帮我评估一下它在 mmlu 上的精度", "quark-torch-llm-eval"),
        ("quantization? meh. evaluate the model on gsm8k", "quark-torch-llm-eval"),
        ("la quantification attendra ; évalue le modèle sur arc", "quark-torch-llm-eval"),
    ],
)
def test_an_unknown_way_of_saying_not_now_never_runs_ptq(goal, workflow):
    """None of these deferral idioms is in the lexicon: the rules see a bare quantize next to another request
    and ask; the classifier, very sure of the other request, routes it (the seed: a deferred quantize goes to
    the other request), and it may never introduce the PTQ workflow itself."""
    assert not any(
        a.polarity != "active" for a in parse(goal).acts if a.action == "quantize"
    )  # unknown idiom
    rules = rule_decision(goal, Facts(), resolve_roles(DEFAULT), DEFAULT)
    assert rules.role is None and rules.interpretations[0] == "ptq_workflow"
    doc = route(goal, DEFAULT, LABEL).document
    assert doc["workflow"] == workflow


# (also in the classifier's corpus: benchmarks/build_router_corpus.py)
CONCRETE_QUANTIZE = [
    "Quantize Llama 3 8B to FP8; which GPU is in this box?",  # the kind-1 rule: a gap is a prerequisite
    "can you quantize Qwen/Qwen3-8B? and which GPU do I have?",
    "install quark, then quantize phi-2 with int8",
]


@pytest.mark.parametrize("goal", CONCRETE_QUANTIZE)
def test_a_concrete_quantize_request_still_routes_to_ptq(goal):
    assert route(goal, DEFAULT, LABEL).document["workflow"] == "quark-torch-ptq"


def test_routing_a_skill_named_in_the_goal():
    doc = route("/skill quark-skill-creator I want a skill for FP4 export", DEFAULT, LABEL).document
    assert doc["workflow"] == "quark-skill-creator"
    doc = route("quark-torch-ptq crashed with a KeyError", DEFAULT, LABEL).document
    assert doc["workflow"] != "quark-torch-ptq"  # a reported failure is not a request to run the skill again


# A scheme named while the quantize verb itself is put off is what the later quantization is about, not a
# request of its own (own sentences; a deferral the rules read, in four languages)
SCHEME_OF_A_LATER_QUANTIZE = [
    "We will quantize Llama-3.1-8B next week; first tell me whether fp8 or int4 suits it.",
    "Qwen2.5-7B wird erst später quantisiert; welches Schema passt besser, fp8 oder int4?",
    "Mistral-7B lo cuantizaremos más tarde; antes quiero saber si fp8 o int4 le conviene más.",
    "量子化の前に Qwen2.5-14B に fp8 と int4 のどちらが合うか決めたい。",
]


@pytest.mark.parametrize("goal", SCHEME_OF_A_LATER_QUANTIZE)
def test_a_scheme_named_for_a_later_quantize_is_no_quantize_request(goal):
    from quarkci.router.lexical import index_for

    skills = load_catalog(None)[0]
    names = resolve_roles(skills)
    decided = rule_decision(goal, Facts(), names, skills, index_for(tuple(s.positive for s in skills)))
    assert decided.role not in PTQ_ROLES, decided.reason


def test_the_scheme_mention_of_a_deferred_quantize_was_the_ptq_route_before():
    # negative control of the rule: the same parse with the deferral gone routes the scheme to PTQ
    from quarkci.router.lexical import index_for

    skills = load_catalog(None)[0]
    names = resolve_roles(skills)
    goal = "Qwen2.5-14B に fp8 と int4 のどちらが合うか。"
    index = index_for(tuple(s.positive for s in skills))
    assert rule_decision(goal, Facts(), names, skills, index).role in PTQ_ROLES
