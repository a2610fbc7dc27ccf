"""The inventory: a kernel library read statically (``ast`` and literal scans), never imported.

``locate(spec)`` turns ``--repo PATH|installed[:DIST]`` into a :class:`Library` (root, kernel
package directory, version or SHA); ``scan(library, name)`` returns the :class:`Inventory`:

* families: the children of the kernel package (sub-packages and modules), their public functions,
  the pure-torch references found beside them (``reference_<op>``, ``<op>_ref``), native sources
  and the op schemas they register (``m.def("op(...)")``);
* entry points: pytest files, op-test scripts (argparse flags, shape lists) and perf harnesses,
  mapped to a family by what they import from the package;
* arch gates: ``cpu`` when a CPU path exists (C++ sources, pure torch), the gfx/sm targets named
  in the sources, ``gpu`` when a GPU path exists with no named target (Triton, CUDA/HIP, GPU-only
  libraries such as aiter and flydsl);
* gaps: families or sub-features with no test and no CPU path.

Bounded: at most :data:`MAX_FILES` files of at most :data:`MAX_BYTES` each are read.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.metadata as md
import re
import subprocess
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from quarkci.core.errors import BadInputError
from quarkci.verify.model import CPU, GPU_HINT, EntryPoint, Family, Gate, Inventory, Perf, SubFeature

MAX_FILES = 4000
MAX_BYTES = 1_000_000
MAX_FAMILIES = 5
PY = ".py"
NATIVE_CPU = (".cpp", ".cc", ".c")
NATIVE_GPU = (".cu", ".cuh", ".hip")
NATIVE = (*NATIVE_CPU, *NATIVE_GPU, ".h", ".hpp")
NOT_FAMILIES = {"__init__", "reference", "references", "utils", "util", "common", "csrc", "lib", "conftest"}
NOT_PACKAGES = {"tests", "test", "scripts", "bench", "benchmarks", "docs", "examples", "build", "dist"}
GPU_LIBRARIES = {"triton", "aiter", "flydsl", "cupy", "pycuda", "tilelang"}
ARCH_RE = re.compile(r"\b(gfx9[0-9]{2}[a-z]?|sm_?[89][0-9]a?|sm_1[02][0-9]a?)\b")
GPU_ONLY_RE = re.compile(r'"(\w+) is (?:only implemented (?:in|on) CUDA|not implemented on non CUDA)')
SCHEMA_RE = re.compile(r'(?:m\.def|SAFE_DEF)\s*\(\s*(?:m\s*,\s*)?"([A-Za-z_][A-Za-z0-9_]*)\(')
DTYPES = ("float32", "float16", "bfloat16", "float64", "float8_e4m3fn", "float8_e5m2", "int8", "uint8")
CATEGORIES = (
    ("GEMM", ("gemm", "matmul", "mm")),
    ("attention", ("attn", "attention", "flash", "mha")),
    ("MoE", ("moe", "expert")),
    ("norm", ("norm",)),
    ("fake-quantize", ("fake_quant", "hw_emulation", "qdq", "emulation")),
    ("quant", ("quant", "fp8", "float8", "mx", "fp4", "int8")),
    ("activation", ("act", "silu", "gelu", "relu")),
)
CLOSE_CALLS = {"assert_close", "allclose", "isclose", "assert_allclose"}


@dataclass(frozen=True)
class Library:
    """Where a library lies. ``root``: the directory entry-point paths are relative to;
    ``package_dir``: the kernel package; ``package``: its import path."""

    source: str
    root: Path
    package_dir: Path
    package: str
    version: str
    sha: str
    installed: bool = False


# ---------------------------------------------------------------------------------------------
# locating the library


def locate(spec: str) -> Library:
    """Resolve ``--repo``: ``PATH`` (a checkout) or ``installed[:DIST]`` (default dist amd-quark).

    Raises :class:`BadInputError` (one line naming ``--repo``) when the path is not a directory,
    the dist is not installed, or no kernel package is found.
    """
    if spec == "installed" or spec.startswith("installed:"):
        return _installed(spec.partition(":")[2] or "amd-quark", spec)
    root = Path(spec)
    if not root.is_dir():
        raise BadInputError(f"--repo {spec}: not a directory (give a checkout or installed[:DIST])")
    root = root.resolve()
    packages = sorted(
        p
        for p in root.iterdir()
        if p.is_dir()
        and (p / "__init__.py").is_file()
        and p.name not in NOT_PACKAGES
        and not p.name.startswith(".")
    )
    if not packages:
        raise BadInputError(
            f"--repo {spec}: no Python package (a directory with __init__.py) at its top level"
        )
    package_dir = _kernel_dir(packages[0]) or packages[0]
    version = _literal_version(packages[0] / "__init__.py")
    return Library(spec, root, package_dir, _dotted(root, package_dir), version, _git_sha(root))


def _installed(dist_name: str, spec: str) -> Library:
    try:
        dist = md.distribution(dist_name)
    except md.PackageNotFoundError:
        raise BadInputError(
            f"--repo {spec}: {dist_name} is not installed in this Python environment"
        ) from None
    root = Path(str(dist.locate_file(""))).resolve()
    tops = (dist.read_text("top_level.txt") or "").split()
    if not tops:
        tops = sorted({f.parts[0] for f in dist.files or [] if f.suffix == PY and len(f.parts) > 1})
    for top in tops:
        kernel = _kernel_dir(root / top)
        if kernel is not None:
            return Library(spec, root, kernel, _dotted(root, kernel), dist.version, "", installed=True)
    raise BadInputError(
        f"--repo {spec}: no kernel package (a directory named kernel or kernels) in {dist_name}"
    )


def _kernel_dir(package: Path) -> Path | None:
    """The shallowest directory named ``kernel``/``kernels`` under ``package`` (depth <= 4)."""
    if not package.is_dir():
        return None
    if package.name in ("kernel", "kernels"):
        return package
    found = [
        p
        for p in package.rglob("kernel*")
        if p.is_dir()
        and p.name in ("kernel", "kernels")
        and (p / "__init__.py").is_file()
        and len(p.relative_to(package).parts) <= 4
    ]
    return min(found, key=lambda p: (len(p.parts), str(p))) if found else None


def _dotted(root: Path, package_dir: Path) -> str:
    return ".".join(package_dir.relative_to(root).parts)


def _git_sha(root: Path) -> str:
    try:
        done = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def _literal_version(init: Path) -> str:
    tree = _parse(init)
    for node in tree.body if tree else ():
        if (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "__version__" for t in node.targets)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            return node.value.value
    return ""


# ---------------------------------------------------------------------------------------------
# reading files (bounded)


def _read(path: Path) -> str:
    try:
        if path.stat().st_size > MAX_BYTES:
            return ""
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def _parse(path: Path) -> ast.Module | None:
    try:
        return ast.parse(_read(path), filename=str(path))
    except (SyntaxError, ValueError):
        return None


def sha256_file(path: Path) -> str:
    """sha256 hex digest of a file's bytes ('' when unreadable)."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return ""


def _walk(top: Path) -> Iterator[Path]:
    count = 0
    for path in sorted(top.rglob("*")):
        if "__pycache__" in path.parts or any(p.startswith(".") for p in path.relative_to(top).parts):
            continue
        if path.is_file():
            count += 1
            if count > MAX_FILES:
                raise BadInputError(
                    f"--repo: more than {MAX_FILES} files under {top}; point it at the library"
                )
            yield path


# ---------------------------------------------------------------------------------------------
# families


def _category(name: str, functions: Iterable[str]) -> str:
    text = " ".join([name, *functions]).lower()
    for category, words in CATEGORIES:
        if any(re.search(rf"(^|[^a-z]){w}", text) for w in words):
            return category
    return "other"


def _public_functions(tree: ast.Module | None) -> list[str]:
    if tree is None:
        return []
    return [n.name for n in tree.body if isinstance(n, ast.FunctionDef) and not n.name.startswith("_")]


def _imports(tree: ast.Module | None) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree) if tree else ():
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def _py_is_gpu_only(tree: ast.Module | None, text: str) -> bool:
    """A Python file is GPU-only when it imports a GPU-only library or refuses to run without CUDA."""
    roots = {name.split(".")[0] for name in _imports(tree)}
    if roots & GPU_LIBRARIES:
        return True
    return bool(re.search(r"not\s+torch\.cuda\.is_available\(\)", text) and "raise" in text)


def _is_reference(name: str) -> bool:
    return name.startswith("reference_") or name.endswith(("_ref", "_reference"))


def op_key(name: str) -> str:
    """Normalise an op or reference name for matching (``reference_x``, ``x_ref``, ``x_func`` -> ``x``)."""
    for prefix in ("reference_", "triton_", "torch_"):
        name = name.removeprefix(prefix)
    for suffix in ("_reference", "_ref", "_func", "_triton", "_hip", "_cpu"):
        name = name.removesuffix(suffix)
    return name


def _family_files(package_dir: Path) -> dict[str, list[Path]]:
    """family name -> its files: each sub-package, each top-level module, and native sources
    named after a module (``csrc/gemm_tile.cpp`` belongs to ``gemm``)."""
    families: dict[str, list[Path]] = {}
    for child in sorted(package_dir.iterdir()):
        if child.name.startswith((".", "_")) or child.name == "__pycache__":
            continue
        if child.is_dir() and child.name not in NOT_FAMILIES and any(child.rglob("*.py")):
            families[child.name] = list(_walk(child))
        elif child.is_file() and child.suffix == PY and child.stem not in NOT_FAMILIES:
            families[child.stem] = [child]
    for csrc in (package_dir / "csrc", package_dir / "lib"):
        if csrc.is_dir():
            for path in _walk(csrc):
                owner = next((f for f in families if path.stem.startswith(f)), None)
                if owner is not None and path.suffix in NATIVE:
                    families[owner].append(path)
    return families


def _native_arch(paths: Iterable[Path]) -> tuple[bool, bool]:
    """(has a CPU path, has a GPU path) among native sources."""
    cpu = gpu = False
    for path in paths:
        if path.suffix in NATIVE_CPU and "cuda" not in path.parts and "hip" not in path.parts:
            cpu = True
        elif path.suffix in NATIVE_GPU:
            gpu = True
    return cpu, gpu


def _subfeatures(
    root: Path, files: list[Path], py_modules: dict[Path, ast.Module | None]
) -> list[SubFeature]:
    """Native families: one sub-feature per ``csrc/<dir>`` (ops from the registered schemas);
    Python families with several modules: one per module."""
    rel = [p.relative_to(root).as_posix() for p in files]
    schemas: list[str] = []
    for path in files:
        if path.suffix in NATIVE_CPU:
            for namespace, block in _library_blocks(_read(path)):
                if "test" not in namespace:
                    schemas += [s for s in SCHEMA_RE.findall(block) if s not in schemas]
    subs: list[SubFeature] = []
    csrc_dirs = sorted(
        {p.parent for p in files if p.suffix in NATIVE and p.parent.parent.name == "csrc"}
        | {p.parent.parent for p in files if p.suffix in NATIVE and p.parent.parent.parent.name == "csrc"}
    )
    claimed: set[str] = set()
    for folder in csrc_dirs:
        if folder.name in ("legacy", "include", "common"):
            continue
        inside = [p for p in files if folder in p.parents]
        texts = {p: _read(p) for p in inside if p.suffix in NATIVE}
        ops = tuple(
            s
            for s in schemas
            if re.search(rf"(^|_){folder.name}(_|$)", s)
            or any(re.search(rf"\b{s}(_impl)?\s*\(", t) for t in texts.values())
        )
        claimed.update(ops)
        cpu, gpu = _native_arch(inside)
        subs.append(
            SubFeature(
                folder.name,
                ops,
                _arch(cpu, gpu, "\n".join(texts.values())),
                tuple(p.relative_to(root).as_posix() for p in inside),
            )
        )
    rest = tuple(s for s in schemas if s not in claimed)
    if subs and rest:
        bindings = tuple(r for r in rel if r.endswith(NATIVE_CPU) and "legacy" not in r)
        subs.append(SubFeature("affine", rest, (CPU,), bindings))
    refused = {
        op
        for path in files
        if path.suffix in NATIVE_CPU and "legacy" not in path.parts
        for op in GPU_ONLY_RE.findall(_read(path))
    }
    if refused:  # a CPU build whose C++ fallback only throws: the op is GPU-only whatever the sources say
        subs = [
            replace(s, arch=tuple(a for a in s.arch if a != CPU) or (GPU_HINT,))
            if s.ops and set(s.ops) <= refused
            else s
            for s in subs
        ]
    if not subs and len(py_modules) > 1:
        for path, tree in py_modules.items():
            fns = tuple(_public_functions(tree))
            if fns and path.stem != "__init__":
                gpu_only = _py_is_gpu_only(tree, _read(path))
                subs.append(
                    SubFeature(
                        path.stem,
                        fns,
                        _arch(not gpu_only, gpu_only, _read(path)),
                        (path.relative_to(root).as_posix(),),
                    )
                )
    return subs


def _library_blocks(text: str) -> list[tuple[str, str]]:
    """(namespace, text up to the next block) for each ``TORCH_LIBRARY(ns, m)`` in a C++ source."""
    marks = list(re.finditer(r"TORCH_LIBRARY(?:_FRAGMENT)?\s*\(\s*(\w+)", text))
    return [
        (m.group(1), text[m.end() : marks[i + 1].start() if i + 1 < len(marks) else len(text)])
        for i, m in enumerate(marks)
    ]


def _arch(cpu: bool, gpu: bool, text: str) -> tuple[str, ...]:
    named = sorted(set(m.replace("_", "") for m in ARCH_RE.findall(text))) if gpu else []
    return ((CPU,) if cpu else ()) + tuple(named or ([GPU_HINT] if gpu else []))


def _family(root: Path, package: str, package_dir: Path, name: str, files: list[Path]) -> Family:
    py = {p: _parse(p) for p in files if p.suffix == PY}
    texts = {p: _read(p) for p in files if p.suffix in (PY, *NATIVE)}
    functions: list[str] = []
    references: list[str] = []
    for path, tree in py.items():
        module = ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__")
        for fn in _public_functions(tree):
            (references if _is_reference(fn) else functions).append(f"{module}:{fn}")
    cpu_native, gpu_native = _native_arch(files)
    gpu_py = [p for p, t in py.items() if _py_is_gpu_only(t, texts[p])]
    cpu_py = [p for p, t in py.items() if p not in gpu_py and _public_functions(t)]
    all_text = "\n".join(texts.values())
    cpu = cpu_native or (bool(cpu_py) and not gpu_native and not (gpu_py and not references))
    arch = _arch(cpu, gpu_native or bool(gpu_py), all_text)
    build = ""
    if any(p.suffix in NATIVE for p in files) and "cpp_extension" in all_text:
        build = "torch cpp_extension JIT"
    elif gpu_py and "triton" in all_text:
        build = "triton JIT"
    subs = _subfeatures(root, files, py)
    isa = ""
    native_cpu = [p for p in files if p.suffix in NATIVE_CPU]
    if build == "" and native_cpu:
        isa = f"g++ -O2 -S -o - {native_cpu[0].relative_to(root).as_posix()}"
    names = [f.split(":")[1] for f in functions] + [s for sub in subs for s in sub.ops]
    return Family(
        name=name,
        category=_category(name, names),
        files=tuple(p.relative_to(root).as_posix() for p in files),
        functions=tuple(functions),
        arch=arch,
        isa=isa,
        subfeatures=tuple(subs),
        references=tuple(references),
        build=build,
    )


# ---------------------------------------------------------------------------------------------
# entry points


def _constant_number(node: ast.AST) -> float | None:
    if (
        isinstance(node, ast.Constant)
        and isinstance(node.value, (int, float))
        and not isinstance(node.value, bool)
    ):
        return float(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _constant_number(node.operand)
        return -inner if inner is not None else None
    return None


def _shape_literals(node: ast.AST) -> list[tuple[int, ...]]:
    """Shape tuples inside a list literal: ``[(1, 64), (17, 33)]``."""
    shapes: list[tuple[int, ...]] = []
    if isinstance(node, (ast.List, ast.Tuple)):
        for elt in node.elts:
            if (
                isinstance(elt, ast.Tuple)
                and elt.elts
                and all(isinstance(e, ast.Constant) and isinstance(e.value, int) for e in elt.elts)
            ):
                shapes.append(tuple(int(e.value) for e in elt.elts))  # type: ignore[attr-defined]
    return shapes


def _edge_cases(shapes: Iterable[tuple[int, ...]], tile: int) -> tuple[str, ...]:
    cases: list[str] = []
    dims = [d for s in shapes for d in s]
    if any(d == 1 for d in dims):
        cases.append("small M (1)")
    if any(d % 2 for d in dims):
        cases.append("odd size")
    if any(d % tile for d in dims):
        cases.append(f"partial tile (not a multiple of {tile})")
    return tuple(cases)


def _gate(tree: ast.Module, text: str, tile: int) -> Gate:
    rtol = atol = None
    references: list[str] = []
    shapes: list[tuple[int, ...]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name in CLOSE_CALLS:
                for kw in node.keywords:
                    value = _constant_number(kw.value)
                    if kw.arg == "rtol" and value is not None and rtol is None:
                        rtol = value
                    elif kw.arg == "atol" and value is not None and atol is None:
                        atol = value
            elif name and ("ref" in name.lower() or name.startswith("torch_")) and name not in references:
                references.append(name)
            if name == "parametrize" and len(node.args) >= 2:
                shapes += _shape_literals(node.args[1])
        elif isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and "SHAPE" in t.id.upper() for t in node.targets
        ):
            shapes += _shape_literals(node.value)
    if not references and re.search(r"\bref\s*=", text):
        references.append("inline torch expression")
    dtypes = tuple(d for d in DTYPES if re.search(rf"\b{d}\b", text))
    nan = (
        "equal_nan"
        if "equal_nan=True" in text
        else ("propagates (tested)" if "isnan" in text else "not tested")
    )
    unique = tuple(dict.fromkeys(shapes))
    return Gate(
        reference=", ".join(references),
        dtypes=dtypes,
        rtol=rtol,
        atol=atol,
        shapes=unique,
        edge_cases=_edge_cases(unique, tile),
        nan=nan,
    )


def _flags(tree: ast.Module) -> tuple[str, ...]:
    flags: list[str] = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "add_argument"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and str(node.args[0].value).startswith("-")
        ):
            default = next((kw.value for kw in node.keywords if kw.arg == "default"), None)
            shown = ast.literal_eval(default) if isinstance(default, ast.Constant) else None
            flag = str(node.args[0].value)
            flags.append(f"{flag}={shown}" if shown is not None else flag)
    return tuple(flags)


def _library_ops(tree: ast.Module, package: str, functions: set[str]) -> tuple[str, ...]:
    """``module:function`` of every library function the file imports by name."""
    ops: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(package):
            for alias in node.names:
                key = f"{node.module}:{alias.name}"
                if key in functions and key not in ops:
                    ops.append(key)
    return tuple(ops)


def _family_of(ops: Iterable[str], families: dict[str, Family]) -> str | None:
    for op in ops:
        for fam in families.values():
            if op in fam.functions:
                return fam.name
    return None


def _entry_points(
    lib: Library, families: dict[str, Family]
) -> tuple[dict[str, list[EntryPoint]], dict[str, list[Perf]], list[str]]:
    functions = {f for fam in families.values() for f in fam.functions}
    entries: dict[str, list[EntryPoint]] = {}
    perfs: dict[str, list[Perf]] = {}
    skipped: list[str] = []
    if lib.installed or lib.package_dir == lib.root or lib.root not in lib.package_dir.parents:
        return entries, perfs, skipped  # an installed wheel: its package is all there is
    top = lib.root / lib.package.split(".")[0]
    candidates = [p for p in _walk(lib.root) if p.suffix == PY and top not in p.parents and p != top]
    for path in candidates:
        rel = path.relative_to(lib.root).as_posix()
        tree = _parse(path)
        if tree is None:
            skipped.append(rel)
            continue
        text = _read(path)
        ops = _library_ops(tree, lib.package.split(".")[0], functions)
        family = _family_of(ops, families)
        if family is None:
            if path.name != "conftest.py":
                skipped.append(rel)
            continue
        tile = _tile(families[family], lib.root)
        is_test = path.name.startswith("test_") or path.name.endswith("_test.py")
        is_perf = (
            any(w in rel.lower() for w in ("bench", "perf")) or "perf_counter" in text or "do_bench" in text
        )
        digest = sha256_file(path)
        if is_perf and not is_test:
            flags = _flags(tree)
            runs = next((f.split("=", 1)[1] for f in flags if f.startswith("--runs")), "")
            regime = m.group(1) if (m := re.search(r"regime=([A-Za-z0-9_.-]+)", text)) else ""
            reference = (
                "torch (same run)" if re.search(r"@|torch\.matmul|torch\.nn\.functional", text) else ""
            )
            perfs.setdefault(family, []).append(Perf(rel, rel, digest, reference, regime, runs, flags))
        elif is_test:
            entries.setdefault(family, []).append(
                EntryPoint("pytest", rel, rel, digest, (), ops, _gate(tree, text, tile))
            )
        elif "ArgumentParser" in text:
            entries.setdefault(family, []).append(
                EntryPoint("script", rel, rel, digest, _flags(tree), ops, _gate(tree, text, tile))
            )
        else:
            skipped.append(rel)
    return entries, perfs, skipped


def _tile(family: Family, root: Path) -> int:
    for rel in family.files:
        if m := re.search(r"^\s*(?:TILE|BLOCK(?:_SIZE)?)\s*=\s*(\d+)", _read(root / rel), re.M):
            return int(m.group(1))
    return 32


# ---------------------------------------------------------------------------------------------
# the inventory


def _rank(family: Family) -> tuple[int, int, int, str]:
    """Top families first: tested, then with a CPU path, then by op count."""
    return (
        -int(family.tested),
        -int(family.cpu),
        -(len(family.functions) + len(family.subfeatures)),
        family.name,
    )


def _self_reference(root: Path, family: Family) -> bool:
    """True when the family's entry functions call their own reference on CPU (a CPU run would
    compare the reference with itself)."""
    names = {r.split(":")[1] for r in family.references}
    for rel in family.files:
        if rel.endswith("__init__.py"):
            text = _read(root / rel)
            if names and any(re.search(rf"return\s+{n}\(", text) for n in names) and '"cpu"' in text:
                return True
    return False


def _propagate_gpu_only_ops(root: Path, families: dict[str, Family]) -> dict[str, Family]:
    """A Python sub-feature that calls a native op registered only for GPU (e.g. ``qdq_mxfp4``,
    CUDA/HIP sources only) takes that op's arch gate; its family loses ``cpu`` when no sub-feature
    keeps it."""
    gpu_ops = {
        op: sub.arch
        for fam in families.values()
        for sub in fam.subfeatures
        if CPU not in sub.arch and any(f.endswith(NATIVE) for f in sub.files)
        for op in sub.ops
    }
    if not gpu_ops:
        return families
    out: dict[str, Family] = {}
    for name, fam in families.items():
        subs = []
        for sub in fam.subfeatures:
            if CPU in sub.arch and all(f.endswith(PY) for f in sub.files):
                text = "\n".join(_read(root / f) for f in sub.files)
                called = [op for op in gpu_ops if re.search(rf"\.{op}\(", text)]
                if called:
                    sub = replace(sub, arch=gpu_ops[called[0]])
            subs.append(sub)
        if subs:
            union = list(dict.fromkeys(a for sub in subs for a in sub.arch))
            if any(a not in (CPU, GPU_HINT) for a in union):
                union = [a for a in union if a != GPU_HINT]
            fam = replace(fam, arch=tuple(sorted(union, key=lambda a: (a != CPU, a))))
        out[name] = replace(fam, subfeatures=tuple(subs))
    return out


def _package_references(lib: Library) -> list[str]:
    """``module:function`` of the references in the package's own ``reference.py``/``references.py``."""
    found: list[str] = []
    for stem in ("reference", "references"):
        path = lib.package_dir / f"{stem}.py"
        if path.is_file():
            module = ".".join(path.relative_to(lib.root).with_suffix("").parts)
            found += [f"{module}:{fn}" for fn in _public_functions(_parse(path))]
    return found


def scan(lib: Library, name: str | None = None) -> Inventory:
    """Read ``lib`` statically and return its :class:`Inventory` (see the module doc)."""
    raw = {
        n: _family(lib.root, lib.package, lib.package_dir, n, files)
        for n, files in _family_files(lib.package_dir).items()
    }
    shared = _package_references(lib)
    for n, fam in raw.items():
        keys = {op_key(f.split(":")[1]) for f in fam.functions}
        extra = tuple(r for r in shared if op_key(r.split(":")[1]) in keys and r not in fam.references)
        if extra:
            raw[n] = replace(fam, references=fam.references + extra)
    families = {n: f for n, f in raw.items() if f.functions or f.subfeatures}
    skipped = [f for n, fam in raw.items() if n not in families for f in fam.files]
    families = _propagate_gpu_only_ops(lib.root, families)
    entries, perfs, loose = _entry_points(lib, families)
    skipped += loose
    gaps: list[tuple[str, str]] = []
    done: list[Family] = []
    for fam in families.values():
        fam = replace(fam, entry_points=tuple(entries.get(fam.name, ())), perf=tuple(perfs.get(fam.name, ())))
        if _self_reference(lib.root, fam):
            fam = replace(fam, arch=tuple(a for a in fam.arch if a != CPU) or (GPU_HINT,))
            gaps.append(
                (
                    fam.name,
                    "on CPU its entry functions dispatch to the reference itself: "
                    "only the GPU path can be compared with the reference",
                )
            )
        if lib.installed and not fam.tested:
            gaps.append((fam.name, "the installed distribution ships no op tests for it"))
        if not fam.tested:
            tested_ops = {op for e in fam.entry_points for op in e.ops}
            if not fam.references and not fam.subfeatures:
                gaps.append((fam.name, "no test and no pure-torch reference in the library"))
            elif not tested_ops:
                gaps.append((fam.name, "no test in the library"))
        for sub in fam.subfeatures:
            if CPU not in sub.arch and fam.cpu:
                gaps.append(
                    (
                        f"{fam.name}/{sub.name}",
                        f"GPU-only ({', '.join(sub.arch)}): INCONCLUSIVE on a CPU runner",
                    )
                )
        if not fam.cpu:
            gaps.append((fam.name, f"GPU-only ({', '.join(fam.arch)}): INCONCLUSIVE on a CPU runner"))
        done.append(fam)
    done.sort(key=_rank)
    for beyond in done[MAX_FAMILIES:]:
        gaps.append((beyond.name, f"beyond the top {MAX_FAMILIES} families: not mapped"))
    return Inventory(
        library=name or lib.package.split(".")[0],
        source=lib.source,
        root=str(lib.root),
        package=lib.package,
        package_dir=lib.package_dir.relative_to(lib.root).as_posix(),
        version=lib.version,
        sha=lib.sha,
        families=tuple(done[:MAX_FAMILIES]),
        gaps=tuple(gaps),
        skipped=tuple(sorted(skipped)),
    )
