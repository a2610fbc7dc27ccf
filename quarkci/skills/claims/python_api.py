"""``python_name`` claims: the Quark Python names a skill tells users to import or call.

Recognised (value; ``context["form"]``):

* ``from quark.a.b import X, Y as Z`` (one claim per name, parenthesised multi-line lists too) and
  ``import quark.a.b`` in any code block line (Python, shell ``python -c "..."``, heredocs) and in
  inline code spans: ``quark.a.b.X`` (``from``) and ``quark.a.b`` (``import``), with
  ``context["module"]`` and ``context["name"]``; ``context["text"]`` is the statement as written, or, for
  one over :data:`MAX_STATEMENT_CHARS` characters, the statement importing that one name alone
  (``from quark.a.b import X``): each claim keeps a bounded excerpt, never a copy of a long list;
* a dotted reference ``quark.a.b.X`` (optionally ``.method(...)``) in an inline code span or in prose:
  ``dotted`` (the reader splits module and attribute against the release);
* an import said in words (``import `X` from `quark.a.b` ``, `` `X` from `quark.a.b` ``, `` `X` is
  imported from `quark.a.b` ``): ``from``, as if written ``from quark.a.b import X``;
* a bare name in an inline code span of prose, alone or called (``Use `ModelExporter` to ...``,
  ```LLMTemplate.get("x")```): ``bare``, for a CamelCase name or a snake_case one the release vocabulary knows
  (or is two edits from): checked against the names the releases define (``python-name-unknown``,
  ``python-name-misspelt``) and the baseline's exports (``api-name-removed``).

Placeholders (``quark.<module>``) and dunder attributes (``quark.__version__``) are no claims.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import partial

from quarkci.skills.claims.lexicon import CLASS_NAME, SNAKE_NAME
from quarkci.skills.claims.unit import Found, Unit
from quarkci.skills.claims.walk import Newlines, heading_path

_DOTTED = r"quark(?:\.[A-Za-z_][A-Za-z0-9_]*)*"
_FROM = re.compile(rf"(?<![\w.])from\s+(?P<module>{_DOTTED})\s+import\s+(?P<names>\([^)]*\)?|[^;#\n\"']+)")
_IMPORT = re.compile(
    rf"(?<![\w.])import\s+(?P<modules>{_DOTTED}(?:\s+as\s+\w+)?(?:\s*,\s*[\w.]+(?:\s+as\s+\w+)?)*)"
)
_REFERENCE = re.compile(r"(?<![\w./-])quark(?:\.[A-Za-z_][A-Za-z0-9_]*)+")
# A class-like name: starts upper case, has a lower-case letter and at least two upper-case ones
# (ModelExporter, LLMTemplate, GPTAQConfig, QLayerConfig; not Linear, not ONNX).
_BARE = re.compile(rf"^(?P<name>{CLASS_NAME})(?:\(\))?$")
# "import `X` from `quark.a.b`", "`X` from `quark.a.b`", "`X` is imported from `quark.a.b` directly": an
# import said in words.
_FROM_WORDS = re.compile(
    r"`(?P<name>[A-Za-z_][A-Za-z0-9_]*)`(?:\s+(?:class(?:es)?|functions?|helpers?|is|are|can|be|now"
    r"|imported|importable|exported|re-exported|available|directly))*\s+from\s+(?:the\s+)?"
    r"`(?P<module>quark(?:\.[A-Za-z_][A-Za-z0-9_]*)+)`"
)
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_FILE_SUFFIXES = frozenset({"py", "md", "json", "yaml", "yml", "toml", "txt", "whl", "onnx", "log"})
_SKIPPED_CODE = frozenset({"json", "yaml", "yml", "toml", "text", "txt", "diff", "console", "output"})


def _names(raw: str) -> list[str]:
    body = raw.strip().strip("()").replace("\\\n", " ")
    out = []
    for part in body.split(","):
        name = part.strip().split(" as ")[0].strip()
        if _NAME.match(name) and name != "*":
            out.append(name)
    return out


# The longest statement a claim keeps as written (``context["text"]``); each name of a longer one keeps the
# statement that imports it alone (``from quark.a import X``), so an import of N names stores O(N) bytes.
MAX_STATEMENT_CHARS = 200


def _statement(written: str, short: str) -> str:
    return written if len(written) <= MAX_STATEMENT_CHARS else short


def _commented(text: str, offset: int, where: str) -> dict[str, object]:
    """``{"historical": True}`` for a statement a code block comments out (``# from quark.a import X``
    under "# before (0.11.x)": what the block no longer runs), else ``{}``."""
    start = text.rfind("\n", 0, offset) + 1
    return {"historical": True, "commented": True} if where == "code" and "#" in text[start:offset] else {}


def _imports(text: str, line_of: Callable[[int], int], where: str, section: str) -> Iterator[Found]:
    for match in _FROM.finditer(text):
        module = match.group("module")
        written = match.group(0).strip()
        names_at = match.start("names")
        for name in _names(match.group("names")):
            # a parenthesised list over several lines: each name on its own line
            own = re.search(rf"(?<![\w.]){re.escape(name)}(?![\w])", match.group("names"))
            yield Found(
                "python_name",
                f"{module}.{name}",
                line_of(names_at + own.start() if own else match.start()),
                {
                    "form": "from",
                    "module": module,
                    "name": name,
                    "where": where,
                    "section": section,
                    "text": _statement(written, f"from {module} import {name}"),
                    **_commented(text, match.start(), where),
                },
            )
    for match in _IMPORT.finditer(text):
        if text[max(0, match.start() - 40) : match.start()].rstrip().endswith(
            tuple("abcdefghijklmnopqrstuvwxyz_")
        ) and re.search(r"from\s+\S+\s*$", text[max(0, match.start() - 80) : match.start()]):
            continue  # the `import` of a `from X import` statement
        for part in match.group("modules").split(","):
            module = part.strip().split(" as ")[0].strip()
            if module.startswith("quark"):
                yield Found(
                    "python_name",
                    module,
                    line_of(match.start()),
                    {
                        "form": "import",
                        "module": module,
                        "name": None,
                        "where": where,
                        "section": section,
                        "text": _statement(match.group(0).strip(), f"import {module}"),
                        **_commented(text, match.start(), where),
                    },
                )


def _line_in(newlines: Newlines, first_line: int, offset: int) -> int:
    return first_line + newlines.line_of(offset)


def _same_line(line: int, _offset: int) -> int:
    return line


def extract(unit: Unit) -> Iterator[Found]:
    """``python_name`` claims of ``unit`` (see the module docstring)."""
    for code in unit.codes():
        if code.info in _SKIPPED_CODE:
            continue
        section = heading_path(code.headings)
        text = code.text
        yield from _imports(text, partial(_line_in, Newlines(text), code.first_line), "code", section)
    for block in unit.texts():
        if block.kind == "heading":
            continue
        section = heading_path(block.headings)
        members = _members(block.text)
        for span, line in block.code_spans():
            if "import " in span:
                yield from _imports(span, partial(_same_line, line), "inline", section)
                continue
            for match in _REFERENCE.finditer(span):
                yield from _reference(match.group(0), line, "inline", section)
            member = _member(span.strip(), members, unit)
            if member is not None:
                owner, name = member
                context = {"form": "member", "class": owner, "member": name, "where": "inline"}
                yield Found("python_name", f"{owner}.{name}", line, {**context, "section": section})
                if not name[:1].isupper():
                    continue  # an enum member names its class too (`ExtendedQuantType.QMX`): read below
            if block.kind in ("paragraph", "table") and (found := _bare(span, line, unit, section)):
                yield found
        for match in _FROM_WORDS.finditer(block.text):
            module, name = match.group("module"), match.group("name")
            yield Found(
                "python_name",
                f"{module}.{name}",
                block.line_at(match.start()),
                {
                    "form": "from",
                    "module": module,
                    "name": name,
                    "where": "prose",
                    "section": section,
                    "text": f"from {module} import {name}",
                },
            )
        prose = re.sub(r"`[^`]*`", " ", block.text)
        for match in _REFERENCE.finditer(prose):
            yield from _reference(match.group(0), block.line_at(match.start()), block.kind, section)
    for comment, line_of in unit.comments():  # "<!-- hooks come from quark.experimental.plugin -->"
        for match in _REFERENCE.finditer(comment):
            yield from _reference(match.group(0), line_of(match.start()), "comment", "")


_SNAKE = re.compile(rf"^{SNAKE_NAME}$")
# A span that calls a name: ``ModelQuantizer.freeze(model)``, ``LLMTemplates.get("llama")``, ``f()``.
_CALLED = re.compile(r"^(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?:\.[A-Za-z_][A-Za-z0-9_]*)?\(.*\)$", re.DOTALL)


# "`ModelImporter(model_info_dir)` offers `get_model_config()`, `get_model_state_dict()` and ...": the called
# spans after the verb are the class's methods (a field, written without parentheses, is no method)
_OFFERS = re.compile(
    r"`(?P<owner>[A-Z][A-Za-z0-9]+)(?:\([^`]*\))?`\s+(?:offers|has|provides|exposes|adds|gains|keeps)\s+"
    r"(?:the\s+)?(?:methods?\s+)?(?P<list>(?:`[a-z_]\w*\([^`]*\)`(?:\s*(?:,|and|or)\s*)*)+)"
)


def _member(span: str, offered: dict[str, str], unit: Unit) -> tuple[str, str] | None:
    """``(class, member)`` a prose span names: a method the sentence says a class offers (:func:`_members`),
    a method or an enum member written on a class some release has ("`ModelExporter.export_quark_model` has
    been removed", "`CalibMethod.MinMse`"); else None."""
    if (owner := offered.get(span)) is not None:
        return owner, span.split("(", 1)[0]
    method = _CLASS_METHOD.fullmatch(span) or _CLASS_MEMBER.fullmatch(span)
    if method is not None and _is_quark_class(method.group(1), unit):
        return method.group(1), method.group(2)
    return None


def _members(text: str) -> dict[str, str]:
    """The code spans ``text`` presents as methods of a class (:data:`_OFFERS`): span -> class."""
    out: dict[str, str] = {}
    for match in _OFFERS.finditer(text):
        for span in re.findall(r"`([^`]+)`", match.group("list")):
            out[span.strip()] = match.group("owner")
    return out


_CLASS_METHOD = re.compile(r"([A-Z][A-Za-z0-9]*)\.([a-z_][a-z0-9_]*)(?:\(\))?")
# an enum member or class constant: `VitisQuantType.QMX`, `QuantGranularity.Tensor`
_CLASS_MEMBER = re.compile(r"([A-Z][A-Za-z0-9]*)\.([A-Z][A-Za-z0-9_]*)")


def _is_quark_class(name: str, unit: Unit) -> bool:
    """True when some release defines a public class ``name`` (the vocabulary's ``name`` kind)."""
    return unit.lexicon is not None and name in unit.lexicon.names("name")


def bare_name(span: str, unit: Unit) -> str | None:
    """The Python name a code span of prose stands for, alone or called (```ModelExporter```,
    ```export_safetensors```, ```LLMTemplate.get("x")```): a CamelCase name, or a snake_case one that a
    framework package of some release exports, or one edit from such a name (the release vocabulary's
    ``export`` kind: a snake_case word such as ``text_config`` is a Quark name only because a release exports
    it), else None."""
    called = _CALLED.match(span)
    token = called.group("name") if called else span.removesuffix("()")
    if _BARE.match(token):
        return token
    if unit.lexicon is None or not _SNAKE.match(token):
        return None
    if token in unit.lexicon.names("export") or unit.lexicon.nearest("export", token, 1) is not None:
        return token
    return None


def _bare(span: str, line: int, unit: Unit, section: str) -> Found | None:
    """The ``bare`` claim of a prose code span naming a Python name (:func:`bare_name`; an enum member or
    class constant, "`ExtendedQuantType.QMX`", claims its class), with the file's framework package
    (:attr:`Unit.framework`) when it names one; None for any other span."""
    name = bare_name(span.strip(), unit)
    if name is None and (enum := _CLASS_MEMBER.fullmatch(span.strip())) is not None:
        name = bare_name(enum.group(1), unit)
    if name is None:
        return None
    context = {"form": "bare", "module": None, "name": name, "where": "inline", "section": section}
    if unit.framework:
        context["framework"] = unit.framework
    return Found("python_name", name, line, {**context, "text": span})


def _reference(dotted: str, line: int, where: str, section: str) -> Iterator[Found]:
    parts = dotted.split(".")
    if len(parts) < 2 or any(p.startswith("__") for p in parts):
        return
    if where != "inline" and parts[-1] in _FILE_SUFFIXES:
        return  # `quark.json`, `quark.yaml`: a file name
    yield Found(
        "python_name",
        dotted,
        line,
        {"form": "dotted", "module": None, "name": None, "where": where, "section": section, "text": dotted},
    )
