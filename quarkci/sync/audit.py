"""Run every registered rule over one audit state, then hand the findings to the policy."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from quarkci.core.findings import Finding
from quarkci.core.rules import Rule, run_rules
from quarkci.sync import coherence, policy
from quarkci.sync.registry import RULES
from quarkci.sync.state import AuditState

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class AuditResult:
    """Classified findings plus the ids of the rules that skipped themselves (with why)."""

    findings: policy.FindingSet
    skipped: tuple[tuple[str, str], ...]


def detect(
    state: AuditState, rules: Sequence[Rule[AuditState]] = RULES
) -> tuple[list[Finding], list[tuple[str, str]]]:
    """Raw findings of ``rules`` in registry order, and (rule id, reason) of skipped rules
    (:func:`quarkci.core.rules.run_rules`).

    Raises :class:`~quarkci.core.rules.RuleError` (tagged with the rule id) when a rule crashes.
    """
    return run_rules(rules, state)


def audit(
    state: AuditState, config: policy.Config | None = None, rules: Sequence[Rule[AuditState]] = RULES
) -> AuditResult:
    """Detect with ``rules``, then classify, deduplicate and filter with ``config`` (defaults if None);
    a fix that would leave its paragraph contradicting itself is withheld (:mod:`.coherence`)."""
    config = config or policy.Config()
    found, skipped = detect(state, rules)
    findings = policy.apply(found, config, state.line)

    def reaudit(trial: AuditState) -> policy.FindingSet:
        return policy.apply(detect(trial, rules)[0], config, trial.line)

    return AuditResult(coherence.coherent(findings, state, reaudit), tuple(skipped))
