"""A learned second opinion on the route: which role (or a question) a goal asks for, from labelled goals.

The classifier reads the whole goal as characters: TF-IDF over character n-grams inside word boundaries
(``char_wb``, :data:`NGRAMS`; it covers CJK, where words are not spaced, and typos, which keep most of a
word's n-grams) and a multinomial logistic regression (``lbfgs``, no randomness; scikit-learn). Its classes
are the role ids of :mod:`quarkci.router.roles` plus :data:`ASK` (the seed asks), never skill names, so one
fit serves every catalog.

The corpus (``data/router_train.json``, format ``quarkci-router-train/1``): labelled goals, each with its
``expected`` skill of the default catalog (``null``: the router must ask) or, for a role the default catalog
has no skill for, its ``role``. Labels are mapped to roles through the real role resolution
(:func:`quarkci.router.roles.resolve_roles` on ``default_catalog.yaml``), so a renamed skill cannot silently
change a label. The model is fitted from the JSON at first use and cached per process (the cost is in
``benchmarks/bench_router.py --fit``); nothing is pickled.

How the router uses the opinion (:mod:`quarkci.router.route`): a rule route is confident only when the
classifier's top role is the same and its probability clears a threshold chosen by cross-validation; a
goal the rules leave open may be routed to a role the classifier is very sure of, never to a PTQ workflow.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from quarkci.router.text import invisible_free

ASK = "ask"  # the class of goals the router must answer with a question
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
    text = resources.files("quarkci.router").joinpath("data", "router_train.json").read_text("utf-8")
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


class Classifier:
    """A fitted TF-IDF + logistic regression pipeline over role labels (see the module docstring)."""

    def __init__(self, pipeline: Any, labels: tuple[str, ...]) -> None:
        self._pipeline = pipeline
        self.labels = labels

    def opinions(self, goals: list[str]) -> list[Opinion]:
        """One :class:`Opinion` per goal, same order. Deterministic for a given fit."""
        if not goals:
            return []
        matrix = self._pipeline.predict_proba([normalise(g) for g in goals])
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
    same predictions (``lbfgs`` uses no random numbers; the vocabulary is sorted)."""
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from threadpoolctl import threadpool_limits

    pipeline = make_pipeline(
        TfidfVectorizer(
            analyzer="char_wb", ngram_range=NGRAMS, sublinear_tf=True, min_df=MIN_DF, lowercase=False
        ),
        LogisticRegression(C=C, solver="lbfgs", tol=TOL, max_iter=MAX_ITER, random_state=0),
    )
    counts = Counter(e.label for e in examples)
    weights = {label: (len(examples) / n) ** CLASS_POWER for label, n in sorted(counts.items())}
    pipeline.set_params(logisticregression__class_weight=weights)
    with threadpool_limits(limits=1):  # a small problem: threads only contend (half the time on 2 cores)
        pipeline.fit([normalise(e.goal) for e in examples], [e.label for e in examples])
    labels = tuple(str(x) for x in pipeline.classes_)
    return Classifier(pipeline, labels)


@cache
def default_classifier() -> Classifier:
    """The classifier fitted on the whole committed corpus (once per process)."""
    return fit(corpus())
