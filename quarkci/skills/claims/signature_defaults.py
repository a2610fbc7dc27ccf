"""``python_default`` claims: a skill stating the default of a Quark callable's parameter.

A sentence states one in any phrasing when it says *default* (or what happens when the argument is not
passed: "unless you set it", "if omitted"; the markers of :mod:`.defaults`) and names, in code spans,
exactly one callable, one parameter and one value: "`export_safetensors` leaves `weight_format` as `None`
unless you set it", "by default `LLMTemplate.get_config` uses `exclude_layers=None`", "`quantize_model`
calibrates on 128 samples (`num_samples`) by default". A callable is a span naming a dotted ``quark.`` path,
a ``Class.method`` pair, a name written called (``name()``) or, with a release vocabulary, a name some
release exports; a parameter is a lower-case identifier span (or the name of a ``name=value`` span); a value
is a Python constant (``None``, ``True``, a number, a quoted string) or a plain word in a span, or a bare
number outside spans. A sentence naming a CLI flag is a flag's default (:mod:`.defaults`), never this.

The value is ``"<callable>(<parameter>=<default>)"``; ``context`` carries ``callable``, ``parameter``
(also as ``keyword``, so ``python-keyword-unknown`` checks that the parameter exists) and ``default`` as
written. ``python-default-changed`` compares it with the release's signature.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache

from quarkci.skills.claims.defaults import _DEFAULT_WORD, _FLAG, _SPAN, sentences
from quarkci.skills.claims.python_code import parse_call
from quarkci.skills.claims.unit import Found, Unit
from quarkci.skills.claims.walk import Text, heading_path

_DOTTED = re.compile(r"quark(?:\.[A-Za-z_]\w*)+")
_METHOD = re.compile(r"[A-Z]\w*\.[a-z_]\w*")
_ENUM_MEMBER = re.compile(r"[A-Z]\w*\.[A-Z]\w*")
_HEADING_WORD = re.compile(r"(?<![\w`.])[A-Z][A-Za-z0-9_]*[a-z][A-Za-z0-9_]*(?![\w`])")
_CALLED = re.compile(r"[A-Za-z_][\w.]*\(\)")
_PARAMETER = re.compile(r"[a-z_][a-z0-9_]*")
_CONSTANT = re.compile(
    r"None|True|False|-?\d+(?:\.\d+)?(?:e-?\d+)?|\"[^\"]*\"|'[^']*'"
    r"|\[\s*(?:(?:\"[^\"]*\"|'[^']*'|-?\d+(?:\.\d+)?)\s*,?\s*){0,16}\]"  # a list of constants
)
_WORD = re.compile(r"[A-Za-z][\w.-]*")
_KEYWORD_ALONE = re.compile(r"^([a-z_][a-z0-9_]*)=$")
_BARE_CONSTANT = re.compile(r"\b(None|True|False)\b")
# a boolean default said in words: "is switched on by default", "enabled by default", "off unless you pass it"
_SWITCH = re.compile(
    r"\b(?:is|are|stays?|comes?)\s+"
    r"(?:(?P<on>(?:switched |turned )?on|enabled)|(?:switched |turned )?off|disabled)\b",
    re.IGNORECASE,
)
_ASSIGNED = re.compile(r"([a-z_][a-z0-9_]*)\s*=\s*(\S.*)")


_CALL = re.compile(r"([A-Za-z_][\w.]*)\(.*\)", re.DOTALL)
# "(a `get_config` keyword)", "the `get_config` keyword `min_kv_scale`": the span names the callable that
# owns the parameter, not the parameter ("the `weight_format` keyword" is the parameter itself)
_OWNER = re.compile(
    r"\ban?\s+`([A-Za-z_][\w.]*)`\s+(?:keyword|parameter|argument|kwarg)s?\b"
    r"|`([A-Za-z_][\w.]*)`\s+(?:keyword|parameter|argument|kwarg)s?\s+`"
)
# "unless you pass `weight_format`", "if you set `pack_method`": the span names the parameter
_PASSED = re.compile(
    r"\b(?:pass|passes|set|sets|give|specify|override)\s+(?:an?\s+|the\s+|your own\s+)?`([^`\n]+)`"
)
_P_DEFAULTS_TO_V = re.compile(r"`([a-z_][a-z0-9_]*)`\s+defaults?\s+to\s+`([a-z_][a-z0-9_]*)`")
# a bare snake_case value after a verb of being or using, outside spans ("When `weight_format` is not given,
# `JsonExporterConfig` uses fake_quantized."): taken only when the sentence has no other value
_BARE_WORD_VALUE = re.compile(
    r"\b(?:uses|use|is|are|to|as|stays|keeps|becomes)\s+([a-z][a-z0-9]*(?:_[a-z0-9]+)+|True|False|None)\b"
    r"(?![(`]|\.\w)"
)
_FALLEN_BACK_TO = re.compile(
    r"\b(?:falls? back to|falling back to|replaced (?:by|with)|instead of|in favou?r of)\s+(?:an?\s+|the\s+)?"
    r"(?:default\s+|plain\s+|empty\s+|fresh\s+|new\s+)?$",
    re.IGNORECASE,
)
# a bare number, with an exponent too ("defaults to 1e-4")
_BARE_NUMBER = re.compile(r"(?<![\w.`-])\d+(?:\.\d+)?(?:e-?\d+)?(?![\w`%-]|\.\w)")


@dataclass(frozen=True)
class Known:
    """What the release vocabulary says a span may be: ``callables`` (bare names some release exports or
    defines, accepted as callables) and ``parameters`` (``{callable key: its parameter names}`` over every
    release, keys as in the ``signatures`` facts: ``export_safetensors``, ``LLMTemplate.get_config``; None
    without a vocabulary, when a span is a parameter by its shape: lower case with ``_``)."""

    callables: frozenset[str] = frozenset()
    parameters: Mapping[str, frozenset[str]] | None = None

    @cached_property
    def every_parameter(self) -> frozenset[str]:
        """Every parameter name of every callable (empty without a vocabulary)."""
        return frozenset().union(*(self.parameters or {}).values())

    def parameter(self, span: str, callee: str | None = None) -> bool:
        """True when the span may name a parameter of ``callee`` (any callable when None or unknown): one
        some release's signature of it has, or, without a vocabulary, a lower-case name with ``_``."""
        if not _PARAMETER.fullmatch(span):
            return False
        if self.parameters is None:
            return "_" in span
        if callee is not None:
            name = _CALL.sub(r"\1", callee)
            parts = name.split(".")
            for key in (".".join(parts[-2:]), parts[-1]):
                if key in self.parameters:
                    return span in self.parameters[key]
        return span in self.every_parameter


NOTHING_KNOWN = Known()


def _owners(sentence: str) -> set[str]:
    """The spans of ``sentence`` that name the callable owning a parameter (:data:`_OWNER`)."""
    return {m.group(1) or m.group(2) for m in _OWNER.finditer(sentence)}


def _callable(span: str, known: Known) -> str | None:
    """The callable a code span names: ``quark.x.f``, ``Class.method``, ``f()``, ``f(a, k=v)`` (a call
    written out), or a name some release exports; else None."""
    call = _CALL.fullmatch(span)
    name = call.group(1) if call else span
    if call is None and _ENUM_MEMBER.fullmatch(name):
        return None  # `PowerOfTwoMethod.MinMSE`: an enum member is a value
    if _DOTTED.fullmatch(name) or _METHOD.fullmatch(name) or call is not None:
        return name
    head = name.split(".", 1)[0]
    return name if head in known.callables and re.fullmatch(r"[A-Za-z_][\w.]*", name) else None


def _one(named: set[str]) -> str | None:
    """The one callable of ``named``; None when there are none or several."""
    return next(iter(named)) if len(named) == 1 else None


def callables(sentence: str, known: Known = NOTHING_KNOWN) -> set[str]:
    """The callables the code spans of ``sentence`` name (see :func:`_callable`)."""
    return {
        c for raw in _SPAN.findall(sentence) if (c := _callable(raw.strip(), known)) is not None
    } | _owners(sentence)


def _spans(sentence: str, known: Known) -> tuple[set[str], set[str], list[str]]:
    """``(callables, parameters, values)`` the code spans of ``sentence`` name (see the module doc); a span
    written ``name=`` is the one parameter, the other snake_case spans and a bare constant its values."""
    named: set[str] = set()
    parameters: set[str] = set()
    values: list[str] = []
    owners = _owners(sentence)
    callee = _one(callables(sentence, known))
    written_as_keyword: set[str] = set()
    for raw in _SPAN.findall(sentence):
        span = _KEYWORD_ALONE.sub(r"\1", raw.strip())  # "keeps `weight_format=` at None": the parameter
        if span != raw.strip():
            written_as_keyword.add(span)
        if span in owners:
            named.add(span)
        elif (assigned := _ASSIGNED.fullmatch(span)) is not None:
            parameters.add(assigned.group(1))
            values.append(assigned.group(2).strip())
        elif (name := _callable(span, known)) is not None:
            named.add(name)
        elif _CONSTANT.fullmatch(span):
            values.append(span)
        elif known.parameter(span, callee):
            parameters.add(span)
        elif _WORD.fullmatch(span):
            values.append(span)
    values.extend(_BARE_NUMBER.findall(_SPAN.sub(" ", sentence)))
    if written_as_keyword:
        # the span written `name=` is the parameter; the other snake_case spans are values (`fake_quantized`),
        # and so is a bare Python constant ("at None")
        values.extend(sorted(parameters - written_as_keyword))
        values.extend(_BARE_CONSTANT.findall(_SPAN.sub(" ", sentence)))
        parameters = written_as_keyword
    return named, parameters, values


def stated(
    sentence: str, known: Known = NOTHING_KNOWN, before: str | None = None
) -> tuple[str, str, str] | None:
    """``(callable, parameter, value)`` when ``sentence`` states one parameter default (module doc), else
    None. ``known`` is what the vocabulary knows (:class:`Known`: bare callables, parameter names);
    ``before`` is the one callable the previous sentence of the same paragraph named, taken when this one
    names none ("`export_safetensors(...)` writes packed weights. `pack_method` defaults to `reorder`.")."""
    if not _DEFAULT_WORD.search(sentence) or _FLAG.search(sentence):
        return None
    named, parameters, values = _spans(sentence, known)
    # "`algorithm="awq"` ... falls back to a default `AWQConfig()`": the callable is what is fallen back to,
    # not the owner of the parameter
    named -= {
        c
        for m in _SPAN.finditer(sentence)
        if _FALLEN_BACK_TO.search(sentence[max(0, m.start() - 40) : m.start()])
        and (c := _callable(m.group(1).strip(), known)) is not None
    }
    if (
        not values
        and len(parameters) == 1
        and len(bare := _BARE_WORD_VALUE.findall(_SPAN.sub(" ", sentence))) == 1
    ):
        values.append(bare[0])
    if not values and len(parameters) == 1 and (switch := _SWITCH.search(sentence)) is not None:
        values.append("True" if switch.group("on") else "False")  # "`include_cle` is switched on by default"
    passed = {m.group(1).strip() for m in _PASSED.finditer(sentence)} & parameters
    if len(parameters) == 2 and not values and (pair := _P_DEFAULTS_TO_V.search(sentence)) is not None:
        # "`weight_format` defaults to `fake_quantized`": the span after "defaults to" is the value
        passed = {pair.group(1)} & parameters if pair.group(2) in parameters else passed
    if len(parameters) == 2 and len(passed) == 1 and not values:
        # "`export_safetensors` writes `fake_quantized` weights unless you pass `weight_format`": the span
        # passed is the parameter, the other its default value
        values.extend(parameters - passed)
        parameters = passed
    if (
        not parameters
        and len(values) == 2
        and _PARAMETER.fullmatch(values[0])
        and (known.parameters is None or known.parameter(values[0], _one(named)))
    ):
        parameters.add(values.pop(0))  # "when `quantize` is left out it is `True`": name, then value
    if not parameters and len(named) == 1 and _METHOD.fullmatch(only := next(iter(named))):
        owner, member = only.split(".")  # "`QuantizationConfig.execution_providers` defaults to ...": a field
        named, parameters = {owner}, {member}
    if not named and before is not None:
        named.add(before)
    if len(named) != 1 or len(parameters) != 1 or len(set(values)) != 1:
        return None
    return next(iter(named)), next(iter(parameters)), values[0]


def stated_pairs(
    sentence: str, known: Known = NOTHING_KNOWN, before: str | None = None
) -> list[tuple[str, str, str]]:
    """``[(callable, parameter, value), ...]`` for the defaults ``sentence`` states: :func:`stated`'s one, or
    several parameters of one callable as pairs, each parameter followed by its value ("`JsonExporterConfig`
    defaults `weight_format` to `"fake_quantized"` and `pack_method` to `"reorder"`", "its `block_size`
    defaults to 64 and `damp_percent` to `0.01`"), or, when the whole sentence states none, the clause that
    says *default* ("its `device` argument defaults to `"cpu"`, so pass `device="cuda"`": the advice after
    it is no default). The callable may be ``""`` when no sentence names one and the parameter has an
    underscore ("`include_cle` defaults to `False`"): the rule looks for the one callable with that
    parameter. An empty list when none is stated."""
    if not _DEFAULT_WORD.search(sentence) or _FLAG.search(sentence):
        return []
    one = stated(sentence, known, before)
    if one is not None:
        return [one]
    pairs = _pairs(sentence, known, before) or _listed(sentence, known, before)
    if pairs:
        return pairs
    for clause in _CLAUSE.split(sentence):
        if clause != sentence and _DEFAULT_WORD.search(clause):
            named = callables(sentence, known)
            inherited = next(iter(named)) if len(named) == 1 else before
            if (one := stated(clause, known, inherited)) is not None:
                return [one]
    return _unnamed(sentence, known) if before is None and not callables(sentence, known) else []


# Clause breaks inside one sentence: ", so", ", but", ", and then", a dash, a colon before advice.
_CLAUSE = re.compile(r",\s+(?:so|but|and then|then|which means)\s+|\s+[-–—]\s+|;\s+")


def _sequence(sentence: str, known: Known) -> tuple[set[str], list[tuple[str, str]]]:
    """(callables named, ``[("p", name) | ("v", value)]`` in text order): code spans and bare numbers."""
    named: set[str] = set()
    found: list[tuple[int, str, str]] = []
    callee = _one(callables(sentence, known))
    for match in _SPAN.finditer(sentence):
        span = match.group(1).strip()
        if _CONSTANT.fullmatch(span):
            found.append((match.start(), "v", span))
        elif (name := _callable(span, known)) is not None:
            named.add(name)
        elif known.parameter(span, callee) or (known.parameters is None and _PARAMETER.fullmatch(span)):
            found.append((match.start(), "p", span))
        elif _WORD.fullmatch(span):
            found.append((match.start(), "v", span))
    blanked = _SPAN.sub(lambda m: " " * len(m.group(0)), sentence)
    found += [(m.start(), "v", m.group(0)) for m in _BARE_NUMBER.finditer(blanked)]
    return named, [(role, text) for _, role, text in sorted(found)]


def _pairs(sentence: str, known: Known, before: str | None) -> list[tuple[str, str, str]]:
    named, sequence = _sequence(sentence, known)
    if not named and before is not None:
        named.add(before)
    if len(named) != 1 or len(sequence) < 4 or len(sequence) % 2:
        return []
    pairs = list(zip(sequence[::2], sequence[1::2], strict=True))
    if not all(p[0] == "p" and v[0] == "v" for p, v in pairs):
        return []
    callee = next(iter(named))
    return [(callee, p[1], v[1]) for p, v in pairs]


# "`get_model` defaults: `device="cuda"`, `trust_remote_code=True`": assignments listed after the word
_DEFAULTS_LIST = re.compile(r"\bdefaults?\b\s*(?:are|is)?\s*:?\s*`\s*[a-z_]\w*\s*=")
# "`opset_version` (defaults to 17)", "`do_constant_folding` (default `True`)": a parameter's own aside
_ASIDE_DEFAULT = re.compile(
    r"`([a-z_][a-z0-9_]*)`\s*\(\s*(?:defaults?(?:\s+to|\s+is|:)?|by default)\s*"
    r"(?:`([^`\n]+)`|(-?\d+(?:\.\d+)?(?:e-?\d+)?))\s*\)"
)


def _listed(sentence: str, known: Known, before: str | None) -> list[tuple[str, str, str]]:
    """The defaults of one callable's parameters listed in a sentence: assignment spans after "defaults:"
    (:data:`_DEFAULTS_LIST`), or parameters each followed by an aside stating its default
    (:data:`_ASIDE_DEFAULT`); the callable is the one the sentence (or, failing that, the previous one)
    names. Empty when neither form is there or the callable is not one."""
    named = callables(sentence, known) or ({before} if before is not None else set())
    if len(named) != 1:
        return []
    callee = next(iter(named))
    if _DEFAULTS_LIST.search(sentence):
        assigned = [a for raw in _SPAN.findall(sentence) if (a := _ASSIGNED.fullmatch(raw.strip()))]
        return [(callee, a.group(1), a.group(2).strip()) for a in assigned]
    return [(callee, m.group(1), m.group(2) or m.group(3)) for m in _ASIDE_DEFAULT.finditer(sentence)]


_DEFAULTS_TO = re.compile(
    r"`\s*(?:defaults? to|is|=)\s*(?:`|-?\d)|`\s+by default\b|\bdefaults? to\s*`"
    r"|`,\s+which\s+is\s+(?:`|-?\d)",  # "`alpha`, which is 0.5 unless you set it"
    re.IGNORECASE,
)


_OTHER_PROGRAM = re.compile(
    r"\b(?:lm[-_]eval|vllm|transformers|huggingface|hf|torch|pytorch|onnxruntime|accelerate|datasets|yaml)\b",
    re.IGNORECASE,
)


# the bare number a parameter span is said to default to: "`min_kv_scale` defaults to 1.0", "`alpha`, which
# is 0.5 unless you set it"
_BARE_DEFAULT = re.compile(r"`\s*(?:defaults? to|,\s+which\s+is|is)\s+(-?\d+(?:\.\d+)?(?:e-?\d+)?)\b")


def _unnamed(sentence: str, known: Known) -> list[tuple[str, str, str]]:
    """``[("", parameter, value)]`` for "`include_cle` defaults to `False`", "Unless you pass it,
    `pack_method` is `"reorder"`": one underscored parameter span, then "defaults to" (or "is") and one
    value span, and no callable anywhere near."""
    switch = _SWITCH.search(sentence) if re.search(r"\bby default\b", sentence, re.IGNORECASE) else None
    said = re.search(r"\bdefault|\bunless you (?:pass|set|give|specify)\b", sentence, re.IGNORECASE)
    if not said or not (_DEFAULTS_TO.search(sentence) or switch):
        return []
    if _OTHER_PROGRAM.search(sentence):
        return []  # "lm-eval task YAMLs ... default to `None`": another program's parameter
    named, _ = _sequence(sentence, known)
    spans = [m.group(1).strip() for m in _SPAN.finditer(sentence)]
    if switch is not None and len(spans) == 1:
        spans.append("True" if switch.group("on") else "False")  # "`include_cle` is switched on by default"
    if (bare := _BARE_DEFAULT.search(sentence)) is not None:
        spans.append(bare.group(1))  # "`min_kv_scale` defaults to 1.0": the number after the words
    params = [t for t in spans if known.parameter(t) and not _CONSTANT.fullmatch(t)]
    if len(set(params)) == 2 and (pair := _P_DEFAULTS_TO_V.search(sentence)) and pair.group(2) in params:
        params = [p for p in params if p != pair.group(2)]  # "`weight_format` defaults to `fake_quantized`"
    values = [t for t in spans if t not in params]
    if (
        named
        or len(set(params)) != 1
        or len(set(values)) != 1
        or spans.index(params[0]) > spans.index(values[0])
    ):
        return []
    return [("", params[0], values[0])]


@lru_cache(maxsize=4)
def _known(exports: frozenset[str], names: frozenset[str], parameters: frozenset[str]) -> Known:
    """The :class:`Known` of a vocabulary's ``export``, ``name`` and ``parameter`` symbols, built once per
    vocabulary (its symbol sets are the same objects for every file, so the cache hits by identity)."""
    # a class or function some module defines, named alone (`JsonExporterConfig`, `get_tokenizer`), is a
    # callable too (a snake_case name only with an underscore: `quantize` is also a word)
    callable_names = exports | frozenset(n for n in names if n[:1].isupper() or "_" in n)
    # "`export_safetensors` writes `real_quantized` weights packed with `reorder`": a span no release's
    # signature of the callable names is a value, whatever its shape; `verbose` is a parameter without `_`
    by_callable: dict[str, set[str]] = {}
    for key in parameters:
        callee, _, parameter = key[:-1].partition("(")
        by_callable.setdefault(callee, set()).add(parameter)
        if "." in callee:  # a method named alone (`get_config`) may be any class's
            by_callable.setdefault(callee.rsplit(".", 1)[-1], set()).add(parameter)
    return Known(callable_names, {k: frozenset(v) for k, v in by_callable.items()} or None)


def extract(unit: Unit) -> Iterator[Found]:
    """``python_default`` claims of ``unit``'s paragraphs, list items and table cells (see the module doc)."""
    lexicon = unit.lexicon
    known = (
        _known(lexicon.names("export"), lexicon.names("name"), lexicon.names("parameter"))
        if lexicon is not None
        else NOTHING_KNOWN
    )
    yield from _comments(unit, known)
    for text in unit.texts():
        if text.kind == "table":
            yield from _row(text, known)
            yield from _cell_defaults(text, known)
            continue
        if text.kind == "heading" or "`" not in text.text:
            continue
        section = heading_path(text.headings)
        # the one callable the previous sentence named; a list item starts from its lead's ("Things to know
        # about `JsonExporterConfig`:" then "- `min_kv_scale` defaults to 1.0")
        lead = callables(text.lead, known) if text.in_list else set()
        before: str | None = next(iter(lead)) if len(lead) == 1 else None
        for offset, sentence in sentences(text.text):
            found = stated_pairs(sentence, known, before) or _signature(sentence, known)
            named = callables(sentence, known)
            before = next(iter(named)) if len(named) == 1 else (before if not named else None)
            for callee, parameter, value in found:
                at = sentence.find(value)
                yield Found(
                    "python_default",
                    f"{callee}({parameter}={value})",
                    text.line_at(offset + max(at, 0)),
                    {
                        "callable": callee,
                        "parameter": parameter,
                        "keyword": parameter,
                        "default": value,
                        "where": text.kind,
                        "section": section,
                        "text": " ".join(sentence.split())[:200],
                    },
                )


# "The signature is `export_safetensors(model, output_dir, custom_mode="quark", ...)`", "its full signature:
# `get_config(scheme, algorithm=None)`": a call span written out as the callable's declaration
_SIGNATURE_WORD = re.compile(r"\bsignatures?\b|\b(?:is|are) declared as\b", re.IGNORECASE)


def _signature(sentence: str, known: Known) -> list[tuple[str, str, str]]:
    """``[(callable, parameter, default), ...]`` of a call span in a sentence that calls it a signature
    (:data:`_SIGNATURE_WORD`): each ``name=constant`` of the span is that parameter's stated default (the
    positional names are parameters without one). Empty when the sentence says no signature, or the span is
    no call of one callable with constant keywords."""
    if not _SIGNATURE_WORD.search(sentence):
        return []
    out: list[tuple[str, str, str]] = []
    for raw in _SPAN.findall(sentence):
        span = raw.strip()
        if _CALL.fullmatch(span) is None or _callable(span, known) is None:
            continue
        call = parse_call(span)
        if call is None or any(not isinstance(a, ast.Name) for a in call.args):
            continue  # a call with values in positions is a usage example, not a declaration
        callee = ast.unparse(call.func)
        for keyword in call.keywords:
            if keyword.arg is not None and isinstance(keyword.value, ast.Constant):
                written = ast.get_source_segment(span, keyword.value) or ast.unparse(keyword.value)
                out.append((callee, keyword.arg, written))
    return out


_PYTHON = frozenset({"python", "py", "python3", "ipython"})
_CALLEE = re.compile(r"(?<![\w.])([A-Za-z_][\w.]*)\s*\(")
_COMMENT_WORD = re.compile(r"\"[^\"\n]*\"|'[^'\n]*'|\b[a-z][a-z0-9]*_[a-z0-9_]+\b")


def _comments(unit: Unit, known: Known) -> Iterator[Found]:
    """``python_default`` claims of the comments of Python blocks: ``tok = get_tokenizer(path)  # max_seq_len
    defaults to 4096`` states a default of the callable its line calls (quoted strings and snake_case words
    of the comment read as the spans prose would write)."""
    for code in unit.codes():
        if code.info not in _PYTHON or "#" not in code.text:
            continue
        for number, line in enumerate(code.text.split("\n")):
            head, hash_, comment = line.partition("#")
            if not hash_ or head.count('"') % 2 or head.count("'") % 2 or not _DEFAULT_WORD.search(comment):
                continue  # no comment, a '#' inside a string, or a comment saying no default
            calls = [c for c in _CALLEE.findall(head) if c.rsplit(".", 1)[-1] not in ("print", "len", "dict")]
            if not calls:
                continue
            sentence = _COMMENT_WORD.sub(lambda m: f"`{m.group(0)}`", comment)
            for callee, parameter, value in stated_pairs(sentence, known, calls[0]):
                yield Found(
                    "python_default",
                    f"{callee}({parameter}={value})",
                    code.first_line + number,
                    {
                        "callable": callee,
                        "parameter": parameter,
                        "keyword": parameter,
                        "default": value,
                        "where": "comment",
                        "section": heading_path(code.headings),
                        "text": " ".join(line.split())[:200],
                    },
                )


_HEADER_CALLABLE = re.compile(
    r"^(?:class|dataclass|callable|config(?:uration)?|function|api|object|method)(?:es|s)?$", re.IGNORECASE
)
_HEADER_PARAMETER = re.compile(
    r"^(?:parameter|field|argument|param|keyword|attribute|option)s?$", re.IGNORECASE
)
_HEADER_DEFAULT = re.compile(
    r"^default(?: value)?(?: (?:in|on|for) (?:amd-quark |quark )?[\w.]+)?$", re.IGNORECASE
)


_HEADER_DEFAULTS = re.compile(r"^(?:(?:key|selected|main)\s+)?defaults?(?:\s+values?)?$", re.IGNORECASE)


def _cell_defaults(cell: Text, known: Known) -> Iterator[Found]:
    """``python_default`` claims of a table cell that states a callable's defaults: under a "Signature"
    column, the call span written out (:func:`_signature`: "| `get_tokenizer` | `get_tokenizer(ckpt_path,
    max_seq_len=2048)` |"); under a "Defaults" column, each ``name=value`` span, of the callable the row's
    first cell names ("| `GPTQConfig` | `bits=8`, `block_size=128` |")."""
    if cell.cell is None or cell.cell.is_header or cell.cell.column == 0 or not cell.cell.row:
        return
    header = re.sub(r"[*`]", "", cell.cell.header).strip()
    found: list[tuple[str, str, str]] = []
    if _SIGNATURE_WORD.search(header):
        found = _signature(f"signature {cell.text}", known)
    elif _HEADER_DEFAULTS.match(header):
        label = cell.cell.row[0].strip()
        callee = _callable(label.strip("`"), known) if re.fullmatch(r"`[^`\n]+`", label) else None
        if callee is None:
            return
        for raw in _SPAN.findall(cell.text):
            if (assigned := _ASSIGNED.fullmatch(raw.strip())) is not None:
                value = assigned.group(2).strip()
                if _CONSTANT.fullmatch(value) or _WORD.fullmatch(value):
                    found.append((callee, assigned.group(1), value))
    for callee, parameter, value in found:
        yield _table_default(cell, callee, parameter, value, cell.line_at(max(cell.text.find(value), 0)))


def _table_default(cell: Text, callee: str, parameter: str, value: str, line: int) -> Found:
    """The ``python_default`` claim a table cell states (its row joined is the claim's text)."""
    row = cell.cell.row if cell.cell is not None else ()
    return Found(
        "python_default",
        f"{callee}({parameter}={value})",
        line,
        {
            "callable": callee,
            "parameter": parameter,
            "keyword": parameter,
            "default": value,
            "where": "table",
            "section": heading_path(cell.headings),
            "text": " | ".join(row)[:200],
        },
    )


def _heading_callable(cell: Text, known: Known) -> str | None:
    """The one callable the innermost heading over a table names in a code span, else None."""
    if not cell.headings:
        return None
    named = callables(cell.headings[-1].text, known)
    if not named:  # "## QConfig fields and defaults": a heading is not lifted, its bare class name counts
        named = {w for w in _HEADING_WORD.findall(cell.headings[-1].text) if w in known.callables}
    return next(iter(named)) if len(named) == 1 else None


def _row(cell: Text, known: Known) -> Iterator[Found]:
    """A table row "| `GPTQConfig` | `damp_percent` | 0.1 |" under headers naming a class (or function), a
    parameter and its default: one ``python_default`` claim, read once per row on its first cell."""
    if cell.cell is None or cell.cell.column != 0 or cell.cell.is_header:
        return
    headers = [re.sub(r"[*`]", "", h).strip() for h in cell.cell.headers]
    columns = [
        next((n for n, h in enumerate(headers) if pattern.match(h)), None)
        for pattern in (_HEADER_CALLABLE, _HEADER_PARAMETER, _HEADER_DEFAULT)
    ]
    heading = _heading_callable(cell, known) if columns[0] is None else None
    if heading is not None:
        # "## `QuantizationConfig` switches" over "| field | default in 0.8.2 |": the heading names the class
        columns[0] = -1
    if any(c is None for c in columns) or max(c for c in columns if c is not None) >= len(cell.cell.row):
        return
    callee_cell, parameter_cell, value_cell = (
        f"`{heading}`" if c == -1 and heading is not None else cell.cell.row[c]
        for c in columns
        if c is not None
    )
    callee = _callable(callee_cell.strip().strip("`"), known) or callee_cell.strip().strip("`")
    parameter = parameter_cell.strip().strip("`")
    value = value_cell.strip().strip("`")
    if not (_PARAMETER.fullmatch(parameter) and re.fullmatch(r"[A-Z]\w*|[\w.]+", callee)):
        return
    if not (_CONSTANT.fullmatch(value) or _WORD.fullmatch(value)):
        return
    yield _table_default(cell, callee, parameter, value, cell.line)
