"""python-default-changed: the default a skill states for a parameter of a Quark callable is not the one
the release's signature gives."""

from __future__ import annotations

import re

from quarkci.core.findings import Finding, Fix
from quarkci.facts.public_api import ApiIndex
from quarkci.skills.claims.python_code import last_callee_passing
from quarkci.skills.model import Claim
from quarkci.sync.rules._api import index_of
from quarkci.sync.rules._common import make, release
from quarkci.sync.state import AuditState

ID = "python-default-changed"
DESC = "A default the skill states for a parameter of a Quark function or class differs from its signature's"
CATEGORY = "public_api"


def _plain(value: str) -> str:
    """A stated value as the facts write defaults: quotes and a trailing ``()``-free form dropped."""
    text = value.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    return text


def _same(stated: str, actual: str) -> bool:
    if stated == actual or re.sub(r"\s", "", stated.replace('"', "'")) == re.sub(r"\s", "", actual):
        return True  # a list written with other quotes or spaces (`["a", "b"]` is `['a', 'b']`)
    if re.fullmatch(r"[A-Z]\w*\.\w+", actual) and stated == actual.rsplit(".", 1)[1]:
        return True  # an enum member named without its class: `MinMax` is `CalibrationMethod.MinMax`
    try:
        return float(stated) == float(actual)
    except ValueError:
        return False


def _pointed_at(claim: Claim, state: AuditState, index: ApiIndex, parameter: str) -> str | None:
    """The callable a stated default without one means: the one the file last passes that keyword to above
    it ("export_safetensors(..., pack_method="reorder")" then "Unless you pass it, `pack_method` is ..."),
    else the one its heading names (:func:`_heading_callable`), else the one a word of its sentence begins
    (:func:`_worded_callable`); None when none."""
    passed = last_callee_passing(state.claims_of("python_keyword"), claim.file, parameter, claim.line)
    return passed or _heading_callable(claim, index, parameter) or _worded_callable(claim, index, parameter)


def _worded_callable(claim: Claim, index: ApiIndex, parameter: str, spans: bool = False) -> str | None:
    """The one callable giving ``parameter`` a default whose name starts with a CamelCase word of the
    claim's sentence outside code spans (``spans``: inside them too) ("SmoothQuant migrates difficulty with
    `alpha`, which is 0.5 unless you set it": ``SmoothQuantConfig``, not ``AutoSmoothQuantConfig``), else
    None."""
    around = str(claim.context.get("around") or "")
    prose = around.replace("`", " ") if spans else re.sub(r"`[^`]*`", " ", around)
    words = set(re.findall(r"\b[A-Z][a-z]+[A-Z][A-Za-z]+\b", prose))
    named = {
        dotted
        for dotted, _ in index.having_default(parameter)
        if any(dotted.rsplit(".", 1)[-1].startswith(w) for w in words)
    }
    return next(iter(named)) if len(named) == 1 else None


def _heading_callable(claim: Claim, index: ApiIndex, parameter: str) -> str | None:
    """The one callable the claim's innermost heading names in code spans ("## `export_safetensors` in
    detail") that takes ``parameter`` with a constant default in the release, else None."""
    heading = str(claim.context.get("section") or "").rsplit(" > ", 1)[-1]
    named = {
        span
        for span in re.findall(r"`([A-Za-z_][\w.]*)(?:\(\))?`", heading)
        if parameter in (index.defaults(span) or {})
    }
    return next(iter(named)) if len(named) == 1 else None


def check(state: AuditState) -> list[Finding]:
    """``changed`` (mechanical) per ``python_default`` claim (:mod:`quarkci.skills.claims.signature_defaults`)
    whose callable's signature in the release, re-exports followed (:meth:`~quarkci.facts.public_api.
    ApiIndex.defaults`), gives the parameter a constant default other than the one stated. A parameter the
    signature lacks is ``python-keyword-unknown``'s; one without a constant default (required, or computed)
    is left alone (a ``None`` the body replaces is computed: 0.13's ``export_safetensors(weight_format=None)``
    becomes ``"real_quantized"``; see ``quarkci.facts.public_api._replaced_nones``). The fix replaces the
    stated value when the line holds it once."""
    index = index_of(state.upstream)
    if not index:
        return []
    out = []
    for claim in state.claims_of("python_default"):
        callee, parameter = claim.context.get("callable"), claim.context.get("parameter")
        stated = claim.context.get("default")
        if not isinstance(callee, str) or not isinstance(parameter, str) or not isinstance(stated, str):
            continue
        if not callee:  # no callable named: the one the text points at, else the release's one with it
            callee = _pointed_at(claim, state, index, parameter) or ""
            flags = {i.name for i in state.upstream.items("cli_flags")}
            if not callee and (f"--{parameter}" in flags or f"--{parameter.replace('_', '-')}" in flags):
                continue  # `num_calib_data` alone may well mean this release's CLI flag `--num_calib_data`
            callee = callee or index.sole_parameter(parameter) or ""
            if not callee:
                continue
        defaults = index.defaults(callee)
        if (defaults is None or parameter not in defaults) and (
            other := _worded_callable(claim, index, parameter, spans=True)
        ):
            # "`SmoothQuant` balances scales with `alpha`": that class lacks it, SmoothQuantConfig has it
            callee, defaults = other, index.defaults(other)
        if defaults is None or parameter not in defaults:
            continue
        actual = defaults[parameter]
        if _same(_plain(stated), actual):
            continue
        out.append(
            make(
                ID,
                CATEGORY,
                "changed",
                claim,
                subject=f"{callee}({parameter}=)",
                skill_says=f"`{callee}` defaults `{parameter}` to `{stated}`",
                source_says=f"{release(state.upstream)}: `{callee}` defaults `{parameter}` to `{actual!s}`",
                impact=f"a call that leaves `{parameter}` out gets `{actual}`, not `{stated}`",
                fix=_fix(state, claim.file, claim.line, stated, actual),
            )
        )
    return out


def _fix(state: AuditState, file: str, line: int, stated: str, actual: str) -> Fix | None:
    text = state.line(file, line)
    if text is None:
        return None
    literal = r"None|True|False|-?\d+(?:\.\d+)?(?:e-?\d+)?"
    if re.fullmatch(literal, actual):
        new_value = actual  # a constant is written bare
    elif stated[:1] in "\"'":
        new_value = f"{stated[0]}{actual}{stated[0]}"  # a string, quoted as the skill quotes
    elif re.fullmatch(literal, stated):
        new_value = f'"{actual}"'  # the skill wrote Python: a string is quoted
    else:
        new_value = actual  # a plain word
    for target, replacement in ((f"`{stated}`", f"`{new_value}`"), (f"={stated}`", f"={new_value}`")):
        if text.count(target) == 1:  # the value alone in a span, or as `parameter=value`
            new = text.replace(target, replacement)
            return Fix(file, line, text, new, description=f"default {new_value}")
    return None
