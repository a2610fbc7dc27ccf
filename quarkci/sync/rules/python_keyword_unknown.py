"""python-keyword-unknown: a keyword argument the skill passes to a Quark callable is not one of its
parameters."""

from __future__ import annotations

from quarkci.core.findings import Finding
from quarkci.sync.rules._api import index_of
from quarkci.sync.rules._common import make, release
from quarkci.sync.state import AuditState

ID = "python-keyword-unknown"
DESC = "A keyword argument the skill passes to a Quark function, class or method is not one of its parameters"
CATEGORY = "public_api"


def check(state: AuditState) -> list[Finding]:
    """``removed`` (breaking) per ``python_keyword`` claim (a parsed Python block's call keyword, see
    :mod:`quarkci.skills.claims.python_code`) whose callable's signature in the release, followed through
    re-exports to its definition, has no parameter of that name and takes no ``**kwargs``. A class's
    signature includes what it inherits (a base's ``__init__``, the fields of dataclass bases, in any module
    of the release: :meth:`~quarkci.facts.public_api.ApiIndex.signature`). A ``python_default`` claim (a
    stated default of a parameter) is checked the same way. A callable whose signature cannot
    be read statically (a base class outside the release, a computed name) is left alone. The finding
    names the parameters the callable does take, and the baseline's when it had it."""
    index = index_of(state.upstream)
    if not index:
        return []
    base = index_of(state.baseline) if state.baseline is not None else None
    out = []
    # a parameter whose default a sentence states is passed by keyword too (python_default claims)
    for claim in [*state.claims_of("python_keyword"), *state.claims_of("python_default")]:
        callee, keyword = claim.context.get("callable"), claim.context.get("keyword")
        if not isinstance(callee, str) or not isinstance(keyword, str):
            continue
        params = index.signature(callee)
        if params is None or "**" in params or keyword in params:
            continue
        was = base.signature(callee) if base else None
        since = (
            f"; amd-quark {state.baseline.version} took it"
            if was is not None and keyword in was and state.baseline is not None
            else ""
        )
        shown = ", ".join(params) if params else "no keyword arguments"
        out.append(
            make(
                ID,
                CATEGORY,
                "removed",
                claim,
                skill_says=f"calls `{callee}` with `{keyword}=`",
                source_says=f"{release(state.upstream)}: `{callee}` takes {shown}{since}",
                impact=f"the call raises TypeError: unexpected keyword argument '{keyword}'",
            )
        )
    return out
