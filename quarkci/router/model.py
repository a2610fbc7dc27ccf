"""A learned second opinion on the route: which role (or a question) a goal asks for, from labelled goals.

The classifier reads the whole goal as characters: TF-IDF over character n-grams inside word boundaries
(``char_wb``, :data:`NGRAMS`; it covers CJK, where words are not spaced, and typos, which keep most of a
word's n-grams) and a multinomial logistic regression (``lbfgs``, no randomness; scikit-learn). Its classes
are the role ids of :mod:`quarkci.router.roles` plus :data:`ASK` (the seed asks), never skill names, so one
fit serves every catalog.

Class weights ``(goals / goals of the class) ** 0.5`` (:data:`CLASS_POWER`) keep the many PTQ and ask goals
from drowning the small roles without letting a rare role win every unclear goal.

The corpus (``data/router_train.json``, format ``quarkci-router-train/1``, built by
``benchmarks/build_router_corpus.py``): 3,049 labelled goals, each with its ``expected`` skill of the default
catalog (``null``: the router must ask) or, for a role the default catalog has no skill for (export, the
PyTorch debugger), its ``role``. Sources: nine corpora of 240 goals written by independent writers who saw no
code or tests (train_1 ... train_9, 2,145 after duplicates; 14 labels of train_1/train_2 corrected where they
contradict the seed on the default catalog: ShapeShifter rewrites and skill creation/audit that those two
writers thought absent, their copy of the catalog being an older one; listed with the reason in the builder;
train_3 ... train_9 were written against the current catalog), the development set dev_3 (80 goals, another
writer), and this repository's own router case sentences. Labels are mapped to roles through the real role
resolution (:func:`quarkci.router.roles.resolve_roles` on ``default_catalog.yaml``; a test keeps the mapping
total), so a renamed skill cannot silently change a label.

Cost: fitting on the corpus takes about 7 s on this project's 2-core machine (``benchmarks/bench_router.py
--fit``; importing scikit-learn another 1.2 s), too slow for every ``quarkci route``, so the fitted arrays are
stored in ``data/router_model.npz`` (about 1 MB: the n-gram vocabulary, idf, float32 coefficients, the corpus
digest), written by ``python -m quarkci.router.model --record``; a test checks that the file equals a re-fit
on the committed corpus. Loading it and the first opinion take about 1.2 s, nearly all the scikit-learn
import. Nothing is pickled: the opinion is the softmax of the stored linear scores, which a test checks
against ``LogisticRegression.predict_proba``.

Out-of-fold figures (5 folds; ``benchmarks/bench_router.py --cv``): the classifier alone reads 91.6 % of the
writers' 2,145 goals right (the rules alone: 70.2 %, 87.0 % of their confident routes right; with two
corpora it was 83.3 % against 75.5 %, with five 91.6 %), 95.0 % of dev_3, 88.0 % of the own sentences.
How the router combines the two: :mod:`quarkci.router.confidence`.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from quarkci.router.text import invisible_free

ASK = "ask"  # the class of goals the router must answer with a question
CORPUS = "router_train.json"
MODEL = "router_model.npz"  # the fitted arrays (python -m quarkci.router.model --record)
FORMAT = "quarkci-router-train/1"
NGRAMS = (1, 4)  # character n-gram lengths
MIN_DF = 2  # an n-gram counts when at least this many goals have it
C = 30.0  # inverse regularisation strength of the logistic regression
TOL = 1e-4  # lbfgs stopping tolerance
MAX_ITER = 2000
# class weights: (goals / goals of the class) ** CLASS_POWER (0: every goal the same, 1: "balanced", every
# class the same in the loss however many goals it has)
CLASS_POWER = 0.5


@dataclass(frozen=True)
class Example:
    """One labelled goal: ``label`` a role id or :data:`ASK`; ``source`` the corpus part it came from."""

    goal: str
    label: str
    source: str
    kind: str = ""
    lang: str = ""
    expected: str | None = None  # the default-catalog skill the writer expected (None: ask)


@dataclass(frozen=True)
class Opinion:
    """The classifier's reading of a goal: ``ranked`` holds (label, probability) for every class, best
    first; ``label``/``probability`` are the top one's."""

    ranked: tuple[tuple[str, float], ...]

    @property
    def label(self) -> str:
        return self.ranked[0][0]

    @property
    def probability(self) -> float:
        return self.ranked[0][1]

    def roles(self) -> tuple[str, ...]:
        """The role labels (not :data:`ASK`), best first."""
        return tuple(label for label, _p in self.ranked if label != ASK)


def skill_roles() -> dict[str, str]:
    """Default-catalog skill name -> role id (the inverse of the real role resolution)."""
    from quarkci.router.catalog import load_catalog
    from quarkci.router.roles import resolve_roles

    return {skill: role for role, skill in resolve_roles(load_catalog(None)[0]).items()}


def label_of(entry: dict[str, Any], skills: dict[str, str]) -> str:
    """The class of corpus entry ``entry``: its ``role``, else the role of its ``expected`` skill, else
    :data:`ASK` for ``expected: null``. Raises KeyError for a skill no role resolves to (a test keeps the
    mapping total)."""
    from quarkci.router.roles import ROLES

    if entry.get("role"):
        role = str(entry["role"])
        if role not in ROLES:
            raise KeyError(role)
        return role
    expected = entry.get("expected")
    return ASK if expected is None else skills[str(expected)]


def corpus_document() -> dict[str, Any]:
    """The committed corpus document (``data/router_train.json``)."""
    text = resources.files("quarkci.router").joinpath("data", CORPUS).read_text("utf-8")
    document: dict[str, Any] = json.loads(text)
    if document.get("format") != FORMAT:
        raise ValueError(f"router corpus: format {document.get('format')!r}, expected {FORMAT}")
    return document


@cache
def corpus() -> tuple[Example, ...]:
    """Every labelled goal of the committed corpus, in file order."""
    skills = skill_roles()
    return tuple(
        Example(
            goal=str(g["goal"]),
            label=label_of(g, skills),
            source=str(g["source"]),
            kind=str(g.get("kind") or ""),
            lang=str(g.get("lang") or ""),
            expected=g.get("expected"),
        )
        for g in corpus_document()["goals"]
    )


def normalise(goal: str) -> str:
    """The text the classifier reads: invisible characters removed, white space collapsed, lower case."""
    return " ".join(invisible_free(goal).split()).lower()


def _vectorizer(vocabulary: dict[str, int] | None = None) -> Any:
    from sklearn.feature_extraction.text import TfidfVectorizer

    return TfidfVectorizer(
        analyzer="char_wb",
        ngram_range=NGRAMS,
        sublinear_tf=True,
        min_df=MIN_DF,
        lowercase=False,
        vocabulary=vocabulary,
    )


class Classifier:
    """A fitted classifier: the TF-IDF vectorizer (``terms`` in column order, their ``idf``) and the
    logistic regression's ``coef`` (classes x terms) and ``intercept`` over ``labels`` (sorted)."""

    def __init__(
        self, terms: tuple[str, ...], idf: Any, coef: Any, intercept: Any, labels: tuple[str, ...]
    ) -> None:
        import numpy as np

        self.terms, self.labels = terms, labels
        self.idf = np.asarray(idf, dtype=np.float32)
        self.coef = np.asarray(coef, dtype=np.float32)
        self.intercept = np.asarray(intercept, dtype=np.float64)
        self._vectorizer = _vectorizer({t: i for i, t in enumerate(terms)})
        self._vectorizer.idf_ = self.idf.astype(np.float64)

    def opinions(self, goals: list[str]) -> list[Opinion]:
        """One :class:`Opinion` per goal, same order: the softmax of the linear scores (what the multinomial
        logistic regression's ``predict_proba`` gives). Deterministic."""
        import numpy as np

        if not goals:
            return []
        features = self._vectorizer.transform([normalise(g) for g in goals])
        scores = np.asarray(features @ self.coef.astype(np.float64).T) + self.intercept
        if len(self.labels) == 2 and scores.shape[1] == 1:  # binary: one row of coefficients, for labels[1]
            scores = np.hstack([np.zeros_like(scores), scores])
        scores -= scores.max(axis=1, keepdims=True)
        matrix = np.exp(scores)
        matrix /= matrix.sum(axis=1, keepdims=True)
        out = []
        for row in matrix:
            ranked = sorted(
                ((self.labels[i], round(float(p), 6)) for i, p in enumerate(row)),
                key=lambda lp: (-lp[1], lp[0]),
            )
            out.append(Opinion(tuple(ranked)))
        return out

    def opinion(self, goal: str) -> Opinion:
        """The :class:`Opinion` on one goal."""
        return self.opinions([goal])[0]


def fit(examples: list[Example] | tuple[Example, ...]) -> Classifier:
    """Fit the classifier on ``examples`` (at least two labels). Deterministic: the same examples give the
    same predictions (``lbfgs`` uses no random numbers; the vocabulary is sorted). Takes about 2-3 s on the
    whole corpus (``benchmarks/bench_router.py --fit``), so the router loads :data:`MODEL` instead."""
    from sklearn.linear_model import LogisticRegression
    from threadpoolctl import threadpool_limits

    vectorizer = _vectorizer()
    counts = Counter(e.label for e in examples)
    weights = {label: (len(examples) / n) ** CLASS_POWER for label, n in sorted(counts.items())}
    regression = LogisticRegression(
        C=C, solver="lbfgs", tol=TOL, max_iter=MAX_ITER, class_weight=weights, random_state=0
    )
    with threadpool_limits(limits=1):  # a small problem: threads only contend (half the time on 2 cores)
        features = vectorizer.fit_transform([normalise(e.goal) for e in examples])
        regression.fit(features, [e.label for e in examples])
    terms = tuple(sorted(vectorizer.vocabulary_, key=vectorizer.vocabulary_.get))
    labels = tuple(str(x) for x in regression.classes_)
    return Classifier(terms, vectorizer.idf_, regression.coef_, regression.intercept_, labels)


def corpus_digest() -> str:
    """sha256 of the committed corpus file: the recorded model names the corpus it was fitted on."""
    data = resources.files("quarkci.router").joinpath("data", CORPUS).read_bytes()
    return hashlib.sha256(data).hexdigest()


def record(path: Path | None = None) -> Path:
    """Fit on the whole corpus and write the fitted arrays to ``path`` (default: the package's
    :data:`MODEL`), float32 coefficients, with the corpus digest. Returns the path written."""
    import numpy as np

    target = path or Path(str(resources.files("quarkci.router").joinpath("data", MODEL)))
    fitted = fit(corpus())
    with target.open("wb") as handle:
        np.savez_compressed(
            handle,
            terms=np.array(fitted.terms),
            idf=fitted.idf,
            coef=fitted.coef,
            intercept=fitted.intercept,
            labels=np.array(fitted.labels),
            corpus_sha256=np.array(corpus_digest()),
        )
    return target


def load(path: Path | None = None) -> tuple[Classifier, str]:
    """The recorded classifier and the corpus digest it was fitted on (see :func:`record`)."""
    import numpy as np

    source = path or resources.files("quarkci.router").joinpath("data", MODEL)
    with source.open("rb") as handle, np.load(handle) as arrays:
        classifier = Classifier(
            tuple(str(t) for t in arrays["terms"]),
            arrays["idf"],
            arrays["coef"],
            arrays["intercept"],
            tuple(str(x) for x in arrays["labels"]),
        )
        return classifier, str(arrays["corpus_sha256"])


@cache
def default_classifier() -> Classifier:
    """The classifier recorded from the committed corpus (``data/router_model.npz``), loaded once per
    process; re-record it with ``python -m quarkci.router.model --record`` after the corpus changes (a test
    checks that the file equals a re-fit)."""
    return load()[0]


def main(argv: list[str] | None = None) -> int:
    """``python -m quarkci.router.model --record``: re-fit and write ``data/router_model.npz``."""
    import argparse

    parser = argparse.ArgumentParser(description="the router's classifier")
    parser.add_argument("--record", action="store_true", help="re-fit on the corpus and write the model file")
    args = parser.parse_args(argv)
    if not args.record:
        parser.print_help()
        return 2
    print(f"wrote {record()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
