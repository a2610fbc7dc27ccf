"""python-argument-unknown: a literal passed to a Quark callable in a role (a model type, a scheme) names
something the release does not have, though another release does."""

from __future__ import annotations

from quarkci.core.findings import Finding
from quarkci.facts.cli_flags import scheme_choices
from quarkci.facts.public_api import ApiIndex
from quarkci.facts.vocabulary import literal_key
from quarkci.skills.model import Claim
from quarkci.sync.rules._api import argument_role, callable_key, closed_parameter, index_of
from quarkci.sync.rules._common import kind_source, make, release, releases_text
from quarkci.sync.state import AuditState

ID = "python-argument-unknown"
DESC = (
    'A string passed to a Quark callable as a model type or scheme (LLMTemplate.get("qwen3")) names one '
    "the release does not define, though another release does"
)
CATEGORY = "public_api"


def _closed(claim: Claim, index: ApiIndex, state: AuditState) -> Finding | None:
    """``removed`` when the literal goes to a parameter the callable closes (``custom_mode``: quark, awq,
    fp8) and is not one of its values, while some release's callable of that name accepted it."""
    closed = closed_parameter(claim, index)
    if closed is None or claim.value in closed[1] or state.vocabulary is None:
        return None
    callee = str(claim.context.get("callable"))
    defined = state.vocabulary.releases_of(
        "literal", literal_key(callable_key(callee), closed[0], claim.value)
    )
    if not defined:
        return None  # no release accepted it: python-name-misspelt
    return make(
        ID,
        CATEGORY,
        "removed",
        claim,
        skill_says=f"passes `{closed[0]}={claim.value!r}` to `{callee}`",
        source_says=f"{release(state.upstream)}: `{callee}` accepts {closed[0]} in "
        f"{', '.join(closed[1])}; releases accepting `{claim.value}`: {releases_text(defined)}",
        impact=f"the call raises on {closed[0]}={claim.value!r}",
    )


def _cli_scheme(claim: Claim, state: AuditState) -> Finding | None:
    """``removed`` when a ``scheme=`` literal is a name only the release's CLI takes: one of the choices of
    its weight-scheme flag (``--quant_scheme``; the KV-cache flags' choices are another role) that the
    config API's scheme registry (``LLMTemplate``, :mod:`quarkci.facts.schemes`) does not hold. 0.10's
    ``quark-cli torch-llm-ptq --quant_scheme`` took ``w_int4_per_group_sym``; its ``LLMTemplate.get_config``
    raises ``ValueError: Unsupported quantization scheme`` on it (``config/template.py``)."""
    view = state.upstream
    if not view.items("schemes") or claim.value in view.facts.names("schemes"):
        return None
    weight_flags = [
        f
        for f in view.items("cli_flags")
        if not any("kv" in str(o) for o in f.attrs.get("options") or [f.name])
    ]
    if claim.value not in scheme_choices(weight_flags):
        return None
    callee = claim.context.get("callable")
    return make(
        ID,
        CATEGORY,
        "removed",
        claim,
        skill_says=f"passes `scheme={claim.value!r}` to `{callee}`",
        source_says=f"{release(view)}: `{claim.value}` is a name of the CLI's `--quant_scheme` only; the "
        f"config API's schemes are {', '.join(sorted(view.facts.names('schemes')))}",
        impact=f"the call raises on scheme={claim.value!r} (not a registered scheme)",
        source=kind_source(view, "schemes"),
    )


def check(state: AuditState) -> list[Finding]:
    """``removed`` (breaking) per ``python_argument`` claim whose role (:func:`~quarkci.sync.rules._api.
    argument_role`) is a kind the release shows, whose value the release does not define and some release
    of the vocabulary does. A scheme name any release defines is a ``scheme`` claim of the token resolver
    too (``scheme-unknown`` reports it), so this rule reports the other roles, and for the scheme role only a
    name the release's CLI takes but its config API does not (:func:`_cli_scheme`). Silent without a
    vocabulary or ``public_api``."""
    index = index_of(state.upstream)
    vocabulary = state.vocabulary
    if not index or vocabulary is None:
        return []
    view = state.upstream
    out = []
    for claim in state.claims_of("python_argument"):
        if (closed := _closed(claim, index, state)) is not None:
            out.append(closed)
            continue
        role = argument_role(claim, index)
        if role is not None and role.kind == "scheme" and (cli := _cli_scheme(claim, state)) is not None:
            out.append(cli)
            continue
        if role is None or role.kind == "scheme" or not view.items(role.fact_kind):
            continue
        if claim.value in view.facts.names(role.fact_kind):
            continue
        defined = vocabulary.releases_of(role.kind, claim.value)
        if not defined:
            continue  # no release has it: python-name-misspelt
        callee = claim.context.get("callable")
        out.append(
            make(
                ID,
                CATEGORY,
                "removed",
                claim,
                skill_says=f"passes `{claim.value}` as `{role.parameter}` to `{callee}`",
                source_says=f"{release(view)} has no {role.noun} `{claim.value}`; releases defining it: "
                f"{releases_text(defined)}",
                impact=f"the call rejects {role.noun} `{claim.value}` on this release",
                source=kind_source(view, role.fact_kind),
            )
        )
    return out
