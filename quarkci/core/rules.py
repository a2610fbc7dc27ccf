"""What a rule is, and the one runner of a rule registry (skill sync's drift rules, verify's maintain rules).

A rule is a module with ``ID`` (kebab-case), ``DESC`` (one line), ``CATEGORY`` and ``check(state)``
returning :class:`~quarkci.core.findings.Finding` objects with a ``change`` (never a ``kind``: the policy
classifies). A module satisfies :class:`Rule` structurally (PEP 544, modules as implementations of
protocols), so mypy checks every registered rule's signature against the state type of its registry.
A rule whose prerequisite is missing raises :class:`Skip` (recorded, not an error); any other exception is
a crash, wrapped in :class:`RuleError` tagged with the rule id (exit 4).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from typing import Protocol, TypeVar

from quarkci.core.findings import Finding

log = logging.getLogger(__name__)
StateT = TypeVar("StateT", contravariant=True)


class Rule(Protocol[StateT]):
    """One drift rule over a state of type ``StateT`` (see the module docstring)."""

    ID: str
    DESC: str
    CATEGORY: str

    def check(self, state: StateT, /) -> Iterable[Finding]:
        """The raw findings of this rule on ``state``; raises :class:`Skip` when it cannot run."""
        ...


class Skip(Exception):  # noqa: N818 - a control-flow signal, not an error
    """Raised by a rule's ``check`` when it cannot run on this input (e.g. no baseline)."""


class RuleError(Exception):
    """A rule crashed: quarkci is broken (exit 4). ``rule`` is the id of the rule."""

    def __init__(self, rule: str, cause: BaseException) -> None:
        super().__init__(f"rule {rule} crashed: {type(cause).__name__}: {cause}")
        self.rule = rule


def run_rules(rules: Sequence[Rule[StateT]], state: StateT) -> tuple[list[Finding], list[tuple[str, str]]]:
    """Raw findings of ``rules`` on ``state`` in registry order, and ``(rule id, reason)`` of the rules
    that skipped themselves.

    Raises :class:`RuleError` (tagged with the rule id) when a rule crashes.
    """
    found: list[Finding] = []
    skipped: list[tuple[str, str]] = []
    for rule in rules:
        try:
            found.extend(rule.check(state))
        except Skip as why:
            log.debug("rule %s skipped: %s", rule.ID, why)
            skipped.append((rule.ID, str(why)))
        except Exception as exc:
            raise RuleError(rule.ID, exc) from exc
    return found, skipped
