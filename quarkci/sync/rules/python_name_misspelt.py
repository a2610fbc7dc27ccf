"""python-name-misspelt: a Python name in a parsed block (a class called, a method of a Quark class, a
model type or scheme passed to a Quark callable) that no amd-quark release defines."""

from __future__ import annotations

import difflib
import re

from quarkci.core.findings import Finding
from quarkci.facts import foreign
from quarkci.facts.public_api import ApiIndex
from quarkci.facts.vocabulary import Vocabulary, literal_key
from quarkci.skills.claims.tokens import scheme_shaped
from quarkci.skills.model import Claim
from quarkci.sync.rules._api import argument_role, callable_key, closed_parameter, index_of
from quarkci.sync.rules._common import make, release
from quarkci.sync.state import AuditState

ID = "python-name-misspelt"
DESC = (
    "A class called, a method of a Quark class, or a model type or scheme passed to a Quark callable that "
    "no amd-quark release defines (check the name)"
)
CATEGORY = "public_api"


def check(state: AuditState) -> list[Finding]:
    """``changed`` (semantic: a person checks which name was meant, see ``RULE_KINDS`` in
    :mod:`quarkci.sync.policy`) per claim naming what no release of the vocabulary defines:

    * an unbound CamelCase name called in a block (``python_name`` form ``unbound``), or a name in a code
      span of prose (form ``bare``), within two edits of a class or function some release defines (a name no
      release is close to is not a Quark name; a historical note about a name no release had is false too);
    * a method called on an instance of a Quark class (form ``member``) that neither the class (nor a base
      read in the release) defines nor any release's class of that name had;
    * a literal passed to a parameter the callable closes (``export_safetensors(custom_mode=...)``: quark,
      awq, fp8; :func:`~quarkci.sync.rules._api.closed_parameter`) that no release's callable accepted;
    * a literal in a role (:func:`~quarkci.sync.rules._api.argument_role`) that no release defines as that
      kind and that looks like one (within three edits of a name of the kind, or scheme-shaped:
      ``int4_wo_999``); a scheme the token resolver already claims on that line is ``scheme-misspelt``'s.

    Silent without a vocabulary or ``public_api``."""
    index = index_of(state.upstream)
    vocabulary = state.vocabulary
    if not index or vocabulary is None:
        return []
    out = []
    for claim in state.claims_of("python_name", historical=True):
        if claim.context.get("negative"):
            continue  # "`LLMTemplate.from_model_type(...)`  # does not exist": said absent, and absent it is
        found = _name(claim, index, vocabulary)
        if found is not None:
            out.append(_finding(claim, state, *found))
    schemes = {(c.file, c.line, c.value) for c in state.claims_of("scheme")}
    arguments = state.claims_of("python_argument")
    # the names a file registers (`LLMTemplate.register_scheme("my_fp8", ...)`) are the user's own there
    registered = {(c.file, c.value) for c in arguments if _registers(c)}
    for claim in arguments:
        if (claim.file, claim.value) in registered:
            continue
        found = _argument(claim, index, vocabulary, schemes)
        if found is not None:
            out.append(_finding(claim, state, *found))
    return out


def _name(claim: Claim, index: ApiIndex, vocabulary: Vocabulary) -> tuple[str, str | None] | None:
    """``(what, nearest)`` for a ``python_name`` claim (forms ``bare``, ``unbound``, ``member``) naming
    what no release defines, else None."""
    form = claim.context.get("form")
    if (
        form == "bare"
        and not vocabulary.releases_of("name", claim.value)
        and not vocabulary.releases_of("attribute", claim.value)  # an enum member: `QInt32`
    ):
        called = str(claim.context.get("text") or "").rstrip().endswith(")")
        nearest = _nearest_bare(claim.value, vocabulary, called)
        # even "the old X is gone" is false when no release had X
        return (f"name `{claim.value}`", nearest) if nearest is not None else None
    if form == "unbound":
        if vocabulary.releases_of("name", claim.value) or claim.value in foreign.names():
            return None  # a real name whose import the example leaves out, Quark's or another library's
        nearest = vocabulary.nearest("name", claim.value)
        return (f"class or function `{claim.value}`", nearest) if nearest is not None else None
    if form != "member":
        return None
    owner, member = str(claim.context.get("class")), str(claim.context.get("member"))
    if member.startswith("__") and member.endswith("__"):
        return None  # `LLMTemplate.__init__`: every class has its special methods, inherited or its own
    if vocabulary.releases_of("attribute", member):
        return None  # a field or constant a class body assigns (`QConfig.quant_flow`), not a method
    found = index.defining_class(owner)
    if found is None or index.has_member(owner, member) is not False:
        return None
    qualified = f"{found[1]}.{member}"
    if vocabulary.releases_of("member", qualified):
        return None  # another release's class has it: python-import-unresolved / api-name-removed
    methods = sorted(m.split(".", 1)[1] for m in vocabulary.names("member") if m.startswith(f"{found[1]}."))
    same = [m for m in methods if m.lower() == member.lower()]  # `CalibMethod.MinMse`: case only
    close = same or difflib.get_close_matches(member, methods, n=1, cutoff=0.6)
    # an enum member or constant (read, not called), or a method
    what = "member" if member[:1].isupper() or claim.context.get("attribute") else "method"
    return f"{what} `{qualified}`", close[0] if close else None


def _registers(claim: Claim) -> bool:
    """True for the first argument of a ``register_*`` call (``register_scheme("my_fp8", ...)``,
    ``register_template(...)``) and for the ``model_type`` a template is constructed with
    (``LLMTemplate(model_type="my_moe", ...)``, then registered): the name being registered."""
    callee = str(claim.context.get("callable") or "").rsplit(".", 1)[-1]
    if callee.endswith("Template") and claim.context.get("keyword") == "model_type":
        return True
    first = claim.context.get("position") == 0 or claim.context.get("keyword") in ("name", "scheme_name")
    return callee.startswith("register") and first


def _argument(
    claim: Claim, index: ApiIndex, vocabulary: Vocabulary, schemes: set[tuple[str, int, str]]
) -> tuple[str, str | None] | None:
    """``(what, nearest)`` for a ``python_argument`` claim whose literal no release accepts there."""
    closed = closed_parameter(claim, index)
    if closed is not None:
        key = literal_key(callable_key(str(claim.context.get("callable"))), closed[0], claim.value)
        if claim.value in closed[1] or vocabulary.releases_of("literal", key):
            return None
        close = difflib.get_close_matches(claim.value, closed[1], n=1, cutoff=0.5)
        return f"value `{claim.value}` of `{closed[0]}`", close[0] if close else None
    role = argument_role(claim, index)
    if role is None or vocabulary.releases_of(role.kind, claim.value):
        return None
    if role.kind == "scheme" and (claim.file, claim.line, claim.value) in schemes:
        return None
    nearest = vocabulary.nearest(role.kind, claim.value, max_distance=3)
    if nearest is None and not (role.kind == "scheme" and scheme_shaped(claim.value)):
        return None  # nothing like a name of that kind (export_gguf's model_type is GGUF's own word)
    return f"{role.noun} `{claim.value}`", nearest


def _nearest_bare(token: str, vocabulary: Vocabulary, called: bool = False) -> str | None:
    """The name a bare prose name misspells, when no other library defines it
    (:func:`quarkci.facts.foreign.names`: ``QuarkConfig`` is transformers', ``QuantizeLinear`` ONNX's): a
    CamelCase one within two edits of a class or function some release defines, or nearly a name of a
    Quark naming family (:func:`_same_family`: ``ExtendedCalibMethod``), unless that name only adds Quark's
    ``Q`` prefix (``QMatMul`` wraps the ONNX op ``MatMul``) or the token is a release name with a word
    before it (``MyQuantConfig`` is the user's subclass of ``QuantConfig``); a snake_case one within one
    edit of a name a framework package exports."""
    if token in foreign.names():
        return None
    if token[:1].isupper():
        nearest = vocabulary.nearest("name", token) or _same_family(token, vocabulary)
        if nearest is None or nearest == f"Q{token}" or (token.endswith(nearest) and not called):
            return None
        return nearest
    return vocabulary.nearest("export", token, 1)


_LAST_WORD = re.compile(r"[A-Z][a-z]+$")
_FAMILY_SIZE = 3  # a suffix shared by at least this many release names is a Quark naming family
_FAMILY_CUTOFF = (
    0.85  # difflib ratio: `Int4GroupSpec` / `Int4PerGroupSpec` 0.90, `MyReader` / `DataReader` 0.67
)


def _same_family(token: str, vocabulary: Vocabulary) -> str | None:
    """The closest release name of the naming family ``token``'s last word starts (``...Spec``,
    ``...Config``): a name more than two edits away that is still nearly the same (difflib ratio at
    least :data:`_FAMILY_CUTOFF`), when at least :data:`_FAMILY_SIZE` release names end with that word;
    else None (a user's own class keeps its own name)."""
    last = _LAST_WORD.search(token)
    if last is None or last.start() == 0:
        return None
    family = [n for n in vocabulary.names("name") if n.endswith(last.group(0)) and n != token]
    if len(family) < _FAMILY_SIZE:
        return None
    close = difflib.get_close_matches(token, family, n=1, cutoff=_FAMILY_CUTOFF)
    return close[0] if close else None


def _finding(claim: Claim, state: AuditState, what: str, nearest: str | None) -> Finding:
    hint = f"; the nearest is `{nearest}`" if nearest else ""
    return make(
        ID,
        "public_api",
        "changed",
        claim,
        skill_says=f"uses {what}",
        source_says=f"no amd-quark release defines {what}: check the name{hint} ({release(state.upstream)})",
        impact=f"the example fails on {what}",
    )
