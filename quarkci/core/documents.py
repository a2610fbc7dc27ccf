"""The one document loader and artifact writer: load JSON/YAML, validate it against its contract, write it.

Every problem is a :class:`Violation` naming the JSON path (``$.steps[0].kind``) so the fix is
obvious. Parse failures and unreadable files are :class:`~quarkci.core.errors.BadInputError` (exit 2);
schema violations are values (the caller decides the exit code).
"""

from __future__ import annotations

import json
import re
import secrets
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, BinaryIO, TextIO

import yaml
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from quarkci.core.artifacts import ARTIFACTS, get_artifact, load_schema
from quarkci.core.atomic import atomic_write_text
from quarkci.core.errors import BadInputError
from quarkci.core.paths import is_text

MAX_DOCUMENT_BYTES = 8 * 1024 * 1024  # an artifact is a few KiB; refuse anything absurd before parsing
# Digits of one integer: the standard library's own default limit for str -> int (CPython 3.11+,
# ``sys.int_info.default_max_str_digits``), fixed here so that PYTHONINTMAXSTRDIGITS cannot lift it.
MAX_INT_DIGITS = 4300
_MESSAGE_CHARS = 160
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_REQUIRED = re.compile(r"^'(.+)' is a required property$")


@dataclass(frozen=True, order=True)
class Violation:
    """One schema violation: ``path`` is a JSON path (``$`` is the document root)."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


def json_path(parts: Iterable[str | int]) -> str:
    """``["steps", 0, "kind"]`` -> ``"$.steps[0].kind"``; keys that are not identifiers are quoted."""
    out = "$"
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        elif _IDENT.match(part):
            out += f".{part}"
        else:
            out += f"[{json.dumps(part)}]"
    return out


def infer_artifact(path: str | Path) -> str:
    """The artifact a file holds, from its name: ``quant_plan.json``, ``out/run_manifest.yaml``,
    ``fallback.model_analysis.json`` and ``qwen-quant_plan.json`` all resolve.

    The longest artifact name that appears in the file name as a whole word (delimited by the
    start/end or one of ``._-``) wins. Raises :class:`BadInputError` when none matches.
    """
    stem = Path(path).name
    matches = [name for name in ARTIFACTS if re.search(rf"(^|[._-]){re.escape(name)}([._-]|$)", stem)]
    if not matches:
        raise BadInputError(
            f"{path}: cannot tell the artifact from the file name; pass --artifact (one of: {', '.join(ARTIFACTS)})"
        )
    return max(matches, key=len)


def read_capped(source: str | Path | BinaryIO, limit: int, where: str) -> bytes:
    """At most ``limit`` bytes of a file path or an open binary stream, read without trusting its size.

    Reads ``limit + 1`` bytes so that a file that grew after a size check, or a stream, is still bounded.
    Raises :class:`BadInputError` ``"<where>: over the <limit>-byte limit"`` when there is more, and
    ``"<where>: cannot read (<reason>)"`` when the file cannot be opened or read.
    """
    try:
        if isinstance(source, str | Path):
            with open(source, "rb") as fh:
                data = fh.read(limit + 1)
        else:
            data = source.read(limit + 1)
    except OSError as exc:
        raise BadInputError(f"{where}: cannot read ({exc.strerror})") from None
    if len(data) > limit:
        raise BadInputError(f"{where}: over the {limit}-byte limit")
    return data


def load_document(path: str | Path) -> Any:
    """Parse ``path`` as JSON (``.json``), YAML (``.yaml``/``.yml``) or TOML (``.toml``); anything else:
    JSON, then YAML.

    Raises :class:`BadInputError` (one line naming the file and the position) when the file is
    missing, larger than :data:`MAX_DOCUMENT_BYTES`, not UTF-8, or not valid JSON/YAML.
    """
    p = Path(path)
    try:
        size = p.stat().st_size
    except FileNotFoundError:
        raise BadInputError(f"{p}: no such file") from None
    except OSError as exc:
        raise BadInputError(f"{p}: cannot read ({exc.strerror})") from None
    if not p.is_file():
        raise BadInputError(f"{p}: not a regular file")
    if size > MAX_DOCUMENT_BYTES:
        raise BadInputError(f"{p}: {size} bytes, over the {MAX_DOCUMENT_BYTES}-byte limit for an artifact")
    data = read_capped(p, MAX_DOCUMENT_BYTES, str(p))  # bounded again: the file may grow after stat()
    try:
        text = data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        raise BadInputError(f"{p}: not UTF-8 text (byte {exc.start})") from None
    return parse_document(text, str(p), fmt=_format_of(p))


def parse_document(text: str, where: str, fmt: str = "auto") -> Any:
    """Parse ``text`` as ``fmt`` (``json``, ``yaml``, ``auto``: JSON, then YAML, ``toml``: see
    :func:`parse_toml`, or ``workflow``: YAML read as GitHub reads a workflow file, where only
    ``true``/``false`` are booleans, so ``on:`` is the string key ``"on"``, per YAML 1.2's core schema);
    ``where`` names it in errors.

    Bounded before anything is expanded: a YAML document is composed into its node graph first (aliases
    are shared nodes there, not copies) and refused when the graph, with every alias expanded, would hold
    more than :data:`MAX_NODES` nodes, when it uses more than :data:`MAX_ALIASES` aliases, or when an
    alias refers to itself; only then is it constructed. Mapping keys must be strings (YAML ``{1.5: 3}``,
    ``null:`` or ``true:`` keys are refused) and unique (a duplicate key in JSON or YAML is refused).
    An integer of more than :data:`MAX_INT_DIGITS` digits is refused in every format (the standard
    library's JSON reader raises a bare ``ValueError`` for it), and so is a string that is not Unicode text
    (a lone surrogate escape such as ``"\\ud800"``: nothing holding it can be written as UTF-8).
    Raises :class:`BadInputError` (one line naming ``where``) for all of these and for malformed text.
    """
    if fmt == "toml":  # an empty TOML document is an empty table (tomllib refuses surrogate escapes itself)
        return parse_toml(text, where)
    if not text.strip():
        raise BadInputError(f"{where}: empty document")
    return _check_unicode(_parse(text, where, fmt), text, where)


def _check_unicode(document: Any, text: str, where: str) -> Any:
    """``document`` (parsed from ``text``) when every string in it (keys too) is Unicode text; a lone
    surrogate (JSON ``"\\ud800"``, YAML ``"\\ud800"``: valid syntax, not text; RFC 7493 I-JSON forbids it)
    is refused, since nothing read can then be written or printed as UTF-8. Only a text that is not UTF-8
    itself or spells an escape (``\\u``, ``\\U``) can hold one; then the document is walked to name the path."""
    if is_text(text) and "\\u" not in text and "\\U" not in text:
        return document
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(document, ())]
    while stack:
        value, path = stack.pop()
        items: Iterable[tuple[str | int, Any]] = ()
        if isinstance(value, dict):
            for key in value:
                if isinstance(key, str) and not is_text(key):
                    raise BadInputError(f"{where}: {json_path(path)}: a key that is not Unicode text")
            items = value.items()
        elif isinstance(value, list):
            items = enumerate(value)
        elif isinstance(value, str) and not is_text(value):
            raise BadInputError(
                f"{where}: {json_path(path)}: a string that is not Unicode text (lone surrogate)"
            )
        stack.extend((child, (*path, key)) for key, child in items)
    return document


def _parse(text: str, where: str, fmt: str) -> Any:
    if fmt in ("json", "auto"):
        try:
            return json.loads(text, object_pairs_hook=_unique_pairs(where), parse_int=_bounded_int(where))
        except json.JSONDecodeError as exc:
            if fmt == "json":
                raise BadInputError(
                    f"{where}: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
                ) from None
        except RecursionError:
            raise BadInputError(f"{where}: JSON nested too deeply") from None
        except ValueError as exc:  # anything else the standard library's reader raises (never a traceback)
            raise BadInputError(f"{where}: invalid JSON: {_first_line(exc)}") from None
    return _parse_yaml(text, where, _WorkflowLoader if fmt == "workflow" else _BoundedLoader)


def parse_toml(text: str, where: str) -> dict[str, Any]:
    """Parse ``text`` as TOML (:mod:`tomllib`); ``where`` names it in errors.

    An integer of more than :data:`MAX_INT_DIGITS` digits (the standard library raises ``ValueError``, not
    ``TOMLDecodeError``) and arrays or tables nested past the interpreter's recursion limit (e.g. 20,000
    nested arrays: ``RecursionError``) are refused like malformed text. Raises :class:`BadInputError` (one
    line naming ``where``) for all of them.
    """
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise BadInputError(f"{where}: invalid TOML: {_first_line(exc)}") from None
    except RecursionError:
        raise BadInputError(f"{where}: TOML nested too deeply") from None
    except ValueError as exc:
        raise BadInputError(f"{where}: invalid TOML: {_first_line(exc)}") from None


def _first_line(exc: Exception) -> str:
    """The first line of ``exc``'s message, at most :data:`_MESSAGE_CHARS` characters."""
    text = str(exc).splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text if len(text) <= _MESSAGE_CHARS else text[: _MESSAGE_CHARS - 3] + "..."


def _bounded_int(where: str) -> Any:
    """``parse_int`` hook of the JSON reader: ``int(digits)``, refusing more than :data:`MAX_INT_DIGITS`
    digits with one line (the standard library would raise a bare ``ValueError``)."""

    def convert(digits: str) -> int:
        count = len(digits.lstrip("-"))
        if count > MAX_INT_DIGITS:
            raise BadInputError(f"{where}: an integer of {count} digits (limit {MAX_INT_DIGITS})")
        return int(digits)

    return convert


MAX_NODES = 100_000  # nodes of a document with every alias expanded; an artifact has a few hundred
MAX_ALIASES = 1_000  # alias uses (``*name``) in one document
MAX_DEPTH = 200  # nesting of collections


def _unique_pairs(where: str) -> Any:
    def hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in pairs:
            if key in out:
                raise BadInputError(f"{where}: duplicate key {_short(key)} in a JSON object")
            out[key] = value
        return out

    return hook


class _BoundedLoader(yaml.SafeLoader):
    """SafeLoader that counts alias uses while composing (before any construction)."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.alias_uses = 0

    def compose_node(self, parent: Any, index: Any) -> Any:  # noqa: D401 - PyYAML hook
        if self.check_event(yaml.AliasEvent):
            self.alias_uses += 1
            if self.alias_uses > MAX_ALIASES:
                raise _Refused(f"more than {MAX_ALIASES} aliases")
        return super().compose_node(parent, index)


class _WorkflowLoader(_BoundedLoader):
    """:class:`_BoundedLoader` with YAML 1.2's booleans (``true``/``false`` only): ``on``, ``yes``, ``off``
    stay strings, as in GitHub Actions' parser."""


_WorkflowLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:bool"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_WorkflowLoader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)


class _Refused(Exception):
    """A structural bound of :func:`parse_document` was hit."""


def _parse_yaml(text: str, where: str, loader_class: type[_BoundedLoader] = _BoundedLoader) -> Any:
    loader: _BoundedLoader | None = None
    try:
        loader = loader_class(text)  # the reader rejects control characters here already
        node = loader.get_single_node()
        if node is None:
            return None
        _check_graph(node)
        return loader.construct_document(node)
    except _Refused as exc:
        raise BadInputError(f"{where}: YAML refused (checked before expanding aliases): {exc}") from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        pos = f" at line {mark.line + 1} column {mark.column + 1}" if mark else ""
        raise BadInputError(f"{where}: invalid YAML{pos}: {exc.problem}") from None
    except (yaml.YAMLError, RecursionError, ValueError, TypeError, OverflowError) as exc:
        raise BadInputError(f"{where}: invalid YAML: {type(exc).__name__}") from None
    finally:
        if loader is not None:
            loader.dispose()


def _check_graph(root: yaml.Node) -> None:
    """Refuse ``root`` when its expanded size exceeds :data:`MAX_NODES`, it is cyclic or too deep, or a
    mapping has a non-string or duplicate key. Linear in the number of distinct nodes (sizes memoised)."""
    size: dict[int, int] = {}
    active: set[int] = set()

    def visit(node: yaml.Node, depth: int) -> int:
        key = id(node)
        if key in size:
            return size[key]
        if key in active:
            raise _Refused("an alias refers to a node that contains it (a cycle)")
        if depth > MAX_DEPTH:
            raise _Refused(f"nested deeper than {MAX_DEPTH} levels")
        total = 1
        if (
            isinstance(node, yaml.ScalarNode)
            and node.tag == "tag:yaml.org,2002:int"
            and len(node.value) > MAX_INT_DIGITS
        ):
            line = node.start_mark.line + 1 if node.start_mark else 0
            raise _Refused(
                f"an integer of {len(node.value)} characters at line {line} (limit {MAX_INT_DIGITS})"
            )
        if isinstance(node, yaml.SequenceNode | yaml.MappingNode):
            active.add(key)
            children: list[yaml.Node] = []
            if isinstance(node, yaml.MappingNode):
                seen: set[str] = set()
                for k, v in node.value:
                    if k.tag == "tag:yaml.org,2002:merge":
                        children.append(v)
                        continue
                    if not isinstance(k, yaml.ScalarNode) or k.tag != "tag:yaml.org,2002:str":
                        line = k.start_mark.line + 1 if k.start_mark else 0
                        raise _Refused(f"mapping key at line {line} is not a string ({_tag_name(k)})")
                    if k.value in seen:
                        raise _Refused(f"duplicate key {_short(k.value)} at line {k.start_mark.line + 1}")
                    seen.add(k.value)
                    children.append(v)
            else:
                children = list(node.value)
            for child in children:
                total += visit(child, depth + 1)
                if total > MAX_NODES:
                    raise _Refused(f"over {MAX_NODES} nodes once aliases are expanded")
            active.discard(key)
        size[key] = total
        return total

    visit(root, 0)


def _tag_name(node: yaml.Node) -> str:
    if not isinstance(node, yaml.ScalarNode):
        return "a collection"
    return node.tag.rsplit(":", 1)[-1]


def validate_document(document: Any, artifact: str) -> list[Violation]:
    """Every violation of ``document`` against the contract of ``artifact``, sorted by path.

    Returns ``[]`` when valid. Raises :class:`BadInputError` for an unknown artifact name.
    """
    get_artifact(artifact)
    return violations(_validator(artifact), document)


def violations(validator: Draft202012Validator, document: Any) -> list[Violation]:
    """Every violation of ``document`` under ``validator`` (any schema, e.g. an upstream one), sorted."""
    return sorted(
        {Violation(json_path(e.absolute_path), _message(e)) for e in validator.iter_errors(document)}
    )


def check_document(document: Any, artifact: str, where: str) -> None:
    """Raise :class:`BadInputError` with the first violation (``where: $.path: message``) if invalid."""
    problems = validate_document(document, artifact)
    if problems:
        more = f" (+{len(problems) - 1} more)" if len(problems) > 1 else ""
        raise BadInputError(f"{where}: not a valid {artifact}: {problems[0]}{more}")


def check_produced(document: Any, artifact: str) -> None:
    """Raise ``ValueError`` (``<artifact>: producer wrote an invalid document: $.path: message``) when a
    document quarkci produced breaks its contract: a bug in the producer, never bad input."""
    problems = validate_document(document, artifact)
    if problems:
        raise ValueError(f"{artifact}: producer wrote an invalid document: {problems[0]}")


@cache
def _validator(artifact: str) -> Draft202012Validator:
    schema = load_schema(artifact)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(inline_refs(schema))


def inline_refs(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with each bare local reference (``{"$ref": "#/$defs/NAME"}``) replaced by its
    definition: the same constraints without a reference lookup per instance (a 2 MiB skill can carry
    200,000 findings, each checked against the report's finding definition: issue 24). A definition that
    refers back to itself keeps its reference; ``$defs`` stays for those."""
    defs = schema.get("$defs", {})

    def expand(node: Any, seen: tuple[str, ...]) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if len(node) == 1 and isinstance(ref, str) and ref.startswith("#/$defs/"):
                name = ref.removeprefix("#/$defs/")
                if name in defs and name not in seen:
                    return expand(defs[name], (*seen, name))
                return node
            return {k: v if k == "$defs" else expand(v, seen) for k, v in node.items()}
        if isinstance(node, list):
            return [expand(v, seen) for v in node]
        return node

    expanded: dict[str, Any] = expand(schema, ())
    return expanded


def _format_of(path: Path) -> str:
    suffix = path.suffix.lower()
    if suffix == ".json":
        return "json"
    if suffix in (".yaml", ".yml"):
        return "yaml"
    if suffix == ".toml":
        return "toml"
    return "auto"


def _message(error: ValidationError) -> str:
    """A short message that never echoes a huge instance value."""
    if error.schema is False or (error.validator == "not" and error.validator_value == {}):
        return "field not allowed in this artifact"
    if error.validator == "required":
        named = _REQUIRED.match(error.message)
        if named:
            return f"missing required field {named.group(1)!r}"
    if error.validator == "type":
        return f"expected {_types(error.validator_value)}, got {_type_name(error.instance)}"
    if error.validator == "enum":
        return f"{_short(error.instance)} is not one of {', '.join(map(repr, error.validator_value))}"  # type: ignore[arg-type]  # an enum's value is a list
    if error.validator == "const":
        return f"must be {error.validator_value!r}, got {_short(error.instance)}"
    if error.validator == "additionalProperties" and error.validator_value is False:
        return (
            error.message if len(error.message) <= _MESSAGE_CHARS else "unexpected field(s) not allowed here"
        )
    message = error.message
    return message if len(message) <= _MESSAGE_CHARS else message[: _MESSAGE_CHARS - 3] + "..."


def _types(value: Any) -> str:
    return " or ".join(value) if isinstance(value, list) else str(value)


def _type_name(value: Any) -> str:
    return {
        dict: "object",
        list: "array",
        str: "string",
        bool: "boolean",
        type(None): "null",
        int: "integer",
        float: "number",
    }.get(type(value), type(value).__name__)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


# --- the one JSON serialisation and the one artifact writer/reader -----------------------------------


def dump_json(document: Any, *, ascii_only: bool = False) -> str:
    """The one JSON text form quarkci writes: keys sorted, 2-space indent, trailing newline.

    Deterministic (same document -> same bytes). ``ascii_only`` escapes non-ASCII characters (for
    outputs that end up in logs). Raises ``TypeError`` for values JSON cannot represent.
    """
    return json.dumps(document, sort_keys=True, indent=2, ensure_ascii=ascii_only) + "\n"


def write_json_streamed(
    out: TextIO, document: dict[str, Any], key: str, items: Iterable[Any], *, ascii_only: bool = True
) -> None:
    """Write ``json.dumps({**document, key: list(items)}, sort_keys=True, indent=2,
    ensure_ascii=ascii_only)`` to ``out``, byte for byte, encoding one item of ``items`` at a time.

    For a list too large to hold twice (as objects and as one string): the peak memory is one item's
    text, not the document's. ``document`` holds the other top-level keys (small values). Raises
    ``TypeError`` for values JSON cannot represent (after the items before it were written).
    """
    marker = "\x00quarkci-stream-" + secrets.token_hex(8)
    head = json.dumps({**document, key: [marker]}, sort_keys=True, indent=2, ensure_ascii=ascii_only)
    slot = "[\n    " + json.dumps(marker, ensure_ascii=ascii_only) + "\n  ]"
    if head.count(slot) != 1:  # the marker text occurs in a value: no splice point; encode in one piece
        out.write(
            json.dumps({**document, key: list(items)}, sort_keys=True, indent=2, ensure_ascii=ascii_only)
        )
        return
    before, after = head.split(slot)
    out.write(before)
    empty = True
    for item in items:
        text = json.dumps(item, sort_keys=True, indent=2, ensure_ascii=ascii_only)
        out.write(("[\n    " if empty else ",\n    ") + text.replace("\n", "\n    "))
        empty = False
    out.write("[]" if empty else "\n  ]")
    out.write(after)


def write_artifact(contract: str, path: str | Path, document: Any) -> Path:
    """Write ``document`` as artifact ``contract`` (a name in :data:`quarkci.core.artifacts.ARTIFACTS`).

    The one way an artifact reaches disk: the document is checked against the contract's JSON
    Schema first (an invalid document is a bug in its producer: ``ValueError``, nothing written),
    then serialised in the artifact's format (JSON via :func:`dump_json`, YAML in block style with
    the producer's key order) and written atomically. Returns the written path.

    Raises :class:`BadInputError` for an unknown contract name, ``ValueError`` for an invalid
    document, ``OSError`` when the directory cannot be written (the old file is left untouched).
    """
    artifact = get_artifact(contract)
    check_produced(document, contract)
    if artifact.fmt == "yaml":
        text = yaml.safe_dump(document, sort_keys=False, default_flow_style=False, width=1000)
    else:
        text = dump_json(document)
    return atomic_write_text(path, text)


def write_artifact_text(contract: str, path: str | Path, text: str) -> Path:
    """Write a rendered twin of artifact ``contract`` (e.g. ``validation_report.md``) atomically.

    The file name must be one of the artifact's registered file names (:attr:`Artifact.filenames`),
    so every file of an artifact still has one producer. Raises ``ValueError`` otherwise.
    """
    artifact = get_artifact(contract)
    if Path(path).name not in artifact.filenames:
        raise ValueError(f"{contract}: {Path(path).name!r} is not one of its file names {artifact.filenames}")
    return atomic_write_text(path, text)


def read_artifact(contract: str, path: str | Path) -> Any:
    """Load ``path`` with :func:`load_document` and check it against artifact ``contract``.

    Returns the parsed document. Raises :class:`BadInputError` (one line: file, JSON path, message)
    when the file is unreadable, too large, malformed or violates the contract.
    """
    document = load_document(path)
    check_document(document, contract, str(path))
    return document
