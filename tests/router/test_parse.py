"""The clause-level parse of a goal (:mod:`quarkci.router.parse`): polarity per language, each clause's
action, objects and question, pasted logs.
"""

from __future__ import annotations

import pytest

from quarkci.router.parse import parse


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
