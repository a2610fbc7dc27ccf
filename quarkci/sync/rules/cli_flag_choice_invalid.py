"""cli-flag-choice-invalid: a value the skill passes to a flag is not among the flag's argparse choices."""

from __future__ import annotations

import re
from dataclasses import replace

from quarkci.core.findings import Finding
from quarkci.sync.rules._common import make, release, source_loc
from quarkci.sync.rules._flags import resolve, same_named
from quarkci.sync.state import AuditState

ID = "cli-flag-choice-invalid"
DESC = "A value the skill passes to a CLI flag is not one of that flag's choices in the release's parser"
CATEGORY = "cli_flags"
_LITERAL = re.compile(r"^[\w.+-]+$")  # placeholders (<MODEL>, $VAR, "{x}") are no values to check
_UNSET = frozenset({"unset", "none", "null", "nothing", "empty", "omitted", "off"})


def _stated(state: AuditState) -> list[Finding]:
    """``changed`` (mechanical: the skill's list of values is wrong) per value of a ``cli_flag_choices``
    claim ("`--dataset` takes pileval, wikitext or c4") that the flag's literal ``choices`` lack, in the
    command's parser; a claim naming no command agrees when any command's flag of that name accepts it."""
    out = []
    for claim in state.claims_of("cli_flag_choices"):
        flag = str(claim.context.get("flag"))
        res = resolve(replace(claim, kind="cli_flag", value=flag), state.upstream, state.baseline)
        if res.status not in ("present", "deprecated") or res.item is None:
            continue
        lists = [i.attrs.get("choices") for i in same_named(state.upstream, res, flag)]
        if not all(isinstance(c, list) and c for c in lists):
            continue  # a flag (of some command) without literal choices accepts what it parses
        allowed = {str(c) for choices in lists if isinstance(choices, list) for c in choices}  # None: "None"
        stated = [str(v) for v in claim.context.get("choices") or []]
        # a usage line may leave out None (argparse prints it; writers drop it): not a value a user types
        lacking = sorted(allowed - set(stated) - {"None"}) if claim.context.get("complete") else []
        if lacking and all(v in allowed for v in stated):
            # a pasted usage line lists every choice: one the parser has and the list lacks is drift too
            out.append(
                make(
                    ID,
                    CATEGORY,
                    "changed",
                    claim,
                    subject=f"{res.target.label} {flag} choices",
                    skill_says=f"lists `{flag}` choices {{{','.join(stated)}}}",
                    source_says=f"{release(state.upstream)}: {res.target.label} `{flag}` accepts "
                    f"{{{','.join(str(c) for c in lists[0] or [])}}} (the list lacks {', '.join(lacking)})",
                    impact=f"readers never learn that `{flag}` also accepts {', '.join(lacking)}",
                    source=source_loc(res.item),
                )
            )
        for value in stated:
            if value in allowed or not _LITERAL.match(value):
                continue
            if "None" in allowed and value.lower() in _UNSET:
                continue  # "either unset or fp8": the None choice, said in words
            out.append(
                make(
                    ID,
                    CATEGORY,
                    "changed",
                    claim,
                    subject=f"{res.target.label} {flag} {value}",
                    skill_says=f"says `{flag}` accepts `{value}`",
                    source_says=f"{release(state.upstream)}: {res.target.label} `{flag}` accepts only "
                    f"{', '.join(sorted(allowed))}",
                    impact=f"a command built from the skill fails: invalid choice `{value}`",
                    source=source_loc(res.item),
                )
            )
    return out


def check(state: AuditState) -> list[Finding]:
    """``removed`` (breaking: argparse exits with "invalid choice") per (flag claim, value) where the flag
    exists in the parser of the command it is passed to and has literal ``choices`` not holding the value;
    and the stated value lists of :func:`_stated` (mechanical)."""
    out = _stated(state)
    for claim in state.claims_of("cli_flag"):
        values = [str(v) for v in claim.context.get("values") or []]
        if not values:
            continue
        res = resolve(claim, state.upstream, state.baseline)
        if res.status not in ("present", "deprecated") or res.item is None:
            continue
        choices = res.item.attrs.get("choices")
        if not isinstance(choices, list) or not choices:
            continue
        allowed = {str(c) for c in choices if c is not None}
        nargs = res.item.attrs.get("nargs")
        for value in values if nargs in ("+", "*") or isinstance(nargs, int) else values[:1]:
            if not _LITERAL.match(value) or value in allowed:
                continue
            out.append(
                make(
                    ID,
                    CATEGORY,
                    "removed",
                    claim,
                    subject=f"{res.target.label} {claim.value} {value}",
                    skill_says=f"passes `{claim.value} {value}` to {res.target.label}",
                    source_says=f"{release(state.upstream)}: {res.target.label} `{claim.value}` accepts only "
                    f"{', '.join(sorted(allowed))}",
                    impact=f"argparse rejects the command: invalid choice `{value}`",
                    source=source_loc(res.item),
                )
            )
    return out
