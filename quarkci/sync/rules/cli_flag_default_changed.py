"""cli-flag-default-changed: a flag the skill uses changed its default, choices or type since the baseline,
or a default the skill states ("`--num_calib_data` defaults to 128") is not the release's default."""

from __future__ import annotations

import re
from dataclasses import replace

from quarkci.core.findings import Finding, Fix
from quarkci.skills.model import Claim
from quarkci.sync.rules._common import make, release, source_loc
from quarkci.sync.rules._flags import flag_index, resolve, same_named, target_of
from quarkci.sync.state import AuditState

ID = "cli-flag-default-changed"
DESC = "A CLI flag the skill uses changed its default, choices, type, action or nargs since the baseline"
CATEGORY = "cli_flags"
FIELDS = ("default", "choices", "type", "action", "nargs")


# A default read from the environment, with its fallback: ``os.environ.get("X", "aiter")``, ``os.getenv(...)``
_FROM_ENV = re.compile(
    r"""^os\.(?:environ\.get|getenv)\(\s*(['"])[^'"]*\1\s*,\s*(['"])(?P<fallback>.*?)\2\s*\)$"""
)


# a default written as an enum member: `BottleneckMode.DIFFERENTIAL.value`, `Mode.FAST`
_ENUM_MEMBER = re.compile(r"[A-Z]\w*\.([A-Z][A-Z0-9_]*)(?:\.value)?")


def _same(stated: str, actual: object) -> bool:
    """A stated default (text) equals the parser's default (a literal, or source text; a default read
    from the environment is its fallback, what a run without the variable gets)."""
    if isinstance(actual, str) and (env := _FROM_ENV.match(actual.strip())) is not None:
        actual = env.group("fallback")
    if isinstance(actual, str) and (member := _ENUM_MEMBER.fullmatch(actual.strip())) is not None:
        # 0.13 quant_perf: `default=BottleneckMode.DIFFERENTIAL.value`, an enum whose values are its
        # members' names in lower case: "`--mode` is `differential`" agrees, another word does not
        return stated.strip("`'\"").lower() in (member.group(1).lower(), actual.strip().lower())
    if actual is None:
        return stated.lower() in ("none", "null", "unset", "not set")
    if actual in ("", [], ()) and stated.strip("`").lower() in _EMPTY:
        return True  # `default=""`: "empty", "none", "nothing" (no node excluded)
    if isinstance(actual, bool):
        return stated.lower() == str(actual).lower()
    if isinstance(actual, int | float):
        try:
            if stated.endswith("%"):  # "90%" of a fraction-valued setting (0.9)
                return abs(float(stated[:-1]) / 100 - float(actual)) < 1e-9
            return float(stated) == float(actual)
        except ValueError:
            return False
    return stated.strip("'\"") == str(actual).strip("'\"")


_EMPTY = frozenset({"empty", "none", "nothing", "''", '""', "[]", "(empty)", "unset", "not set"})
_GENERIC = frozenset({"num", "number", "of", "the", "for", "to", "in", "a", "an", "use", "enable", "is"})


def _stems(text: str) -> set[str]:
    """The words of ``text`` (a flag name split at ``_``/``-``, or a help text), lower case, each cut to
    its first 5 letters so "calibration", "calibrates" and "calib" meet; generic words left out."""
    words = re.findall(r"[a-z]+", text.lower())
    return {w[:5] for w in words if w not in _GENERIC and len(w) > 2}


def _covered(flag: str, words: list[object]) -> bool:
    """True when every word of ``flag``'s name (generic ones left out) begins a word of the sentence or is
    begun by one (``--output_dir``: "output directory"; ``--num_calib_data``: "calibration data")."""
    said = [w for w in words if isinstance(w, str) and len(w) > 2]
    name = [w for w in re.findall(r"[a-z]+", flag.lower()) if w not in _GENERIC]
    return bool(name) and all(any(s.startswith(n) or n.startswith(s) for s in said) for n in name)


def named_setting(state: AuditState, claim: Claim) -> str | None:
    """The flag a default stated without one names ("calibrates on 256 samples" -> ``--num_calib_data``):
    among the flags of the claim's command (which must be known) whose default has the stated value's type
    (a number, or a word), the one whose name and help text share the most words with the sentence's
    (``context["words"]``), at least two, and more than any other flag; None when no flag wins clearly.
    A word value is compared only with flags whose whole name the sentence says (:func:`_covered`): words
    such as `auto` or `cuda` are the defaults of many settings."""
    said = {w[:5] for w in claim.context.get("words") or [] if isinstance(w, str)}
    target = target_of(replace(claim, kind="cli_flag"))
    if target.any_script:
        return None  # the command must be known: settings' words repeat across commands
    numeric = re.fullmatch(r"\d+(?:\.\d+)?", str(claim.context.get("default"))) is not None
    scores: dict[str, int] = {}
    for item in flag_index(state.upstream, target).items:
        default = item.attrs.get("default")
        if item.attrs.get("action") in ("store_true", "store_false") or "default" not in item.attrs:
            continue
        if numeric != (isinstance(default, int | float) and not isinstance(default, bool)):
            continue  # a number names a numeric setting, a word a setting whose default is a word
        if not numeric and not (isinstance(default, str) and default):
            continue
        if not numeric and not _covered(item.name, claim.context.get("words") or []):
            continue  # a word value names a setting only when the sentence says the flag's whole name
        own = _stems(item.name) | _stems(str(item.attrs.get("help") or ""))
        score = len(said & own) if numeric else max(len(said & own), 2)  # a word: its whole name was said
        scores[item.name] = max(scores.get(item.name, 0), score)
    ranked = sorted(scores.items(), key=lambda kv: -kv[1])
    if not ranked or ranked[0][1] < 2 or (len(ranked) > 1 and ranked[1][1] >= ranked[0][1]):
        return None
    return ranked[0][0]


def stated_defaults(state: AuditState) -> list[Finding]:
    """``changed`` per ``cli_flag_default`` claim whose value differs from the default in the parser of
    the command the flag belongs to (a claim naming no command: from the default of every command that
    has the flag, so a default stated for one command is never compared with another's); the fix rewrites
    the value when it occurs once on the line."""
    out = []
    for claim in state.claims_of("cli_flag_default"):
        if claim.context.get("flag") is None:
            named = named_setting(state, claim)
            if named is None:
                continue
            claim = replace(
                claim,
                context={**claim.context, "flag": named},
                value=f"{named}={claim.context.get('default')}",
            )
        flag, stated = str(claim.context.get("flag")), str(claim.context.get("default"))
        as_flag = replace(claim, kind="cli_flag", value=flag)
        res = resolve(as_flag, state.upstream, state.baseline)
        if res.status not in ("present", "deprecated") or res.item is None or "default" not in res.item.attrs:
            continue
        actual = res.item.attrs.get("default")
        if res.item.attrs.get("action") in ("store_true", "store_false") or _same(stated, actual):
            continue
        if any(
            "default" in i.attrs and _same(stated, i.attrs.get("default"))
            for i in same_named(state.upstream, res, flag)
        ):
            continue  # no command named: a default one of the commands has is no finding
        line = state.line(claim.file, claim.line)
        fix = None
        written = str(actual)
        if stated.endswith("%") and isinstance(actual, int | float):
            written = f"{actual * 100:g}%"  # said as a percentage: fixed as one
        if line is not None and isinstance(actual, int | float | str) and line.count(stated) == 1:
            fix = Fix(
                claim.file,
                claim.line,
                line,
                line.replace(stated, written, 1),
                description=f"{flag} default {stated} -> {actual}",
            )
        out.append(
            make(
                ID,
                CATEGORY,
                "changed",
                claim,
                subject=f"{res.target.label} {flag} default {stated}",
                skill_says=f"`{flag}` defaults to {stated}",
                source_says=f"{release(state.upstream)}: {res.target.label} `{flag}` defaults to {actual!r}",
                impact=f"a run relying on the stated default uses {actual!r} instead",
                source=source_loc(res.item),
                fix=fix,
            )
        )
    return out


def check(state: AuditState) -> list[Finding]:
    """One ``changed`` finding per (flag claim, changed field) between baseline and upstream facts, and
    one per stated default that the release's parser contradicts (no baseline needed for those)."""
    out = stated_defaults(state)
    if state.baseline is None:
        return out
    seen: set[tuple[str, str, str]] = set()
    for claim in state.claims_of("cli_flag"):
        res = resolve(claim, state.upstream, state.baseline)
        if res.status not in ("present", "deprecated") or res.item is None:
            continue
        was = flag_index(state.baseline, res.target).find(claim.value)
        if was is None:
            continue
        for field in FIELDS:
            before, after = was.attrs.get(field), res.item.attrs.get(field)
            key = (claim.skill, claim.value, field)
            if before == after or key in seen:
                continue
            seen.add(key)
            out.append(
                make(
                    ID,
                    CATEGORY,
                    "changed",
                    claim,
                    subject=f"{res.target.label} {claim.value} {field}",
                    skill_says=f"passes `{claim.value}` to {res.target.label}",
                    source_says=f"{release(state.upstream)}: {field} changed from {before!r} to {after!r} "
                    f"(amd-quark {state.baseline.version})",
                    impact=f"the command behaves differently when `{claim.value}` relies on its {field}",
                    source=source_loc(res.item),
                )
            )
    return out
