"""Supported Python: ``Requires-Python`` and the ``Programming Language :: Python :: 3.X`` classifiers.

Sources, in order of preference: wheel/installed ``METADATA`` (headers parsed with :mod:`email.parser`);
a checkout's ``pyproject.toml`` (``[project] requires-python`` and ``classifiers``, read with
:mod:`tomllib`); and the install guide (``docs/source/install.rst`` or any ``docs/**/install.rst``):
each line mentioning Python with ``3.X`` versions becomes one item per version.

Items: ``requires-python`` (attrs ``specifier``, normalised by :mod:`packaging.specifiers`, and ``raw``);
one item per classifier version named ``"3.11"`` (``source="classifier"``); install-guide versions
named ``"3.11"`` too (``source="install.rst"``, ``statement`` = the line).
"""

from __future__ import annotations

import re

from packaging.specifiers import InvalidSpecifier, SpecifierSet

from quarkci.facts.base import FactItem
from quarkci.facts.source import line_of, metadata, project_table, read
from quarkci.upstream.base import METADATA_PATH, Snapshot

KIND = "python"
PYPROJECT = "pyproject.toml"
INSTALL_RST = "docs/source/install.rst"
CLASSIFIER_PREFIX = "Programming Language :: Python :: "
_PY_VERSION = re.compile(r"(?<![\d.])3\.\d{1,2}(?![\d])")
_MENTIONS_PYTHON = re.compile(r"\bpython", re.IGNORECASE)


def _specifier_item(raw: str, file: str, line: int) -> FactItem:
    try:
        spec = str(SpecifierSet(raw))
        normalised = ",".join(sorted(spec.split(","), key=_spec_order))
    except InvalidSpecifier:
        normalised = raw
    return FactItem("requires-python", file, line, {"specifier": normalised, "raw": raw, "source": file})


def _spec_order(clause: str) -> tuple[int, str]:
    """Lower bounds first (``>=3.9.0,<3.13``), matching how upstream writes them."""
    return (0 if clause.startswith(">") else 1 if clause.startswith(("==", "~=", "!=")) else 2, clause)


def _classifier_items(classifiers: list[tuple[str, int]], file: str) -> list[FactItem]:
    items = []
    for value, line in classifiers:
        if value.startswith(CLASSIFIER_PREFIX):
            version = value[len(CLASSIFIER_PREFIX) :].strip()
            if re.fullmatch(r"\d+\.\d+", version):
                items.append(FactItem(version, file, line, {"source": "classifier", "classifier": value}))
    return items


def _from_metadata(snapshot: Snapshot) -> list[FactItem] | None:
    found = metadata(snapshot)
    if found is None:
        return None
    headers, _text = found
    items: list[FactItem] = []
    for name, value, line in headers:
        if name.lower() == "requires-python":
            items.append(_specifier_item(value, METADATA_PATH, line))
    items += _classifier_items([(v, ln) for n, v, ln in headers if n.lower() == "classifier"], METADATA_PATH)
    return items


def _from_pyproject(snapshot: Snapshot) -> list[FactItem] | None:
    text = read(snapshot, PYPROJECT)
    if text is None:
        return None
    project = project_table(text)
    if project is None:
        return []
    items: list[FactItem] = []
    raw = project.get("requires-python")
    if isinstance(raw, str):
        items.append(_specifier_item(raw, PYPROJECT, line_of(text, "requires-python")))
    classifiers = [c for c in project.get("classifiers", []) if isinstance(c, str)]
    items += _classifier_items([(c, line_of(text, c)) for c in classifiers], PYPROJECT)
    return items


def install_guides(snapshot: Snapshot) -> list[str]:
    """The install guide(s) of a snapshot: ``docs/source/install.rst`` or any ``docs/**/install.rst``."""
    if snapshot.exists(INSTALL_RST):
        return [INSTALL_RST]
    return [p for p in snapshot.files("docs/") if p.endswith("/install.rst")]


def _from_install_rst(snapshot: Snapshot, path: str) -> list[FactItem]:
    text = read(snapshot, path) or ""
    items: list[FactItem] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not _MENTIONS_PYTHON.search(line):
            continue
        for version in sorted(set(_PY_VERSION.findall(line))):
            items.append(
                FactItem(version, path, number, {"source": "install.rst", "statement": line.strip()})
            )
    return items


def extract(snapshot: Snapshot) -> tuple[list[FactItem], list[str]]:
    """Python-support items and the paths the snapshot cannot show (e.g. pyproject/docs in a wheel)."""
    unavailable: list[str] = []
    items = _from_metadata(snapshot)
    pyproject_items = _from_pyproject(snapshot)
    if items is None and pyproject_items is None:
        unavailable += [p for p in (METADATA_PATH, PYPROJECT) if not snapshot.covers(p)]
    items = (items or []) + (pyproject_items or [])
    guides = install_guides(snapshot)
    for guide in guides:
        items += _from_install_rst(snapshot, guide)
    if not guides and not snapshot.covers(INSTALL_RST):
        unavailable.append(INSTALL_RST)
    return sorted(items), sorted(unavailable)
