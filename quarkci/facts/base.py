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
    def from_json(cls, data: dict[str, Any]) -> FactSet:
        """Inverse of :meth:`to_json` (kinds absent from ``data`` are empty). Raises KeyError/TypeError/
        ValueError on a malformed document."""
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


class FactExtractor(Protocol):
    """One module per fact kind implements this (module-level ``KIND`` and ``extract``)."""

    KIND: str

    def extract(self, snapshot: Snapshot) -> tuple[list[FactItem], list[str]]:
        """Return (items, unavailable_paths). Never imports or executes upstream code."""
        ...
