"""Claims inside YAML, JSON and TOML examples (and ``requires-python = ...`` lines of untagged blocks).

Read line by line (examples often hold placeholders and ``...`` that no parser accepts), so each
claim keeps its exact line:

* ``quant_scheme: w_fp8_a_fp8`` / ``"quant_scheme": "w_fp8_a_fp8"`` / ``quant_scheme = "..."``:
  a ``scheme`` claim (``context["where"] = "example"``, never an enumeration);
* ``model_type: gemma4``: a ``model_type`` claim when the value is some release's template or misspells
  one (the user's own type is no claim);
* a key naming transformers or Python with a specifier value (``"transformers_version_required":
  ">=4.48.0,<5.16"``), or a requirement string such as ``"transformers<5.16"``: a
  ``transformers_version`` / ``python_version`` claim whose ``text`` is the specifier as written;
* a YAML mapping keyed by a Quark callable (``export_safetensors:`` then ``  weight_format: packed_int4``): a
  ``python_keyword`` claim per key and a ``python_argument`` claim per string value, as if written
  ``export_safetensors(weight_format="packed_int4")``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from packaging.specifiers import InvalidSpecifier, SpecifierSet

from quarkci.skills.claims.programs import CONSOLE_SCRIPT as _CONSOLE_SCRIPT
from quarkci.skills.claims.python_api import bare_name
from quarkci.skills.claims.schemes import SCHEME_NAME
from quarkci.skills.claims.tokens import misspelt_model
from quarkci.skills.claims.unit import Found, Unit
from quarkci.skills.claims.walk import heading_path

LANGUAGES = frozenset({"yaml", "yml", "json", "jsonc", "toml"})
_KEY_VALUE = re.compile(
    r"""^\s*-?\s*["']?(?P<key>[A-Za-z_][\w.-]*)["']?\s*[:=]\s*"""
    r"""(?:"(?P<dq>[^"\n]*)"|'(?P<sq>[^'\n]*)'|(?P<bare>[^"'#,\n]*?))\s*,?\s*(?:#.*)?$"""
)
_SCHEME_KEYS = frozenset({"quant_scheme", "scheme", "quantization_scheme"})
_NULLS = frozenset({"null", "none", "~", "nil"})
_SPEC = re.compile(r"^(?:(?:===|==|>=|<=|!=|~=|<|>)\s*\d+(?:\.\d+)*(?:\.\*)?\s*,?\s*)+$")
_REQUIREMENT = re.compile(
    r"""["'](?P<pkg>transformers|python)\s*(?P<spec>(?:[<>=!~]=?\s*\d+(?:\.\d+)*\s*,?\s*)+)["']""",
    re.IGNORECASE,
)
_KIND = {"transformers": "transformers_version", "python": "python_version"}
# keys whose value is the project's Python range, read in untagged blocks too (a bare pyproject line)
_PYTHON_RANGE_KEYS = frozenset({"requires-python", "requires_python", "python_requires", "python-requires"})


# a scheme key anywhere in a line (a flow mapping: `"llama": {"scheme": "ptpc_fp8"}`), after the first
_NESTED_SCHEME = re.compile(
    r"""(?<=[{,])\s*["']?(?P<key>quant_scheme|scheme|quantization_scheme)["']?\s*:\s*["'](?P<value>[\w.-]+)["']"""
)
_LAYER_PAIR = re.compile(r"""^\s*-\s*\[\s*["'][^"']+["']\s*,\s*["'](?P<value>[\w.-]+)["']\s*\]""")


def _scheme_found(value: str, line: int, key: str, section: str) -> Found:
    return Found(
        "scheme",
        value,
        line,
        {
            "where": "example",
            "key": key,
            "section": section,
            "enumerates": False,
            "count_claimed": None,
            "count_line": None,
        },
    )


def _named(key: str, value: str, line: int, section: str, unit: Unit) -> Iterator[Found]:
    """The scheme or model-type claim a ``key: value`` line makes, if any; a null (YAML ``null``/``~``,
    TOML/JSON ``null``, Python ``None``) names nothing."""
    if value.lower() in _NULLS:
        return
    if key in _SCHEME_KEYS and SCHEME_NAME.match(value) and "scheme" not in value:
        yield _scheme_found(value, line, key, section)
    if key == "model_type" and (model := _model_found(value, line, section, unit)) is not None:
        yield model


def _model_found(value: str, line: int, section: str, unit: Unit) -> Found | None:
    """A ``model_type`` claim for a ``model_type:`` value that is some release's template (``gemma4``) or
    misspells one (:func:`~quarkci.skills.claims.tokens.misspelt_model`); None for another value (the
    user's own type, registered with a template of their own)."""
    if unit.lexicon is None or not value:
        return None
    context: dict[str, object] = {"where": "example", "key": "model_type", "section": section}
    if value in unit.lexicon.names("model_template"):
        return Found("model_type", value, line, {**context, "resolved": True})
    if (nearest := misspelt_model(value, unit)) is not None:
        return Found("model_type", value, line, {**context, "resolved": True, "misspelt_of": nearest})
    return None


def _inline_schemes(raw: str, line: int, section: str, layer_list: bool) -> Iterator[Found]:
    """Schemes a line names past its first key: flow-mapping values of a scheme key, and the scheme of a
    ``- [pattern, scheme]`` item of a ``layer_quant_scheme`` list."""
    for match in _NESTED_SCHEME.finditer(raw):
        if SCHEME_NAME.match(match.group("value")):
            yield _scheme_found(match.group("value"), line, match.group("key"), section)
    if layer_list and (pair := _LAYER_PAIR.match(raw)) and SCHEME_NAME.match(pair.group("value")):
        yield _scheme_found(pair.group("value"), line, "layer_quant_scheme", section)


# a key whose list names console scripts or public names, or whose number counts a kind of name
_LIST_OPEN = re.compile(r"""^\s*[{,]?\s*["']?(?P<key>[A-Za-z_][\w.-]*)["']?\s*[:=]\s*(?P<rest>.*)$""")
_ITEM = re.compile(r"""["'](?P<q>[^"'\n]+)["']|^\s*-\s+(?P<y>[^\s#"']+)\s*(?:#.*)?$""")
_COUNT_KINDS: tuple[tuple[re.Pattern[str], str, dict[str, str]], ...] = (
    (re.compile(r"subcommands?"), "command_count", {"of": "quark-cli"}),
    (re.compile(r"console_scripts?|entry_points?"), "command_count", {"of": "console_scripts"}),
    (re.compile(r"templates?|model_types?"), "model_type_count", {}),
    (re.compile(r"schemes?"), "scheme_count", {}),
)


def _list_kind(key: str) -> str | None:
    """What the items of a list under ``key`` name: ``command`` (``console_scripts``), ``python_name``
    (``public_api``, ``torch_exports``), else None."""
    if "console_script" in key or key in ("scripts", "entry_points"):
        return "command"
    if "public_api" in key or key.endswith(("_exports", "_api")) or key in ("exports", "api"):
        return "python_name"
    return None


def _listed(kind: str, item: str, line: int, section: str, unit: Unit) -> Iterator[Found]:
    """The claim one list item makes (see :func:`_list_kind`)."""
    context: dict[str, object] = {"where": "example", "section": section}
    if kind == "command" and _CONSOLE_SCRIPT.match(item):
        yield Found("command", item, line, {**context, "quark": True})
    elif kind == "python_name" and (name := bare_name(item, unit)) is not None:
        yield Found(
            "python_name", name, line, {**context, "form": "bare", "module": None, "name": name, "text": item}
        )


def _counted(key: str, value: str, line: int, section: str) -> Iterator[Found]:
    """A count claim for ``"llm_templates": 47``: a number under a key naming what it counts."""
    if not value.isdigit():
        return
    for pattern, kind, context in _COUNT_KINDS:
        if pattern.search(key):
            yield Found(kind, value, line, {**context, "where": "example", "section": section})
            return


_MAPPING_KEY = re.compile(r"^(?P<indent>\s*)(?P<key>[A-Za-z_]\w*)\s*:\s*(?:#.*)?$")
_MAPPING_ITEM = re.compile(
    r"""^(?P<indent>\s*)(?P<key>[a-z_]\w*)\s*:\s*(?:"(?P<dq>[^"\n]*)"|'(?P<sq>[^'\n]*)'|(?P<bare>[\w./-]+))\s*(?:#.*)?$"""
)


def _call_mapping(
    raw: str, line: int, section: str, unit: Unit, mapping: tuple[str, int] | None
) -> tuple[tuple[str, int] | None, list[Found]]:
    """One YAML line read for the arguments of a Quark callable a mapping is keyed by ("export_safetensors:"
    then "  weight_format: packed_int4"): the mapping in force after the line, and the ``python_keyword``
    and ``python_argument`` claims the line states (a key naming a parameter, its scalar value)."""
    indent = len(raw) - len(raw.lstrip())
    if mapping is not None and raw.strip() and indent <= mapping[1]:
        mapping = None  # the mapping ended
    if (head := _MAPPING_KEY.match(raw)) is not None:
        name = head.group("key")
        if "_" in name or name[:1].isupper():
            callee = bare_name(name, unit)
            if callee is not None and unit.lexicon is not None and callee in unit.lexicon.names("name"):
                return (callee, len(head.group("indent"))), []
        return mapping, []
    item = _MAPPING_ITEM.match(raw)
    if mapping is None or item is None:
        return mapping, []
    callee, keyword = mapping[0], item.group("key")
    value = next(v for v in (item.group("dq"), item.group("sq"), item.group("bare")) if v is not None)
    context = {"callable": callee, "keyword": keyword, "where": "example", "section": section}
    found = [Found("python_keyword", f"{callee}({keyword}=)", line, dict(context))]
    if value and not re.fullmatch(r"-?\d+(?:\.\d+)?|true|false|null|none", value, re.IGNORECASE):
        found.append(Found("python_argument", value, line, dict(context)))
    return mapping, found


def extract(unit: Unit) -> Iterator[Found]:
    """Scheme and version claims of the YAML/JSON/TOML blocks of ``unit`` (see the module docstring)."""
    yield from _lists(unit)
    for code in unit.codes():
        if code.info not in LANGUAGES and code.info != "":
            continue
        untagged = code.info == ""  # an untagged block: only a Python-range key (``requires-python = ...``)
        section = heading_path(code.headings)
        layer_list = False  # inside a `layer_quant_scheme:` list: `- ["lm_head", "fp8"]` names a scheme
        mapping: tuple[str, int] | None = None  # (callable, indent) of a `export_safetensors:` mapping above
        for offset, raw in enumerate(code.text.split("\n")):
            line = code.first_line + offset
            if not untagged and code.info in ("yaml", "yml"):
                mapping, found = _call_mapping(raw, line, section, unit, mapping)
                yield from found
            if not untagged:
                yield from _inline_schemes(raw, line, section, layer_list)
                if re.match(r"^\s*layer_quant_schemes?\s*:\s*(?:#.*)?$", raw):
                    layer_list = True
                elif not re.match(r"^\s*-\s", raw):
                    layer_list = False
            match = _KEY_VALUE.match(raw)
            if match:
                key = match.group("key").lower()
                value = next(
                    v
                    for v in (match.group("dq"), match.group("sq"), match.group("bare"), "")
                    if v is not None
                )
                value = value.strip()
                if untagged and key not in _PYTHON_RANGE_KEYS:
                    continue
                yield from _named(key, value, line, section, unit)
                package = next((p for p in _KIND if p in key), None)
                if package and _SPEC.match(value):
                    try:
                        spec = str(SpecifierSet(value.replace(" ", "").rstrip(",")))
                    except InvalidSpecifier:
                        continue
                    yield Found(
                        _KIND[package],
                        spec,
                        line,
                        {
                            "aspect": "package",
                            "package": package,
                            "text": value,
                            "where": "example",
                            "key": key,
                            "section": section,
                        },
                    )
                    continue
            if untagged:
                continue
            for req in _REQUIREMENT.finditer(raw):
                try:
                    spec = str(SpecifierSet(re.sub(r"\s+", "", req.group("spec")).rstrip(",")))
                except InvalidSpecifier:
                    continue
                package = req.group("pkg").lower()
                yield Found(
                    _KIND[package],
                    spec,
                    line,
                    {
                        "aspect": "package",
                        "package": package,
                        "text": req.group("spec").strip(),
                        "where": "example",
                        "section": section,
                    },
                )


def _lists(unit: Unit) -> Iterator[Found]:
    """The console scripts and public names YAML/JSON/TOML lists name, and the counts of their number
    values (``"console_scripts": ["quark-cli", ...]``, ``torch_public_api:`` then ``- ModelImporter``,
    ``"llm_templates": 47``)."""
    for code in unit.codes():
        if code.info not in LANGUAGES:
            continue
        section = heading_path(code.headings)
        kind: str | None = None  # what the open list's items name
        for offset, raw in enumerate(code.text.split("\n")):
            line = code.first_line + offset
            opened = _LIST_OPEN.match(raw)
            if opened is not None:
                key = opened.group("key").lower()
                rest = opened.group("rest").strip()
                kind = _list_kind(key) if rest == "" or rest.startswith("[") else None
                yield from _counted(
                    key, re.sub(r"\s*(?:#.*)?$", "", rest).rstrip(",").strip("\"'"), line, section
                )
                if not rest.startswith("["):
                    continue
                if kind is not None:
                    for item in re.findall(r"""["']([^"'\n]+)["']""", rest):
                        yield from _listed(kind, item, line, section, unit)
                if "]" in rest:
                    kind = None
                continue
            if kind is None:
                continue
            if re.match(r"^\s*[\]}]", raw):
                kind = None
                continue
            item = _ITEM.search(raw)
            if item is not None:
                yield from _listed(kind, item.group("q") or item.group("y"), line, section, unit)
