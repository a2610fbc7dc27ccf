"""cli-flag-renamed: a flag the skill passes was renamed; the successor is known (mechanical fix)."""

from __future__ import annotations

from quarkci.core.findings import Finding, Fix
from quarkci.sync.rules._common import make, release, source_loc
from quarkci.sync.rules._flags import resolve
from quarkci.sync.state import AuditState

ID = "cli-flag-renamed"
DESC = "A CLI flag the skill uses was renamed upstream; the new spelling is known"
CATEGORY = "cli_flags"


def check(state: AuditState) -> list[Finding]:
    """One finding per renamed flag, with a fix replacing the old spelling on the skill's line."""
    out = []
    for claim in state.claims_of("cli_flag"):
        res = resolve(claim, state.upstream, state.baseline)
        if res.status != "renamed" or res.item is None:
            continue
        new = res.item.name
        line = state.line(claim.file, claim.line)
        fix = None
        if line is not None and claim.value in line:
            fix = Fix(
                claim.file,
                claim.line,
                line,
                _replace_flag(line, claim.value, new),
                description=f"rename `{claim.value}` to `{new}`",
            )
        out.append(
            make(
                ID,
                CATEGORY,
                "renamed",
                claim,
                subject=f"{res.target.label} {claim.value}",
                skill_says=f"passes `{claim.value}` to {res.target.label}",
                source_says=f"{release(state.upstream)}: {res.target.label} spells it `{new}`",
                impact=f"the command fails with 'unrecognized arguments: {claim.value}'",
                source=source_loc(res.item),
                fix=fix,
            )
        )
    return out


def _replace_flag(line: str, old: str, new: str) -> str:
    """Replace whole-flag occurrences of ``old`` (not prefixes of longer flags) with ``new``."""
    out, i = [], 0
    while True:
        j = line.find(old, i)
        if j < 0:
            out.append(line[i:])
            return "".join(out)
        end = j + len(old)
        boundary = end == len(line) or not (line[end].isalnum() or line[end] in "-_")
        out.append(line[i:j] + (new if boundary else old))
        i = end
