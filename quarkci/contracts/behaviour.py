"""Compare two JSON Schemas by behaviour: generate documents from each side and validate them on the other.

:func:`documents` builds, from one schema, a minimal document (required fields only) and variants that
change one field at a time (every optional field present, every enum/const value, each type of a type
union, boundary values: empty and minimum-length strings, empty arrays, 0/-1/limits for numbers), nested
objects varied the same way, plus the schema's own ``examples``. Only documents the generating schema
itself accepts are kept, so conditional requirements (``if``/``then``), minimum lengths and patterns
are honoured by construction.

:func:`compare` validates each side's documents against the other and returns the disagreements grouped
by the field (JSON path) the rejecting side names. Deterministic; bounded (:data:`MAX_DOCUMENTS`).
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass
from typing import Any

from jsonschema import Draft202012Validator

from quarkci.core.documents import Violation, violations

MAX_DOCUMENTS = 600  # per schema
_STRINGS = ("x", "quark-torch-ptq", "1.0", "0.13", "2026-01-01T00:00:00Z", "/tmp/x", "a-b", "0", "fp8", "abc")


@dataclass(frozen=True)
class Disagreement:
    """A document ``accepted_by`` one side that the other side rejects at ``path`` with ``message``."""

    path: str
    message: str
    document: Any
    accepted_by: str  # "ours" | "upstream"


def resolve_ref(node: Any, root: dict[str, Any]) -> Any:
    """Follow a local ``$ref`` (``#/$defs/x``) of schema ``root``, at most 20 hops; other refs are left as
    they are. Returns the node reached."""
    seen = 0
    while (
        isinstance(node, dict)
        and isinstance(node.get("$ref"), str)
        and node["$ref"].startswith("#/")
        and seen < 20
    ):
        target: Any = root
        for part in node["$ref"][2:].split("/"):
            target = target.get(part) if isinstance(target, dict) else None
        if target is None:
            break
        node, seen = target, seen + 1
    return node


def _types(node: dict[str, Any]) -> list[str]:
    declared = node.get("type")
    if isinstance(declared, str):
        return [declared]
    if isinstance(declared, list):
        return [t for t in declared if isinstance(t, str)]
    if "properties" in node or "required" in node:
        return ["object"]
    if "items" in node:
        return ["array"]
    return ["string"]


def values(node: Any, root: dict[str, Any], depth: int = 0) -> list[Any]:
    """Candidate values for schema ``node``: the first is the simplest valid-looking one."""
    node = resolve_ref(node, root)
    if not isinstance(node, dict) or depth > 6:
        return [None]
    out: list[Any] = []
    if "const" in node:
        out.append(node["const"])
    if isinstance(node.get("enum"), list):
        out.extend(node["enum"])
    if isinstance(node.get("examples"), list):
        out.extend(node["examples"])
    for option in (
        node.get("anyOf", []) + node.get("oneOf", []) if isinstance(node.get("anyOf", []), list) else []
    ):
        out.extend(values(option, root, depth + 1)[:2])
    if out and ("const" in node or "enum" in node):
        return _dedupe(out)
    for kind in _types(node):
        out.extend(_typed(kind, node, root, depth))
    return _dedupe(out) or [None]


def _typed(kind: str, node: dict[str, Any], root: dict[str, Any], depth: int) -> list[Any]:
    if kind == "null":
        return [None]
    if kind == "boolean":
        return [True, False]
    if kind in ("integer", "number"):
        low, high = node.get("minimum"), node.get("maximum")
        nums: list[Any] = [n for n in (low, high) if isinstance(n, int | float)] + [0, 1, -1]
        if kind == "number":
            nums.append(0.5)
        return nums
    if kind == "string":
        lo = node.get("minLength", 0) if isinstance(node.get("minLength"), int) else 0
        pattern = node.get("pattern")
        pool = [*_STRINGS, "", "x" * max(lo, 1)]
        if isinstance(pattern, str):
            try:
                rx = re.compile(pattern)
                pool = [s for s in pool if rx.search(s)] or pool
            except re.error:
                pass
        return sorted(set(pool), key=lambda s: (s != "x", len(s), s))
    if kind == "array":
        item = values(node.get("items", {}), root, depth + 1)
        n = node.get("minItems", 0) if isinstance(node.get("minItems"), int) else 0
        return [[item[0]] * max(n, 1), [], *([[v] for v in item[1:3]])]
    if kind == "object":
        return objects(node, root, depth)[:8]
    return [None]


def objects(node: dict[str, Any], root: dict[str, Any], depth: int = 0) -> list[dict[str, Any]]:
    """The minimal object for ``node`` and variants changing one field (recursively) at a time."""
    props = node.get("properties", {}) if isinstance(node.get("properties"), dict) else {}
    required = [k for k in node.get("required", []) if isinstance(k, str)]
    base: dict[str, Any] = {}
    for key in required:
        base[key] = values(props.get(key, {}), root, depth + 1)[0]
    out = [base]
    for key in sorted(set(props) | set(required)):
        for value in values(props.get(key, {}), root, depth + 1)[: 12 if depth == 0 else 4]:
            variant = copy.deepcopy(base)
            variant[key] = value
            out.append(variant)
        if key in required:
            without = {k: v for k, v in base.items() if k != key}
            out.append(without)
    if node.get("additionalProperties") is not False:
        out.append({**base, "x_extra_field": "x"})
    return out


def _dedupe(items: list[Any]) -> list[Any]:
    seen, out = set(), []
    for item in items:
        key = json.dumps(item, sort_keys=True, default=str)
        if key not in seen:
            seen.add(key)
            out.append(item)
    return out


def documents(schema: dict[str, Any]) -> list[Any]:
    """Documents ``schema`` accepts, generated from it (see the module docstring); at most MAX_DOCUMENTS."""
    validator = Draft202012Validator(schema)
    top = objects(schema, schema) if "object" in _types(schema) else values(schema, schema)
    candidates = _dedupe([*top, *(schema.get("examples") or [])])[: MAX_DOCUMENTS * 2]
    return [d for d in candidates if validator.is_valid(d)][:MAX_DOCUMENTS]


def foreign_keys(source: dict[str, Any], other: dict[str, Any]) -> list[dict[str, Any]]:
    """Documents of ``source`` carrying, one at a time, a top-level field only ``other`` names (``hardware``
    in a session_context): what an open ``source`` accepts and a stricter ``other`` may forbid."""
    validator = Draft202012Validator(source)
    base = documents(source)[:1]
    if not base or not isinstance(base[0], dict):
        return []
    theirs = other.get("properties", {}) if isinstance(other.get("properties"), dict) else {}
    ours = source.get("properties", {}) if isinstance(source.get("properties"), dict) else {}
    out = []
    for key in sorted(set(theirs) - set(ours)):
        for value in ["x", 1, {"x": 1}, True]:
            doc = {**base[0], key: value}
            if validator.is_valid(doc):
                out.append(doc)
                break
    return out


def compare(ours: dict[str, Any], upstream: dict[str, Any]) -> list[Disagreement]:
    """Documents one side generates and accepts that the other rejects, one per (side, path), sorted."""
    found: dict[tuple[str, str], Disagreement] = {}
    for side, source, other in (("upstream", upstream, ours), ("ours", ours, upstream)):
        judge = Draft202012Validator(other)
        for doc in documents(source) + foreign_keys(source, other):
            problems: list[Violation] = violations(judge, doc)
            for problem in problems:
                key = (side, problem.path)
                if key not in found:
                    found[key] = Disagreement(problem.path, problem.message, doc, side)
    return sorted(found.values(), key=lambda d: (d.accepted_by, d.path))


def node_at(schema: dict[str, Any], path: str) -> list[dict[str, Any]]:
    """The schema nodes along JSON path ``path`` (``$.a[0].b``), root first; stops where the path leaves
    the schema's ``properties``/``items``."""
    nodes = [schema]
    node: Any = schema
    for part in re.findall(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+|\"(?:[^\"\\]|\\.)*\")\]", path):
        key = part[0] or part[1]
        node = resolve_ref(node, schema)
        if not isinstance(node, dict):
            break
        if key.isdigit():
            node = node.get("items")
        else:
            name = json.loads(key) if key.startswith('"') else key
            props = node.get("properties", {})
            node = props.get(name) if isinstance(props, dict) else None
        node = resolve_ref(node, schema)
        if not isinstance(node, dict):
            break
        nodes.append(node)
    return nodes
