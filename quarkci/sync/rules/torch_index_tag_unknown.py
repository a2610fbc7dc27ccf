"""torch-index-tag-unknown: a PyTorch wheel-index tag (cu126, rocm7.1) the release's matrix does not list."""

from __future__ import annotations

from quarkci.core.findings import Finding
from quarkci.sync.rules._common import kind_source, make, release
from quarkci.sync.state import AuditState

ID = "torch-index-tag-unknown"
DESC = "A PyTorch wheel-index tag the skill names is not in the release's install matrix"
CATEGORY = "torch_matrix"


def tags(state: AuditState) -> set[str]:
    """Index tags (``download.pytorch.org/whl/<tag>``) the release's install matrix lists."""
    return {i.name for i in state.upstream.items("torch_matrix") if i.attrs.get("accelerator")}


def check(state: AuditState) -> list[Finding]:
    """One ``changed`` finding per accelerator-tag claim outside the matrix (silent with no matrix)."""
    known = tags(state)
    if not known:
        return []
    out = []
    for claim in state.claims_of("torch_version"):
        if claim.context.get("aspect") != "accelerator_tag" or claim.value in known:
            continue
        out.append(
            make(
                ID,
                CATEGORY,
                "changed",
                claim,
                subject=f"PyTorch index {claim.value} in {claim.file}",
                skill_says=f"PyTorch wheel index `{claim.value}`",
                source_says=f"{release(state.upstream)} installs from {', '.join(sorted(known))}",
                impact="users pick a PyTorch build the release does not test",
                source=kind_source(state.upstream, "torch_matrix"),
            )
        )
    return out
