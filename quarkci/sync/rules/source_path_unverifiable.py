"""source-path-unverifiable: a path the skill depends on lies in a tree the snapshot does not hold."""

from __future__ import annotations

from quarkci.core.findings import Finding
from quarkci.sync.rules._common import make, release
from quarkci.sync.rules.source_path_missing import upstream_path
from quarkci.sync.state import AuditState

# amd/Quark's skills/ tree ships inside the wheel as quark/_bundled_skills/ (from 0.13).
BUNDLED = ("skills/", "quark/_bundled_skills/")

ID = "source-path-unverifiable"
DESC = "A source_knowledge or inline path in a tree this snapshot does not hold (examples/, docs/ in a wheel)"
CATEGORY = "paths"


def check(state: AuditState) -> list[Finding]:
    """One ``not_shown`` finding per upstream path claim outside the snapshot's coverage."""
    view = state.upstream
    out = []
    for claim in state.claims_of("path"):
        path = upstream_path(claim)
        if path is None or view.covers(path):
            continue
        if path.startswith(BUNDLED[0]) and view.exists(BUNDLED[1] + path[len(BUNDLED[0]) :]):
            continue  # the release bundles that skills/ file: it exists
        out.append(
            make(
                ID,
                CATEGORY,
                "not_shown",
                claim,
                subject=path,
                skill_says=f"depends on `{path}`",
                source_says=f"{release(view)} ({view.kind}) does not hold `{path.split('/', 1)[0]}`; cannot tell",
                impact="not checked; audit against a git checkout of amd/Quark to verify it",
            )
        )
    return out
