"""command-count-mismatch: the number of quark-cli subcommands or console scripts a skill states differs
from the release (mechanical)."""

from __future__ import annotations

from dataclasses import replace

from quarkci.core.findings import Finding
from quarkci.facts.cli_flags import command_labels
from quarkci.skills.model import Claim
from quarkci.sync.rules._common import count_fix, kind_source, make, release
from quarkci.sync.rules._flags import resolve, same_named
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


def _choices(state: AuditState, claim: Claim) -> set[str] | None:
    """The literal choices (``None`` left out) of the flag a choices count names, in the claim's command
    (every command that has the flag must agree when it names none); None when unknown."""
    flag = str(claim.context.get("flag"))
    res = resolve(replace(claim, kind="cli_flag", value=flag), state.upstream, state.baseline)
    if res.status not in ("present", "deprecated") or res.item is None:
        return None
    items = same_named(state.upstream, res, flag)
    sets = [frozenset(str(c) for c in i.attrs.get("choices") or [] if c is not None) for i in items]
    return set(sets[0]) if sets and sets[0] and all(s == sets[0] for s in sets) else None


def check(state: AuditState) -> list[Finding]:
    """``changed`` per ``command_count`` claim whose number differs from :func:`counts`; the fix rewrites
    a number written in digits. Silent when the release shows no CLI (0.6.0 … 0.9: no count is checkable)."""
    if not state.upstream.items("cli_flags"):
        return []
    actual = counts(state)
    out = []
    for claim in state.claims_of("command_count"):
        of = str(claim.context.get("of"))
        names = _choices(state, claim) if of == "choices" else actual.get(of)
        if names is None or not names or str(len(names)) == claim.value:
            continue
        noun = {
            "quark-cli": "quark-cli subcommands",
            "choices": f"`{claim.context.get('flag')}` choices",
        }.get(of, "console scripts")
        fix = count_fix(state, claim, len(names), noun)
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
