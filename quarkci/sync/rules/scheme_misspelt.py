"""scheme-misspelt: a scheme-shaped name that no amd-quark release defines, one or two edits from one that does."""

from __future__ import annotations

from quarkci.core.findings import Finding
from quarkci.facts.cli_flags import scheme_choices
from quarkci.skills.claims.tokens import family_head, scheme_shaped
from quarkci.sync.rules._common import kind_source, make, release, releases_text
from quarkci.sync.state import AuditState

ID = "scheme-misspelt"
DESC = "A scheme-shaped name no amd-quark release defines, close to one that a release does (check the name)"
CATEGORY = "schemes"


def check(state: AuditState) -> list[Finding]:
    """``changed`` per ``scheme`` claim naming a scheme no release of the vocabulary defines: one the token
    resolver marked ``misspelt_of`` (within two edits of a known name, or of a known scheme's family:
    :func:`~quarkci.skills.claims.tokens.family_head`), or a scheme-shaped name read in a scheme's place (a
    YAML value, a flag's value), with the nearest name when there is one. Classified semantic (a person
    must check which name was meant), see ``RULE_KINDS`` in :mod:`quarkci.sync.policy`."""
    view = state.upstream
    if not view.items("schemes"):
        return []
    out = []
    vocabulary = state.vocabulary
    accepted = view.facts.names("schemes") | scheme_choices(view.items("cli_flags"))
    for claim in state.claims_of("scheme", historical=True):
        nearest = claim.context.get("misspelt_of")
        if claim.context.get("negative"):
            continue
        if not isinstance(nearest, str):
            # read where the token resolver does not look (a YAML value, a flag's value): a scheme-shaped
            # name no release defines, two edits from one that a release does, is the same misspelling
            if (
                vocabulary is None
                or claim.value in accepted
                or vocabulary.releases_of("scheme", claim.value)
                or not scheme_shaped(claim.value)
            ):
                continue
            nearest = vocabulary.nearest("scheme", claim.value) or family_head(
                claim.value, vocabulary.names("scheme")
            )
            if nearest is None:
                continue  # close to no name: scheme-unknown
        defined = state.vocabulary.releases_of("scheme", nearest) if state.vocabulary and nearest else ()
        where = f" (defined in {releases_text(defined)})" if defined else ""
        in_this = "; this release defines it" if nearest in view.facts.names("schemes") else ""
        hint = f"; the nearest scheme is `{nearest}`{where}{in_this}" if nearest else ""
        out.append(
            make(
                ID,
                CATEGORY,
                "changed",
                claim,
                skill_says=f"names scheme `{claim.value}`",
                source_says=f"no amd-quark release defines `{claim.value}`: check the name{hint} ({release(view)})",
                impact=f"Quark rejects `{claim.value}`" + (f"; `{nearest}` may be meant" if nearest else ""),
                source=kind_source(view, "schemes"),
            )
        )
    return out
