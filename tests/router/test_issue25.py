"""Issue 25: every kind of miss the issue describes, as quarkci's own sentences in several languages
(tests/router_issue25.yaml), plus the parse itself, the one lexicon, what confidence means, and the CLI's
bad input (`route -` with nothing on standard input, a goal of zero-width spaces)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
import yaml

from quarkci import cli
from quarkci.router import route
from quarkci.router.catalog import CatalogSkill, load_catalog, split_description
from quarkci.router.lexicon import LANGUAGES, lexicon
from quarkci.router.parse import parse
from quarkci.router.route import MARGIN, UNDECIDED
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


# --- the parse -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "goal, action, polarity",
    [
        ("don't quantize it, just evaluate", "quantize", "negated"),
        ("Bitte quantisiere das Modell nicht", "quantize", "negated"),  # verb before the negation
        ("ne quantifie pas le modèle", "quantize", "negated"),
        ("no cuantices el modelo", "quantize", "negated"),
        ("不要量化这个模型", "quantize", "negated"),
        ("モデルを量子化しないで", "quantize", "negated"),
        ("모델을 양자화하지 마세요", "quantize", "negated"),
        ("I will quantize it next week", "quantize", "deferred"),
        ("fold the batch norms before I quantize it", "quantize", "deferred"),
        ("量化之前先检查一下环境", "quantize", "deferred"),
        ("quark is already set up", "setup", "done"),
        ("after quantization convert it to gguf", "quantize", "done"),
        ("nach der Quantisierung nach GGUF konvertieren", "quantize", "done"),
        ("quantize Llama 3 8B to fp8", "quantize", "active"),
        ("量子化したい", "quantize", "active"),  # "want to quantize", not "quantized"
    ],
)
def test_polarity_per_language(goal, action, polarity):
    acts = {a.action: a.polarity for a in parse(goal).acts if not a.weak}
    assert acts.get(action) == polarity, parse(goal)


def test_each_clause_carries_its_action_object_polarity_and_question():
    p = parse("don't quantize resnet.onnx yet; which GPU do I have? then install torch")
    shape = [(c.objects, c.asked) for c in p.clauses]
    assert shape == [(("onnx_model",), False), ((), True), (("torch", "torch_model"), False)]
    assert [(a.action, a.polarity, a.clause) for a in p.acts if not a.weak] == [
        ("quantize", "negated", 0),
        ("preflight", "active", 1),
        ("install", "active", 2),
    ]


def test_a_verb_final_negation_ends_its_clause_without_a_comma():
    p = parse("量子化はしないで評価だけ")
    assert [(a.action, a.polarity, a.clause) for a in p.acts] == [
        ("quantize", "negated", 0),
        ("eval", "active", 1),
    ]


def test_an_action_inside_a_longer_phrase_of_another_action_is_its_object():
    assert [a.action for a in parse("build a PTQ plan").acts] == ["plan"]  # not a request to quantize
    assert {a.action for a in parse("quantize llama and build a plan").acts} == {"quantize", "plan"}


def test_questions_and_pasted_logs_are_recognised():
    assert parse("which card is in this machine?").clauses[0].asked
    assert not parse("quantize llama to fp8").clauses[0].asked
    log = parse('Traceback (most recent call last):\n  File "x.py", line 3\nValueError: bad')
    assert "traceback" in log.evidence and log.has("failure")
    pip = parse("ERROR: No matching distribution found for onnxruntime-rocm")
    assert "install_log" in pip.evidence and "traceback" not in pip.evidence


# --- one data file -------------------------------------------------------------------------------------


def _code_strings(path: Path) -> list[str]:
    """The string constants of a module's code (docstrings, which may quote examples, left out)."""
    import ast

    tree = ast.parse(path.read_text("utf-8"))
    docs = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs
    ]


def test_the_words_live_in_the_lexicon_not_in_the_code():
    """No router module's code spells a word of another language: the vocabulary is data."""
    router = Path(__file__).resolve().parents[2] / "quarkci" / "router"
    for module in router.glob("*.py"):
        for text in _code_strings(module):
            if re.fullmatch(r"(?:.-.)+", text, re.DOTALL):
                continue  # a character-class range (the CJK blocks), not a word
            assert not re.search(r"[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]", text), (module.name, text)
            assert not re.search(r"(nicht|quantisier|cuantiz|quantifi|\bnur\b|\bsolo\b)", text), (
                module.name,
                text,
            )


def test_the_code_check_sees_a_foreign_word(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text('"""doc: 量化 is fine here"""\nWORDS = ("nicht",)\n')
    assert _code_strings(bad) == ["nicht"]


def test_the_lexicon_has_each_language_for_the_words_routing_turns_on():
    raw = yaml.safe_load(
        (Path(__file__).resolve().parents[2] / "quarkci" / "router" / "lexicon.yaml").read_text("utf-8")
    )
    terms = {t["to"]: t for t in raw["terms"]}
    for word in ("quantize", "install", "evaluate", "export", "convert", "plan", "gpu", "model", "error"):
        assert all(terms[word].get(lang) for lang in LANGUAGES), word
    markers: dict[str, set[str]] = {}
    for m in raw["markers"]:
        markers.setdefault(m["effect"], set()).update(lang for lang in LANGUAGES if m.get(lang))
    assert markers["negated"] == set(LANGUAGES)
    assert markers["deferred"] == set(LANGUAGES)
    assert markers["done"] == set(LANGUAGES)
    assert len(lexicon().actions) >= 20


@pytest.mark.parametrize(
    "text, kept",
    [
        ("audit skills/_legacy_impl/ now", "skills/_legacy_impl/"),  # a path keeps its words
        ("push it to github", "github"),  # "hub" (a term in a CJK list too) is no part of "github"
        ("make a one-layer copy", "one-layer"),
        ("report the drift", "report"),  # French "reporter" (postpone) is not the English verb
    ],
)
def test_terms_never_cut_into_a_longer_word(text, kept):
    from quarkci.router.text import normalise

    assert kept in normalise(text).split()


def test_a_lexicon_token_with_two_meanings_is_refused():
    from quarkci.router.lexicon import build

    raw = yaml.safe_load(
        (Path(__file__).resolve().parents[2] / "quarkci" / "router" / "lexicon.yaml").read_text("utf-8")
    )
    raw["markers"][0] = {**raw["markers"][0], "token": "_neg_"}  # sequence reusing negation's token
    with pytest.raises(ValueError, match="two meanings"):
        build(raw)


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
    "goal",
    [
        "quantizing can wait; now tell me which GPU this is",
        "la cuantización la aparcamos, ahora revisa qué GPU hay",
        "Quantisierung hat Zeit, jetzt bitte das Modell Qwen/Qwen2-7B analysieren",
        "量化先放一放，帮我评估一下它在 mmlu 上的精度",
        "quantization? meh. evaluate the model on gsm8k",
        "la quantification attendra ; évalue le modèle sur arc",
    ],
)
def test_an_unknown_way_of_saying_not_now_asks_instead_of_running_ptq(goal):
    """None of these deferral idioms is in the lexicon: a bare quantize next to another request asks."""
    assert not any(
        a.polarity != "active" for a in parse(goal).acts if a.action == "quantize"
    )  # unknown idiom
    doc = route(goal, DEFAULT, LABEL).document
    assert doc["workflow"] == UNDECIDED
    assert [i["role"] for i in doc["route"]["interpretations"]][0] == "ptq_workflow"


@pytest.mark.parametrize(
    "goal",
    [
        "Quantize Llama 3 8B to FP8; which GPU is in this box?",  # the kind-1 rule: a gap is a prerequisite
        "can you quantize Qwen/Qwen3-8B? and which GPU do I have?",
        "install quark, then quantize phi-2 with int8",
    ],
)
def test_a_concrete_quantize_request_still_routes_to_ptq(goal):
    assert route(goal, DEFAULT, LABEL).document["workflow"] == "quark-torch-ptq"


def test_routing_a_skill_named_in_the_goal():
    doc = route("/skill quark-skill-creator I want a skill for FP4 export", DEFAULT, LABEL).document
    assert doc["workflow"] == "quark-skill-creator"
    doc = route("quark-torch-ptq crashed with a KeyError", DEFAULT, LABEL).document
    assert doc["workflow"] != "quark-torch-ptq"  # a reported failure is not a request to run the skill again


# --- CLI: empty goals are bad input --------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv, stdin",
    [
        (["route", "-"], ""),
        (["route", "-"], "   \n\t "),
        (["route", "\u200b\u200b\u200b"], ""),
        (["route", "\u200b \ufeff\u2060"], ""),
        (["route", "-"], "\u200b\u200b"),
    ],
    ids=["empty-stdin", "blank-stdin", "zero-width", "invisible-mix", "zero-width-stdin"],
)
def test_an_empty_goal_is_one_line_exit_2_and_no_file(tmp_path, capsys, monkeypatch, argv, stdin):
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    out = tmp_path / "session_context.json"
    assert cli.main([*argv, "--output", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "goal: empty" in err
    assert not out.exists()


def test_a_goal_on_standard_input_is_routed(tmp_path, capsys, monkeypatch):
    log = "pip install onnxruntime-rocm\nERROR: No matching distribution found for onnxruntime-rocm\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(log))
    out = tmp_path / "s.json"
    assert cli.main(["route", "-", "--json", "--output", str(out)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["workflow"] == "quark-onnx-install" and json.loads(out.read_text()) == doc


def test_standard_input_over_the_limit_is_bad_input(tmp_path, capsys, monkeypatch):
    from quarkci.commands.route import MAX_STDIN_BYTES

    monkeypatch.setattr("sys.stdin", io.StringIO("quantize " * (MAX_STDIN_BYTES // 9 + 10)))
    out = tmp_path / "s.json"
    assert cli.main(["route", "-", "--output", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "GOAL -: over the" in err and not out.exists()
