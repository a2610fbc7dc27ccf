"""The inventory of a kernel library: what ``quarkci verify init`` observes, read statically.

Data flows one way: a library root -> :class:`Inventory` (this module's types, built by
:mod:`quarkci.verify.inventory`) -> a feature map (:mod:`quarkci.verify.featuremap`) -> the skill
files (:mod:`quarkci.verify.generate`). Every path is POSIX and relative to ``Inventory.root``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

CPU = "cpu"
# Arch gate names as the field writes them (AMD Instinct gfx targets, NVIDIA sm targets).
GPU_HINT = "gpu"


@dataclass(frozen=True)
class Gate:
    """The correctness gate an entry point applies: reference, dtype, tolerances, shapes, edge cases.

    ``rtol``/``atol`` are None when the entry point states none; ``shapes`` are the literal shape
    tuples found; ``edge_cases`` name what the shapes cover (``small M``, ``odd size``,
    ``partial tile``); ``nan`` says how NaN is handled (``propagates``, ``equal_nan``, ``not tested``).
    """

    reference: str = ""
    dtypes: tuple[str, ...] = ()
    rtol: float | None = None
    atol: float | None = None
    shapes: tuple[tuple[int, ...], ...] = ()
    edge_cases: tuple[str, ...] = ()
    nan: str = "not tested"


@dataclass(frozen=True)
class EntryPoint:
    """One way to drive a family: ``kind`` is ``pytest`` | ``script`` | ``function`` | ``helper``.

    ``target``: a pytest path, a script path, or ``module:function``; ``flags``: argparse flags
    (``--name=default``); ``ops``: the library functions it calls (``module:function``);
    ``sha256``: the file's hash (the harness frozen by its hash).
    """

    kind: str
    target: str
    file: str
    sha256: str = ""
    flags: tuple[str, ...] = ()
    ops: tuple[str, ...] = ()
    gate: Gate = field(default_factory=Gate)


@dataclass(frozen=True)
class Perf:
    """A perf harness: its script, the reference side it times, its regime and run count."""

    target: str
    file: str
    sha256: str
    reference: str
    regime: str
    runs: str
    flags: tuple[str, ...] = ()


@dataclass(frozen=True)
class SubFeature:
    """A named op or op group inside a family (e.g. ``mx`` in hw_emulation), with its arch gate."""

    name: str
    ops: tuple[str, ...]
    arch: tuple[str, ...]
    files: tuple[str, ...]


@dataclass(frozen=True)
class Family:
    """One op family. ``category`` is the field's term (GEMM, attention, MoE, norm, quant,
    fake-quantize, activation, other); ``arch`` lists the gates (``cpu``, ``gfx942``, ``sm90``,
    ``gpu`` when only "needs a GPU" is known)."""

    name: str
    category: str
    files: tuple[str, ...]
    functions: tuple[str, ...]
    arch: tuple[str, ...]
    entry_points: tuple[EntryPoint, ...] = ()
    perf: tuple[Perf, ...] = ()
    isa: str = ""
    subfeatures: tuple[SubFeature, ...] = ()
    references: tuple[str, ...] = ()  # module:function pure-torch references found in the library
    build: str = ""  # how the family's native code is built ("torch cpp_extension JIT", "triton JIT", "")

    @property
    def cpu(self) -> bool:
        return CPU in self.arch

    @property
    def tested(self) -> bool:
        return any(e.kind in ("pytest", "script") for e in self.entry_points)


@dataclass(frozen=True)
class Inventory:
    """Everything observed about one library. ``source``: how it was given (``PATH`` or
    ``installed:DIST``); ``version``: the dist version or ``""``; ``sha``: the checkout's HEAD or
    ``""``; ``package``: the import path of the kernel root (``quark.torch.kernel``);
    ``gaps``: (subject, reason) pairs; ``skipped``: files read but not mapped to a family."""

    library: str
    source: str
    root: str
    package: str
    package_dir: str
    version: str
    sha: str
    families: tuple[Family, ...]
    gaps: tuple[tuple[str, str], ...] = ()
    skipped: tuple[str, ...] = ()

    def family(self, name: str) -> Family | None:
        return next((f for f in self.families if f.name == name), None)
