"""The explicit, ordered registry of verify drift rules (the shape of :mod:`quarkci.sync.registry`:
modules with ``ID``, ``DESC``, ``CATEGORY`` and ``check(state) -> list[Finding]``)."""

from __future__ import annotations

from quarkci.core.rules import Rule
from quarkci.verify.rules import (
    entry_point_changed,
    entry_point_removed,
    family_added,
    family_removed,
    harness_hash_moved,
    tolerance_changed,
)
from quarkci.verify.rules._common import MaintainState

RULES: tuple[Rule[MaintainState], ...] = (
    family_removed,
    entry_point_removed,
    family_added,
    entry_point_changed,
    tolerance_changed,
    harness_hash_moved,
)
RULE_IDS: tuple[str, ...] = tuple(r.ID for r in RULES)
assert len(set(RULE_IDS)) == len(RULE_IDS), "duplicate rule id"
