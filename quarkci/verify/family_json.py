"""The JSON form of the inventory's types in ``features/map.json`` (its ``families``), and the records
``verify prove`` appends (its ``proofs``).

Each TypedDict mirrors one dataclass of :mod:`quarkci.verify.model`, key for key in field order. Arrays
are ``Sequence``: :func:`family_dict` keeps the dataclasses' tuples (what the feature files render, e.g.
a gate's ``shapes``), a map read back from JSON holds lists; both are written as JSON arrays.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypedDict

from quarkci.verify.model import EntryPoint, Family, Gate, Perf, SubFeature


class GateDoc(TypedDict):
    """:class:`~quarkci.verify.model.Gate`: tolerances None when the entry point states none."""

    reference: str
    dtypes: Sequence[str]
    rtol: float | None
    atol: float | None
    shapes: Sequence[Sequence[int]]
    edge_cases: Sequence[str]
    nan: str


class EntryPointDoc(TypedDict):
    """:class:`~quarkci.verify.model.EntryPoint` (``kind``: pytest | script | function | helper)."""

    kind: str
    target: str
    file: str
    sha256: str
    flags: Sequence[str]
    ops: Sequence[str]
    gate: GateDoc


class PerfDoc(TypedDict):
    """:class:`~quarkci.verify.model.Perf`."""

    target: str
    file: str
    sha256: str
    reference: str
    regime: str
    runs: str
    flags: Sequence[str]


class SubFeatureDoc(TypedDict):
    """:class:`~quarkci.verify.model.SubFeature`."""

    name: str
    ops: Sequence[str]
    arch: Sequence[str]
    files: Sequence[str]


class FamilyDoc(TypedDict):
    """:class:`~quarkci.verify.model.Family` (``build``: how its native code is built, or "")."""

    name: str
    category: str
    files: Sequence[str]
    functions: Sequence[str]
    arch: Sequence[str]
    entry_points: Sequence[EntryPointDoc]
    perf: Sequence[PerfDoc]
    isa: str
    subfeatures: Sequence[SubFeatureDoc]
    references: Sequence[str]
    build: str


class ProofRecord(TypedDict):
    """One item of the map's ``proofs``: a PROVED run of ``feature`` at UTC time ``at`` against the
    harness hashes (file -> sha256) and the library version / repo SHA the doctor reported ("" when
    unknown)."""

    feature: str
    at: str
    harness: dict[str, str]
    version: str
    sha: str


def _gate(gate: Gate) -> GateDoc:
    return {
        "reference": gate.reference,
        "dtypes": gate.dtypes,
        "rtol": gate.rtol,
        "atol": gate.atol,
        "shapes": gate.shapes,
        "edge_cases": gate.edge_cases,
        "nan": gate.nan,
    }


def _entry(entry: EntryPoint) -> EntryPointDoc:
    return {
        "kind": entry.kind,
        "target": entry.target,
        "file": entry.file,
        "sha256": entry.sha256,
        "flags": entry.flags,
        "ops": entry.ops,
        "gate": _gate(entry.gate),
    }


def _perf(perf: Perf) -> PerfDoc:
    return {
        "target": perf.target,
        "file": perf.file,
        "sha256": perf.sha256,
        "reference": perf.reference,
        "regime": perf.regime,
        "runs": perf.runs,
        "flags": perf.flags,
    }


def _sub(sub: SubFeature) -> SubFeatureDoc:
    return {"name": sub.name, "ops": sub.ops, "arch": sub.arch, "files": sub.files}


def family_dict(family: Family) -> FamilyDoc:
    """The JSON form of ``family``: the value :func:`dataclasses.asdict` gives (same keys, same order,
    tuples kept), typed."""
    return {
        "name": family.name,
        "category": family.category,
        "files": family.files,
        "functions": family.functions,
        "arch": family.arch,
        "entry_points": tuple(_entry(e) for e in family.entry_points),
        "perf": tuple(_perf(p) for p in family.perf),
        "isa": family.isa,
        "subfeatures": tuple(_sub(s) for s in family.subfeatures),
        "references": family.references,
        "build": family.build,
    }
