"""name-stated-unavailable: the skill says a scheme or model type is not supported or not available, and the
release defines it."""

from __future__ import annotations

from quarkci.core.findings import Finding
from quarkci.sync.rules._common import first_item, kind_source, make, release, source_loc
from quarkci.sync.state import AuditState

ID = "name-stated-unavailable"
DESC = "The skill says a scheme or model type is not supported or not available; the release defines it"
CATEGORY = "schemes"
_KINDS = {"scheme": ("schemes", "scheme"), "model_type": ("model_templates", "model template")}


def check(state: AuditState) -> list[Finding]:
    """``changed`` per ``scheme``/``model_type`` claim marked ``negative`` (its sentence says "not supported",
    "not available", "unsupported") whose name the audited release defines. Classified semantic (which
    statement is stale is for a person to decide), see ``RULE_KINDS`` in :mod:`quarkci.sync.policy`."""
    view = state.upstream
    out = []
    for claim_kind, (fact_kind, noun) in _KINDS.items():
        if not view.items(fact_kind):
            continue
        names = view.facts.names(fact_kind)
        for claim in state.claims_of(claim_kind):
            if not claim.context.get("negative") or claim.value not in names:
                continue
            item = first_item(view, fact_kind, claim.value)
            out.append(
                make(
                    ID,
                    CATEGORY,
                    "changed",
                    claim,
                    skill_says=f"says {noun} `{claim.value}` is not supported or not available",
                    source_says=f"{release(view)} defines {noun} `{claim.value}`",
                    impact=f"users are told not to use `{claim.value}` although the release supports it",
                    source=source_loc(item) if item is not None else kind_source(view, fact_kind),
                )
            )
    return out
