"""Public API: for every module under ``quark/``, the names an ``import`` of it can reach.

Read with :mod:`ast`, never imported. One item per module, named by its dotted path
(``quark.torch.utils.llm``; a package is named by its directory, read from ``__init__.py``). Attrs:

* ``names``: every name bound at module level (classes, functions, assignments, imports, including
  those inside top-level ``if``/``try`` blocks), sorted: exactly what ``from M import X`` resolves;
* ``defines``: the names of ``names`` the module itself defines (classes, functions, assignments; no
  import, no dunder): its content, which says where a moved file went (``upstream-fact-moved``);
* ``public``: ``__all__`` when it is a literal list, else the names without a leading underscore that
  the module defines or imports from ``quark`` (re-exports; ``import json`` is not Quark's API);
* ``all``: the literal ``__all__`` (None when absent or computed);
* ``star``: the modules ``from X import *`` pulls in (absolute dotted names), resolved by the reader;
* ``getattr``: True when the module defines a module-level ``__getattr__`` (PEP 562): names it
  serves cannot be known statically, so a missing name there is unverifiable, never removed;
* ``signatures``: ``{name: parameter names}`` of its public functions, classes (their own ``__init__``)
  and methods (``"Class.method"``), ``"**"`` last when ``**kwargs`` accepts any keyword;
* ``defaults``: ``{name: {parameter: default}}``, keyed like ``signatures``, for the parameters whose
  default is a constant (``None``, ``True``, a number, a string: written as Python would print it, a
  string without its quotes);
* ``origins``: ``{name: "quark.mod.Name"}`` of its ``from quark... import`` bindings (re-exports);
* ``tables``: ``{name: keys}`` of its public module-level dict literals keyed by strings (lookup tables:
  ``DefaultConfigMapping``, the ONNX configuration names, see :func:`onnx_configs`);
* ``classes``: per class its bases, own ``__init__``, whether it is a dataclass and its fields, from which
  :meth:`ApiIndex.signature` composes the signature a class inherits (an ``__init__`` or dataclass fields
  of a base class, in another module too).

Submodules are reachable from their package too (``from quark.torch import export``): the rules
check :data:`ITEMS` by module name before the names of the parent.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from quarkci.facts.base import FactItem
from quarkci.facts.source import parse_text, read, too_large_to_parse
from quarkci.upstream.base import Snapshot

KIND = "public_api"
ROOT = "quark/"
_SKIPPED_DIRS = ("/_bundled_skills/",)


def module_name(path: str) -> str:
    """``quark/torch/utils/llm/__init__.py`` -> ``quark.torch.utils.llm``; ``quark/a/b.py`` -> ``quark.a.b``."""
    stem = path[:-3]
    if stem.endswith("/__init__"):
        stem = stem[: -len("/__init__")]
    return stem.replace("/", ".")


def absolute_module(module: str, is_package: bool, level: int, target: str | None) -> str:
    """The absolute module of a relative ``from`` import inside ``module``."""
    if level == 0:
        return target or ""
    parts = module.split(".")
    base = parts if is_package else parts[:-1]
    base = base[: len(base) - (level - 1)] if level > 1 else base
    return ".".join([*base, target] if target else base)


def _bound(
    body: list[ast.stmt], module: str, is_package: bool
) -> Iterator[tuple[str, str | None, bool, bool]]:
    """(name, star-import module or None, own, defined) for every module-level binding of ``body``;
    ``own`` is True for a definition or an import from ``quark`` (a re-export), False for a third-party
    import; ``defined`` is True for a definition (class, function, assignment), False for an import."""
    for node in body:
        if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            yield node.name, None, True, True
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                for sub in ast.walk(target):
                    if isinstance(sub, ast.Name):
                        yield sub.id, None, True, True
        elif isinstance(node, ast.AnnAssign | ast.AugAssign) and isinstance(node.target, ast.Name):
            yield node.target.id, None, True, True
        elif isinstance(node, ast.Import):
            for alias in node.names:
                yield (alias.asname or alias.name.split(".")[0]), None, alias.name.startswith("quark."), False
        elif isinstance(node, ast.ImportFrom):
            source = absolute_module(module, is_package, node.level, node.module)
            for alias in node.names:
                if alias.name == "*":
                    yield "*", source, True, False
                else:
                    quark = source == "quark" or source.startswith("quark.")
                    yield alias.asname or alias.name, None, quark, False
        elif isinstance(node, ast.If):
            yield from _bound(node.body + node.orelse, module, is_package)
        elif isinstance(node, ast.Try):
            blocks = node.body + node.orelse + node.finalbody + [s for h in node.handlers for s in h.body]
            yield from _bound(blocks, module, is_package)
        elif isinstance(node, ast.With):
            yield from _bound(node.body, module, is_package)


def _literal_all(tree: ast.Module) -> list[str] | None:
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
            and isinstance(node.value, ast.List | ast.Tuple)
        ):
            names = [
                e.value for e in node.value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)
            ]
            return names if len(names) == len(node.value.elts) else None
    return None


def module_item(path: str, text: str) -> FactItem | None:
    """The item of one module file (None when it is not valid Python). A module too large to parse
    (:func:`quarkci.facts.source.too_large_to_parse`) exists but its names cannot be known: its item
    has no names and ``getattr`` True, so a name imported from it is unverifiable, never removed."""
    if too_large_to_parse(text) is not None:
        unknown: dict[str, object] = {"names": [], "public": [], "all": None, "star": [], "getattr": True}
        return FactItem(module_name(path), path, 1, {**unknown, "unparsed": "too large to parse"})
    tree = parse_text(text, path)
    if tree is None:
        return None
    module = module_name(path)
    names: set[str] = set()
    own: set[str] = set()
    defines: set[str] = set()
    star: set[str] = set()
    for name, source, is_own, defined in _bound(tree.body, module, path.endswith("/__init__.py")):
        if name == "*":
            if source:
                star.add(source)
        else:
            names.add(name)
            if is_own:
                own.add(name)
            if defined and not (name.startswith("__") and name.endswith("__")):
                defines.add(name)
    declared = _literal_all(tree)
    public = declared if declared is not None else sorted(n for n in own if not n.startswith("_"))
    signatures, origins = _signatures(tree.body), _origins(tree.body, module, path.endswith("/__init__.py"))
    classes = _classes(tree.body, module, origins)
    return FactItem(
        module,
        path,
        1,
        {
            "names": sorted(names),
            "defines": sorted(defines),
            "public": sorted(set(public)),
            "all": declared,
            "star": sorted(star),
            "getattr": "__getattr__" in names,
            "signatures": signatures,
            "defaults": _defaults_of(tree.body),
            "required": _required_of(tree.body),
            "origins": origins,
            "classes": classes,
            "literals": _literals(tree.body),
            "tables": _tables(tree.body),
        },
    )


def _tables(body: list[ast.stmt]) -> dict[str, list[str]]:
    """``{name: keys}`` of the public module-level dict literals with at least two keys, all string
    constants, in written order: lookup tables such as ``DefaultConfigMapping`` of
    ``quark/onnx/quantization/config/custom_config.py`` (the names ``get_default_config`` accepts)."""
    out: dict[str, list[str]] = {}
    for node in body:
        target = node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else None
        if isinstance(node, ast.AnnAssign):
            target = node.target
        value = node.value if isinstance(node, ast.Assign | ast.AnnAssign) else None
        if not isinstance(target, ast.Name) or target.id.startswith("_") or not isinstance(value, ast.Dict):
            continue
        keys = [k.value for k in value.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]
        if len(keys) >= 2 and len(keys) == len(value.keys):
            out[target.id] = list(dict.fromkeys(keys))
    return out


def onnx_configs(items: list[FactItem]) -> frozenset[str]:
    """The configuration names ``quark.onnx`` knows (``get_default_config("XINT8")``, ``quark-cli onnx-ptq
    --config``, an auto-search preset): the keys of ``DefaultConfigMapping`` and the ``*_CONFIG`` constants
    (less the suffix: ``XINT8_WEIGHTSONLY_ADAROUND``) of ``quark/onnx/quantization/config/custom_config.py``
    (every release from 0.6.0 on), and the keys of ``AUTO_SEARCH_CONFIGS`` in
    ``quark/onnx/quantization/auto_search/qconfig_mapping.py`` (``XINT8_SEARCH``); empty when the release
    has none of them."""
    out: set[str] = set()
    for item in items:
        tables = item.attrs.get("tables") or {}
        if item.name == ONNX_CONFIG_MODULE:
            out.update(tables.get("DefaultConfigMapping") or ())
            out.update(
                str(n).removesuffix("_CONFIG")
                for n in item.attrs.get("defines", [])
                if str(n).endswith("_CONFIG") and str(n).isupper()
            )
        elif item.name == ONNX_SEARCH_MODULE:
            out.update(tables.get("AUTO_SEARCH_CONFIGS") or ())
    return frozenset(out)


ONNX_SEARCH_MODULE = "quark.onnx.quantization.auto_search.qconfig_mapping"
ONNX_CONFIG_MODULE = "quark.onnx.quantization.config.custom_config"


def _params(node: ast.FunctionDef | ast.AsyncFunctionDef, method: bool) -> list[str]:
    """The keyword-passable parameter names of a function (``self``/``cls`` of a method left out), with
    ``"**"`` last when it takes ``**kwargs`` (then any keyword is accepted)."""
    args = node.args
    names = [a.arg for a in [*args.posonlyargs, *args.args]][len(args.posonlyargs) :]
    names = [a.arg for a in args.args] if not args.posonlyargs else names
    if method and names and not _is_static(node):
        names = names[1:]
    names += [a.arg for a in args.kwonlyargs]
    return names + (["**"] if args.kwarg is not None else [])


def _strings(node: ast.expr) -> list[str] | None:
    """The string constants of ``node`` (a string, or a list/tuple/set of strings), else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.List | ast.Tuple | ast.Set) and node.elts:
        out = [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        return out if len(out) == len(node.elts) else None
    return None


def _test(node: ast.expr, params: set[str]) -> tuple[str, str, list[str]] | None:
    """``(param, operator, values)`` of a test ``param == "a"``, ``param in [...]``, ``param != "a"`` or
    ``param not in [...]`` on one of ``params``, else None."""
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.left, ast.Name)):
        return None
    if node.left.id not in params or (values := _strings(node.comparators[0])) is None:
        return None
    op = node.ops[0]
    kind = "in" if isinstance(op, ast.Eq | ast.In) else "out" if isinstance(op, ast.NotEq | ast.NotIn) else ""
    return (node.left.id, kind, values) if kind else None


def _raises(body: list[ast.stmt]) -> bool:
    return any(isinstance(stmt, ast.Raise) for stmt in body)


def _closed_literals(node: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, list[str]]:
    """``{parameter: values}`` for each parameter whose string values the function closes: an
    ``if p == "a": ... elif p in ["b", "c"]: ... else: raise`` chain, or ``if p not in [...]: raise``
    (quark/torch/export/api.py ``export_safetensors``'s ``custom_mode``: quark, awq, fp8). A parameter only
    compared (no raise for the rest) accepts other values too and is left out."""
    params = {a.arg for a in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]}
    out: dict[str, set[str]] = {}
    for stmt in ast.walk(node):
        if not isinstance(stmt, ast.If) or (first := _test(stmt.test, params)) is None:
            continue
        param, kind, values = first
        if kind == "out" and _raises(stmt.body):
            out.setdefault(param, set()).update(values)
            continue
        if kind != "in":
            continue
        seen, branch = set(values), stmt
        while len(branch.orelse) == 1 and isinstance(branch.orelse[0], ast.If):
            nxt = _test(branch.orelse[0].test, params)
            if nxt is None or nxt[0] != param or nxt[1] != "in":
                break
            seen.update(nxt[2])
            branch = branch.orelse[0]
        else:
            if branch.orelse and _raises(branch.orelse):
                out.setdefault(param, set()).update(seen)
    return {p: sorted(v) for p, v in sorted(out.items())}


def _literals(body: list[ast.stmt]) -> dict[str, dict[str, list[str]]]:
    """:func:`_closed_literals` of the public functions and methods of a module body, keyed like
    :func:`_signatures` (``export_safetensors``, ``Class.method``; a class's own ``__init__`` under the
    class name); callables with no closed parameter are left out."""
    out = {key: found for key, node, _ in _public_callables(body) if (found := _closed_literals(node))}
    return dict(sorted(out.items()))


def _defaults(node: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, str]:
    """``{parameter: default}`` of the parameters of ``node`` whose default is a constant (see the module
    doc); a default computed by an expression is left out (it cannot be read statically), and so is a
    ``None`` the body replaces (:func:`_replaced_nones`)."""
    args = node.args
    positional = [*args.posonlyargs, *args.args]
    pairs = list(zip(positional[len(positional) - len(args.defaults) :], args.defaults, strict=True))
    pairs += [(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None]
    out: dict[str, str] = {}
    replaced: set[str] | None = None
    for arg, default in pairs:
        if (text := _constant(default)) is None:
            continue
        if text == "None":
            replaced = _replaced_nones(node) if replaced is None else replaced
            if arg.arg in replaced:
                continue  # `if quantize is None: quantize = True`: the body computes the default
        out[arg.arg] = text
    return out


def _replaced_nones(node: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """The parameters ``node``'s body gives a value when they are None: an ``if``/``elif`` testing
    ``p is None`` whose branch assigns ``p`` (0.13 ``export_safetensors``: ``if weight_format is None:
    weight_format = ...``). Nested functions and classes are not read."""
    out: set[str] = set()
    stack: list[ast.AST] = list(node.body)
    while stack:
        stmt = stack.pop()
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        if isinstance(stmt, ast.If) and (name := _is_none_test(stmt.test)) and name in _assigned(stmt.body):
            out.add(name)
        stack.extend(ast.iter_child_nodes(stmt))
    return out


def _assigned(body: list[ast.stmt]) -> set[str]:
    """The plain names the statements of ``body`` assign (``x = ...``, ``x: T = ...``), not nested ones."""
    out: set[str] = set()
    for stmt in body:
        targets = (
            stmt.targets
            if isinstance(stmt, ast.Assign)
            else [stmt.target]
            if isinstance(stmt, ast.AnnAssign)
            else []
        )
        out.update(t.id for t in targets if isinstance(t, ast.Name))
    return out


def _is_none_test(test: ast.expr) -> str | None:
    """``p`` for the test ``p is None``, else None."""
    if (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.Is)
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value is None
    ):
        return test.left.id
    return None


def _constant(node: ast.expr) -> str | None:
    """A constant default as the facts store it (a string as is, another constant as ``repr``, an enum
    member of a named class as written: ``CalibrationMethod.MinMax``), else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str | int | float | bool | None):
        return node.value if isinstance(node.value, str) else repr(node.value)
    if (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id[:1].isupper()
        and not node.attr.startswith("_")
    ):
        return (
            f"{node.value.id}.{node.attr}"  # 0.9 quantize_static(calibrate_method=CalibrationMethod.MinMax)
        )
    if (
        isinstance(node, ast.UnaryOp)
        and isinstance(node.op, ast.USub)
        and isinstance(node.operand, ast.Constant)
        and isinstance(node.operand.value, int | float)
    ):
        return repr(-node.operand.value)
    return None


def _constant_list(node: ast.expr) -> str | None:
    """A list or tuple of string/number constants as Python prints it (``['CPUExecutionProvider']``), else
    None."""
    if not isinstance(node, ast.List | ast.Tuple) or len(node.elts) > 16:
        return None
    values = [
        e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str | int | float)
    ]
    if len(values) != len(node.elts):
        return None
    return repr(values if isinstance(node, ast.List) else tuple(values))


def _field_defaults(node: ast.ClassDef) -> dict[str, str]:
    """``{field: default}`` of the fields a ``@dataclass`` body declares with a constant default
    (``weight_format: str = "real_quantized"``, ``field(default=...)``, or a ``default_factory`` lambda
    returning a list of constants: ``['CPUExecutionProvider']``): the defaults of the ``__init__`` the
    decorator writes (fields inherited from a base are left out)."""
    out: dict[str, str] = {}
    for member in node.body:
        if (
            not (isinstance(member, ast.AnnAssign) and isinstance(member.target, ast.Name))
            or member.value is None
        ):
            continue
        if "ClassVar" in ast.unparse(member.annotation) or member.target.id.startswith("_"):
            continue
        value: ast.expr | None = member.value
        if (call := _field_call(value)) is not None:
            factory = next((k.value for k in call.keywords if k.arg == "default_factory"), None)
            value = next((k.value for k in call.keywords if k.arg == "default"), None)
            if isinstance(factory, ast.Lambda):  # `field(default_factory=lambda: ["CPUExecutionProvider"])`
                value = factory.body
        if value is not None and (text := _constant(value) or _constant_list(value)) is not None:
            out[member.target.id] = text
    return out


def _defaults_of(body: list[ast.stmt]) -> dict[str, dict[str, str]]:
    """:func:`_defaults` of the callables :func:`_signatures` lists, keyed the same way; callables without
    a constant default are left out."""
    out = {key: found for key, node, _ in _public_callables(body) if (found := _defaults(node))}
    for node in body:  # a dataclass without its own __init__: the decorator's, from the field defaults
        if (
            isinstance(node, ast.ClassDef)
            and not node.name.startswith("_")
            and node.name not in out
            and _is_dataclass(node)
            and not any(isinstance(m, ast.FunctionDef) and m.name == "__init__" for m in node.body)
            and (found := _field_defaults(node))
        ):
            out[node.name] = found
    return dict(sorted(out.items()))


def _is_static(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list)


def _public_callables(
    body: list[ast.stmt],
) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef, bool]]:
    """``(key, node, method)`` of each public module-level function (``export_safetensors``), each public
    class's own ``__init__`` (keyed by the class name) and each public method (``"Class.method"``), in body
    order: the callables the ``signatures``, ``literals`` and ``defaults`` facts are keyed by."""
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and not node.name.startswith("_"):
            yield node.name, node, False
        elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            for member in node.body:
                if not isinstance(member, ast.FunctionDef | ast.AsyncFunctionDef):
                    continue
                if member.name == "__init__":
                    yield node.name, member, True
                elif not member.name.startswith("_"):
                    yield f"{node.name}.{member.name}", member, True


def _required(node: ast.FunctionDef | ast.AsyncFunctionDef, method: bool) -> list[str]:
    """The parameters of ``node`` a call must pass (no default; ``self``/``cls`` of a method, ``*args`` and
    ``**kwargs`` left out), in order: positional ones first, then keyword-only ones."""
    args = node.args
    positional = [*args.posonlyargs, *args.args]
    if method and positional and not _is_static(node):
        positional = positional[1:]
    without = positional[: max(len(positional) - len(args.defaults), 0)]
    keyword_only = [a for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is None]
    return [a.arg for a in [*without, *keyword_only]]


def _required_of(body: list[ast.stmt]) -> dict[str, list[str]]:
    """``{key: required parameters}`` (:func:`_required`) of the callables :func:`_signatures` keys, for
    those that require any: a call that passes none of one fails with TypeError."""
    out = {key: r for key, node, method in _public_callables(body) if (r := _required(node, method))}
    return dict(sorted(out.items()))


def _signatures(body: list[ast.stmt]) -> dict[str, list[str]]:
    """``{name: params}`` of the public module-level functions, each public class (its own ``__init__``,
    when the class body defines one) and each public method (``"Class.method"``); see :func:`_params`."""
    out = {key: _params(node, method=method) for key, node, method in _public_callables(body)}
    return dict(sorted(out.items()))


def _classes(body: list[ast.stmt], module: str, origins: dict[str, str]) -> dict[str, dict[str, object]]:
    """``{class name: {"bases", "init", "dataclass", "fields", "attributes", "required_fields"}}`` of every
    module-level class (private ones too: they are bases): ``bases`` as dotted names
    (``quark.common.config.BaseQLayerConfig`` for a base imported from Quark or defined here, else as
    written: ``ABC``, ``nn.Module``); ``init`` the parameters of its own ``__init__`` (:func:`_params`) or
    None; ``dataclass`` True under ``@dataclass`` (not ``init=False``); ``fields`` the names its body
    annotates (``ClassVar`` and ``field(init=False)`` left out), in order; ``attributes`` and
    ``required_fields`` see :func:`_attributes` and :func:`_required_fields`. :meth:`ApiIndex.signature`
    composes a class's call signature from them."""
    out: dict[str, dict[str, object]] = {}
    for node in body:
        if not isinstance(node, ast.ClassDef):
            continue
        init = next(
            (
                m
                for m in node.body
                if isinstance(m, ast.FunctionDef | ast.AsyncFunctionDef) and m.name == "__init__"
            ),
            None,
        )
        out[node.name] = {
            "bases": [_base_name(b, module, origins, body) for b in node.bases],
            "init": _params(init, method=True) if init is not None else None,
            "dataclass": (dataclass := _is_dataclass(node)),
            "fields": _fields(node),
            "attributes": _attributes(node),
            "required_fields": _required_fields(node) if dataclass else [],
        }
    return dict(sorted(out.items()))


def _required_fields(node: ast.ClassDef) -> list[str]:
    """The fields of :func:`_fields` a dataclass body declares with no default (no value, or a
    ``field(...)`` without ``default``/``default_factory``): the generated ``__init__`` requires them."""
    values = {
        m.target.id: m.value
        for m in node.body
        if isinstance(m, ast.AnnAssign) and isinstance(m.target, ast.Name)
    }
    out = []
    for name in _fields(node):
        value = values.get(name)
        call = _field_call(value)
        if value is None or (
            call is not None and not any(k.arg in ("default", "default_factory") for k in call.keywords)
        ):
            out.append(name)
    return out


def _field_call(value: ast.expr | None) -> ast.Call | None:
    """``value`` when it is a ``field(...)`` (or ``dataclasses.field(...)``) call, else None."""
    if isinstance(value, ast.Call) and getattr(value.func, "id", getattr(value.func, "attr", "")) == "field":
        return value
    return None


def _attributes(node: ast.ClassDef) -> list[str]:
    """The public names a class body assigns (enum members ``QInt32 = 7``, class constants, annotated
    fields), sorted: names a skill may write bare (``ExtendedQuantType`` has `QInt32`)."""
    out: set[str] = set()
    for member in node.body:
        targets = member.targets if isinstance(member, ast.Assign) else []
        if isinstance(member, ast.AnnAssign):
            targets = [member.target]
        out.update(t.id for t in targets if isinstance(t, ast.Name) and not t.id.startswith("_"))
    return sorted(out)


def _base_name(node: ast.expr, module: str, origins: dict[str, str], body: list[ast.stmt]) -> str:
    """A base class expression as a dotted name (see :func:`_classes`)."""
    if isinstance(node, ast.Subscript):  # Generic[T], SomeBase[int]
        node = node.value
    text = ast.unparse(node)
    if isinstance(node, ast.Name):
        if node.id in origins:
            return origins[node.id]
        if any(isinstance(n, ast.ClassDef) and n.name == node.id for n in body):
            return f"{module}.{node.id}"
    return text


def _is_dataclass(node: ast.ClassDef) -> bool:
    """True under ``@dataclass`` / ``@dataclasses.dataclass`` (called or not), unless ``init=False``."""
    for decorator in node.decorator_list:
        call = decorator if isinstance(decorator, ast.Call) else None
        target = call.func if call is not None else decorator
        name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
        if name != "dataclass":
            continue
        for keyword in call.keywords if call is not None else []:
            if (
                keyword.arg == "init"
                and isinstance(keyword.value, ast.Constant)
                and keyword.value.value is False
            ):
                return False
        return True
    return False


def _fields(node: ast.ClassDef) -> list[str]:
    """The ``__init__`` fields a dataclass body declares (see :func:`_classes`)."""
    out: list[str] = []
    for member in node.body:
        if not isinstance(member, ast.AnnAssign) or not isinstance(member.target, ast.Name):
            continue
        if "ClassVar" in ast.unparse(member.annotation):
            continue
        call = _field_call(member.value)
        if call is not None and any(
            k.arg == "init" and isinstance(k.value, ast.Constant) and k.value.value is False
            for k in call.keywords
        ):
            continue
        out.append(member.target.id)
    return out


def _origins(body: list[ast.stmt], module: str, is_package: bool) -> dict[str, str]:
    """``{bound name: "quark.module.Name"}`` for every module-level ``from quark... import Name [as n]``
    (inside top-level ``if``/``try`` too): where a re-exported name is defined."""
    out: dict[str, str] = {}
    for node in body:
        if isinstance(node, ast.ImportFrom):
            source = absolute_module(module, is_package, node.level, node.module)
            if source == "quark" or source.startswith("quark."):
                for alias in node.names:
                    if alias.name != "*":
                        out[alias.asname or alias.name] = f"{source}.{alias.name}"
        elif isinstance(node, ast.If | ast.Try):
            inner = [*node.body, *node.orelse, *getattr(node, "finalbody", [])]
            for handler in getattr(node, "handlers", []):
                inner.extend(handler.body)
            out.update(_origins(inner, module, is_package))
    return dict(sorted(out.items()))


def extract(snapshot: Snapshot) -> tuple[list[FactItem], list[str]]:
    """One item per ``quark/**.py`` (bundled skills' helper scripts excluded); unavailable: ``quark/``
    when the snapshot does not hold that tree."""
    items: list[FactItem] = []
    for path in snapshot.files(ROOT):
        if not path.endswith(".py") or any(d in path for d in _SKIPPED_DIRS):
            continue
        text = read(snapshot, path)
        item = module_item(path, text) if text is not None else None
        if item is not None:
            items.append(item)
    unavailable = [] if snapshot.covers("quark/__init__.py") else ["quark/"]
    return sorted(items), unavailable


# Bases whose ``__init__`` takes no arguments (or that add none to a dataclass)
_EMPTY_BASES = frozenset({"object", "ABC", "abc.ABC", "Generic", "typing.Generic", "Protocol"})
# the standard library's enum bases: an enum class's members are what its own body assigns
_ENUM_BASES = frozenset(
    {f"{p}{n}" for p in ("", "enum.") for n in ("Enum", "IntEnum", "StrEnum", "Flag", "IntFlag")}
)


_MAX_DEFINERS = 8  # a bare name defined in more modules than this names nothing in particular


def _merged(signatures: list[list[str] | None]) -> list[str] | None:
    """The parameters of several callables one name may mean, in first-seen order (``"**"`` last when
    any takes ``**kwargs``); None when none can be read."""
    read = [s for s in signatures if s is not None]
    if not read:
        return None
    out = list(dict.fromkeys(p for s in read for p in s if p != "**"))
    return out + (["**"] if any("**" in s for s in read) else [])


class ApiIndex:
    """Lookups over the ``public_api`` items of one release (modules by name, star re-exports followed)."""

    def __init__(self, items: list[FactItem]) -> None:
        self.modules: dict[str, FactItem] = {i.name: i for i in items}
        self._by_name: tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]] | None = None
        self._methods: dict[str, list[str]] | None = None
        self._parameters: dict[str, list[tuple[str, str]]] | None = None

    def __bool__(self) -> bool:
        return bool(self.modules)

    def has_module(self, module: str) -> bool:
        return module in self.modules

    def resolves(self, module: str, name: str, _depth: int = 0) -> bool | None:
        """True when ``from module import name`` works; False when it does not; None when the module
        has a ``__getattr__`` (unknowable). ``module`` must exist (see :meth:`has_module`)."""
        if f"{module}.{name}" in self.modules:
            return True  # a submodule
        item = self.modules.get(module)
        if item is None:
            return False
        if name in item.attrs.get("names", []):
            return True
        if _depth < 8:
            for source in item.attrs.get("star", []):
                if source in self.modules and self.resolves(source, name, _depth + 1):
                    return True
        return None if item.attrs.get("getattr") else False

    def bare(self, dotted: str) -> list[str]:
        """The dotted names a chain rooted at a bare name stands for (``ModelQuantizer.freeze`` ->
        ``quark.torch.ModelQuantizer.freeze``, and ``quark.onnx...`` too when both framework packages export
        it): one per framework package (``quark``, ``quark.torch``, ``quark.onnx``: a package at most two
        deep) whose ``public`` names hold the root and one per module defining it (at most
        :data:`_MAX_DEFINERS`), sorted; empty for a ``quark...`` chain or an unknown root."""
        root = dotted.split(".", 1)[0]
        if root == "quark":
            return []
        exporters, definers = self._exporters()
        # 0.13's quark.onnx exports a QConfig and quark.torch's is only defined: a bare `QConfig` may mean either
        modules = {*exporters.get(root, ()), *definers.get(root, ())[:_MAX_DEFINERS]}
        return [f"{module}.{dotted}" for module in sorted(modules)]

    def _exporters(self) -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
        """``({name: framework packages exporting it}, {name: modules defining it})``, built once: a name
        no framework package exports (``Config`` of ``quark.torch.quantization.config.config``) stands for
        its definitions."""
        if self._by_name is None:
            found: dict[str, list[str]] = {}
            defined: dict[str, list[str]] = {}
            for name, item in sorted(self.modules.items()):
                if item.file.endswith("/__init__.py") and name.count(".") <= 1:
                    for public in item.attrs.get("public", []):
                        found.setdefault(str(public), []).append(name)
                for own in item.attrs.get("defines", []):
                    if not str(own).startswith("_"):
                        defined.setdefault(str(own), []).append(name)
            self._by_name = (
                {k: tuple(v) for k, v in found.items()},
                {k: tuple(v) for k, v in defined.items()},
            )
        return self._by_name

    def signature(self, dotted: str, _depth: int = 0) -> list[str] | None:
        """The parameters (see :func:`_params`) of the function, class or method ``dotted`` names
        (``quark.torch.LLMTemplate.get_config``), following re-exports (``origins``) to the module that
        defines it; a class without its own ``__init__`` gets the one it inherits, a dataclass the fields of
        its dataclass bases and its own (see :meth:`_class_params`); None when it cannot be found
        statically (a base outside the release, a computed name). A chain rooted at a bare exported name
        (:meth:`bare`) takes every parameter of every package's callable it may mean (a keyword one of them
        takes is not unknown)."""
        if candidates := self._bare_callables(dotted):
            # every class of that name, exported or only defined (0.11's quark.onnx exports a GPTQConfig, the
            # torch one with damp_percent is only defined): a keyword one of them takes is not unknown
            candidates = sorted({*candidates, *self._definitions(dotted)})
            return _merged([self.signature(c, _depth + 1) for c in candidates])
        split = self.split(dotted)
        if split is None or not split[1] or _depth > 6:
            return None
        module, rest = split
        item = self.modules[module]
        key = ".".join(rest[:2])
        signatures = item.attrs.get("signatures") or {}
        if key in signatures:
            return list(signatures[key])
        if len(rest) == 1 and rest[0] in (item.attrs.get("classes") or {}):
            return self._class_params(module, rest[0], 0)
        origin = (item.attrs.get("origins") or {}).get(rest[0])
        if isinstance(origin, str) and origin != dotted:
            return self.signature(".".join([origin, *rest[1:]]), _depth + 1)
        return None

    def required(self, dotted: str, _depth: int = 0) -> list[str] | None:
        """The parameters a call of the callable ``dotted`` must pass (no default, in declaration order;
        ``self`` left out), when ``dotted`` names its own signature (a function, a method, or a class
        whose body defines ``__init__``) or a class whose ``__init__`` can be read statically
        (:meth:`_class_required`: a dataclass's fields without a default), re-exports followed like
        :meth:`signature`; None otherwise (a base outside the release, a bare name)."""
        split = self.split(dotted)
        if split is None or not split[1] or _depth > 6:
            return None
        module, rest = split
        attrs = self.modules[module].attrs
        key = ".".join(rest[:2])
        if key in (attrs.get("signatures") or {}) and len(rest) <= 2:
            return list((attrs.get("required") or {}).get(key) or [])
        if len(rest) == 1 and rest[0] in (attrs.get("classes") or {}):
            return self._class_required(module, rest[0], 0)
        origin = (attrs.get("origins") or {}).get(rest[0])
        if isinstance(origin, str) and origin != dotted:
            return self.required(".".join([origin, *rest[1:]]), _depth + 1)
        return None

    def literals(self, dotted: str, _depth: int = 0) -> dict[str, list[str]] | None:
        """``{parameter: the string values it accepts}`` of the callable ``dotted`` names, for the parameters
        its body closes (see :func:`_closed_literals`), following re-exports like :meth:`signature`; None
        when the callable cannot be found (``{}``: found, nothing closed). For a bare-rooted chain
        (:meth:`bare`), the values every package's callable accepts are merged."""
        if candidates := self.bare(dotted):
            each = [x for x in (self.literals(c, _depth + 1) for c in candidates) if x is not None]
            if not each:
                return None
            merged: dict[str, list[str]] = {}
            for one in each:
                for param, values in one.items():
                    merged.setdefault(param, []).extend(v for v in values if v not in merged[param])
            return merged
        split = self.split(dotted)
        if split is None or not split[1] or _depth > 6:
            return None
        module, rest = split
        attrs = self.modules[module].attrs
        key = ".".join(rest[:2])
        if key in (attrs.get("signatures") or {}) or (
            len(rest) == 1 and rest[0] in (attrs.get("classes") or {})
        ):
            found = (attrs.get("literals") or {}).get(key) or {}
            return {str(p): [str(v) for v in vs] for p, vs in found.items()}
        origin = (attrs.get("origins") or {}).get(rest[0])
        if isinstance(origin, str) and origin != dotted:
            return self.literals(".".join([origin, *rest[1:]]), _depth + 1)
        return None

    def defaults(self, dotted: str, _depth: int = 0) -> dict[str, str] | None:
        """``{parameter: default}`` (constant defaults only, see the module doc) of the callable ``dotted``
        names, re-exports followed like :meth:`signature`; None when the callable cannot be found. A
        bare-rooted chain (:meth:`bare`) that several packages' callables may mean keeps the parameters
        on which those that take them agree."""
        if candidates := self._bare_callables(dotted):
            # every class of that name counts, exported or not: 0.13's quark.onnx exports a SmoothQuantConfig
            # (alpha 0.5), the torch one (alpha 1) is only defined; a value they disagree on is not checked
            candidates = sorted({*candidates, *self._definitions(dotted)})
            read = [(c, x) for c in candidates if (x := self.defaults(c, _depth + 1)) is not None]
            if not read:
                return None
            found = [x for _, x in read]
            # a parameter only some of them take is theirs (ONNX `QuantizationConfig.execution_providers`),
            # unless another takes it without a constant default (0.13's torch QConfig builds `exclude` with
            # a default_factory, the ONNX one defaults it to None)
            computed = {p for c, x in read for p in self.signature(c) or () if p not in x}
            having = {p: [f[p] for f in found if p in f] for f in found for p in f}
            return {p: vs[0] for p, vs in having.items() if len(set(vs)) == 1 and p not in computed}
        split = self.split(dotted)
        if split is None and "." not in dotted and (method := self.sole_method(dotted)) is not None:
            return self.defaults(method, _depth + 1)  # `freeze` written alone: the one Class.freeze
        if split is None or not split[1] or _depth > 6:
            return None
        module, rest = split
        attrs = self.modules[module].attrs
        key = ".".join(rest[:2])
        own = (attrs.get("defaults") or {}).get(key)
        if key in (attrs.get("signatures") or {}) or own:  # a dataclass: its fields' defaults
            return dict(own or {})
        origin = (attrs.get("origins") or {}).get(rest[0])
        if isinstance(origin, str) and origin != dotted:
            return self.defaults(".".join([origin, *rest[1:]]), _depth + 1)
        return None

    def _bare_callables(self, dotted: str) -> list[str]:
        """:meth:`bare`'s names, and for a lower-case name alone (``get_config``) every method so named
        too (``module.Class.get_config``): a function or method named without its class may mean any of
        them (0.10's CLI defines a ``get_config(args, model_type)`` beside ``LLMTemplate.get_config``)."""
        candidates = self.bare(dotted)
        if "." in dotted or not dotted[:1].islower():
            return candidates
        methods = self._exported_first(self._method_table().get(dotted, []))
        return [*candidates, *methods[:_MAX_DEFINERS]] if methods else candidates

    def _exported_first(self, methods: list[str]) -> list[str]:
        """``methods`` (``module.Class.method``) of the classes a framework package exports when there are
        any (``ModelQuantizer.freeze`` before 0.12.post1's vLLM plugin class's ``freeze``), else all."""
        exported = self._exporters()[0]
        preferred = [m for m in methods if m.rsplit(".", 2)[-2] in exported]
        return preferred or methods

    def _method_table(self) -> dict[str, list[str]]:
        """``{method name: ["module.Class.method", ...]}`` over the release's public classes (built once)."""
        if self._methods is None:
            methods: dict[str, list[str]] = {}
            for module, item in sorted(self.modules.items()):
                for key in item.attrs.get("signatures") or {}:
                    if key.count(".") == 1:
                        methods.setdefault(key.split(".")[1], []).append(f"{module}.{key}")
            self._methods = methods
        return self._methods

    def _definitions(self, dotted: str) -> list[str]:
        """``dotted`` rooted at each module defining its bare root (at most :data:`_MAX_DEFINERS`)."""
        root = dotted.split(".", 1)[0]
        return [f"{module}.{dotted}" for module in self._exporters()[1].get(root, ())[:_MAX_DEFINERS]]

    def sole_method(self, name: str) -> str | None:
        """``module.Class.name`` when exactly one public class of the release defines a public method
        ``name`` (``freeze`` -> ``quark.torch.quantization.api.ModelQuantizer.freeze``), or exactly one class a
        framework package exports does (0.12.post1's vLLM plugin class has a ``freeze`` too), else None: a
        method named alone in prose means that one only when no other class has it."""
        found = self._method_table().get(name, [])
        if len(found) > 1:  # the classes a framework package exports (ModelQuantizer) before internal ones
            found = self._exported_first(found)
        return found[0] if len(found) == 1 else None

    def sole_parameter(self, parameter: str) -> str | None:
        """``module.callable`` of the public callables of the release that have a parameter named
        ``parameter`` with a constant default (a signature's, or a dataclass field's), when they all give it
        the same default (the first of them), else None: a default stated for a parameter alone
        (``include_cle`` defaults to ``False``; 0.9's ONNX ``QuantizationConfig`` and ``quantize_static``
        both default it to ``True``) means theirs."""
        having = self.having_default(parameter)
        return having[0][0] if having and len({v for _, v in having}) == 1 else None

    def having_default(self, parameter: str) -> list[tuple[str, str]]:
        """``[(module.callable, default as written)]`` of the public callables of the release that give
        ``parameter`` a constant default (a signature's, or a dataclass field's), by module name."""
        if self._parameters is None:
            found: dict[str, list[tuple[str, str]]] = {}
            for module, item in sorted(self.modules.items()):
                for key, defaults in (item.attrs.get("defaults") or {}).items():
                    for name, value in defaults.items():
                        found.setdefault(name, []).append((f"{module}.{key}", str(value)))
            self._parameters = found
        return self._parameters.get(parameter, [])

    def defining_class(self, dotted: str) -> tuple[str, str] | None:
        """``(module, class name)`` where the class ``dotted`` names is defined (re-exports followed),
        None when ``dotted`` is no class of this release."""
        return self._class(dotted, 0)

    def has_member(self, dotted: str, member: str, _depth: int = 0) -> bool | None:
        """True when the class ``dotted`` names (or a base of it in this release) defines the public method
        ``member`` or assigns it in its body (an enum member); False when it and every base are read and
        none does; None when that cannot be known
        statically (no such class, a base outside the release such as ``torch.nn.Module``)."""
        if (candidates := self.bare(dotted)) and _depth == 0:
            answers = [self.has_member(c, member, 1) for c in candidates]
            if any(answers):
                return True  # a bare name: one of the classes it may mean has the method
            return None if any(a is None for a in answers) else False
        found = self._class(dotted, 0)
        if found is None or _depth > 12:
            return None
        module, name = found
        attrs = self.modules[module].attrs
        if f"{name}.{member}" in (attrs.get("signatures") or {}):
            return True
        info = (attrs.get("classes") or {}).get(name)
        if not isinstance(info, dict):
            return None
        if member in (info.get("attributes") or ()):
            return True  # a name the class body assigns: an enum member (`Dtype.int2`), a constant
        answer: bool | None = False
        for base in info.get("bases", []):
            if base in _EMPTY_BASES:
                continue
            if base in _ENUM_BASES:
                if member in ("name", "value"):  # what every enum member has; its members are the body's
                    return True
                continue
            inherited = self.has_member(base, member, _depth + 1)
            if inherited:
                return True
            if inherited is None:
                answer = None
        return answer

    def _class(self, dotted: str, depth: int) -> tuple[str, str] | None:
        """(module, class name) where the class ``dotted`` names is defined, re-exports followed (a bare
        name: the first of :meth:`bare` that is a class)."""
        if candidates := self.bare(dotted):
            return next((f for c in candidates if (f := self._class(c, depth + 1)) is not None), None)
        split = self.split(dotted)
        if split is None or len(split[1]) != 1 or depth > 6:
            return None
        module, (name,) = split
        attrs = self.modules[module].attrs
        if name in (attrs.get("classes") or {}):
            return module, name
        origin = (attrs.get("origins") or {}).get(name)
        return self._class(origin, depth + 1) if isinstance(origin, str) and origin != dotted else None

    def _class_params(self, module: str, name: str, depth: int) -> list[str] | None:
        """The call signature of class ``name`` of ``module``: its own ``__init__``; else, for a dataclass, the
        fields of its dataclass bases then its own (a redeclared field keeps its place); else the signature
        of its first base that has one (``object``/``ABC``-like bases: none). None when a base that matters
        cannot be read statically (``torch.nn.Module``, a base of another package)."""
        info = (self.modules[module].attrs.get("classes") or {}).get(name)
        if not isinstance(info, dict) or depth > 12:
            return None
        if info.get("init") is not None:
            return list(info["init"])
        bases = [b for b in info.get("bases", []) if b not in _EMPTY_BASES]
        resolved = [self._class(b, 0) for b in bases]
        if any(r is None for r in resolved):
            return None
        if info.get("dataclass"):
            return self._fields(module, name, 0)
        for found in resolved:
            if found is not None:
                return self._class_params(*found, depth + 1)
        return []

    def _class_required(self, module: str, name: str, depth: int) -> list[str] | None:
        """The parameters the call of class ``name`` of ``module`` requires when its ``__init__`` is not its
        own: for a dataclass, the fields (:meth:`_fields`, in order) whose nearest declaration has no
        default; for a plain class, its first base's. None when a base cannot be read statically, or the
        class has an ``__init__`` of its own that the ``required`` fact does not key (a private class)."""
        info = (self.modules[module].attrs.get("classes") or {}).get(name)
        if not isinstance(info, dict) or depth > 12 or info.get("init") is not None:
            return None
        bases = [b for b in info.get("bases", []) if b not in _EMPTY_BASES]
        resolved = [self._class(b, 0) for b in bases]
        if any(r is None for r in resolved):
            return None
        if not info.get("dataclass"):
            found = next((r for r in resolved if r is not None), None)
            return self._class_required(*found, depth + 1) if found is not None else []
        needed = self._needed(module, name, 0)
        return None if needed is None else [f for f, required in needed.items() if required]

    def _needed(self, module: str, name: str, depth: int) -> dict[str, bool] | None:
        """``{field: required}`` over dataclass ``name`` and its bases, in :meth:`_fields`'s order (a
        redeclared field keeps its first place), a subclass's declaration winning; None
        when a base cannot be read, or is a plain class assigning a name the class declares as a field (a
        class attribute there may be the field's default)."""
        info = (self.modules[module].attrs.get("classes") or {}).get(name)
        if not isinstance(info, dict) or depth > 12:
            return None
        out: dict[str, bool] = {}
        for base in reversed([b for b in info.get("bases", []) if b not in _EMPTY_BASES]):
            found = self._class(base, 0)
            base_info = (self.modules[found[0]].attrs.get("classes") or {}).get(found[1]) if found else None
            if not isinstance(base_info, dict):
                return None
            if not base_info.get("dataclass") and set(base_info.get("attributes") or ()) & set(
                info.get("fields") or ()
            ):
                return None  # a plain base's class attribute may give a field its default: not known here
            inherited = self._needed(*found, depth + 1) if found is not None else None
            if inherited is None:
                return None
            out.update(inherited)
        if info.get("dataclass"):
            required = set(info.get("required_fields") or ())
            out.update({f: f in required for f in info.get("fields", [])})
        return out

    def _fields(self, module: str, name: str, depth: int) -> list[str] | None:
        """The dataclass fields class ``name`` of ``module`` carries: those of its bases (a plain class
        inherits its dataclass bases' fields), last base first, then its own when it is a dataclass; a
        redeclared field keeps its first place. None when a base cannot be read statically."""
        info = (self.modules[module].attrs.get("classes") or {}).get(name)
        if not isinstance(info, dict) or depth > 12:
            return None
        params: list[str] = []
        for base in reversed([b for b in info.get("bases", []) if b not in _EMPTY_BASES]):
            found = self._class(base, 0)
            inherited = self._fields(*found, depth + 1) if found is not None else None
            if inherited is None:
                return None
            params += [p for p in inherited if p not in params]
        own = info.get("fields", []) if info.get("dataclass") else []
        return params + [f for f in own if f not in params]

    def split(self, dotted: str) -> tuple[str, list[str]] | None:
        """``quark.a.b.Name.attr`` -> (longest existing module prefix, remaining parts); None if no
        prefix (beyond ``quark``) is a module."""
        parts = dotted.split(".")
        for cut in range(len(parts), 1, -1):
            head = ".".join(parts[:cut])
            if head in self.modules:
                return head, parts[cut:]
        return None
