"""python-version-mismatch: a Python version statement contradicts the release's Requires-Python."""

from __future__ import annotations

from quarkci.core.findings import Finding
from quarkci.sync.rules._versions import mismatch, spec_of, stated_of
from quarkci.sync.state import AuditState

ID = "python-version-mismatch"
DESC = "A Python version range in the skill differs from the release's Requires-Python"
CATEGORY = "python"


def check(state: AuditState) -> list[Finding]:
    """Compare each ``python_version`` claim with ``requires-python`` (METADATA or pyproject.toml).

    Only the bounds the sentence states are compared ("3.10+" states a lower bound only).
    """
    item = next((i for i in state.upstream.items("python") if i.name == "requires-python"), None)
    upstream = spec_of(item) if item is not None else None
    if item is None or upstream is None:
        return []
    out = []
    for claim in state.claims_of("python_version"):
        stated = stated_of(claim, state)
        if stated is None:
            continue
        found = mismatch(state, claim, stated, upstream, item, rule=ID, category=CATEGORY,
                         product="Python", major=3)
        if found is not None:
            out.append(found)
    return out
