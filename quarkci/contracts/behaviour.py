"""Compare two JSON Schemas by behaviour: generate documents from each side and validate them on the other.

:func:`documents` builds, from one schema, a minimal document (required fields only) and variants that
change one field at a time (every optional field present, every enum/const value, each type of a type
union, boundary values: empty and minimum-length strings, empty arrays, 0/-1/limits for numbers), nested
objects varied the same way, plus the schema's own ``examples``. Only documents the generating schema
itself accepts are kept, so conditional requirements (``if``/``then``), minimum lengths and patterns
are honoured by construction.

:func:`compare` validates each side's documents against the other and returns the disagreements grouped
by the field (JSON path) the rejecting side names. Deterministic; bounded (:data:`MAX_DOCUMENTS`).

A schema node is open JSON: it is typed ``Mapping[str, object]`` and every keyword read is narrowed
with ``isinstance`` where it is used (a keyword of the wrong JSON type is treated as absent). Generated
documents are JSON values (``object``); a generated object is a ``dict[str, object]``.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass

from jsonschema import Draft202012Validator

from quarkci.core.documents import Violation, violations

MAX_DOCUMENTS = 600  # per schema
_STRINGS = ("x", "quark-torch-ptq", "1.0", "0.13", "2026-01-01T00:00:00Z", "/tmp/x", "a-b", "0", "fp8", "abc")


@dataclass(frozen=True)
class Disagreement:
    """A document ``accepted_by`` one side that the other side rejects at ``path`` with ``message``."""

    path: str
    message: str
    document: object
    accepted_by: str  # "ours" | "upstream"


def resolve_ref(node: object, root: Mapping[str, object]) -> object:
    """Follow a local ``$ref`` (``#/$defs/x``) of schema ``root``, at most 20 hops; other refs are left as
    they are. Returns the node reached (any JSON value: a node that is not an object is returned as is)."""
    seen = 0
    while (current := as_node(node)) is not None and seen < 20:
        ref = current.get("$ref")
        if not (isinstance(ref, str) and ref.startswith("#/")):
            break
        target: object = root
        for part in ref[2:].split("/"):
            target = target.get(part) if isinstance(target, dict) else None
        if target is None:
            break
        node, seen = target, seen + 1
    return node


def as_node(value: object) -> Mapping[str, object] | None:
    """``value`` as a schema node when it is a JSON object, else None."""
    return value if isinstance(value, dict) else None


def _list(node: Mapping[str, object], key: str) -> list[object]:
    """``node[key]`` when it is a JSON array, else ``[]``."""
    value = node.get(key)
    return value if isinstance(value, list) else []


def _object(node: Mapping[str, object], key: str) -> Mapping[str, object]:
    """``node[key]`` when it is a JSON object, else ``{}``."""
    value = node.get(key)
    return value if isinstance(value, dict) else {}


def _int(node: Mapping[str, object], key: str) -> int:
    """``node[key]`` when it is an integer, else 0."""
    value = node.get(key)
    return value if isinstance(value, int) else 0


def _types(node: Mapping[str, object]) -> list[str]:
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


def values(node: object, root: Mapping[str, object], depth: int = 0) -> list[object]:
    """Candidate values (JSON values) for schema ``node`` of schema ``root``: the first is the simplest
    valid-looking one. ``[None]`` for a node that is not an object or deeper than 6 levels."""
    schema = as_node(resolve_ref(node, root))
    if schema is None or depth > 6:
        return [None]
    out: list[object] = []
    if "const" in schema:
        out.append(schema["const"])
    out.extend(_list(schema, "enum"))
    out.extend(_list(schema, "examples"))
    if isinstance(schema.get("anyOf", []), list):
        for option in [*_list(schema, "anyOf"), *_list(schema, "oneOf")]:
            out.extend(values(option, root, depth + 1)[:2])
    if out and ("const" in schema or "enum" in schema):
        return _dedupe(out)
    for kind in _types(schema):
        out.extend(_typed(kind, schema, root, depth))
    return _dedupe(out) or [None]


def _typed(kind: str, node: Mapping[str, object], root: Mapping[str, object], depth: int) -> list[object]:
    if kind == "null":
        return [None]
    if kind == "boolean":
        return [True, False]
    if kind in ("integer", "number"):
        low, high = node.get("minimum"), node.get("maximum")
        nums: list[object] = [*(n for n in (low, high) if isinstance(n, int | float)), 0, 1, -1]
        if kind == "number":
            nums.append(0.5)
        return nums
    if kind == "string":
        lo = _int(node, "minLength")
        pattern = node.get("pattern")
        pool = [*_STRINGS, "", "x" * max(lo, 1)]
        if isinstance(pattern, str):
            try:
                rx = re.compile(pattern)
                pool = [s for s in pool if rx.search(s)] or pool
            except re.error:
                pass
        strings = sorted(set(pool), key=lambda s: (s != "x", len(s), s))
        return [*strings]
    if kind == "array":
        item = values(node.get("items", {}), root, depth + 1)
        n = _int(node, "minItems")
        return [[item[0]] * max(n, 1), [], *([[v] for v in item[1:3]])]
    if kind == "object":
        return [*objects(node, root, depth)[:8]]
    return [None]


def objects(
    node: Mapping[str, object], root: Mapping[str, object], depth: int = 0
) -> list[dict[str, object]]:
    """The minimal object for schema ``node`` (its required fields) and variants changing one field
    (recursively) at a time."""
    props = _object(node, "properties")
    required = [k for k in _list(node, "required") if isinstance(k, str)]
    base: dict[str, object] = {}
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


def _dedupe(items: list[object]) -> list[object]:
    seen: set[str] = set()
    out: list[object] = []
    for item in items:
        key = json.dumps(item, sort_keys=True, default=str)
        if key not in seen:
            seen.add(key)
            out.append(item)
    return out


def documents(schema: Mapping[str, object]) -> list[object]:
    """Documents ``schema`` accepts, generated from it (see the module docstring); at most MAX_DOCUMENTS."""
    validator = Draft202012Validator(schema)
    top: list[object] = [*objects(schema, schema)] if "object" in _types(schema) else values(schema, schema)
    candidates = _dedupe([*top, *_list(schema, "examples")])[: MAX_DOCUMENTS * 2]
    return [d for d in candidates if validator.is_valid(d)][:MAX_DOCUMENTS]


def foreign_keys(source: Mapping[str, object], other: Mapping[str, object]) -> list[dict[str, object]]:
    """Documents of ``source`` carrying, one at a time, a top-level field only ``other`` names (``hardware``
    in a session_context): what an open ``source`` accepts and a stricter ``other`` may forbid."""
    validator = Draft202012Validator(source)
    base = documents(source)[:1]
    if not base or not isinstance(base[0], dict):
        return []
    theirs, ours = _object(other, "properties"), _object(source, "properties")
    out = []
    for key in sorted(set(theirs) - set(ours)):
        candidates: list[object] = ["x", 1, {"x": 1}, True]
        for value in candidates:
            doc = {**base[0], key: value}
            if validator.is_valid(doc):
                out.append(doc)
                break
    return out


def compare(ours: Mapping[str, object], upstream: Mapping[str, object]) -> list[Disagreement]:
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


def node_at(schema: Mapping[str, object], path: str) -> list[Mapping[str, object]]:
    """The schema nodes along JSON path ``path`` (``$.a[0].b``), root first; stops where the path leaves
    the schema's ``properties``/``items``."""
    nodes = [schema]
    node: object = schema
    for part in re.findall(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+|\"(?:[^\"\\]|\\.)*\")\]", path):
        key = part[0] or part[1]
        here = as_node(resolve_ref(node, schema))
        if here is None:
            break
        if key.isdigit():
            node = here.get("items")
        else:
            name = json.loads(key) if key.startswith('"') else key
            node = _object(here, "properties").get(name)
        reached = as_node(resolve_ref(node, schema))
        if reached is None:
            break
        nodes.append(reached)
    return nodes
