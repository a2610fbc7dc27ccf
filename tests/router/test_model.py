"""The router's classifier (quarkci/router/model.py): the corpus labels map to roles through the real role
resolution, fits are deterministic, and the classifier reads the kinds it was given."""

from __future__ import annotations

from quarkci.router import model
from quarkci.router.model import ASK, Example, corpus_document, fit, label_of, skill_roles
from quarkci.router.roles import ROLES


def test_every_corpus_label_maps_to_a_role_or_ask():
    skills = skill_roles()
    labels = [
        label_of(g, skills) for g in corpus_document()["goals"]
    ]  # KeyError: a skill no role resolves to
    assert set(labels) - {ASK} <= ROLES.keys()
    assert len(labels) == len(model.corpus()) >= 1300
    # the writers' corpora are in (train_2 shares two goals with train_1), beside dev_3 and own sentences
    sources = {e.source for e in model.corpus()}
    assert {"train_1", "train_2", "dev_3", "tests/router_cases.yaml"} <= sources
    assert sum(e.source == "train_1" for e in model.corpus()) == 240


def test_a_default_catalog_skill_maps_to_its_role_and_null_to_ask():
    skills = skill_roles()
    assert label_of({"expected": "quark-torch-ptq"}, skills) == "ptq_workflow"
    assert label_of({"expected": "quark-onnx-shapeshifter-run"}, skills) == "graph_rewrite"
    assert label_of({"expected": None}, skills) == ASK
    assert label_of({"expected": None, "role": "export"}, skills) == "export"  # no default skill for export
    for bad in ({"expected": "quark-no-such-skill"}, {"role": "no_such_role"}):
        try:
            label_of(bad, skills)
        except KeyError:
            continue
        raise AssertionError(f"{bad} mapped")


def test_two_fits_give_identical_predictions():
    examples = model.corpus()
    goals = [e.goal for e in examples[::7]] + ["quantize phi-4 to int4", "welche GPU steckt hier drin?"]
    first = model.default_classifier().opinions(goals)
    second = fit(examples).opinions(goals)
    assert first == second


def test_the_classifier_reads_roles_across_languages_and_typos():
    clf = model.default_classifier()
    assert clf.opinion("quantzie Qwen3-8B to fp8 pls").label == "ptq_workflow"
    assert clf.opinion("请帮我看看这台机器上是什么 GPU 和 ROCm 版本").label == "env_preflight"
    assert clf.opinion("hello there").label == ASK
    # negative control: a tiny fit on two labels only ever answers one of them
    goals = (
        ("quantize it", "ptq_workflow"),
        ("quantize that", "ptq_workflow"),
        ("which gpu", "env_preflight"),
    )
    tiny = fit([Example(g, label, "t") for g, label in (*goals, ("which gpu here", "env_preflight"))])
    assert tiny.labels == ("env_preflight", "ptq_workflow")
    assert tiny.opinion("quantize llama").label == "ptq_workflow"
