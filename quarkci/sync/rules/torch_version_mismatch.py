"""torch-version-mismatch: a PyTorch version statement contradicts the release's torch requirement."""

from __future__ import annotations

from packaging.specifiers import SpecifierSet

from quarkci.core.findings import Finding
from quarkci.facts.base import FactItem
from quarkci.sync.rules._versions import mismatch, spec_of, stated_of
from quarkci.sync.state import AuditState

ID = "torch-version-mismatch"
DESC = "A PyTorch version range in the skill differs from the torch requirement the release declares"
CATEGORY = "torch_matrix"


def requirement(state: AuditState) -> tuple[FactItem, SpecifierSet] | None:
    """The release's declared ``torch`` requirement (METADATA / pyproject), as (item, SpecifierSet)."""
    for item in state.upstream.items("torch_matrix"):
        source = str(item.attrs.get("source") or item.file)
        if item.name == "torch" and ("METADATA" in source or "pyproject" in source):
            spec = spec_of(item)
            if spec is not None and len(spec):
                return item, spec
    return None


def check(state: AuditState) -> list[Finding]:
    """Compare each ``torch_version`` claim with the declared torch requirement, when there is one.

    CI install pins (``tools/ci/install_torch.sh``) are tested versions, not a requirement, and are
    not compared here; with no declared requirement the claim is left to torch-version-unverifiable.
    """
    found = requirement(state)
    if found is None:
        return []
    item, upstream = found
    out = []
    for claim in state.claims_of("torch_version"):
        if claim.context.get("aspect") == "accelerator_tag":
            continue  # an index tag, not a version range: torch-index-tag-unknown
        stated = stated_of(claim, state)
        if stated is None:
            continue
        finding = mismatch(
            state, claim, stated, upstream, item, rule=ID, category=CATEGORY, product="PyTorch", major=2
        )
        if finding is not None:
            out.append(finding)
    return out
