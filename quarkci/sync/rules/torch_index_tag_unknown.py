"""torch-index-tag-unknown: a PyTorch wheel-index tag (cu126, rocm7.1) the release's matrix does not list."""

from __future__ import annotations

from quarkci.core.findings import Finding, Fix
from quarkci.facts.torch_matrix import accelerator_of
from quarkci.skills.model import Claim
from quarkci.sync.rules._common import kind_source, make, release
from quarkci.sync.state import AuditState

ID = "torch-index-tag-unknown"
DESC = "A PyTorch wheel-index tag the skill names is not in the release's install matrix"
CATEGORY = "torch_matrix"


def tags(state: AuditState) -> set[str]:
    """Index tags (``download.pytorch.org/whl/<tag>``) the release's install matrix lists."""
    return {i.name for i in state.upstream.items("torch_matrix") if i.attrs.get("accelerator")}


def check(state: AuditState) -> list[Finding]:
    """One ``changed`` finding per accelerator-tag claim outside the matrix (silent with no matrix), with
    a fix to the matrix's tag when it lists exactly one of that accelerator (``cu126`` -> ``cu128``;
    with two CUDA tags, which one the skill meant is the author's call: no fix)."""
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
                fix=_fix(state, claim, known),
            )
        )
    return out


def _fix(state: AuditState, claim: Claim, known: set[str]) -> Fix | None:
    """The tag rewritten to the one tag of its accelerator the matrix lists, in the claim's own words."""
    same = sorted(t for t in known if accelerator_of(t) == accelerator_of(claim.value))
    line = state.line(claim.file, claim.line)
    text = claim.context.get("text")
    if len(same) != 1 or line is None or not isinstance(text, str) or line.count(text) != 1:
        return None
    new = text.replace(claim.value, same[0], 1)
    return Fix(
        claim.file,
        claim.line,
        line,
        line.replace(text, new, 1),
        description=f"PyTorch index {claim.value} -> {same[0]}",
    )
