"""The clause-level parse of a goal (:mod:`quarkci.router.parse`): polarity per language (and polarity a
negative object reinforces, deadlines that are no deferral), each clause's action, objects and question,
the backends the clauses name, pasted logs.
"""

from __future__ import annotations

import pytest

from quarkci.router.parse import parse


def _polarity(goal: str, action: str) -> str | None:
    return next((a.polarity for a in parse(goal).acts if a.action == action and not a.weak), None)


@pytest.mark.parametrize(
    "goal",
    [
        "sans rien quantifier, donne-moi la liste des couches",  # negation, negative object, then the verb
        "sin nada cuantizar, dime las capas",
    ],
)
def test_a_negative_object_between_a_negation_and_its_verb_keeps_the_negation(goal):
    assert _polarity(goal, "quantize") == "negated"


def test_the_next_marker_of_another_kind_still_bounds_a_negation():
    # negative control: "not yet" defers, and an action after "but" is outside the negation's reach
    assert _polarity("don't export, but quantize llama to fp8", "quantize") == "active"


@pytest.mark.parametrize(
    "goal",
    [
        "I need Mistral-7B in int4 by tomorrow",
        "quantize qwen3-8b to fp8 by the end of the week",
        "Bitte Qwen3-8B bis morgen nach FP8 quantisieren",
        "quantifie Mistral-7B en int8 d'ici demain",
        "cuantiza Llama-3-8B a FP8 para mañana",
        "明天之前把 Llama-3-8B 量化成 INT8",
        "明日までにPhi-3をINT4に量子化して",
        "내일까지 Gemma-2-2b를 FP8로 양자화해 줘",
    ],
)
def test_a_deadline_is_not_a_deferral(goal):
    assert _polarity(goal, "quantize") == "active"


@pytest.mark.parametrize(
    "goal", ["quantize it tomorrow", "Quantisierung morgen", "量化改天再说", "cuantiza el modelo mañana"]
)
def test_the_same_day_words_alone_still_defer(goal):
    assert _polarity(goal, "quantize") == "deferred"


@pytest.mark.parametrize(
    "goal, both",
    [
        ("quantize gemma-2-9b to int8. there is also an encoder.onnx export on disk", True),
        ("quantize mobilenet.onnx to a8w8", False),
        ("quantize phi-2.onnx, the phi-2 one", False),  # one clause names both: the file is the model
        ("install torch and onnxruntime first, then quantize resnet50.onnx", False),  # torch, the library
        ("quantize qwen3-8b to fp8", False),
    ],
)
def test_both_backends_only_when_two_clauses_name_different_model_kinds(goal, both):
    assert parse(goal).both_backends is both


@pytest.mark.parametrize(
    "goal",
    [
        "calibration of my model.onnx aborted halfway",
        "die Kalibrierung von resnet.onnx bricht ab",
        "la calibration de yolo.onnx s'interrompt",
        "la calibración de yolo.onnx se interrumpe",
        "mobilenet.onnx 的校准中断了",
        "resnet.onnx のキャリブレーションが異常終了した",
        "resnet.onnx 캘리브레이션이 중단됐어요",
    ],
)
def test_an_aborted_run_is_a_reported_failure(goal):
    assert parse(goal).has("failure")


def test_a_run_that_was_not_aborted_reports_no_failure():
    assert not parse("calibration of my model.onnx finished, now quantize it").has("failure")


@pytest.mark.parametrize(
    "goal, action",
    [
        ("we have been installing quark", "install"),
        ("we've been installing quark", "install"),
        ("quark's been set up here", "setup"),
    ],
)
def test_a_contracted_has_been_states_a_fact_like_the_full_form(goal, action):
    assert _polarity(goal, action) == "done"


@pytest.mark.parametrize(
    "goal, action",
    [
        ("evalúa Llama-3-8B y después cuantízalo a FP8", "quantize"),
        ("descarga amd-quark e instálalo", "install"),
        ("el modelo ya está cuantizado, expórtalo a GGUF", "export"),
    ],
)
def test_a_spanish_imperative_with_a_clitic_is_still_its_verb(goal, action):
    assert _polarity(goal, action) == "active"


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
