"""dependency-not-required: the skill says amd-quark installs a package this release does not require."""

from __future__ import annotations

from packaging.utils import canonicalize_name

from quarkci.core.findings import Finding
from quarkci.sync.rules._common import kind_source, make, release, releases_text
from quarkci.sync.state import AuditState

ID = "dependency-not-required"
DESC = "A package the skill says amd-quark requires or installs, which the release does not require"
CATEGORY = "dependencies"


def check(state: AuditState) -> list[Finding]:
    """``removed`` (breaking) per ``requirement`` claim naming a package that no ``Requires-Dist`` of the
    release names (in any extra) while another release does: users rely on a package the install does
    not bring. Nothing when the release shows no dependencies or there is no vocabulary."""
    required = {canonicalize_name(i.name) for i in state.upstream.items("dependencies")}
    if not required or state.vocabulary is None:
        return []
    out = []
    for claim in state.claims_of("requirement"):
        if claim.value in required or claim.context.get("negative"):
            continue
        having = state.vocabulary.releases_of("dependency", claim.value)
        if not having:
            continue
        out.append(
            make(
                ID,
                CATEGORY,
                "removed",
                claim,
                subject=f"requires {claim.value}",
                skill_says=f"says amd-quark installs `{claim.value}`",
                source_says=f"{release(state.upstream)} does not require `{claim.value}` (no Requires-Dist "
                f"names it); releases requiring it: {releases_text(having)}",
                impact=f"`{claim.value}` is missing after installing amd-quark; code importing it fails",
                source=kind_source(state.upstream, "dependencies"),
            )
        )
    return out
