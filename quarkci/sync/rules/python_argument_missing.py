"""python-argument-missing: a call in a Python block leaves out a parameter the callable requires.

The callable is the release's own (its signature read from the wheel); see :func:`check`."""

from __future__ import annotations

from dataclasses import replace

from quarkci.core.findings import Finding
from quarkci.sync.rules._api import index_of
from quarkci.sync.rules._common import make, release
from quarkci.sync.state import AuditState

ID = "python-argument-missing"
DESC = (
    "A call in a skill's Python block passes neither positionally nor by keyword a parameter the release's "
    "function, class or method requires (no default)"
)
CATEGORY = "public_api"


def check(state: AuditState) -> list[Finding]:
    """``removed`` (breaking) per ``python_call`` claim (a call of a Quark callable in a parsed Python block,
    with no ``*args``/``**kwargs`` spread and no ``...`` placeholder; see :mod:`quarkci.skills.claims.
    python_code`) whose callable's own signature in the release (:meth:`~quarkci.facts.public_api.ApiIndex.
    required`: a function, a method, a class whose body defines ``__init__``, a dataclass) requires a
    parameter the call does not pass: the first ``positional`` required parameters count as passed, the
    rest must be among its ``keywords``. 0.12.post1's ONNX ``QConfig(global_quant_config=...)`` passes no
    ``global_config``: the keyword is swallowed by ``**kwargs`` and the call raises TypeError. The finding
    stands on the line of a keyword the callable does not take, when there is one (the one meant for the
    required parameter), else on the call's. A dataclass's generated ``__init__`` requires the fields
    declared without a default (0.13's ``Int4PerGroupSpec(group_size=128)`` leaves out ``ch_axis``); a
    signature inherited from a base the release does not show, or a field a plain base may give a default,
    is left alone."""
    index = index_of(state.upstream)
    if not index:
        return []
    out = []
    for claim in state.claims_of("python_call"):
        callee = claim.context.get("callable")
        positional = claim.context.get("positional")
        keywords = claim.context.get("keywords")
        if not isinstance(callee, str) or not isinstance(positional, int) or not isinstance(keywords, list):
            continue
        required = index.required(callee)
        if not required:
            continue
        missing = [p for n, p in enumerate(required) if n >= positional and p not in keywords]
        if not missing:
            continue
        passed = ", ".join(f"{k}=" for k in keywords) or "no keyword"
        # a keyword the callable does not take stands where the required one was meant (`global_quant_config=`
        # for `global_config`): the finding points at its line
        params = index.signature(callee) or []
        lines = claim.context.get("keyword_lines") or {}
        stray = [k for k in keywords if k not in params and isinstance(lines.get(k), int)]
        if stray:
            claim = replace(claim, line=int(lines[stray[0]]))
        out.append(
            make(
                ID,
                CATEGORY,
                "removed",
                claim,
                skill_says=f"calls `{callee}` with {positional} positional argument(s) and {passed}",
                source_says=f"{release(state.upstream)}: `{callee}` requires "
                f"{', '.join(f'`{p}`' for p in missing)}",
                impact=f"the call raises TypeError: missing required argument '{missing[0]}'",
            )
        )
    return out
