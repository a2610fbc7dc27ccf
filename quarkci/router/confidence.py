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

Thresholds: chosen by 5-fold cross-validation over the corpus ``data/router_train.json`` (out-of-fold
opinions; never the held-out sets), ``benchmarks/bench_router.py --cv``: of the (AGREE, FALLBACK, OVERRIDE)
triples whose confident routes on the independent writers' 2,145 goals are at least 98 % right, and whose
classifier-only routes (pooled over the corpus) are too, the most accurate on those goals whose router,
fitted on the whole corpus, also keeps Quark 0.13's bundled evals at no confident misroute
(tests/router/test_quark_evals.py): AGREE 0.0 (the classifier's top role must be the rules' role, at any
probability), FALLBACK 0.7, OVERRIDE 0.8 (a classifier at least that sure replaces a different rule route,
never into or out of a PTQ workflow). The search's best triple without that condition, FALLBACK 0.5 (88.6 %,
99.1 %), routes one bundled eval that must ask (a skill-creator query) to the skill creator. Out of fold at
the chosen triple (the rules alone in brackets):

* the writers' train_1 ... train_9 (2,145): accuracy 87.1 % (70.2 %), confident routes 1,679, right 99.2 %
  (87.0 %); the classifier alone reads 96.0 % of them right;
* dev_3 (80): 97.5 % (96.2 %), confident 63/63 (62/62);
* the own case sentences (824): 89.4 % (99.2 %: the rules were written on them), confident 676/680.

One deferred quantize goal of the corpus (ja: decide between two schemes "before quantizing", "no run
needed") still reaches PTQ out of fold: the rules read its scheme names as a request and the classifier
agrees; the full fit, which saw it, asks.

With five corpora (1,193 writers' goals) the same search chose AGREE 0.0, FALLBACK 0.7, no override (79.0 %,
98.2 %); the fresh held-out goals_4.json then scored 58/60 right, 47/47 confident routes right.
With two corpora (478 writers' goals) the same search chose AGREE 0.5, FALLBACK 0.8: 70.1 % and 98.0 % on
those goals; the fresh held-out set goals_3.json then scored 51/60 right, 42/43 confident routes right.

Measured on earlier versions of the corpus and not kept: agreement with the rules' role anywhere in the
classifier's top two (95.7-98.1 % precision on the writers' goals for p 0.1-0.3, no more accurate at equal
precision), a margin between the first two classes instead of a probability (no pair more precise at the
same accuracy), and letting a very sure classifier (p 0.7-0.95) override a disagreeing rule route (a few more
right answers, precision 97.5-97.9 %). For scale: the classifier alone (its top role at p >= 0.6, PTQ only
where the rules said PTQ) reaches 71.5 % accuracy at 98.1 % precision on the writers' goals out of fold:
with these two signals no combination measured gets near issue 25's 90 % accuracy at 98 % precision.

The same thresholds on the own sets, the router fitted on the whole corpus (in-sample): every set of
``benchmarks/bench_router.py`` at 96-100 % accuracy and 100 % confident precision; Quark 0.13's bundled
evals 28/30, 27 confident routes, all right.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from quarkci.router.catalog import CatalogSkill
from quarkci.router.lexical import LexicalIndex
from quarkci.router.parse import parse
from quarkci.router.route import DESCRIBED, MAX_OPTIONS, Decision, Facts, prerequisites
from quarkci.router.route import decide as rule_decision

AGREE = 0.0  # the classifier's probability of the rules' role (its top class) for a confident route
FALLBACK = 0.7  # the classifier's probability for a route the rules did not give
OVERRIDE: float | None = 0.8  # the classifier's probability for its role over a different rule route
NEVER_INTRODUCED = frozenset({"ptq_workflow", "onnx_ptq_workflow"})
ASK = "ask"  # quarkci.router.model.ASK (the model is imported when routing starts, numpy and scikit-learn)

if TYPE_CHECKING:
    from quarkci.router.model import Classifier, Opinion


def combine(
    rules: Decision,
    opinion: Opinion,
    goal: str,
    facts: Facts,
    names: dict[str, str],
    *,
    agree: float = AGREE,
    fallback: float | None = FALLBACK,
    override: float | None = OVERRIDE,
) -> Decision:
    """The decision for ``goal`` from the rules' decision and the classifier's opinion (module docstring).

    ``agree``/``fallback``/``override`` are the thresholds (``None``: the classifier never routes on its own,
    never overrides the rules).
    """
    top, probability = opinion.label, opinion.probability
    read = f"the classifier reads {_reading(top)} (p {probability:.2f})"
    if rules.role is not None:
        if rules.role == DESCRIBED or rules.skill is not None:
            return rules
        if top == rules.role and probability >= agree:
            return rules
        if (
            override is not None
            and top != ASK
            and probability >= override
            and top in names
            and top not in NEVER_INTRODUCED
            and rules.role not in NEVER_INTRODUCED
        ):  # a sure classifier over a rule route, never into or out of a PTQ workflow
            why = f"{read}, over the rules' {rules.role!r} ({rules.reason})"
            return Decision(top, why, (), prerequisites(top, parse(goal), facts, ()), ())
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
    from quarkci.router.model import default_classifier

    rules = rule_decision(goal, facts, names, catalog, index)
    opinion = (classifier or default_classifier()).opinion(goal)
    return combine(rules, opinion, goal, facts, names)
