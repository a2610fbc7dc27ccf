"""Facts: typed, JSON-serialisable statements about one upstream release, each with provenance.

Fact kinds (the keys of ``quarkci facts --json``), in order::

    python, torch_matrix, schemes, model_templates, cli_flags, export_formats, compat, cli_models,
    public_api, dependencies

(``public_api``: one item per module under ``quark/`` with its bound and public names;
``dependencies``: one item per ``Requires-Dist``, and ``by_extra`` in the JSON.)

(``cli_models`` holds only 0.10's CLI model tables; it is empty from 0.11.)

Every item carries ``name``, ``file`` and ``line`` plus kind-specific ``attrs`` that are flattened
into the JSON object (``cli_flags`` items carry ``script``, ``action``, ``type``, ``default``,
``choices``, ``deprecated``...). Items are sorted by (name, file, line) so output is deterministic.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from quarkci.upstream.base import Snapshot

FACT_KINDS: tuple[str, ...] = (
    "python",
    "torch_matrix",
    "schemes",
    "model_templates",
    "cli_flags",
    "export_formats",
    "compat",
    "cli_models",
    "public_api",
    "dependencies",
)


@dataclass(frozen=True, order=True)
class FactItem:
    """One fact. ``line`` is 1-based; 0 when the fact has no single line (e.g. a file's existence)."""

    name: str
    file: str
    line: int
    attrs: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def to_json(self) -> dict[str, Any]:
        """``{"name", "file", "line", **attrs}`` with attrs never overriding the three keys."""
        return {**self.attrs, "name": self.name, "file": self.file, "line": self.line}


@dataclass(frozen=True)
class FactSet:
    """All facts of one snapshot: ``kinds[kind]`` is a sorted list of :class:`FactItem`.

    ``unavailable[kind]`` lists the snapshot paths a kind needed but the snapshot does not cover
    (e.g. ``tools/ci/install_torch.sh`` in a wheel): those facts are *unverifiable*, not absent.
    """

    version: str
    label: str
    coverage: frozenset[str]
    kinds: dict[str, list[FactItem]]
    unavailable: dict[str, list[str]] = field(default_factory=dict)

    def names(self, kind: str) -> set[str]:
        """The set of item names of ``kind``."""
        return {item.name for item in self.kinds.get(kind, [])}

    def to_json(self) -> dict[str, Any]:
        """The wire form of ``quarkci facts --json``."""
        out: dict[str, Any] = {
            "version": self.version,
            "source": self.label,
            "coverage": sorted(self.coverage),
        }
        for kind in FACT_KINDS:
            out[kind] = {
                "items": [item.to_json() for item in sorted(self.kinds.get(kind, []))],
                "unavailable": sorted(self.unavailable.get(kind, [])),
            }
        by_extra: dict[str, dict[str, str]] = {}
        for item in sorted(
            self.kinds.get("dependencies", []), key=lambda i: (str(i.attrs.get("extra", "")), i.name)
        ):
            by_extra.setdefault(str(item.attrs.get("extra", "")), {})[item.name] = str(
                item.attrs.get("specifier", "")
            )
        out["dependencies"]["by_extra"] = by_extra  # {extra ("" = core): {package: specifier}}
        commands: dict[str, list[str]] = {}
        for item in self.kinds.get("cli_flags", []):
            files = commands.setdefault(str(item.attrs.get("script", item.file)), [])
            if item.file not in files:
                files.append(item.file)
        out["cli_flags"]["commands"] = {k: sorted(v) for k, v in sorted(commands.items())}  # every CLI read
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any], *, strict: bool = False) -> FactSet:
        """Inverse of :meth:`to_json`. Raises KeyError/TypeError/ValueError on a malformed document.

        Lenient (the default): a kind absent from ``data`` is empty. ``strict`` (a cache entry, which
        :meth:`to_json` wrote whole): ``data`` must have its shape -- a non-empty ``version``, a
        ``coverage`` list of strings, and for every kind of :data:`FACT_KINDS` a block with an ``items``
        list (each item an object with a string ``name`` and ``file`` and an integer ``line``) and an
        ``unavailable`` list of strings; anything else raises ``ValueError`` naming the first bad place,
        so a truncated or reshaped document is never read as a release without facts.
        """
        if strict:
            check_shape(data)
        kinds: dict[str, list[FactItem]] = {}
        unavailable: dict[str, list[str]] = {}
        for kind in FACT_KINDS:
            block = data.get(kind) or {}
            items = []
            for raw in block.get("items", []):
                attrs = {k: v for k, v in raw.items() if k not in ("name", "file", "line")}
                items.append(FactItem(str(raw["name"]), str(raw["file"]), int(raw["line"]), attrs))
            kinds[kind] = sorted(items)
            if block.get("unavailable"):
                unavailable[kind] = list(block["unavailable"])
        return cls(
            version=str(data["version"]),
            label=str(data.get("source", "")),
            coverage=frozenset(data.get("coverage", [])),
            kinds=kinds,
            unavailable=unavailable,
        )


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def check_shape(data: Any) -> None:
    """Raise ``ValueError`` (naming the first bad place) unless ``data`` has the full shape of
    :meth:`FactSet.to_json` (see :meth:`FactSet.from_json` ``strict``)."""
    if not isinstance(data, dict):
        raise ValueError(f"facts: an object expected, got {type(data).__name__}")
    if not isinstance(data.get("version"), str) or not data["version"]:
        raise ValueError("facts.version: a non-empty string expected")
    if not isinstance(data.get("source", ""), str) or not _strings(data.get("coverage")):
        raise ValueError("facts.source/coverage: a string and a list of strings expected")
    for kind in FACT_KINDS:
        block = data.get(kind)
        if not isinstance(block, dict) or not isinstance(block.get("items"), list):
            raise ValueError(f"facts.{kind}: a block with an items list expected")
        if not _strings(block.get("unavailable")):
            raise ValueError(f"facts.{kind}.unavailable: a list of strings expected")
        for n, raw in enumerate(block["items"]):
            if not (
                isinstance(raw, dict)
                and isinstance(raw.get("name"), str)
                and isinstance(raw.get("file"), str)
                and isinstance(raw.get("line"), int)
                and not isinstance(raw.get("line"), bool)
            ):
                raise ValueError(f"facts.{kind}.items[{n}]: an item with name, file and line expected")


class FactExtractor(Protocol):
    """One module per fact kind implements this (module-level ``KIND`` and ``extract``)."""

    KIND: str

    def extract(self, snapshot: Snapshot) -> tuple[list[FactItem], list[str]]:
        """Return (items, unavailable_paths). Never imports or executes upstream code."""
        ...
