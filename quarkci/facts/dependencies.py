"""Dependencies: every ``Requires-Dist`` of the release (wheel/installed METADATA), or the
``[project] dependencies``/``optional-dependencies`` of a checkout's ``pyproject.toml``.

One item per requirement, named by the canonical package name (``onnxruntime``), attrs:
``extra`` (``""`` for a core dependency, else the extra's name from the marker), ``specifier``
(``""`` when unpinned), ``marker`` (the whole environment marker text) and ``requirement`` (as
written). :func:`by_extra` gives the ``{extra: {package: specifier}}`` view shown by
``quarkci facts --json`` (0.13 pins ``onnxruntime`` only in the ``cli`` extra).
"""

from __future__ import annotations

import re
from typing import Any

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name

from quarkci.facts.base import FactItem
from quarkci.facts.source import line_of, metadata, project_table, read
from quarkci.upstream.base import METADATA_PATH, Snapshot

KIND = "dependencies"
PYPROJECT = "pyproject.toml"
_EXTRA = re.compile(r"""extra\s*==\s*["']([^"']+)["']""")


def _item(raw: str, file: str, line: int, extra: str | None) -> FactItem | None:
    try:
        req = Requirement(raw)
    except InvalidRequirement:
        return None
    marker = str(req.marker) if req.marker else ""
    if extra is None:
        found = _EXTRA.search(marker)
        extra = canonicalize_name(found.group(1)) if found else ""
    return FactItem(
        canonicalize_name(req.name),
        file,
        line,
        {"extra": extra, "specifier": str(req.specifier), "marker": marker, "requirement": raw},
    )


def extract(snapshot: Snapshot) -> tuple[list[FactItem], list[str]]:
    """Requirement items; unavailable: METADATA and pyproject.toml when the snapshot shows neither."""
    found = metadata(snapshot)
    items: list[FactItem] = []
    if found is not None:
        for name, value, line in found[0]:
            if name.lower() == "requires-dist" and (item := _item(value, METADATA_PATH, line, None)):
                items.append(item)
        return sorted(items), []
    text = read(snapshot, PYPROJECT)
    if text is None:
        return [], [p for p in (METADATA_PATH, PYPROJECT) if not snapshot.covers(p)]
    project = project_table(text)
    if project is None:
        return [], [PYPROJECT]
    groups: list[tuple[str, Any]] = [("", project.get("dependencies", []))]
    groups += sorted(
        (canonicalize_name(k), v) for k, v in (project.get("optional-dependencies") or {}).items()
    )
    for extra, requirements in groups:
        for raw in requirements if isinstance(requirements, list) else []:
            if isinstance(raw, str) and (item := _item(raw, PYPROJECT, line_of(text, raw), extra)):
                items.append(item)
    return sorted(items), []


def by_extra(items: list[FactItem]) -> dict[str, dict[str, str]]:
    """``{extra: {package: specifier}}`` (``""`` = core), extras and packages sorted."""
    out: dict[str, dict[str, str]] = {}
    for item in sorted(items, key=lambda i: (str(i.attrs.get("extra", "")), i.name)):
        out.setdefault(str(item.attrs.get("extra", "")), {})[item.name] = str(item.attrs.get("specifier", ""))
    return out
