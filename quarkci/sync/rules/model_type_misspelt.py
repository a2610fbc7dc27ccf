"""model-type-misspelt: a model type the skill names that no amd-quark release has a template for, one or
two edits from one that a release does."""

from __future__ import annotations

from quarkci.core.findings import Finding
from quarkci.sync.rules._common import kind_source, make, release, releases_text
from quarkci.sync.state import AuditState

ID = "model-type-misspelt"
DESC = (
    "A model type no amd-quark release has a template for, close to one that a release has (check the name)"
)
CATEGORY = "model_templates"


def check(state: AuditState) -> list[Finding]:
    """``changed`` (semantic, see ``RULE_KINDS`` in :mod:`quarkci.sync.policy`) per ``model_type`` claim the
    token resolver marked ``misspelt_of``: a name in a sentence about templates, or the value of a
    ``model_type`` key, that no release of the vocabulary registers, within two edits of one that does or
    a registered name with a version suffix (``llama3_1``). Historical claims count too (a name no
    release had is wrong in a history note as well). Silent when the release shows no ``model_templates``."""
    view = state.upstream
    if not view.items("model_templates"):
        return []
    out = []
    for claim in state.claims_of("model_type", historical=True):
        nearest = claim.context.get("misspelt_of")
        if not isinstance(nearest, str) or claim.context.get("negative"):
            continue
        if state.vocabulary is not None and state.vocabulary.releases_of("model_template", claim.value):
            continue  # some release has it after all (model-type-unknown's when this one lacks it)
        defined = state.vocabulary.releases_of("model_template", nearest) if state.vocabulary else ()
        where = f" (registered in {releases_text(defined)})" if defined else ""
        out.append(
            make(
                ID,
                CATEGORY,
                "changed",
                claim,
                skill_says=f"names model type `{claim.value}`",
                source_says=f"no amd-quark release has a model template `{claim.value}`: check the name; "
                f"the nearest is `{nearest}`{where} ({release(view)})",
                impact=f"`LLMTemplate.get('{claim.value}')` raises: no such template",
                source=kind_source(view, "model_templates"),
            )
        )
    return out
