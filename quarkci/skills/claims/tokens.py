"""``scheme`` claims by resolution: every token that is a scheme name of some amd-quark release, wherever
it stands, and every scheme-shaped token one or two edits away from such a name (a misspelling).

The names come from the release vocabulary (:mod:`quarkci.facts.vocabulary`), handed in by the caller
as ``Unit.lexicon`` (any :class:`~quarkci.skills.claims.unit.Lexicon`), so whether a token is a claim depends on what the releases
define, not on the sentence around it. Places read: inline code spans, fenced and indented code (every
identifier and every string literal), HTML comments (quarkci's own ``<!-- quarkci: ... -->`` directives
excepted), and prose words holding an underscore (``w_int4_per_group_sym``; a bare ``fp8`` or ``int8``
in prose is a dtype word, not a scheme claim). Context: ``where`` (``span``, ``code``, ``comment``,
``prose``), ``resolved`` (True) and, for a misspelling, ``misspelt_of`` (the nearest known name).
A model template's name is a ``model_type`` claim this way only inside a sentence that says it is not
supported or not available, or that speaks of templates (a bare ``llama`` in code is too common a word to
be a claim by itself); there, a span one or two edits from a template's name that no release defines as
anything is one with ``misspelt_of`` (``llama3_1``), and a template's name with an underscore in plain
words (``kimi_k25``) is one too.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator
from functools import cache

from quarkci.skills.claims.context import is_negative
from quarkci.skills.claims.defaults import sentences
from quarkci.skills.claims.unit import Found, Unit
from quarkci.skills.claims.walk import Code, Text

_TOKEN = re.compile(r"(?<![\w.-])[a-z][a-z0-9]*(?:_[a-z0-9]+)*(?![\w-]|\.\w)")
_SPAN = re.compile(r"`+([^`]+)`+")
_SHAPED = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$")  # snake case with at least one underscore
_DTYPE_PART = re.compile(
    r"(?:^|_)(?:u?int\d+|fp\d+(?:e\dm\d)?|bf\d+|bfp\d+|mxfp\d+|mxint\d+|nvfp\d+|amdfp\d+|mx\d+|float\d+)(?:_|$)"
)


def extract(unit: Unit) -> Iterator[Found]:
    """``scheme`` claims of ``unit`` resolved against ``unit.lexicon`` (see the module docstring); nothing
    when the caller gave no vocabulary."""
    if unit.lexicon is None:
        return
    known = unit.lexicon.names("scheme")
    if not known:
        return
    of_templates = _template_lists(unit)
    scheme_lists = _scheme_lists(unit, known)
    for block in unit.blocks:
        if isinstance(block, Code):
            for number, line in enumerate(block.text.split("\n")):
                for match in _TOKEN.finditer(line):
                    yield from _claim(match.group(0), block.first_line + number, "code", known, unit)
        elif isinstance(block, Text) and block.kind != "heading":
            yield from _unavailable_models(block, unit, id(block) in of_templates)
            yield from _text_claims(block, known, unit, id(block) in scheme_lists)
    for body, line_of in unit.comments():
        for match in _TOKEN.finditer(body):
            yield from _claim(match.group(0), line_of(match.start()), "comment", known, unit)
        # "<!-- quark.torch has LLM templates for qwen3_vl_moe and kimi_k25 -->": read like a paragraph
        yield from _unavailable_models(Text(body, line_of(0), (), "paragraph"), unit)


def _scheme_lists(unit: Unit, known: frozenset[str]) -> set[int]:
    """The ``id`` of each item of a list whose items together hold two or more spans that are known scheme
    names ("1. ... → `int4_wo_128`, and `int4_wo_32` on `lm_head`." then "2. There is also `int4_wo_256`."):
    the list names schemes by their neighbours, like a paragraph does."""
    groups: dict[tuple[str, tuple[object, ...]], list[Text]] = {}
    for block in unit.texts():
        if block.in_list and block.kind == "paragraph":
            groups.setdefault((block.lead, block.headings), []).append(block)
    out: set[int] = set()
    for items in groups.values():
        spans = sum(1 for b in items for s in _SPAN.finditer(b.text) if s.group(1).strip() in known)
        if spans >= 2:
            out.update(id(b) for b in items)
    return out


def _text_claims(block: Text, known: frozenset[str], unit: Unit, listed: bool = False) -> Iterator[Found]:
    """The scheme claims of a prose block: its code spans (a sentence about schemes also claims a name of
    a known scheme's family: :func:`family_head`) and its underscored prose words. ``listed``: the block is
    an item of a list naming schemes (:func:`_scheme_lists`). A block labelled by a Quark class ("**Dtype**:
    int8, fp6_e3m2, ...", "`QSchemeType`: per_tensor, ...") lists that class's members: no scheme claims."""
    label = _CLASS_LABEL.match(block.text)
    if label is not None and unit.lexicon is not None and label.group(1) in unit.lexicon.names("name"):
        return
    outside = _SPAN.sub(lambda m: " " * len(m.group(0)), block.text)
    # a paragraph naming schemes by their neighbours: two or more of its spans are known schemes
    # ("Smaller groups are `int4_wo_64` and `int4_wo_32`; for very wide layers `int4_wo_256` ...")
    neighbours = listed or sum(1 for s in _SPAN.finditer(block.text) if s.group(1).strip() in known) >= 2
    for offset, sentence in sentences(block.text):
        about = neighbours or bool(_ABOUT_SCHEMES.search(sentence))
        for span in _SPAN.finditer(sentence):
            # a family variant counts only as a span of its own (`int4_wo_256`), not inside code
            # (`LLMTemplate.register_scheme("int8_wo", ...)` names a new scheme)
            whole = span.group(1).strip()
            for match in _TOKEN.finditer(span.group(1)):
                at = block.line_at(offset + span.start())
                yield from _claim(match.group(0), at, "span", known, unit, about and match.group(0) == whole)
    for match in _TOKEN.finditer(outside):
        if "_" in match.group(0):
            yield from _claim(match.group(0), block.line_at(match.start()), "prose", known, unit)


_CLASS_LABEL = re.compile(r"^\s*(?:\*\*|__)?`?([A-Z][A-Za-z0-9_]*)`?(?:\*\*|__)?\s*(?:members?\s*)?[:—–-]\s")


def scheme_shaped(token: str) -> bool:
    """True for a snake-case token with a dtype part (``int4_wo_128``, ``w_fp8_a_fp8``): what a scheme
    name looks like."""
    return bool(_SHAPED.match(token) and _DTYPE_PART.search(token))


def _claim(
    token: str, line: int, where: str, known: frozenset[str], unit: Unit, about_schemes: bool = False
) -> Iterator[Found]:
    if token in known:
        yield Found("scheme", token, line, {"where": where, "resolved": True})
        return
    if not scheme_shaped(token):
        return
    nearest = unit.lexicon.nearest("scheme", token) if unit.lexicon is not None else None
    if nearest is None and about_schemes:
        nearest = family_head(token, known)
    if nearest is None and where == "span":
        nearest = cli_family_member(token, known)
    if nearest is not None:
        yield Found("scheme", token, line, {"where": where, "resolved": True, "misspelt_of": nearest})


# a dtype's format suffix: `fp8_e4m3` is a data type, not a scheme of the fp8 family
_FORMAT_TAIL = re.compile(r"^(?:e\d+m\d+(?:fn|fnuz)?|fnuz|fn)$")
_ABOUT_SCHEMES = re.compile(r"\bschemes?\b|\bbuilt-?in\b|\bregister(?:ed|s)?\b|\bpresets?\b", re.IGNORECASE)


@cache
def _scheme_parts(known: frozenset[str]) -> frozenset[str]:
    """Every ``_``-separated part of the known scheme names (``g32``, ``dynamic``, ``per``, ``channel``)."""
    return frozenset(part for name in known for part in name.split("_"))


def family_head(token: str, known: frozenset[str]) -> str | None:
    """The known scheme a scheme-shaped ``token`` no release defines is a variant of: a known scheme plus
    parts other scheme names use (``ptpc_fp8_dynamic``: ``ptpc_fp8``; ``nvfp4_g32``: ``nvfp4``; not
    ``int8_custom``), or a known scheme with another
    number in its last part (``int4_wo_256``: ``int4_wo_128``, a group size no release registers). None for
    a dtype format (``fp8_e4m3``) or any other token (``w_int4_a_bf16`` extends no known scheme)."""
    parts = token.split("_")
    if _FORMAT_TAIL.match(parts[-1]):
        return None
    words = _scheme_parts(known)
    for cut in range(len(parts) - 1, 0, -1):
        head = "_".join(parts[:cut])
        # the added parts are words Quark's scheme names use (`g32`, `dynamic`), not the user's (`custom`)
        if head in known and len(head) >= 4 and all(p in words for p in parts[cut:]):
            return head
    stem, last = "_".join(parts[:-1]), parts[-1]
    if len(parts) >= 2 and re.fullmatch(r"[a-z]*\d+", last):
        shape = re.sub(r"\d+", "#", last)
        variants = sorted(
            k for k in known if k.startswith(stem + "_") and re.sub(r"\d+", "#", k[len(stem) + 1 :]) == shape
        )
        if variants:
            return variants[-1]
    return None


def cli_family_member(token: str, known: frozenset[str]) -> str | None:
    """The nearest known ``w_*`` name for a code span built only from the parts of 0.10's CLI scheme names
    (``w_<dtype>[_per_<granularity>]_[a_<dtype>]..._sym``, ``quark/experimental/cli/torch_llm/llm_ptq/
    customized_configuration.py``) that no release registers (``w_int8_per_token_sym``); else None."""
    family = sorted(k for k in known if k.startswith("w_"))
    parts = token.split("_")
    if not family or len(parts) < 4 or parts[0] != "w":
        return None
    words = _scheme_parts(frozenset(family))
    if not all(p in words for p in parts):
        return None
    close = difflib.get_close_matches(token, family, n=1, cutoff=0.0)
    return close[0] if close else None


_ONE_SPAN = re.compile(r"\s*`([a-z][a-z0-9_.\-]*)`\s*")


def _template_lists(unit: Unit) -> set[int]:
    """The ``id`` of each list item of a list whose items are each one code span and mostly (two in three)
    some release's template names ("Newer MoE families you can quantize on 0.11.2:" then `glm4_moe`,
    `minimax_m2`, `deepseek_v4`): its items are model types, whatever the lead calls them."""
    models = unit.lexicon.names("model_template") if unit.lexicon is not None else frozenset()
    groups: dict[tuple[str, int, tuple[object, ...]], list[tuple[Text, str]]] = {}
    for block in unit.texts():
        if block.in_list and block.kind != "heading" and (m := _ONE_SPAN.fullmatch(block.text)) is not None:
            groups.setdefault((block.lead, len(block.headings), block.headings), []).append(
                (block, m.group(1))
            )
    out: set[int] = set()
    for items in groups.values():
        if len(items) >= 3 and 3 * sum(1 for _, name in items if name in models) >= 2 * len(items):
            out.update(id(block) for block, _ in items)
    return out


def _unavailable_models(block: Text, unit: Unit, of_templates: bool = False) -> Iterator[Found]:
    """``model_type`` claims for the code spans naming a model template of some release in a sentence that
    says it is not supported or not available ("Not supported: `gpt_oss`": false where the release has the
    template), or that speaks of templates or model types ("`LLMTemplate` has a template for `glm4_moe`",
    "model types include `qwen3`": false where the release lacks it). Elsewhere a bare family name in code
    is too common a word to be a claim."""
    models = unit.lexicon.names("model_template") if unit.lexicon is not None else frozenset()
    if not models:
        return
    # a list item under a lead about templates ("Built-in templates by family:") speaks of them too
    listed = of_templates or (block.in_list and bool(_TEMPLATE_TOPIC.search(block.lead)))
    # a paragraph about templates: its sentences saying which name to pass for a checkpoint speak of them
    # too ("... pass `kimi_k2` as the model type. For Mistral Small 3 checkpoints pass `mistral3`.")
    paragraph = bool(_TEMPLATE_TOPIC.search(block.text))
    for offset, sentence in sentences(block.text):
        topic = (
            listed
            or bool(_TEMPLATE_TOPIC.search(sentence))
            or (paragraph and bool(_CHECKPOINT.search(sentence)))
        )
        if not (is_negative(sentence) or topic):
            continue
        for span in _SPAN.finditer(sentence):
            name = span.group(1).strip()
            at = block.line_at(offset + span.start())
            if name in models:
                yield Found("model_type", name, at, {"where": "span", "resolved": True})
            elif topic and (nearest := misspelt_model(name, unit)) is not None:
                yield Found(
                    "model_type", name, at, {"where": "span", "resolved": True, "misspelt_of": nearest}
                )
        if not topic:
            continue
        # a template's name in plain words ("quantize kimi_k25 checkpoints"): one with an underscore only
        blanked = _SPAN.sub(lambda m: " " * len(m.group(0)), sentence)
        for match in _TOKEN.finditer(blanked):
            if "_" in match.group(0) and match.group(0) in models:
                at = block.line_at(offset + match.start())
                yield Found("model_type", match.group(0), at, {"where": "prose", "resolved": True})


def misspelt_model(name: str, unit: Unit) -> str | None:
    """The model template some release has that ``name`` (a span in a sentence about templates) misspells:
    a model-type-shaped name (lower case, with a digit or an underscore) that no release defines as any
    kind (scheme, template, public name, flag...), within two edits of a template name; else None."""
    lexicon = unit.lexicon
    if (
        lexicon is None
        or not _MODEL_SHAPED.fullmatch(name)
        or any(name in lexicon.names(kind) for kind in _OTHER_KINDS)
    ):
        return None
    if (nearest := lexicon.nearest("model_template", name)) is not None:
        return nearest
    # a template's name with a version suffix no release registers (`llama3_1`): the longest such name
    heads = [
        t for t in lexicon.names("model_template") if name.startswith(t) and _SUFFIX.fullmatch(name[len(t) :])
    ]
    return max(heads, key=len) if heads else None


_SUFFIX = re.compile(r"_?\d+(?:_\d+)*")
_MODEL_SHAPED = re.compile(r"(?=[a-z0-9_]*[\d_])[a-z][a-z0-9]*(?:_[a-z0-9]+)*")
_OTHER_KINDS = ("scheme", "model_template", "name", "export", "module", "onnx_config", "extra")


_CHECKPOINT = re.compile(r"\bcheckpoints?\b", re.I)
# A sentence about model templates: its code spans naming a template are claims about the release.
_TEMPLATE_TOPIC = re.compile(
    r"\bLLMTemplate\b|\bmodel[ _-]?types?\b|\b(?:model )?templates?\b|\bregistered models?\b", re.I
)
