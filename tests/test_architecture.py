"""The package layering of docs/architecture.md, checked over the source with ``ast`` (no import side effects).

Each top-level package under ``quarkci/`` may import only the packages listed for it in ``ALLOWED``; the core
imports no feature package; no module imports another package's private (``_``-prefixed) module; and the
package-level import graph has no cycle. A new package gets a line in ``ALLOWED`` and in the table of
docs/architecture.md ("Packages and what each may import").
"""

from __future__ import annotations

import ast
import tomllib
from collections import defaultdict
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "quarkci"

# package -> the quarkci packages it may import (besides itself). The order of the table in
# docs/architecture.md; lower layers first. ``commands`` and the CLI sit on top and may import anything.
ALLOWED: dict[str, frozenset[str]] = {
    "core": frozenset(),
    "upstream": frozenset({"core"}),
    "facts": frozenset({"core", "upstream"}),
    "skills": frozenset({"core", "upstream"}),
    "contracts": frozenset({"core", "upstream"}),
    "gates": frozenset({"core"}),
    "sync": frozenset({"core", "upstream", "facts", "skills", "contracts"}),
    "report": frozenset({"core", "sync"}),
    "github": frozenset({"core"}),
    "router": frozenset({"core", "skills"}),
    "ptq": frozenset({"core", "gates", "upstream", "facts"}),  # reads a release's facts statically
    # the day-0 conductor and the verification skills: orchestrate the feature packages below them, never each other
    "day0": frozenset(
        {
            "core",
            "upstream",
            "facts",
            "skills",
            "contracts",
            "gates",
            "sync",
            "report",
            "github",
            "router",
            "ptq",
        }
    ),
    "verify": frozenset(
        {"core", "upstream", "facts", "skills", "contracts", "gates", "sync", "report", "github"}
    ),
    # README blocks generated from this repository's action and workflow files
    "docs": frozenset({"core"}),
}
TOP = frozenset({"commands", "cli", "__main__", "__init__"})


def _module_name(path: Path, root: Path = ROOT) -> str:
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, root: Path = ROOT) -> list[str]:
    """Absolute names of the quarkci modules ``path`` imports (relative imports resolved)."""
    module = _module_name(path, root)
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module or ""
            names.append(prefix)
            # `from pkg import module` names a module too (so `from pkg import _private` is seen)
            names += [f"{prefix}.{a.name}" for a in node.names if _is_module(f"{prefix}.{a.name}", root)]
    return [name for name in names if name == "quarkci" or name.startswith("quarkci.")]


def _is_module(name: str, root: Path) -> bool:
    path = root.parent.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _package(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


@cache
def _edges(root: Path = ROOT) -> dict[tuple[str, str], list[str]]:
    """``(importer package, imported package) -> ["a.b -> c.d", ...]`` for every cross-package import."""
    edges: dict[tuple[str, str], list[str]] = defaultdict(list)
    for path in sorted(root.rglob("*.py")):
        source = _module_name(path, root)
        for target in _imports(path, root):
            a, b = _package(source), _package(target)
            if a != b and b != "__init__":
                edges[(a, b)].append(f"{source} -> {target}")
    return edges


def test_every_package_is_declared() -> None:
    packages = {p.name for p in ROOT.iterdir() if (p / "__init__.py").is_file()} - TOP
    undeclared = sorted(packages - set(ALLOWED))
    assert not undeclared, (
        f"declare {undeclared} in tests/test_architecture.py ALLOWED and in docs/architecture.md"
    )


def test_core_imports_no_feature_package() -> None:
    bad = [line for (a, b), lines in _edges().items() if a == "core" for line in lines]
    assert bad == []


def test_packages_import_only_their_lower_layers() -> None:
    bad = [
        line
        for (a, b), lines in sorted(_edges().items())
        if a in ALLOWED and b not in ALLOWED[a]
        for line in lines
    ]
    assert bad == [], "imports against the layering of docs/architecture.md:\n" + "\n".join(bad)


def test_nothing_reaches_into_another_packages_private_module() -> None:
    bad = [
        line
        for (a, b), lines in sorted(_edges().items())
        for line in lines
        if any(
            part.startswith("_") and not part.startswith("__") for part in line.split(" -> ")[1].split(".")
        )
    ]
    assert bad == []


def _cycles(edges: dict[tuple[str, str], list[str]]) -> list[list[str]]:
    graph: dict[str, set[str]] = defaultdict(set)
    for a, b in edges:
        graph[a].add(b)
    cycles: list[list[str]] = []

    def visit(node: str, trail: list[str]) -> None:
        for nxt in sorted(graph[node]):
            if nxt in trail:
                cycles.append([*trail[trail.index(nxt) :], nxt])
            else:
                visit(nxt, [*trail, nxt])

    for start in sorted(graph):
        visit(start, [start])
    return cycles


def test_no_package_level_cycle() -> None:
    assert _cycles(_edges()) == []


@cache
def _module_edges(root: Path = ROOT) -> dict[str, set[str]]:
    """``module -> {modules of the same top-level package it imports}``, every import counted: module-level,
    function-level and ``TYPE_CHECKING`` ones. ``from pkg import name`` is an edge to ``pkg`` (its
    ``__init__``) as well as to ``pkg.name`` when that is a module."""
    edges: dict[str, set[str]] = defaultdict(set)
    for path in sorted(root.rglob("*.py")):
        source = _module_name(path, root)
        for target in _imports(path, root):
            if target != source and _package(target) == _package(source) != "__init__":
                edges[source].add(target)
    return edges


def _module_cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles (strongly connected components of more than one module), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                connect(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = [stack.pop()]
            while component[-1] != node:
                component.append(stack.pop())
            if len(component) > 1:
                cycles.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            connect(node)
    return sorted(cycles)


def test_no_import_cycle_between_modules_of_a_package() -> None:
    """A package's modules import each other one way; a lazy (function-level) or type-checking import
    back is still a cycle, and so is a package ``__init__`` importing its submodules while they import
    from it (give what they share a module of its own)."""
    assert _module_cycles(_module_edges()) == []


def test_the_cycle_checker_sees_lazy_and_type_checking_cycles(tmp_path: Path) -> None:
    """Negative controls: the three kinds main had (conductor <-> result through a function-level and a
    ``TYPE_CHECKING`` import; a package ``__init__`` and its submodule importing a name from it)."""
    root = tmp_path / "quarkci"
    for pkg in ("", "day0", "facts"):
        (root / pkg).mkdir(parents=True, exist_ok=True)
        (root / pkg / "__init__.py").write_text("")
    (root / "day0" / "conductor.py").write_text("def run():\n    from quarkci.day0.result import closeout\n")
    (root / "day0" / "result.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from quarkci.day0.conductor import Conductor\n"
    )
    (root / "facts" / "__init__.py").write_text("from quarkci.facts import export_formats\nEXTRACTORS = {}\n")
    (root / "facts" / "export_formats.py").write_text("from quarkci.facts import cli_flags\n")
    (root / "facts" / "cli_flags.py").write_text("")
    (root / "facts" / "fine.py").write_text("import quarkci.facts.cli_flags as cli_flags\n")
    assert _module_cycles(_module_edges(root)) == [
        ["quarkci.day0.conductor", "quarkci.day0.result"],
        ["quarkci.facts", "quarkci.facts.export_formats"],
    ]


def test_the_checker_sees_a_violation(tmp_path: Path) -> None:
    """Negative control: a core module reaching into a feature package's private module, relatively."""
    root = tmp_path / "quarkci"
    for pkg in ("", "core", "sync"):
        (root / pkg).mkdir(parents=True, exist_ok=True)
        (root / pkg / "__init__.py").write_text("")
    (root / "sync" / "_inner.py").write_text("from quarkci.core import bad\n")
    (root / "core" / "bad.py").write_text("from ..sync import _inner\n")
    edges = _edges(root)
    assert edges[("core", "sync")] == [
        "quarkci.core.bad -> quarkci.sync",
        "quarkci.core.bad -> quarkci.sync._inner",
    ]
    assert edges[("sync", "core")] == [
        "quarkci.sync._inner -> quarkci.core",
        "quarkci.sync._inner -> quarkci.core.bad",
    ]
    assert _cycles(edges)[0] == ["core", "sync", "core"]
    assert ("report", "sync") in _edges()  # and the real tree is read


# The PTQ chain's stages (quarkci.ptq.chain.run_ptq): their functions are called only inside ``ptq`` and by
# the ``quarkci ptq`` subcommands (each runs its one stage); everything else, the day-0 conductor included,
# goes through the chain, so a safety check added to a stage reaches every caller.
PTQ_STAGE_MODULES = (
    "quarkci.ptq.intake",
    "quarkci.ptq.plan",
    "quarkci.ptq.manifest",
    "quarkci.ptq.runner",
    "quarkci.ptq.validate",
    "quarkci.gates.ptq",
)
PTQ_STAGE_CALLERS = ("quarkci.ptq", "quarkci.commands.ptq")


def _functions(module: str, root: Path) -> frozenset[str]:
    path = root.parent.joinpath(*module.split(".")).with_suffix(".py")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return frozenset(n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef))


def _stage_function_uses(root: Path = ROOT) -> list[str]:
    """``"importer -> stage_module.name"`` for every PTQ stage function (or stage module) imported outside
    :data:`PTQ_STAGE_CALLERS`, function-level and type-checking imports included."""
    bad: list[str] = []
    for path in sorted(root.rglob("*.py")):
        source = _module_name(path, root)
        if any(source == c or source.startswith(c + ".") for c in PTQ_STAGE_CALLERS):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                bad += [f"{source} -> {a.name}" for a in node.names if a.name in PTQ_STAGE_MODULES]
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                stage_functions = _functions(node.module, root) if node.module in PTQ_STAGE_MODULES else ()
                bad += [
                    f"{source} -> {node.module}.{alias.name}"
                    for alias in node.names
                    if f"{node.module}.{alias.name}" in PTQ_STAGE_MODULES or alias.name in stage_functions
                ]
    return bad


def test_only_the_ptq_commands_call_a_ptq_stage_outside_the_chain() -> None:
    assert _stage_function_uses() == [], "call quarkci.ptq.chain.run_ptq instead"


def test_the_stage_checker_sees_a_hand_copy_of_the_chain(tmp_path: Path) -> None:
    """Negative control: a day-0 module rebuilding the chain from stage functions (the old conductor's
    ``_ptq``), and one importing a stage module; a constant or a type of a stage module is no stage."""
    root = tmp_path / "quarkci"
    for pkg in ("", "ptq", "gates", "day0", "commands"):
        (root / pkg).mkdir(parents=True, exist_ok=True)
        (root / pkg / "__init__.py").write_text("")
    for module in PTQ_STAGE_MODULES:
        body = "FILE = 'x'\nclass T: ...\ndef stage(): ...\n"
        (root.parent / (module.replace(".", "/") + ".py")).write_text(body)
    (root / "day0" / "copy.py").write_text(
        "def _ptq():\n    from quarkci.ptq.runner import FILE, T, stage\n    from quarkci.gates import ptq\n"
    )
    (root / "commands" / "ptq.py").write_text("from quarkci.ptq.runner import stage\n")
    assert _stage_function_uses(root) == [
        "quarkci.day0.copy -> quarkci.ptq.runner.stage",
        "quarkci.day0.copy -> quarkci.gates.ptq",
    ]


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_allowed_table_has_no_cycle(package: str) -> None:
    """The declared table itself is a DAG: no package may (transitively) import itself."""
    seen: set[str] = set()
    todo = list(ALLOWED[package])
    while todo:
        nxt = todo.pop()
        assert nxt != package, f"{package} can reach itself through ALLOWED"
        if nxt not in seen:
            seen.add(nxt)
            todo += ALLOWED.get(nxt, ())


def test_the_code_cites_the_design_in_the_repository() -> None:
    """The design of record is docs/architecture.md; nothing cites a DESIGN document outside the repository."""
    cited = [
        str(p.relative_to(ROOT.parent))
        for p in sorted(ROOT.rglob("*.py"))
        if "DESIGN.md" in p.read_text(encoding="utf-8")
        or "DESIGN-deviations" in p.read_text(encoding="utf-8")
    ]
    assert cited == []
    assert (ROOT.parent / "docs" / "architecture.md").is_file()
    table = (ROOT.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    for package in ALLOWED:
        assert f"`{package}`" in table, f"docs/architecture.md does not describe {package}"


# per-module mypy options that switch a strict check off
_RELAXING = (
    "ignore_errors",
    "disable_error_code",
    "allow_untyped_defs",
    "allow_untyped_calls",
    "allow_any_generics",
)


def _exempt(mypy: dict[str, object]) -> list[str]:
    """The quarkci module patterns a ``[tool.mypy]`` table relaxes (an override with ``ignore_errors`` or
    another option that switches a strict check off)."""
    out: list[str] = []
    overrides = mypy.get("overrides", [])
    assert isinstance(overrides, list)
    for override in overrides:
        modules = override.get("module", [])
        modules = [modules] if isinstance(modules, str) else modules
        relaxed = [
            k
            for k, v in override.items()
            if (k in _RELAXING and v)
            or (k.startswith(("disallow_", "warn_", "check_", "strict")) and v is False)
        ]
        if relaxed:
            out += [m for m in modules if m == "quarkci" or m.startswith("quarkci.")]
    return out


def test_mypy_strict_exempts_no_quarkci_module():
    """``mypy quarkci`` (strict, scripts/test.sh) checks every module: pyproject has no override that
    relaxes a quarkci module, and no module opts out with a ``# mypy: ignore-errors`` comment."""
    mypy = tomllib.loads((ROOT.parent / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert mypy["strict"] is True
    assert _exempt(mypy) == []
    opted_out = [
        str(p.relative_to(ROOT.parent))
        for p in sorted(ROOT.rglob("*.py"))
        if "# mypy: ignore-errors" in p.read_text(encoding="utf-8")
    ]
    assert opted_out == []
    # negative control: the override this test replaced is found, the ML stack's import settings are not
    old = {
        "overrides": [
            {"module": ["torch", "quark.*"], "follow_imports": "skip", "ignore_missing_imports": True},
            {"module": ["quarkci.commands.*", "quarkci.cli"], "ignore_errors": True},
            {"module": "quarkci.ptq.plan", "disallow_untyped_defs": False},
        ]
    }
    assert _exempt(old) == ["quarkci.commands.*", "quarkci.cli", "quarkci.ptq.plan"]
