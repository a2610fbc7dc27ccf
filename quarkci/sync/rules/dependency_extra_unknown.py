"""dependency-extra-unknown: the skill installs an extra of amd-quark that the release does not provide."""

from __future__ import annotations

from quarkci.core.findings import Finding
from quarkci.skills.model import Claim
from quarkci.sync.rules._common import kind_source, make, release, releases_text, shown
from quarkci.sync.state import AuditState

ID = "dependency-extra-unknown"
DESC = "An amd-quark extra the skill installs (`amd-quark[cli]`) that the release does not provide"
CATEGORY = "dependencies"
MISSPELT = "dependency-extra-misspelt"


def extras_of(state: AuditState) -> frozenset[str]:
    """The extras the audited release's ``Requires-Dist`` markers name (``dependencies`` facts)."""
    return frozenset(
        str(i.attrs["extra"]) for i in state.upstream.items("dependencies") if i.attrs.get("extra")
    )


def unknown(state: AuditState) -> list[tuple[Claim, tuple[str, ...]]]:
    """``(claim, releases having the extra)`` per ``extra`` claim the release it is checked on lacks: the
    audited release, or the release an exact pin names (``amd-quark[cli]==0.11``, checked through the
    vocabulary). Empty when the release shows no dependencies (a source tree without METADATA)."""
    if not shown(state.upstream, "dependencies") or not state.upstream.items("dependencies"):
        return []
    vocabulary = state.vocabulary
    own = extras_of(state)
    out = []
    for claim in state.claims_of("extra"):
        having = vocabulary.releases_of("extra", claim.value) if vocabulary is not None else ()
        pin = claim.context.get("pin")
        if isinstance(pin, str) and pin != state.upstream.version and vocabulary is not None:
            if pin not in vocabulary.releases or pin in having:
                continue  # a pin to another release is checked on that release (unknown to us: skipped)
        elif claim.value in own:
            continue
        out.append((claim, having))
    return out


def check(state: AuditState) -> list[Finding]:
    """``removed`` (breaking) per ``extra`` claim whose release lacks the extra while another release has
    it: pip warns and installs amd-quark without the extra's packages (the console scripts then fail on
    import). An extra no release provides is ``dependency-extra-misspelt``'s (:func:`check_misspelt`)."""
    out = []
    for claim, having in unknown(state):
        if not having:
            continue
        out.append(
            make(
                ID,
                CATEGORY,
                "removed",
                claim,
                subject=f"amd-quark[{claim.value}]",
                skill_says=f"installs `amd-quark[{claim.value}]`",
                source_says=f"{_on(state, claim)} provides no extra `{claim.value}` "
                f"(extras: {', '.join(sorted(extras_of(state))) or 'none'}); releases providing it: "
                f"{releases_text(having)}",
                impact=f"pip installs amd-quark without the `{claim.value}` extra's packages",
                source=kind_source(state.upstream, "dependencies"),
            )
        )
    return out


def _on(state: AuditState, claim: Claim) -> str:
    pin = claim.context.get("pin")
    return (
        f"amd-quark {pin}"
        if isinstance(pin, str) and pin != state.upstream.version
        else release(state.upstream)
    )
