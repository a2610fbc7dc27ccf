"""Static check that each artifact is written only by its producer.

Scans quarkci's Python source with :mod:`ast` (nothing is imported). A *write* is a call to a
writer (``atomic_write_text``/``atomic_write_bytes``, ``.write_text``/``.write_bytes``,
``json.dump``/``yaml.safe_dump`` to a stream, ``open(..., "w"|"a"|"x"|"+")``, ``shutil.copy*``/
``move``, ``.rename``/``.replace``) whose *destination* (the path argument or the receiver, never
the content) mentions an artifact file name such as ``"quant_plan.json"``: as a string literal
(also inside an f-string or a path expression) or through a name bound to one (a local or
module-level assignment, or a constant imported from another quarkci module). A call of
``write_artifact``/``write_artifact_text`` with a literal contract name is a write of that artifact. A
write of artifact A from a module that is not A's producer (or inside it) is a :class:`ProducerViolation`;
artifacts with an external producer (Quark's own skills) must not be written by quarkci at all.

Limits (documented, deliberate): attribute constants (``plan.PLAN_FILE``), values passed through
function parameters and dynamically built names are not followed.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from quarkci.core.artifacts import ARTIFACTS, Artifact

RULE = "contract-producer"


@dataclass(frozen=True, order=True)
class ProducerViolation:
    """Code in ``module`` (file ``file``, 1-based ``line``/``col``) writes ``artifact``."""

    file: str
    line: int
    col: int
    module: str
    artifact: str
    producer: str

    def one_line(self) -> str:
        """Canonical ``path:line:col: message [rule-id]`` form."""
        who = "an external Quark skill" if self.producer.startswith("external:") else self.producer
        return (f"{self.file}:{self.line}:{self.col}: {self.module} writes {self.artifact}, "
                f"whose one producer is {who} [{RULE}]")


def artifact_for_literal(text: str) -> Artifact | None:
    """The artifact whose file name ``text`` is or ends with (``"out/quant_plan.json"``), else None."""
    base = text.rsplit("/", 1)[-1]
    for artifact in ARTIFACTS.values():
        if base in artifact.filenames:
            return artifact
    return None


def module_name(path: Path, root: Path) -> str:
    """``root/quarkci/ptq/plan.py`` -> ``quarkci.ptq.plan`` (``__init__.py`` -> its package)."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@dataclass(frozen=True, order=True)
class ArtifactWrite:
    """One write of ``artifact`` found in ``module`` (``file`` relative to the root, 1-based line/col)."""

    file: str
    line: int
    col: int
    module: str
    artifact: str


def find_writes(root: str | Path, package: str = "quarkci") -> list[ArtifactWrite]:
    """Every write of an artifact file in ``root/<package>/**/*.py``, sorted.

    ``root`` is the repository root; reported files are relative to it. Files that do not parse
    are skipped (ruff reports them).
    """
    root = Path(root)
    trees: dict[str, tuple[Path, ast.Module]] = {}
    for path in sorted((root / package).rglob("*.py")):
        try:
            trees[module_name(path, root)] = (path, ast.parse(path.read_text("utf-8"), str(path)))
        except (SyntaxError, UnicodeDecodeError, ValueError):
            continue
    constants = {mod: _module_constants(tree) for mod, (_p, tree) in trees.items()}
    found: set[ArtifactWrite] = set()
    for mod, (path, tree) in trees.items():
        bound = dict(constants[mod])
        bound.update(_imported_constants(tree, constants))
        for call, artifact in _writes(tree, bound):
            found.add(ArtifactWrite(path.relative_to(root).as_posix(), call.lineno, call.col_offset + 1, mod,
                                    artifact.name))
    return sorted(found)


def check_producers(root: str | Path, package: str = "quarkci") -> list[ProducerViolation]:
    """Every write of an artifact outside its producer (see :func:`find_writes`), sorted.

    Returns ``[]`` when every artifact is written only by its one producer.
    """
    return [
        ProducerViolation(w.file, w.line, w.col, w.module, w.artifact, ARTIFACTS[w.artifact].producer)
        for w in find_writes(root, package)
        if not ARTIFACTS[w.artifact].produced_by(w.module)
    ]


def _literal_artifact(node: ast.AST, bound: dict[str, Artifact]) -> Artifact | None:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            hit = artifact_for_literal(sub.value)
            if hit:
                return hit
        elif isinstance(sub, ast.Name) and sub.id in bound:
            return bound[sub.id]
    return None


def _assignments(body: list[ast.stmt] | ast.AST, bound: dict[str, Artifact]) -> dict[str, Artifact]:
    """Names bound (transitively) to an artifact file name by assignments within ``body``."""
    nodes = [n for n in ast.walk(body) if isinstance(n, ast.Assign | ast.AnnAssign | ast.NamedExpr)]
    result = dict(bound)
    changed = True
    while changed:  # fixpoint: a = "x.json"; b = out / a; write(b)
        changed = False
        for node in nodes:
            value = node.value
            if value is None:
                continue
            hit = _literal_artifact(value, result)
            if hit is None:
                continue
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name) and name.id not in result:
                        result[name.id] = hit
                        changed = True
    return result


def _module_constants(tree: ast.Module) -> dict[str, Artifact]:
    top = ast.Module(body=[s for s in tree.body if isinstance(s, ast.Assign | ast.AnnAssign)], type_ignores=[])
    return _assignments(top, {})


def _imported_constants(tree: ast.Module, constants: dict[str, dict[str, Artifact]]) -> dict[str, Artifact]:
    out: dict[str, Artifact] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in constants and node.level == 0:
            for alias in node.names:
                if alias.name in constants[node.module]:
                    out[alias.asname or alias.name] = constants[node.module][alias.name]
    return out


def _writes(tree: ast.Module, module_bound: dict[str, Artifact]) -> list[tuple[ast.Call, Artifact]]:
    scopes: list[ast.AST] = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    scopes.append(tree)
    hits: dict[int, tuple[ast.Call, Artifact]] = {}
    for scope in scopes:
        bound = _assignments(scope, module_bound) if scope is not tree else module_bound
        for node in ast.walk(scope):
            if not isinstance(node, ast.Call) or id(node) in hits:
                continue
            named = _contract_named(node)
            if named is not None:  # write_artifact("quant_plan", path, doc): the contract names the artifact
                hits[id(node)] = (node, named)
                continue
            for part in _destinations(node):
                hit = _literal_artifact(part, bound)
                if hit:
                    hits[id(node)] = (node, hit)
                    break
    return list(hits.values())


def _contract_named(call: ast.Call) -> Artifact | None:
    """The artifact of a ``write_artifact``/``write_artifact_text`` call whose contract is a string literal."""
    func = call.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
    contract = _arg(call, 0, "contract") if name in ("write_artifact", "write_artifact_text") else None
    if isinstance(contract, ast.Constant) and isinstance(contract.value, str):
        return ARTIFACTS.get(contract.value)
    return None


def _arg(call: ast.Call, index: int, keyword: str) -> ast.AST | None:
    if len(call.args) > index:
        return call.args[index]
    return next((k.value for k in call.keywords if k.arg == keyword), None)


def _destinations(call: ast.Call) -> list[ast.AST]:
    """The expressions naming where ``call`` writes ([] when it is not a write).

    Only destinations are inspected, so writing *content* that mentions an artifact's file name
    (a report saying "see quant_plan.json") is not a write of that artifact.
    """
    func = call.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
    receiver = [func.value] if isinstance(func, ast.Attribute) else []
    if name in ("atomic_write_text", "atomic_write_bytes"):
        return [d for d in (_arg(call, 0, "path"),) if d is not None]
    if name in ("write_text", "write_bytes", "symlink_to", "hardlink_to"):
        return receiver
    if name in ("rename", "replace") and receiver:  # Path(tmp).replace(target) / os.replace(src, dst)
        return [d for d in (_arg(call, 0, "target"),) if d is not None] if not _is_module(receiver[0], "os") \
            else [d for d in (_arg(call, 1, "dst"),) if d is not None]
    if name in ("copy", "copy2", "copyfile", "move"):
        return [d for d in (_arg(call, 1, "dst"),) if d is not None]
    if name in ("dump", "safe_dump"):  # json.dump(obj, fp) / yaml.safe_dump(obj, stream)
        return [d for d in (_arg(call, 1, "fp") or _arg(call, 1, "stream"),) if d is not None]
    if name == "open":
        if receiver and not _is_module(receiver[0], "io"):  # Path(...).open("w")
            mode, target = _arg(call, 0, "mode"), receiver[0]
        else:
            mode, target = _arg(call, 1, "mode"), _arg(call, 0, "file")
        writing = isinstance(mode, ast.Constant) and isinstance(mode.value, str) and any(c in mode.value for c in "wax+")
        return [target] if writing and target is not None else []
    return []


def _is_module(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name
