"""Static check of the one-producer rule, made exact by the one writer.

Every artifact reaches disk through :func:`quarkci.core.documents.write_artifact` (or
``write_artifact_text`` for a rendered twin), whose first argument is the artifact's contract name. The
check reads quarkci's source with :mod:`ast` (nothing is imported) and:

1. finds every ``write_artifact``/``write_artifact_text`` call, its literal contract name and the calling
   module, and verifies the module against the registry producer (:data:`quarkci.core.artifacts.ARTIFACTS`);
   a contract name that is not a literal (or a module constant bound to one) is itself a violation;
2. flags every other write whose destination names a registered artifact file (``quant_plan.json``, as a
   literal, an f-string part, a path expression or a name bound to one, also imported constants): a direct
   ``write_text``/``write_bytes``, ``open(..., "w")``, ``json.dump``/``yaml.safe_dump`` to a stream,
   ``atomic_write_text``/``atomic_write_bytes``, ``shutil.copy``/``move``, ``rename``/``replace`` - even in the
   producer: only the one writer may write an artifact;
3. follows paths passed as a parameter: a function whose parameter flows (through assignments, also
   through other such helpers) into a write destination is a *writing helper*; a call passing an artifact
   file name to that parameter is a write of that artifact from the calling module;
4. reports, from the registry, which quarkci-produced artifacts it verified (a ``write_artifact`` call in
   the producer) and which it could not (no such call: a violation), and that external artifacts
   (Quark's skills produce them) are written nowhere in quarkci.

Limits (documented): dynamically built file names and attribute constants (``plan.PLAN_FILE``) are not
followed; helpers are matched by function name.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from quarkci.core.artifacts import ARTIFACTS, Artifact

RULE = "contract-producer"
WRITERS = ("write_artifact", "write_artifact_text")
WRITER_MODULE = "quarkci.core.documents"


@dataclass(frozen=True, order=True)
class ProducerViolation:
    """A problem at ``file``:``line``:``col`` in ``module`` about ``artifact``.

    ``problem``: ``wrong-producer`` (write_artifact from a module that is not the producer), ``external``
    (quarkci writes an artifact Quark's skills produce), ``bypass`` (written without write_artifact),
    ``dynamic-contract`` (write_artifact with a contract name that is not a literal) or ``unverified`` (no
    write_artifact call in the producer)."""

    file: str
    line: int
    col: int
    module: str
    artifact: str
    producer: str
    problem: str = "wrong-producer"
    via: str = ""

    def one_line(self) -> str:
        """Canonical ``path:line:col: message [rule-id]`` form."""
        who = "an external Quark skill" if self.producer.startswith("external:") else self.producer
        where = f"{self.file}:{self.line}:{self.col}"
        if self.problem == "bypass":
            how = f" through {self.via}()" if self.via else ""
            return (
                f"{where}: {self.module} writes {self.artifact}{how} without write_artifact "
                f"(only write_artifact({self.artifact!r}, ...) in {who} may write it) [{RULE}]"
            )
        if self.problem == "dynamic-contract":
            return f"{where}: {self.module} calls {self.via}() with a contract name that is not a literal [{RULE}]"
        if self.problem == "unverified":
            return (
                f"{where}: no write_artifact({self.artifact!r}, ...) call found in its producer {who} "
                f"[{RULE}]"
            )
        return f"{where}: {self.module} writes {self.artifact}, whose one producer is {who} [{RULE}]"


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
    """One write of ``artifact`` found in ``module`` (``file`` relative to the root, 1-based line/col).

    ``style``: ``write_artifact`` (the one writer), ``direct`` or ``helper:<function>``; ``artifact`` is ""
    for a write_artifact call whose contract name is not a literal."""

    file: str
    line: int
    col: int
    module: str
    artifact: str
    style: str = "direct"


@dataclass(frozen=True)
class ProducerReport:
    """Everything the check found: ``writes``, ``violations``, and from the registry the quarkci-produced
    artifacts ``verified`` (a write_artifact call in the producer) and the ``external`` ones."""

    writes: list[ArtifactWrite]
    violations: list[ProducerViolation]
    verified: tuple[str, ...] = ()
    external: tuple[str, ...] = ()
    produced: tuple[str, ...] = field(default=())


def _parse(root: Path, package: str) -> dict[str, tuple[Path, ast.Module]]:
    trees: dict[str, tuple[Path, ast.Module]] = {}
    for path in sorted((root / package).rglob("*.py")):
        try:
            trees[module_name(path, root)] = (path, ast.parse(path.read_text("utf-8"), str(path)))
        except (SyntaxError, UnicodeDecodeError, ValueError):
            continue
    return trees


def find_writes(root: str | Path, package: str = "quarkci") -> list[ArtifactWrite]:
    """Every write of an artifact in ``root/<package>/**/*.py`` (all three kinds), sorted.

    ``root`` is the repository root; reported files are relative to it. Files that do not parse
    are skipped (ruff reports them).
    """
    root = Path(root)
    trees = _parse(root, package)
    constants = {mod: _module_constants(tree) for mod, (_p, tree) in trees.items()}
    helpers = _writing_helpers(trees)
    found: set[ArtifactWrite] = set()
    for mod, (path, tree) in trees.items():
        if mod == WRITER_MODULE:
            continue  # the one writer itself
        bound = dict(constants[mod])
        bound.update(_imported_constants(tree, constants))
        rel = path.relative_to(root).as_posix()
        for call, artifact, style in _writes(tree, bound, helpers):
            found.add(
                ArtifactWrite(
                    rel, call.lineno, call.col_offset + 1, mod, artifact.name if artifact else "", style
                )
            )
    return sorted(found)


def audit(root: str | Path, package: str = "quarkci") -> ProducerReport:
    """Run the check (see the module docstring) over ``root/<package>``."""
    writes = find_writes(root, package)
    violations: list[ProducerViolation] = []
    verified: set[str] = set()
    for w in writes:
        if w.style == "write_artifact" or w.style.startswith("writer:"):
            if not w.artifact:
                violations.append(
                    ProducerViolation(
                        w.file,
                        w.line,
                        w.col,
                        w.module,
                        "?",
                        "",
                        "dynamic-contract",
                        w.style.removeprefix("writer:") or "write_artifact",
                    )
                )
                continue
            artifact = ARTIFACTS[w.artifact]
            if artifact.produced_by(w.module):
                verified.add(artifact.name)
            else:
                problem = "external" if artifact.external else "wrong-producer"
                violations.append(
                    ProducerViolation(w.file, w.line, w.col, w.module, w.artifact, artifact.producer, problem)
                )
        else:
            artifact = ARTIFACTS[w.artifact]
            violations.append(
                ProducerViolation(
                    w.file,
                    w.line,
                    w.col,
                    w.module,
                    w.artifact,
                    artifact.producer,
                    "external" if artifact.external else "bypass",
                    w.style.removeprefix("helper:") if w.style != "direct" else "",
                )
            )
    produced = tuple(a.name for a in ARTIFACTS.values() if not a.external)
    for name in produced:
        if name not in verified:
            violations.append(
                ProducerViolation(
                    "quarkci/core/artifacts.py",
                    0,
                    0,
                    ARTIFACTS[name].producer,
                    name,
                    ARTIFACTS[name].producer,
                    "unverified",
                )
            )
    external = tuple(a.name for a in ARTIFACTS.values() if a.external)
    return ProducerReport(
        writes, sorted(violations), tuple(n for n in produced if n in verified), external, produced
    )


def check_producers(root: str | Path, package: str = "quarkci") -> list[ProducerViolation]:
    """The violations of :func:`audit` (``[]`` when every artifact is written only through write_artifact,
    by its one producer, and every quarkci-produced artifact has such a call)."""
    return audit(root, package).violations


# Calls whose result is still the path they were given (a path expression); any other call's result is a
# new value (``build_plan(analysis, path)`` returns a plan, not the path), so names are not followed into it.
_PATH_CALLS = frozenset(
    {
        "Path",
        "PurePath",
        "PosixPath",
        "str",
        "fspath",
        "join",
        "joinpath",
        "resolve",
        "absolute",
        "expanduser",
        "with_name",
        "with_suffix",
        "format",
    }
)


def _path_nodes(node: ast.AST) -> Iterator[ast.AST]:
    """The nodes of expression ``node`` that can carry a path: like :func:`ast.walk`, but the arguments of a
    call are entered only for path-building calls (:data:`_PATH_CALLS`)."""
    stack = [node]
    while stack:
        sub = stack.pop()
        yield sub
        if isinstance(sub, ast.Call):
            func = sub.func
            name = (
                func.id
                if isinstance(func, ast.Name)
                else func.attr
                if isinstance(func, ast.Attribute)
                else ""
            )
            if name not in _PATH_CALLS:
                continue
        stack.extend(ast.iter_child_nodes(sub))


def _literal_artifact(node: ast.AST, bound: dict[str, Artifact]) -> Artifact | None:
    for sub in _path_nodes(node):
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            hit = artifact_for_literal(sub.value)
            if hit:
                return hit
        elif isinstance(sub, ast.Name) and sub.id in bound:
            return bound[sub.id]
    return None


def _assignments(body: ast.AST, bound: dict[str, Artifact]) -> dict[str, Artifact]:
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
    top = ast.Module(
        body=[s for s in tree.body if isinstance(s, ast.Assign | ast.AnnAssign)], type_ignores=[]
    )
    return _assignments(top, {})


def _imported_constants(tree: ast.Module, constants: dict[str, dict[str, Artifact]]) -> dict[str, Artifact]:
    out: dict[str, Artifact] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in constants and node.level == 0:
            for alias in node.names:
                if alias.name in constants[node.module]:
                    out[alias.asname or alias.name] = constants[node.module][alias.name]
    return out


def _func_name(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _contract(call: ast.Call, bound_strings: dict[str, str]) -> Artifact | None:
    """The artifact named by a write_artifact call's contract argument (a literal or a string constant)."""
    arg = _arg(call, 0, "contract")
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return ARTIFACTS.get(arg.value)
    if isinstance(arg, ast.Name) and arg.id in bound_strings:
        return ARTIFACTS.get(bound_strings[arg.id])
    return None


def _string_constants(tree: ast.Module) -> dict[str, str]:
    out: dict[str, str] = {}
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    out[target.id] = node.value.value
    return out


Helpers = dict[str, tuple[tuple[int, str], ...]]  # function name -> (index, name) of parameters written to


def _params(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    names = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)]
    return names[1:] if names and names[0] in ("self", "cls") else names


def _writing_helpers(trees: dict[str, tuple[Path, ast.Module]]) -> Helpers:
    """Functions whose parameter flows into a write destination (directly or through another helper)."""
    functions = [
        (_import_aliases(tree), fn)
        for mod, (_p, tree) in trees.items()
        if mod != WRITER_MODULE
        for fn in ast.walk(tree)
        if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef)
    ]
    helpers: Helpers = {}
    changed = True
    while changed:  # fixpoint: a helper calling a helper with its own parameter is a helper too
        changed = False
        for aliases, fn in functions:
            if fn.name in WRITERS:
                continue
            written = []
            for index, param in enumerate(_params(fn)):
                tainted = _tainted(fn, param)
                dests = [
                    d
                    for call in _calls(fn)
                    for d in (*_destinations(call), *_destinations(call, helpers, aliases))
                ]
                if any(_mentions(dest, tainted) for dest in dests):
                    written.append((index, param))
            merged = tuple(
                sorted(set(helpers.get(fn.name, ())) | set(written))
            )  # same name in two modules: union
            if written and merged != helpers.get(fn.name):
                helpers[fn.name] = merged
                changed = True
    return helpers


def _calls(scope: ast.AST) -> list[ast.Call]:
    return [n for n in ast.walk(scope) if isinstance(n, ast.Call)]


def _tainted(fn: ast.AST, param: str) -> set[str]:
    """``param`` and every local name assigned (transitively) from an expression mentioning it."""
    names = {param}
    nodes = [n for n in ast.walk(fn) if isinstance(n, ast.Assign | ast.AnnAssign | ast.NamedExpr)]
    changed = True
    while changed:
        changed = False
        for node in nodes:
            if node.value is None or not _mentions(node.value, names):
                continue
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name) and name.id not in names:
                        names.add(name.id)
                        changed = True
    return names


def _mentions(node: ast.AST, names: set[str]) -> bool:
    return any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(node))


def _writes(
    tree: ast.Module, module_bound: dict[str, Artifact], helpers: Helpers | None = None
) -> list[tuple[ast.Call, Artifact | None, str]]:
    """(call, artifact, style) for every write in ``tree``: write_artifact calls (artifact None when the
    contract name is not a literal), direct writes and calls of writing helpers naming an artifact file."""
    helpers = helpers or {}
    strings = _string_constants(tree)
    aliases = _import_aliases(tree)
    scopes: list[ast.AST] = [
        n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
    ]
    scopes.append(tree)
    hits: dict[int, tuple[ast.Call, Artifact | None, str]] = {}
    for scope in scopes:
        bound = _assignments(scope, module_bound) if scope is not tree else module_bound
        for node in ast.walk(scope):
            if not isinstance(node, ast.Call) or id(node) in hits:
                continue
            name = _func_name(node)
            if name in WRITERS:
                hits[id(node)] = (
                    node,
                    _contract(node, strings),
                    "write_artifact" if name == WRITERS[0] else f"writer:{name}",
                )
                continue
            direct = _destinations(node)
            for part in direct or _destinations(node, helpers, aliases):
                hit = _literal_artifact(part, bound)
                if hit:
                    hits[id(node)] = (node, hit, "direct" if direct else f"helper:{name}")
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


def _destinations(
    call: ast.Call, helpers: Helpers | None = None, aliases: frozenset[str] = frozenset()
) -> list[ast.AST]:
    """The expressions naming where ``call`` writes ([] when it is not a write); with ``helpers``, only
    the arguments a writing helper writes to.

    Only destinations are inspected, so writing *content* that mentions an artifact's file name
    (a report saying "see quant_plan.json") is not a write of that artifact.
    """
    func = call.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
    if helpers is not None:
        if name in WRITERS or name not in helpers:
            return []
        if isinstance(func, ast.Attribute) and not (
            isinstance(func.value, ast.Name)
            and (func.value.id in ("self", "cls") or func.value.id in aliases)
        ):
            return []  # fh.write(...): a method of some object, not the helper of that name
        return [d for index, param in helpers[name] if (d := _arg(call, index, param)) is not None]
    receiver: list[ast.AST] = [func.value] if isinstance(func, ast.Attribute) else []
    if name in ("atomic_write_text", "atomic_write_bytes"):
        return [d for d in (_arg(call, 0, "path"),) if d is not None]
    if name in ("write_text", "write_bytes", "symlink_to", "hardlink_to"):
        return receiver
    if name in ("rename", "replace") and receiver:  # Path(tmp).replace(target) / os.replace(src, dst)
        return (
            [d for d in (_arg(call, 0, "target"),) if d is not None]
            if not _is_module(receiver[0], "os")
            else [d for d in (_arg(call, 1, "dst"),) if d is not None]
        )
    if name in ("copy", "copy2", "copyfile", "move"):
        return [d for d in (_arg(call, 1, "dst"),) if d is not None]
    if name in ("dump", "safe_dump"):  # json.dump(obj, fp) / yaml.safe_dump(obj, stream)
        return [d for d in (_arg(call, 1, "fp") or _arg(call, 1, "stream"),) if d is not None]
    if name == "open":
        target: ast.AST | None
        if receiver and not _is_module(receiver[0], "io"):  # Path(...).open("w")
            mode, target = _arg(call, 0, "mode"), receiver[0]
        else:
            mode, target = _arg(call, 1, "mode"), _arg(call, 0, "file")
        writing = (
            isinstance(mode, ast.Constant)
            and isinstance(mode.value, str)
            and any(c in mode.value for c in "wax+")
        )
        return [target] if writing and target is not None else []
    return []


def _import_aliases(tree: ast.AST) -> frozenset[str]:
    """Names bound by imports in ``tree`` (module aliases a helper may be called through)."""
    return frozenset(
        (a.asname or a.name).split(".")[0]
        for n in ast.walk(tree)
        if isinstance(n, ast.Import | ast.ImportFrom)
        for a in n.names
    )


def _is_module(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name
