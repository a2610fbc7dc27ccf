"""Confidence = agreement: the rule parse's route stands only when the learned classifier reads the same role.

:func:`decide` takes the decision of the seed's rules (:func:`quarkci.router.route.decide`, the clause parse
over ``lexicon.yaml`` checked against the catalog's descriptions) and the classifier's opinion
(:mod:`quarkci.router.model`, character n-grams over the whole goal), and

1. keeps a rule route when the classifier's top class is the same role with probability at least
   :data:`AGREE`; a route to a skill the goal names outright ("/skill quark-skill-creator") is its own
   confirmation and is kept too;
2. turns any other rule route into a question (``undecided``): the rules' role first, then the classifier's
   best roles (its "ask" is no option), so both readings reach ``open_questions``;
3. where the rules route nothing (nothing recognised, an ambiguous reading, or a bare verb against another
   request), routes the classifier's role when its probability is at least :data:`FALLBACK` and the catalog
   has a skill for it, except a PTQ workflow: the classifier never *introduces* a PTQ route, so the parse's
   negation and deferral handling stays the authority on "do not quantize yet".

Thresholds (out-of-fold, 5-fold cross-validation over the corpus ``data/router_train.json``; never the
held-out sets; ``benchmarks/bench_router.py --cv`` prints the sweep): see :data:`AGREE` and
:data:`FALLBACK`.
"""

from __future__ import annotations

from quarkci.router.catalog import CatalogSkill
from quarkci.router.lexical import LexicalIndex
from quarkci.router.model import ASK, Classifier, Opinion, default_classifier
from quarkci.router.parse import parse
from quarkci.router.route import DESCRIBED, MAX_OPTIONS, Decision, Facts, prerequisites
from quarkci.router.route import decide as rule_decision

AGREE = 0.30  # the classifier's probability of the rules' role for a confident route
FALLBACK = 0.90  # the classifier's probability for a route the rules did not give
NEVER_INTRODUCED = frozenset({"ptq_workflow", "onnx_ptq_workflow"})


def combine(
    rules: Decision,
    opinion: Opinion,
    goal: str,
    facts: Facts,
    names: dict[str, str],
    *,
    agree: float = AGREE,
    fallback: float | None = FALLBACK,
) -> Decision:
    """The decision for ``goal`` from the rules' decision and the classifier's opinion (module docstring).

    ``agree``/``fallback`` are the thresholds (``fallback=None``: the classifier never routes on its own).
    """
    top, probability = opinion.label, opinion.probability
    read = f"the classifier reads {_reading(top)} (p {probability:.2f})"
    if rules.role is not None:
        if rules.role == DESCRIBED or rules.skill is not None:
            return rules
        if top == rules.role and probability >= agree:
            return rules
        options = tuple(dict.fromkeys([rules.role, *(r for r in opinion.roles() if r in names)]))
        if len(options) < 2:
            options = tuple(dict.fromkeys([rules.role, *opinion.roles()]))
        why = (
            f"{rules.reason}; but {read}"
            + ("" if top != rules.role else f", under the {agree:.2f} needed to route")
            + ": the two readings differ, so the goal is asked"
        )
        return Decision(None, why, options[:MAX_OPTIONS], (), rules.scores)
    if (
        fallback is not None
        and top != ASK
        and probability >= fallback
        and top in names
        and top not in NEVER_INTRODUCED
    ):
        why = f"{read}; the rules were not sure ({rules.reason})"
        return Decision(top, why, (), prerequisites(top, parse(goal), facts, ()), ())
    return rules


def _reading(label: str) -> str:
    return "a question (ask)" if label == ASK else f"'{label}'"


def decide(
    goal: str,
    facts: Facts,
    names: dict[str, str],
    catalog: list[CatalogSkill] | None = None,
    index: LexicalIndex | None = None,
    classifier: Classifier | None = None,
) -> Decision:
    """The routing decision for ``goal``: the rules' (see :func:`quarkci.router.route.decide`) checked by
    ``classifier`` (default: :func:`quarkci.router.model.default_classifier`). Deterministic."""
    rules = rule_decision(goal, facts, names, catalog, index)
    opinion = (classifier or default_classifier()).opinion(goal)
    return combine(rules, opinion, goal, facts, names)
