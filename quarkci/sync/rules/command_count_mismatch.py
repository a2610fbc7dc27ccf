"""command-count-mismatch: the number of quark-cli subcommands or console scripts a skill states differs
from the release (mechanical)."""

from __future__ import annotations

import re

from quarkci.core.findings import Finding, Fix
from quarkci.facts.cli_flags import command_labels
from quarkci.sync.rules._common import kind_source, make, release
from quarkci.sync.state import AuditState

ID = "command-count-mismatch"
DESC = "The skill states a number of quark-cli subcommands or console scripts that differs from the release"
CATEGORY = "cli_flags"


def counts(state: AuditState) -> dict[str, set[str]]:
    """``{"quark-cli": its subcommands, "console_scripts": the console scripts}`` of the release, from the
    commands its parsers register (``cli_flags`` facts' ``script`` labels: ``quark-cli onnx-ptq``,
    ``quark-quant-perf``)."""
    labels = command_labels(state.upstream.items("cli_flags"))
    subs = {label.split(" ", 1)[1] for label in labels if label.startswith("quark-cli ")}
    scripts = {label.split(" ", 1)[0] for label in labels if not label.endswith(".py")}
    return {"quark-cli": subs, "console_scripts": scripts}


def check(state: AuditState) -> list[Finding]:
    """``changed`` per ``command_count`` claim whose number differs from :func:`counts`; the fix rewrites
    a number written in digits. Silent when the release shows no CLI (0.6.0 … 0.9: no count is checkable)."""
    if not state.upstream.items("cli_flags"):
        return []
    actual = counts(state)
    out = []
    for claim in state.claims_of("command_count"):
        of = str(claim.context.get("of"))
        names = actual.get(of)
        if names is None or not names or str(len(names)) == claim.value:
            continue
        noun = "quark-cli subcommands" if of == "quark-cli" else "console scripts"
        line = state.line(claim.file, claim.line)
        pattern = re.compile(rf"(?<![\d.]){re.escape(claim.value)}(?![\d.])")
        fix = None
        if line is not None and len(pattern.findall(line)) == 1:
            fix = Fix(
                claim.file,
                claim.line,
                line,
                pattern.sub(str(len(names)), line),
                description=f"{noun} {claim.value} -> {len(names)}",
            )
        out.append(
            make(
                ID,
                CATEGORY,
                "changed",
                claim,
                subject=f"{noun} count",
                skill_says=f"states {claim.value} {noun}",
                source_says=f"{release(state.upstream)} has {len(names)} {noun}: {', '.join(sorted(names))}",
                impact="the agent trusts a stale command list",
                source=kind_source(state.upstream, "cli_flags"),
                fix=fix,
            )
        )
    return out
