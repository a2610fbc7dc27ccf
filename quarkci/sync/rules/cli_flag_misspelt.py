"""cli-flag-misspelt: a flag passed to a Quark command that no command of any amd-quark release defines."""

from __future__ import annotations

from quarkci.core.findings import Finding
from quarkci.sync.rules._common import make, release, releases_text
from quarkci.sync.rules._flags import resolve
from quarkci.sync.state import AuditState

ID = "cli-flag-misspelt"
DESC = "A CLI flag the skill passes that no command of any amd-quark release defines (check the name)"
CATEGORY = "cli_flags"


def misspelt(state: AuditState, flag: str) -> bool:
    """True when no command of any release of the vocabulary defines ``flag`` (the vocabulary's ``flag``
    kind); False without a vocabulary, or when the audited release shows no flags at all."""
    vocabulary = state.vocabulary
    return (
        vocabulary is not None and bool(vocabulary.names("flag")) and not vocabulary.releases_of("flag", flag)
    )


def check(state: AuditState) -> list[Finding]:
    """``changed`` (semantic: a person checks which flag was meant, see ``RULE_KINDS`` in
    :mod:`quarkci.sync.policy`) per flag claim that its command does not define (``cli-flag-removed``'s
    case) and that no release defines for any command, with the nearest flag of the vocabulary;
    ``cli-flag-removed`` leaves these to it."""
    out = []
    for claim in state.claims_of("cli_flag", historical=True):
        if not misspelt(state, claim.value):
            continue
        res = resolve(claim, state.upstream, state.baseline)
        if res.status != "removed":
            continue
        nearest = state.vocabulary.nearest("flag", claim.value, max_distance=3) if state.vocabulary else None
        defined = state.vocabulary.releases_of("flag", nearest) if state.vocabulary and nearest else ()
        hint = f"; the nearest flag is `{nearest}` ({releases_text(defined)})" if nearest else ""
        out.append(
            make(
                ID,
                CATEGORY,
                "changed",
                claim,
                subject=f"{res.target.label} {claim.value}",
                skill_says=f"passes `{claim.value}` to {res.target.label}",
                source_says=f"no command of any amd-quark release defines `{claim.value}`: check the "
                f"name{hint} ({release(state.upstream)})",
                impact=f"the command fails with 'unrecognized arguments: {claim.value}'",
            )
        )
    return out
