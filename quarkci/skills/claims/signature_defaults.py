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

import re
from collections.abc import Iterator

from quarkci.skills.claims.defaults import _DEFAULT_WORD, _FLAG, _NUMBER, _SPAN, sentences
from quarkci.skills.claims.unit import Found, Unit
from quarkci.skills.claims.walk import heading_path

_DOTTED = re.compile(r"quark(?:\.[A-Za-z_]\w*)+")
_METHOD = re.compile(r"[A-Z]\w*\.[a-z_]\w*")
_CALLED = re.compile(r"[A-Za-z_][\w.]*\(\)")
_PARAMETER = re.compile(r"[a-z_][a-z0-9_]*")
_CONSTANT = re.compile(r"None|True|False|-?\d+(?:\.\d+)?(?:e-?\d+)?|\"[^\"]*\"|'[^']*'")
_WORD = re.compile(r"[A-Za-z][\w.-]*")
_ASSIGNED = re.compile(r"([a-z_][a-z0-9_]*)\s*=\s*(\S.*)")


_CALL = re.compile(r"([A-Za-z_][\w.]*)\(.*\)", re.DOTALL)


def _callable(span: str, exported: frozenset[str]) -> str | None:
    """The callable a code span names: ``quark.x.f``, ``Class.method``, ``f()``, ``f(a, k=v)`` (a call
    written out), or a name some release exports; else None."""
    call = _CALL.fullmatch(span)
    name = call.group(1) if call else span
    if _DOTTED.fullmatch(name) or _METHOD.fullmatch(name) or call is not None:
        return name
    head = name.split(".", 1)[0]
    return name if head in exported and re.fullmatch(r"[A-Za-z_][\w.]*", name) else None


def callables(sentence: str, exported: frozenset[str] = frozenset()) -> set[str]:
    """The callables the code spans of ``sentence`` name (see :func:`_callable`)."""
    return {c for raw in _SPAN.findall(sentence) if (c := _callable(raw.strip(), exported)) is not None}


def stated(
    sentence: str, exported: frozenset[str] = frozenset(), before: str | None = None
) -> tuple[str, str, str] | None:
    """``(callable, parameter, value)`` when ``sentence`` states one parameter default (module doc), else
    None. ``exported`` is the vocabulary's ``export`` names (bare callables it accepts); ``before`` is the
    one callable the previous sentence of the same paragraph named, taken when this one names none
    ("`export_safetensors(...)` writes packed weights. `pack_method` defaults to `reorder`.")."""
    if not _DEFAULT_WORD.search(sentence) or _FLAG.search(sentence):
        return None
    named: set[str] = set()
    parameters: set[str] = set()
    values: list[str] = []
    for raw in _SPAN.findall(sentence):
        span = raw.strip()
        if (assigned := _ASSIGNED.fullmatch(span)) is not None:
            parameters.add(assigned.group(1))
            values.append(assigned.group(2).strip())
        elif (name := _callable(span, exported)) is not None:
            named.add(name)
        elif _CONSTANT.fullmatch(span):
            values.append(span)
        elif _PARAMETER.fullmatch(span) and "_" in span:
            parameters.add(span)
        elif _WORD.fullmatch(span):
            values.append(span)
    values.extend(_NUMBER.findall(_SPAN.sub(" ", sentence)))
    if not parameters and len(values) == 2 and _PARAMETER.fullmatch(values[0]):
        parameters.add(values.pop(0))  # "when `quantize` is left out it is `True`": name, then value
    if not named and before is not None:
        named.add(before)
    if len(named) != 1 or len(parameters) != 1 or len(set(values)) != 1:
        return None
    return next(iter(named)), next(iter(parameters)), values[0]


def extract(unit: Unit) -> Iterator[Found]:
    """``python_default`` claims of ``unit``'s paragraphs, list items and table cells (see the module doc)."""
    exported = unit.lexicon.names("export") if unit.lexicon is not None else frozenset()
    for text in unit.texts():
        if text.kind == "heading" or "`" not in text.text:
            continue
        section = heading_path(text.headings)
        before: str | None = None  # the one callable the previous sentence named
        for offset, sentence in sentences(text.text):
            found = stated(sentence, exported, before)
            named = callables(sentence, exported)
            before = next(iter(named)) if len(named) == 1 else (before if not named else None)
            if found is None:
                continue
            callee, parameter, value = found
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
