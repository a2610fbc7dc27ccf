"""version-unverifiable: a Python / PyTorch / transformers statement the snapshot cannot check."""

from __future__ import annotations

from quarkci.core.findings import Finding
from quarkci.sync.rules import torch_index_tag_unknown, torch_version_mismatch, transformers_version_mismatch
from quarkci.sync.rules._common import make, release
from quarkci.sync.rules._versions import stated_of
from quarkci.sync.state import AuditState

ID = "version-unverifiable"
DESC = "A version statement whose upstream requirement is not in the snapshot (e.g. no torch pin in a wheel)"
CATEGORY = "versions"


def check(state: AuditState) -> list[Finding]:
    """One finding per range-stating version claim that no upstream requirement can confirm."""
    view = state.upstream
    has_python = any(i.name == "requires-python" for i in view.items("python"))
    checks = {
        "python_version": ("Python", has_python, "python"),
        "torch_version": ("PyTorch", torch_version_mismatch.requirement(state) is not None, "torch_matrix"),
        "transformers_version": (
            "transformers",
            transformers_version_mismatch.evidence(state) is not None,
            "compat",
        ),
    }
    out = []
    for claim_kind, (product, known, fact_kind) in checks.items():
        if known:
            continue
        missing = view.unavailable(fact_kind)
        why = (
            f"needs {', '.join(missing)}, not in this snapshot"
            if missing
            else f"the release declares no {product} requirement"
        )
        for claim in state.claims_of(claim_kind):
            if claim.context.get("aspect") == "accelerator_tag":
                continue  # torch-index-tag-unknown / below
            stated = stated_of(claim, state)
            if stated is None:
                continue
            said = stated.text or claim.value
            out.append(
                make(
                    ID,
                    CATEGORY,
                    "not_shown",
                    claim,
                    subject=f"{product} {said} in {claim.file}",
                    skill_says=f"{product} {said}",
                    source_says=f"{release(view)}: cannot tell; {why}",
                    impact="not checked",
                )
            )
    if not torch_index_tag_unknown.tags(state):
        missing = view.unavailable("torch_matrix")
        why = (
            f"needs {', '.join(missing)}, not in this snapshot"
            if missing
            else "the release lists no index tags"
        )
        for claim in state.claims_of("torch_version"):
            if claim.context.get("aspect") != "accelerator_tag":
                continue
            out.append(
                make(
                    ID,
                    CATEGORY,
                    "not_shown",
                    claim,
                    subject=f"PyTorch index {claim.value} in {claim.file}",
                    skill_says=f"PyTorch wheel index `{claim.value}`",
                    source_says=f"{release(view)}: cannot tell; {why}",
                    impact="not checked",
                )
            )
    return out
