"""python-name-misspelt: a Python name in a parsed block (a class called, a method of a Quark class, a
model type or scheme passed to a Quark callable) that no amd-quark release defines."""

from __future__ import annotations

import difflib

from quarkci.core.findings import Finding
from quarkci.facts.vocabulary import literal_key
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

    * an unbound CamelCase name called in a block (``python_name`` form ``unbound``) within two edits of a
      public class or function some release defines (a name no release is close to is not a Quark name);
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
    schemes = {(c.file, c.line, c.value) for c in state.claims_of("scheme")}
    out = []
    for claim in state.claims_of("python_name"):
        form = claim.context.get("form")
        if form == "unbound":
            if vocabulary.releases_of("name", claim.value):
                continue  # a real name whose import the example leaves out
            nearest = vocabulary.nearest("name", claim.value)
            if nearest is not None:
                out.append(_finding(claim, state, f"class or function `{claim.value}`", nearest))
        elif form == "member":
            owner, member = str(claim.context.get("class")), str(claim.context.get("member"))
            found = index.defining_class(owner)
            if found is None or index.has_member(owner, member) is not False:
                continue
            qualified = f"{found[1]}.{member}"
            if vocabulary.releases_of("member", qualified):
                continue  # another release's class has it: python-import-unresolved / api-name-removed
            methods = sorted(
                m.split(".", 1)[1] for m in vocabulary.names("member") if m.startswith(f"{found[1]}.")
            )
            close = difflib.get_close_matches(member, methods, n=1, cutoff=0.6)
            out.append(_finding(claim, state, f"method `{qualified}`", close[0] if close else None))
    for claim in state.claims_of("python_argument"):
        closed = closed_parameter(claim, index)
        if closed is not None:
            key = literal_key(callable_key(str(claim.context.get("callable"))), closed[0], claim.value)
            if claim.value not in closed[1] and not vocabulary.releases_of("literal", key):
                close = difflib.get_close_matches(claim.value, closed[1], n=1, cutoff=0.5)
                what = f"value `{claim.value}` of `{closed[0]}`"
                out.append(_finding(claim, state, what, close[0] if close else None))
            continue
        role = argument_role(claim, index)
        if role is None or vocabulary.releases_of(role.kind, claim.value):
            continue
        if role.kind == "scheme" and (claim.file, claim.line, claim.value) in schemes:
            continue
        nearest = vocabulary.nearest(role.kind, claim.value, max_distance=3)
        if nearest is None and not (role.kind == "scheme" and scheme_shaped(claim.value)):
            continue  # nothing like a name of that kind (export_gguf's model_type is GGUF's own word)
        out.append(_finding(claim, state, f"{role.noun} `{claim.value}`", nearest))
    return out


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
