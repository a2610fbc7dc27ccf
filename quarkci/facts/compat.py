"""Transformers and dependency constraints.

Sources:

* ``DEPRECATED_API_MAX_VERSION`` in ``quark/torch/utils/llm/compatibility.py`` (from 0.11.1): one item
  per API name, attrs ``max_version`` (the last transformers release that has it), ``package="transformers"``;
* every ``is_transformers_version_higher_or_equal("x")`` / ``is_transformers_version_lower("x")`` (or
  other ``is_transformers_version_*``) call with a literal version anywhere under ``quark/``: items named
  ``transformers>=x`` / ``transformers<x``, attrs ``function``, ``version``, ``specifier``;
* ``Requires-Dist`` entries of METADATA that carry a version specifier (wheel/installed), or the
  ``[project] dependencies`` / ``optional-dependencies`` of a checkout's ``pyproject.toml``: items named by
  the canonical package name, attrs ``specifier``, ``extra`` (None for core dependencies), ``marker``.
"""

from __future__ import annotations

import ast
import re

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name

from quarkci.facts.base import FactItem
from quarkci.facts.source import assigned_name, line_of, metadata, parse_text, project_table, read, str_const
from quarkci.upstream.base import METADATA_PATH, Snapshot

KIND = "compat"
COMPATIBILITY_PATH = "quark/torch/utils/llm/compatibility.py"
DEPRECATED_TABLE = "DEPRECATED_API_MAX_VERSION"
VERSION_CHECK_PREFIX = "is_transformers_version_"
PYPROJECT = "pyproject.toml"
# is_transformers_version_<suffix> -> the comparison it makes against its argument
_OPERATORS = {
    "higher_or_equal": ">=",
    "higher": ">",
    "greater_or_equal": ">=",
    "greater": ">",
    "lower": "<",
    "lower_or_equal": "<=",
    "less": "<",
    "less_or_equal": "<=",
    "equal": "==",
}
_EXTRA = re.compile(r"""extra\s*==\s*["']([^"']+)["']""")


def _deprecated_apis(snapshot: Snapshot) -> list[FactItem]:
    text = read(snapshot, COMPATIBILITY_PATH)
    tree = parse_text(text, COMPATIBILITY_PATH) if text is not None else None
    items: list[FactItem] = []
    for node in tree.body if tree else []:
        found = assigned_name(node)
        if found and found[0] == DEPRECATED_TABLE and isinstance(found[1], ast.Dict):
            for key, value in zip(found[1].keys, found[1].values, strict=True):
                api, version = str_const(key), str_const(value)
                if api is not None and key is not None:
                    items.append(
                        FactItem(
                            api,
                            COMPATIBILITY_PATH,
                            key.lineno,
                            {"source": DEPRECATED_TABLE, "package": "transformers", "max_version": version},
                        )
                    )
    return items


def _version_checks(snapshot: Snapshot) -> list[FactItem]:
    items: list[FactItem] = []
    for path in snapshot.files("quark/"):
        if not path.endswith(".py"):
            continue
        text = read(snapshot, path)
        if not text or VERSION_CHECK_PREFIX not in text:
            continue  # cheap text filter: parse only the few files that call the helpers
        tree = parse_text(text, path)
        for node in ast.walk(tree) if tree else []:
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            version = str_const(node.args[0])
            if not func.startswith(VERSION_CHECK_PREFIX) or version is None:
                continue
            op = _OPERATORS.get(func.removeprefix(VERSION_CHECK_PREFIX), "?")
            items.append(
                FactItem(
                    f"transformers{op}{version}",
                    path,
                    node.lineno,
                    {
                        "source": "version-check",
                        "function": func,
                        "version": version,
                        "specifier": f"{op}{version}",
                    },
                )
            )
    return items


def _requirement_item(raw: str, file: str, line: int, extra: str | None) -> FactItem | None:
    try:
        req = Requirement(raw)
    except InvalidRequirement:
        return None
    if not req.specifier:
        return None
    marker = str(req.marker) if req.marker else ""
    if extra is None and (found := _EXTRA.search(marker)):
        extra = found.group(1)
    return FactItem(
        canonicalize_name(req.name),
        file,
        line,
        {"source": "requires-dist", "specifier": str(req.specifier), "extra": extra, "marker": marker},
    )


def _pins(snapshot: Snapshot) -> list[FactItem]:
    found = metadata(snapshot)
    items: list[FactItem] = []
    if found is not None:
        for name, value, line in found[0]:
            if name.lower() == "requires-dist" and (
                item := _requirement_item(value, METADATA_PATH, line, None)
            ):
                items.append(item)
        return items
    text = read(snapshot, PYPROJECT)
    if text is None:
        return items
    project = project_table(text)
    if project is None:
        return items
    groups = [(None, project.get("dependencies", []))]
    groups += sorted((project.get("optional-dependencies") or {}).items())
    for extra, requirements in groups:
        for raw in requirements if isinstance(requirements, list) else []:
            if isinstance(raw, str) and (
                item := _requirement_item(raw, PYPROJECT, line_of(text, raw), extra)
            ):
                items.append(item)
    return items


def extract(snapshot: Snapshot) -> tuple[list[FactItem], list[str]]:
    """Compatibility items; unavailable: compatibility.py when its tree is not covered."""
    items = _deprecated_apis(snapshot) + _version_checks(snapshot) + _pins(snapshot)
    unavailable = [] if snapshot.covers(COMPATIBILITY_PATH) else [COMPATIBILITY_PATH]
    return sorted(items), sorted(unavailable)
