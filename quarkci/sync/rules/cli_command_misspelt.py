"""cli-command-misspelt: a Quark-shaped command the skill runs that no amd-quark release has."""

from __future__ import annotations

from quarkci.core.findings import Finding
from quarkci.sync.rules._common import make
from quarkci.sync.rules.cli_command_unknown import unknown
from quarkci.sync.state import AuditState

ID = "cli-command-misspelt"
DESC = "A quark-cli subcommand or quark-* console script the skill runs exists in no amd-quark release"
CATEGORY = "cli_flags"


def check(state: AuditState) -> list[Finding]:
    """``changed`` per ``command`` claim that no release of the vocabulary has (``quark-cli torch-ptq``),
    with the nearest command within four edits as a suggestion. Classified semantic (check the name), see
    ``RULE_KINDS`` in :mod:`quarkci.sync.policy`."""
    out = []
    for claim, defined in unknown(state):
        if defined:
            continue
        nearest = (
            state.vocabulary.nearest("command", claim.value, max_distance=4) if state.vocabulary else None
        )
        hint = f"; the nearest command is `{nearest}`" if nearest else ""
        out.append(
            make(
                ID,
                CATEGORY,
                "changed",
                claim,
                skill_says=f"runs `{claim.value}`",
                source_says=f"no amd-quark release has a command `{claim.value}`: check the name{hint}",
                impact=f"`{claim.value}` fails: no release installs it",
            )
        )
    return out
