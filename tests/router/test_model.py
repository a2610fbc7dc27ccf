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
    first, second = fit(examples).opinions(goals), fit(examples).opinions(goals)
    assert first == second
    assert [o.label for o in first] == [o.label for o in model.default_classifier().opinions(goals)]


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


def test_the_recorded_model_equals_a_re_fit_on_the_committed_corpus():
    """data/router_model.npz is what ``python -m quarkci.router.model --record`` writes for the corpus."""
    import numpy as np

    recorded, digest = model.load()
    assert digest == model.corpus_digest()  # re-record after the corpus changes
    refit = fit(model.corpus())
    assert recorded.terms == refit.terms and recorded.labels == refit.labels
    assert np.allclose(recorded.idf, refit.idf, atol=1e-6)
    assert np.allclose(recorded.coef, refit.coef, atol=1e-4)
    assert np.allclose(recorded.intercept, refit.intercept, atol=1e-4)
    goals = [e.goal for e in model.corpus()[::5]]
    assert [o.label for o in recorded.opinions(goals)] == [o.label for o in refit.opinions(goals)]


def test_record_writes_a_file_that_loads_back(tmp_path):
    path = model.record(tmp_path / "m.npz")
    loaded, digest = model.load(path)
    assert digest == model.corpus_digest() and loaded.labels == model.default_classifier().labels
    assert loaded.opinion("install quark please").label == "quark_install"


def test_the_opinions_are_scikit_learns_probabilities():
    """The classifier's softmax over the stored arrays is LogisticRegression.predict_proba on the same fit."""
    from sklearn.linear_model import LogisticRegression

    examples = model.corpus()[:400]
    fitted = fit(examples)
    features = fitted._vectorizer.transform([model.normalise(e.goal) for e in examples])
    regression = LogisticRegression(
        C=model.C, tol=model.TOL, max_iter=model.MAX_ITER, class_weight=_weights(examples)
    ).fit(features, [e.label for e in examples])
    goals = ["quantize phi-4", "welche GPU?", "export to gguf", "hello"]
    expected = regression.predict_proba(fitted._vectorizer.transform([model.normalise(g) for g in goals]))
    for opinion, row in zip(fitted.opinions(goals), expected, strict=True):
        best = int(row.argmax())
        assert opinion.label == regression.classes_[best]
        assert abs(opinion.probability - row[best]) < 1e-4


def _weights(examples):
    from collections import Counter

    counts = Counter(e.label for e in examples)
    return {label: (len(examples) / n) ** model.CLASS_POWER for label, n in counts.items()}
