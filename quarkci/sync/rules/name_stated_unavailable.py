"""name-stated-unavailable: the skill says a scheme, model type or Python name is not available, and the
release defines it."""

from __future__ import annotations

from quarkci.core.findings import Finding
from quarkci.facts.public_api import ApiIndex
from quarkci.skills.model import Claim
from quarkci.sync.rules._api import index_of
from quarkci.sync.rules._common import first_item, kind_source, make, release, source_loc
from quarkci.sync.state import AuditState

ID = "name-stated-unavailable"
DESC = (
    "The skill says a scheme, model type or Python name (a class, function, method or module) is not "
    "supported or not available; the release defines it"
)
CATEGORY = "schemes"
_KINDS = {"scheme": ("schemes", "scheme"), "model_type": ("model_templates", "model template")}


def _defined(claim: Claim, index: ApiIndex) -> bool:
    """True when the release defines what a ``python_name`` claim names: an import or dotted name that
    resolves, a bare name a framework package exports (outside the other framework when the claim's file
    names one, ``context["framework"]``; a name only ``quark.*.extensions`` define is not), a method its
    class (or a base) defines."""
    form = claim.context.get("form")
    if form == "member":
        return index.has_member(str(claim.context.get("class")), str(claim.context.get("member"))) is True
    if form == "bare":
        # "There is no `Float16Spec`" in a skill about quark.onnx, where only quark.torch defines one: not
        # defined where the skill looks, so the statement holds
        # a name only an optional extension defines (0.12.post1's Brevitas `ModelExporter`) is not what a
        # sentence saying "`ModelExporter` is gone" speaks of
        found = [d for d in index.bare(claim.value) if ".extensions." not in d]
        scope = claim.context.get("framework")
        if not scope:
            return bool(found)
        other = "quark.onnx." if scope == "quark.torch" else "quark.torch."
        return any(not d.startswith(other) for d in found)
    if form in ("from", "dotted") and "." in claim.value:
        split = index.split(claim.value)
        if split is None:
            return False
        module, rest = split
        return not rest or (len(rest) == 1 and index.resolves(module, rest[0]) is True)
    return False


def check(state: AuditState) -> list[Finding]:
    """``changed`` per ``scheme``/``model_type`` claim marked ``negative`` (its sentence says "not supported",
    "not available", "unsupported") whose name the audited release defines, and per ``python_name`` claim
    so marked whose name the release defines (:func:`_defined`, from its ``public_api`` facts). Classified
    semantic (which statement is stale is for a person to decide); for a Python name only a sentence saying
    it does not exist counts (``unavailable``: "is not available", "was removed"), not one saying a
    function refuses something, see ``RULE_KINDS`` in
    :mod:`quarkci.sync.policy`."""
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
    # "`disable_native_inference` is not available in this release" where the release exports it
    index = index_of(view)
    if index:
        for claim in state.claims_of("python_name"):
            if not claim.context.get("unavailable") or not _defined(claim, index):
                continue
            out.append(
                make(
                    ID,
                    CATEGORY,
                    "changed",
                    claim,
                    skill_says=f"says `{claim.value}` is not available",
                    source_says=f"{release(view)} defines `{claim.value}`",
                    impact=f"users are told not to use `{claim.value}` although the release has it",
                )
            )
    return out
