"""SKILL.md frontmatter: split the YAML block from the Markdown body and parse it with the one bounded loader.

The block goes through :func:`quarkci.core.documents.parse_document` (PyYAML ``SafeLoader``, alias and
node counts bounded before anything is expanded, duplicate and non-string keys refused); the file size
is already capped by :mod:`quarkci.skills.source`. Problems are returned as :class:`FrontmatterError`
(raised here, caught by discovery and stored as ``Skill.error``); nothing in a skill is ever executed.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import PurePosixPath, PureWindowsPath
from typing import Any

import yaml

from quarkci.core.documents import parse_document
from quarkci.core.errors import BadInputError
from quarkci.skills.model import Repair

_FENCE = "---"
_END_MARKERS = ("---", "...")


class FrontmatterError(ValueError):
    """Malformed or missing frontmatter, or an invalid field; the message names the field and line."""


@dataclass(frozen=True)
class Frontmatter:
    """Parsed frontmatter. ``body_line`` is the 1-based SKILL.md line where the body starts;
    ``repairs`` are the entries read leniently (empty when the block is YAML as written)."""

    data: dict[str, Any]
    body: str
    body_line: int
    source_knowledge: tuple[str, ...]
    source_knowledge_lines: tuple[int, ...]
    repairs: tuple[Repair, ...] = ()


def split(text: str) -> tuple[str, str, int]:
    """Split ``text`` into (yaml_text, body, body_line).

    The YAML block is lines 2..n-1 between a first line ``---`` and the next ``---``/``...`` line.
    Raises :class:`FrontmatterError` when the first line is not ``---`` or the block is unterminated.
    """
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].rstrip() != _FENCE:
        raise FrontmatterError("missing YAML frontmatter (first line must be '---')")
    for index in range(1, len(lines)):
        if lines[index].rstrip() in _END_MARKERS:
            return "".join(lines[1:index]), "".join(lines[index + 1 :]), index + 2
    raise FrontmatterError("unterminated YAML frontmatter (no closing '---')")


def parse(text: str) -> Frontmatter:
    """Parse a SKILL.md's frontmatter and validate ``source_knowledge``.

    ``source_knowledge`` is optional; when present it must be a list of repository-relative POSIX
    paths: no absolute path, no drive letter, no ``..`` segment, no backslash. Raises
    :class:`FrontmatterError` naming the field, the entry and its SKILL.md line.
    """
    yaml_text, body, body_line = split(text)
    try:
        data = _bounded_load(yaml_text)
        repairs: tuple[Repair, ...] = ()
    except FrontmatterError as exc:
        repairs = _repairs(yaml_text, str(exc))
        if not repairs:
            raise
        yaml_text = _repaired(yaml_text, repairs)
        data = _bounded_load(yaml_text)  # the repaired block must be YAML: else the error stands
    root = yaml.compose(yaml_text, Loader=yaml.SafeLoader)  # bounded above; composing expands no alias
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise FrontmatterError(f"frontmatter must be a mapping, not {type(data).__name__}")
    paths, lines = _source_knowledge(data, root)
    return Frontmatter(data, body, body_line, paths, lines, repairs)


# A top-level entry on one line: ``key: value`` (the key a plain word, the value not starting a YAML
# block, flow collection, quote, anchor, alias or tag: those are YAML on purpose, never re-read).
_ENTRY = re.compile(r"^([A-Za-z_][\w.-]*):[ \t]+([^\s\"'|>\[{&*!#%@`].*?)[ \t]*$")


def _repairs(yaml_text: str, reason: str) -> tuple[Repair, ...]:
    """The one-line entries of a malformed block that strict YAML refuses alone but reads once quoted
    (a description holding ``: ``, a value holding `` #``): maintainers write these often, and agent
    runtimes differ on them. Empty unless the block is malformed YAML (a bound error is never
    repaired) and every entry the loader refuses is such a line. Multi-line values are left alone."""
    if not reason.startswith("malformed YAML"):
        return ()
    out: list[Repair] = []
    for index, line in enumerate(yaml_text.splitlines()):
        match = _ENTRY.match(line)
        if match is None or _reads_alone(line):
            continue
        key, value = match.group(1), match.group(2)
        new = f"{key}: {json.dumps(value, ensure_ascii=False)}"
        out.append(Repair(index + 2, key, value, line, new, reason.removeprefix("malformed YAML")))
    return tuple(out)


def _reads_alone(line: str) -> bool:
    """True when the one-line entry alone is YAML (``a: b: c`` is not): only entries the loader
    refuses are re-read, so no valid entry changes meaning."""
    try:
        loaded = yaml.safe_load(line)  # one line of a size-capped file: bounded
    except yaml.YAMLError:
        return False
    return isinstance(loaded, dict) and len(loaded) == 1


def _repaired(yaml_text: str, repairs: tuple[Repair, ...]) -> str:
    lines = yaml_text.splitlines(keepends=True)
    for repair in repairs:
        ending = lines[repair.line - 2][len(lines[repair.line - 2].rstrip("\r\n")) :]
        lines[repair.line - 2] = repair.new + ending
    return "".join(lines)


_WHERE = "frontmatter"


def _bounded_load(yaml_text: str) -> Any:
    """The frontmatter block through the one bounded loader; its errors name SKILL.md lines.

    The block is parsed with one blank line in front, so a line the loader names is the SKILL.md line
    (line 1 is the opening ``---``). Raises :class:`FrontmatterError` for malformed YAML and for a
    block over the loader's bounds (an alias bomb, duplicate or non-string keys, nesting too deep).
    """
    if not yaml_text.strip():
        return None
    try:
        return parse_document("\n" + yaml_text, _WHERE, fmt="yaml")
    except BadInputError as exc:
        reason = str(exc).removeprefix(f"{_WHERE}: ")
        if reason.startswith("invalid YAML"):
            raise FrontmatterError(
                "malformed YAML frontmatter" + reason.removeprefix("invalid YAML")
            ) from None
        raise FrontmatterError(f"YAML frontmatter {reason.removeprefix('YAML ')}") from None


def _source_knowledge(
    data: dict[str, Any], root: yaml.Node | None
) -> tuple[tuple[str, ...], tuple[int, ...]]:
    if "source_knowledge" not in data or data["source_knowledge"] is None:
        return (), ()
    value = data["source_knowledge"]
    node = _mapping_value(root, "source_knowledge")
    field_line = node.start_mark.line + 2 if node is not None else 0
    if not isinstance(value, list) or not isinstance(node, yaml.SequenceNode):
        raise FrontmatterError(f"source_knowledge (line {field_line}): must be a list of paths")
    lines = tuple(item.start_mark.line + 2 for item in node.value)
    for index, (entry, line) in enumerate(zip(value, lines, strict=True)):
        problem = path_problem(entry)
        if problem:
            raise FrontmatterError(f"source_knowledge[{index}] (line {line}): {entry!r} {problem}")
    return tuple(value), lines


def path_problem(entry: Any) -> str | None:
    """Why ``entry`` is not a safe repository-relative path, or None when it is."""
    if not isinstance(entry, str) or not entry.strip():
        return "is not a non-empty path string"
    if "\\" in entry:
        return "contains a backslash (paths are POSIX, relative to the repository root)"
    if PurePosixPath(entry).is_absolute() or PureWindowsPath(entry).drive:
        return "is an absolute path (must be relative to the repository root)"
    if ".." in PurePosixPath(entry).parts:
        return "contains '..' (must stay inside the repository)"
    return None


def _mapping_value(root: yaml.Node | None, key: str) -> yaml.Node | None:
    if not isinstance(root, yaml.MappingNode):
        return None
    for key_node, value_node in root.value:
        if isinstance(key_node, yaml.ScalarNode) and key_node.value == key:
            node: yaml.Node = value_node
            return node
    return None
