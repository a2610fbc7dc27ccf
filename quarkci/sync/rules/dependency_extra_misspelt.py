"""dependency-extra-misspelt: the skill installs an amd-quark extra that no release has ever provided."""

from __future__ import annotations

from quarkci.core.findings import Finding
from quarkci.sync.rules._common import kind_source, make, release
from quarkci.sync.rules.dependency_extra_unknown import extras_of, unknown
from quarkci.sync.state import AuditState

ID = "dependency-extra-misspelt"
DESC = "An amd-quark extra the skill installs that no release provides (check the name)"
CATEGORY = "dependencies"


def check(state: AuditState) -> list[Finding]:
    """``changed`` (semantic, see ``RULE_KINDS`` in :mod:`quarkci.sync.policy`) per ``extra`` claim that
    no release of the vocabulary provides; nothing without a vocabulary."""
    if state.vocabulary is None:
        return []
    out = []
    for claim, having in unknown(state):
        if having:
            continue
        nearest = state.vocabulary.nearest("extra", claim.value, max_distance=2)
        hint = f"; the nearest is `{nearest}`" if nearest else ""
        out.append(
            make(
                ID,
                CATEGORY,
                "changed",
                claim,
                subject=f"amd-quark[{claim.value}]",
                skill_says=f"installs `amd-quark[{claim.value}]`",
                source_says=f"no amd-quark release provides an extra `{claim.value}`: check the name{hint} "
                f"({release(state.upstream)} provides: {', '.join(sorted(extras_of(state))) or 'none'})",
                impact=f"pip warns that amd-quark has no extra `{claim.value}` and installs without it",
                source=kind_source(state.upstream, "dependencies"),
            )
        )
    return out
