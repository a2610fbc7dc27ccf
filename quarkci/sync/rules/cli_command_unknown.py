"""cli-command-unknown: a Quark command the skill runs (``quark-cli <subcommand>``, a console script) is not
one of the release's."""

from __future__ import annotations

import re

from quarkci.core.findings import Finding
from quarkci.facts.cli_flags import PACKAGED_CLI, command_labels
from quarkci.skills.model import Claim
from quarkci.sync.rules._common import make, release, releases_text
from quarkci.sync.state import AuditState

ID = "cli-command-unknown"
DESC = "A Quark command the skill runs (quark-cli subcommand, console script) is not in the release"
CATEGORY = "cli_flags"


# A sentence saying a command is absent ("It has no `quark-cli`", "ships without quark-quant-perf")
_SAID_ABSENT = re.compile(
    r"\b(?:has|have|had|ships?|shipped|comes? with|provides?|installs?) no\b|\bthere (?:is|are|was|were) no\b"
    r"|\bwithout (?:the |a |any )?(?:`?quark-|cli\b|command|console)|\bno longer\b|\bno `quark-",
    re.IGNORECASE,
)


def unknown(state: AuditState) -> list[tuple[Claim, tuple[str, ...]]]:
    """The ``command`` claims the release does not register, each with the vocabulary's releases that do
    (empty: no release has it). A release whose snapshot shows that it has no CLI at all (a wheel without
    console scripts and without the packaged CLI module: 0.6.0 … 0.9) registers none: a command other
    releases install is missing there, while the flags passed to it stay unverifiable
    (``fact-unverifiable``). A snapshot that cannot show the packaged CLI (it is unavailable) answers
    nothing: empty."""
    known = command_labels(state.upstream.items("cli_flags"))
    if not known and (PACKAGED_CLI in state.upstream.unavailable("cli_flags") or state.vocabulary is None):
        return []
    out = []
    for claim in state.claims_of("command"):
        name = claim.value
        if claim.context.get("negative") or _SAID_ABSENT.search(str(claim.context.get("around") or "")):
            continue  # "0.9 has no `quark-cli`": the skill says the command is not there
        having = releases_having(state, name)
        if not known and having in ((), ("?",)):
            continue  # no CLI here, and no release has the command: nothing says it is Quark's
        if name in known or (name == "quark-cli" and any(k.startswith("quark-cli ") for k in known)):
            continue
        out.append((claim, having))
    return out


def releases_having(state: AuditState, name: str) -> tuple[str, ...]:
    """The vocabulary's releases that have the command ``name`` (``quark-cli`` alone: those with any
    ``quark-cli`` subcommand), in release order; ``("?",)`` without a vocabulary."""
    vocabulary = state.vocabulary
    if vocabulary is None:
        return ("?",)
    found = vocabulary.releases_of("command", name)
    if found or name != "quark-cli":
        return found
    subs = [c for c in vocabulary.names("command") if c.startswith("quark-cli ")]
    having = {r for c in subs for r in vocabulary.releases_of("command", c)}
    return tuple(r for r in vocabulary.releases if r in having)


def check(state: AuditState) -> list[Finding]:
    """``removed`` (breaking) per ``command`` claim the release does not register but another release (of
    the vocabulary) does, naming those releases; one no release has is ``cli-command-misspelt``'s."""
    out = []
    for claim, defined in unknown(state):
        if not defined:
            continue
        known = [r for r in defined if r != "?"]
        out.append(
            make(
                ID,
                CATEGORY,
                "removed",
                claim,
                skill_says=f"runs `{claim.value}`",
                source_says=f"{release(state.upstream)} has no command `{claim.value}`"
                + (f"; releases defining it: {releases_text(tuple(known))}" if known else ""),
                impact=f"`{claim.value}` fails: the release does not install that command",
            )
        )
    return out
