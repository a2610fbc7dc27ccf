"""python-import-unresolved: an import or ``quark.x.y.Name`` reference the release cannot resolve."""

from __future__ import annotations

from quarkci.core.findings import Finding, Location
from quarkci.facts.public_api import ApiIndex
from quarkci.skills.model import Claim
from quarkci.sync.rules._api import index_of, resolve, unknown_module
from quarkci.sync.rules._common import make, release, releases_text
from quarkci.sync.state import AuditState

ID = "python-import-unresolved"
DESC = (
    "A Python import or quark.x.y.Name reference in the skill names a module the release does not have, "
    "or a name that module does not define (ImportError / AttributeError)"
)
CATEGORY = "public_api"


def _member_missing(claim: Claim, index: ApiIndex, state: AuditState) -> Finding | None:
    """``removed`` when a method called on an instance of a Quark class, or a member of it
    (``Dtype.int3``), is not defined by the class (nor a base read in the release) but a release's class of
    that name had it (a method no release had is ``python-name-misspelt``'s)."""
    owner, member = str(claim.context.get("class")), str(claim.context.get("member"))
    found = index.defining_class(owner)
    if found is None or index.has_member(owner, member) is not False:
        return None
    qualified = f"{found[1]}.{member}"
    defined = state.vocabulary.releases_of("member", qualified) if state.vocabulary is not None else ()
    if not defined:
        return None
    return make(
        ID,
        CATEGORY,
        "removed",
        claim,
        skill_says=f"uses `{qualified}`",
        source_says=f"{release(state.upstream)}: `{owner}` ({index.modules[found[0]].file}) defines no "
        f"method or member `{member}`; releases defining it: {releases_text(defined)}",
        impact=f"`{claim.value}(...)` raises AttributeError",
        source=Location(index.modules[found[0]].file, 1),
    )


def check(state: AuditState) -> list[Finding]:
    """``removed`` (breaking) per claim whose module or name is missing and was not in the baseline
    either (``api-name-removed`` reports those) and whose module some release has (a module no release has
    is ``python-module-misspelt``'s); ``not_shown`` (unverifiable) when the module serves
    names through a module-level ``__getattr__``. A claim its sentence says fails or is unavailable
    (``negative``) agrees with the absence. Silent when the release shows no ``public_api``."""
    view = state.upstream
    index = index_of(view)
    if not index:
        return []
    base = index_of(state.baseline) if state.baseline is not None else None
    vocabulary = state.vocabulary
    out = []
    for claim in state.claims_of("python_name"):
        if claim.context.get("negative"):
            # "`from x import Config` fails on 0.12.post1", "There is no `LLMTemplate.get_supported_schemes()`
            # classmethod": said absent, and absent it is
            continue
        if claim.context.get("form") == "member":
            if (found := _member_missing(claim, index, state)) is not None:
                out.append(found)
            continue
        res = resolve(claim, index)
        if res.status in ("ok", "skip"):
            continue
        if vocabulary is not None and unknown_module(
            claim, index, lambda m: bool(vocabulary.releases_of("module", m))
        ):
            continue  # no release has that module: python-module-misspelt
        if res.status == "dynamic":
            out.append(
                make(
                    ID,
                    CATEGORY,
                    "not_shown",
                    claim,
                    skill_says=f"uses `{claim.value}`",
                    source_says=f"{release(view)}: {res.module} defines a module-level __getattr__, "
                    f"so `{res.name}` cannot be checked statically",
                    impact="unknown until run",
                    source=Location(res.file, 1),
                )
            )
            continue
        if base and resolve(claim, base).status == "ok":
            continue  # existed in the baseline: api-name-removed
        text = claim.context.get("text") or claim.value
        if res.status == "no_module":
            says = f"{release(view)} has no module `{res.module}`"
            impact = f"`{text}` raises ModuleNotFoundError"
        else:
            says = f"`{res.module}` ({res.file}) does not define `{res.name}`"
            impact = (
                f"`{text}` raises ImportError"
                if claim.context.get("form") == "from"
                else f"`{claim.value}` raises AttributeError"
            )
        out.append(
            make(
                ID,
                CATEGORY,
                "removed",
                claim,
                skill_says=f"uses `{text}`",
                source_says=says,
                impact=impact,
                source=Location(res.file, 1) if res.file else None,
            )
        )
    return out
