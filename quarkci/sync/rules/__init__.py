"""Drift rules: one module per rule, each with ``ID``, ``DESC``, ``CATEGORY`` and ``check(state)``.

A rule is a pure function of an :class:`~quarkci.sync.state.AuditState` returning
:class:`~quarkci.core.findings.Finding` objects with a ``change`` (never a ``kind``: the policy
layer classifies). Rules never filter, format or write. A rule whose prerequisite is missing
raises :class:`Skip` (logged, not an error); a crash is wrapped in :class:`RuleError` tagged
with the rule id. The ordered list of rules lives in :mod:`quarkci.sync.registry`.
"""

from __future__ import annotations

DOCS_BASE = "docs/rules.md#"


class Skip(Exception):  # noqa: N818 - a control-flow signal, not an error
    """Raised by a rule's ``check`` when it cannot run on this input (e.g. no baseline)."""


class RuleError(Exception):
    """A rule crashed: quarkci is broken (exit 4). ``rule`` is the id of the rule."""

    def __init__(self, rule: str, cause: BaseException) -> None:
        super().__init__(f"rule {rule} crashed: {type(cause).__name__}: {cause}")
        self.rule = rule


def docs_url(rule_id: str) -> str:
    """Docs anchor of a rule, derived from its id so the id and the docs never drift apart."""
    return DOCS_BASE + rule_id
