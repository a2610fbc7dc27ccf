"""The installed amd-quark's PTQ facts, read statically: no ``import quark`` (that costs 7-19 s).

``intake``, ``plan`` and ``manifest`` need only facts that Quark states in its source, so they read
them from the installed distribution's files (:class:`quarkci.upstream.installed.InstalledSnapshot`,
located through ``importlib.metadata``) with :mod:`ast`, in a fraction of a second:

* schemes: the ``_schemes["name"] = ...`` assignments (:mod:`quarkci.facts.schemes`);
* model templates and their default exclusions: ``DEFAULT_TEMPLATES`` in
  ``quark/torch/quantization/config/template.py`` (``exclude_layers_name`` of each entry);
* algorithms: the keys of ``ALGORITHM_CONFIG_MAPS`` in ``.../config/algo_configs.py`` (what
  ``get_supported_algorithm_types()`` returns before plug-ins register more);
* KV-cache schemes: ``LLMTemplate._SUPPORTED_KV_CACHE_SCHEMES``;
* ``quark-cli torch-llm-ptq`` options with their choices and defaults (:func:`installed_cli_flags`, the
  ``add_argument`` calls of ``quark/experimental/cli/torch_llm_ptq.py``, :mod:`quarkci.facts.cli_flags`);
* weight group size of each scheme: a ``group_size=N`` argument of the scheme's constructor call,
  else the scheme class's ``group_size``/``block_size`` default (a literal or a ``Class.attr``
  constant resolved through class bases), else a literal ``group_size=N`` in its body, else the
  ``group_size`` default of the first ``*Spec`` class it builds (``OCP_MXSpec``: 32). ``None``
  when per-tensor/per-channel or unresolvable.

``run`` and ``validate`` still import Quark (:mod:`quarkci.ptq.quark_api`).
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import json
import os
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import cast

from quarkci.core.atomic import atomic_write_text
from quarkci.core.errors import BadInputError
from quarkci.facts import schemes as scheme_facts
from quarkci.facts.base import FactItem
from quarkci.facts.cli_flags import PACKAGED_CLI, SCRIPTS, flags_in
from quarkci.facts.source import parse
from quarkci.ptq.quark_api import QuarkInfo, QuarkUnavailable
from quarkci.upstream.base import Snapshot

TEMPLATE_PATH = "quark/torch/quantization/config/template.py"
ALGO_PATH = "quark/torch/quantization/config/algo_configs.py"
CLASS_ROOTS = ("quark/torch/quantization/config/", "quark/common/")  # top-level modules only
_DEFAULT_KV = ("fp8",)


def _literal(node: ast.AST | None) -> object:
    try:
        return ast.literal_eval(node) if node is not None else None
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None


def _int(node: ast.AST | None) -> int | None:
    """The value of an ``int`` literal node (not a bool), else ``None``."""
    value = _literal(node)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _module_assign(tree: ast.Module, name: str) -> ast.AST | None:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in node.targets
        ):
            return node.value
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == name:
            return node.value
    return None


def _templates(tree: ast.Module, field: str = "exclude_layers_name") -> dict[str, list[str]]:
    """``model_type -> field`` (a list of patterns) of DEFAULT_TEMPLATES (``**splat`` of module dicts
    followed)."""
    dicts = {
        n.targets[0].id: n.value
        for n in tree.body
        if isinstance(n, ast.Assign)
        and len(n.targets) == 1
        and isinstance(n.targets[0], ast.Name)
        and isinstance(n.value, ast.Dict)
    }
    out: dict[str, list[str]] = {}

    def walk(node: ast.AST | None, depth: int = 0) -> None:
        if not isinstance(node, ast.Dict) or depth > 8:
            return
        for key, value in zip(node.keys, node.values, strict=True):
            if key is None:
                if isinstance(value, ast.Name):
                    walk(dicts.get(value.id), depth + 1)
                continue
            name = _literal(key)
            if isinstance(name, str) and isinstance(value, ast.Dict):
                fields = {
                    _literal(k): v for k, v in zip(value.keys, value.values, strict=True) if k is not None
                }
                value_ = _literal(fields.get(field))
                out[name] = [str(x) for x in value_] if isinstance(value_, list) else []

    walk(_module_assign(tree, "DEFAULT_TEMPLATES"))
    for node in tree.body:  # DEFAULT_TEMPLATES["x"] = {...}
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if (
                    isinstance(target, ast.Subscript)
                    and isinstance(target.value, ast.Name)
                    and target.value.id == "DEFAULT_TEMPLATES"
                    and isinstance(_literal(target.slice), str)
                ):
                    walk(ast.Dict(keys=[target.slice], values=[node.value]))
    return out


def _class_attr(tree: ast.Module, cls: str, attr: str) -> ast.AST | None:
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == cls:
            found = _module_assign(ast.Module(body=node.body, type_ignores=[]), attr)
            if found is not None:
                return found
    return None


class _Classes:
    """Class definitions of Quark's config and common modules, by name (first definition wins)."""

    def __init__(self, snapshot: Snapshot) -> None:
        self.by_name: dict[str, ast.ClassDef] = {}
        for path in snapshot.files("quark/"):
            if path.endswith(".py") and any(
                path.startswith(r) and "/" not in path[len(r) :] for r in CLASS_ROOTS
            ):
                tree = parse(snapshot, path)
                for node in tree.body if tree else []:
                    if isinstance(node, ast.ClassDef):
                        self.by_name.setdefault(node.name, node)

    def attr(self, cls: str, attr: str, depth: int = 0) -> object:
        """Literal value of class attribute ``cls.attr``, following base classes by name."""
        node = self.by_name.get(cls)
        if node is None or depth > 6:
            return None
        value = _literal(_module_assign(ast.Module(body=node.body, type_ignores=[]), attr))
        if value is not None:
            return value
        for base in node.bases:
            if isinstance(base, ast.Name):
                found = self.attr(base.id, attr, depth + 1)
                if found is not None:
                    return found
        return None

    def group_size_default(self, cls: str, depth: int = 0) -> int | None:
        """``group_size`` a ``*Spec`` class fixes: a ``group_size=N`` keyword or ``"group_size": N`` entry in
        its body, else its base classes'."""
        node = self.by_name.get(cls)
        if node is None or depth > 6:
            return None
        for sub in ast.walk(node):
            if isinstance(sub, ast.keyword) and sub.arg == "group_size" and _int(sub.value) is not None:
                return _int(sub.value)
            if isinstance(sub, ast.Dict):
                for k, v in zip(sub.keys, sub.values, strict=True):
                    if _literal(k) == "group_size" and _int(v) is not None:
                        return _int(v)
        for base in node.bases:
            if isinstance(base, ast.Name):
                found = self.group_size_default(base.id, depth + 1)
                if found is not None:
                    return found
        return None


def _init_group_size(classes: _Classes, node: ast.ClassDef) -> int | None:
    """The ``group_size`` / ``block_size`` default of the class's ``__init__`` (a literal, or a class
    attribute such as ``MX6.k1``), else ``None``."""
    for item in node.body:  # __init__(self, group_size: int = 16) / block_size: int = MX6.k1
        if isinstance(item, ast.FunctionDef) and item.name == "__init__":
            names = [a.arg for a in item.args.args][-len(item.args.defaults) :] if item.args.defaults else []
            for name, default in zip(names, item.args.defaults, strict=True):
                if name in ("group_size", "block_size"):
                    if _int(default) is not None:
                        return _int(default)
                    if isinstance(default, ast.Attribute) and isinstance(default.value, ast.Name):
                        value = classes.attr(default.value.id, default.attr)
                        if isinstance(value, int):
                            return value
    return None


def _group_size(classes: _Classes, scheme_class: str | None, args: str | None) -> int | None:
    if args:
        call = ast.parse(f"f({args})", mode="eval").body
        for kw in getattr(call, "keywords", []):
            if kw.arg in ("group_size", "block_size") and _int(kw.value) is not None:
                return _int(kw.value)
    node = classes.by_name.get(scheme_class or "")
    if node is None:
        return None
    init_default = _init_group_size(classes, node)
    if init_default is not None:
        return init_default
    for sub in ast.walk(node):
        if isinstance(sub, ast.keyword) and sub.arg == "group_size" and _int(sub.value) is not None:
            return _int(sub.value)
    for sub in ast.walk(node):  # the first spec the weight config builds
        if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id.endswith("Spec"):
            if "PerGroup" in sub.func.id or "MX" in sub.func.id or "BFP" in sub.func.id:
                return classes.group_size_default(sub.func.id)
            return None
    return None


def _scheme_items(tree: ast.Module) -> list[FactItem]:
    """The scheme items of :mod:`quarkci.facts.schemes` from an already parsed template module, in file
    order."""
    items = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                name = scheme_facts._scheme_key(target)
                if name is not None:
                    items.append(
                        FactItem(name, TEMPLATE_PATH, node.lineno, scheme_facts._describe(node.value))
                    )
    return sorted(items, key=lambda i: i.line)


def read_quark_info(snapshot: Snapshot) -> QuarkInfo:
    """:class:`QuarkInfo` of ``snapshot`` (an installed or downloaded amd-quark), read with :mod:`ast`.

    Raises :class:`QuarkUnavailable` when the snapshot lacks Quark's template module.
    """
    template = parse(snapshot, TEMPLATE_PATH)
    if template is None:
        raise QuarkUnavailable(f"{snapshot.label}: {TEMPLATE_PATH} missing or unreadable")
    items = _scheme_items(template)
    classes = _Classes(snapshot)
    groups: dict[str, int | None] = {}
    for item in items:
        alias = item.attrs.get("alias_of")
        if alias:
            groups[item.name] = groups.get(alias)
        else:
            groups[item.name] = _group_size(classes, item.attrs.get("scheme_class"), item.attrs.get("args"))
    templates = _templates(template)
    algo_tree = parse(snapshot, ALGO_PATH)
    algo_map = _module_assign(algo_tree, "ALGORITHM_CONFIG_MAPS") if algo_tree else None
    algorithms = tuple(
        str(_literal(k)) for k in getattr(algo_map, "keys", []) if isinstance(_literal(k), str)
    )
    kv = _literal(_class_attr(template, "LLMTemplate", "_SUPPORTED_KV_CACHE_SCHEMES"))
    return QuarkInfo(
        version=snapshot.version,
        templates=tuple(templates),
        schemes=tuple(dict.fromkeys(i.name for i in items)),
        algorithms=algorithms,
        kv_cache_schemes=tuple(str(x) for x in kv) if isinstance(kv, list) else _DEFAULT_KV,
        import_seconds=0.0,
        template_excludes=templates,
        group_sizes=groups,
        template_kv_layers=_templates(template, "kv_layers_name"),
    )


def cache_file(version: str, template: Path) -> Path:
    """Where the facts of one installed amd-quark are cached: under ``$QUARKCI_CACHE_DIR`` (else
    ``~/.cache/quarkci``), ``quark-facts/<version>-<template.py size>-<mtime ns>.json`` (a reinstall
    changes the key)."""
    env = os.environ.get("QUARKCI_CACHE_DIR")
    base = Path(env) if env else Path.home() / ".cache" / "quarkci"
    stat = template.stat()
    return base / "quark-facts" / f"{version}-{stat.st_size}-{stat.st_mtime_ns}.json"


def _strings(value: object, key: str) -> list[str]:
    if not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
        raise ValueError(f"{key}: not a list of strings")
    return [str(v) for v in value]


def _table(value: object, key: str) -> dict[str, list[str]]:
    if not isinstance(value, dict):
        raise ValueError(f"{key}: not an object")
    return {str(k): _strings(v, key) for k, v in value.items()}


def _cached_info(data: object) -> QuarkInfo:
    """The :class:`QuarkInfo` of a cache file (its JSON: ``dataclasses.asdict`` of one, tuples as lists).
    Raises ``ValueError`` for any other shape (the cache is then rebuilt)."""
    names = [f.name for f in dataclasses.fields(QuarkInfo)]
    if not isinstance(data, dict) or sorted(data) != sorted(names):
        raise ValueError("not a cached QuarkInfo")
    version, seconds, groups = data["version"], data["import_seconds"], data["group_sizes"]
    if not isinstance(version, str) or not isinstance(seconds, int | float) or not isinstance(groups, dict):
        raise ValueError("not a cached QuarkInfo")
    if not all(v is None or (isinstance(v, int) and not isinstance(v, bool)) for v in groups.values()):
        raise ValueError("group_sizes: not integers or null")
    return QuarkInfo(
        version=version,
        templates=tuple(_strings(data["templates"], "templates")),
        schemes=tuple(_strings(data["schemes"], "schemes")),
        algorithms=tuple(_strings(data["algorithms"], "algorithms")),
        kv_cache_schemes=tuple(_strings(data["kv_cache_schemes"], "kv_cache_schemes")),
        import_seconds=seconds,
        template_excludes=_table(data["template_excludes"], "template_excludes"),
        group_sizes={str(k): v for k, v in groups.items()},
        template_kv_layers=_table(data["template_kv_layers"], "template_kv_layers"),
    )


@cache
def installed_quark_static() -> QuarkInfo:
    """:func:`read_quark_info` of the amd-quark installed in this interpreter, cached per process and on
    disk (:func:`cache_file`; a cache that cannot be read or written is ignored).

    Raises :class:`QuarkUnavailable` when amd-quark is not installed.
    """
    import importlib.metadata as md

    from quarkci.upstream.installed import DIST_NAME, InstalledSnapshot

    try:
        dist = md.distribution(DIST_NAME)
        path = cache_file(str(dist.version), Path(str(dist.locate_file(TEMPLATE_PATH))))
    except (md.PackageNotFoundError, OSError):
        path = None
    if path is not None:
        with contextlib.suppress(OSError, ValueError, TypeError, KeyError):
            return _cached_info(json.loads(path.read_text(encoding="utf-8")))
    try:
        info = read_quark_info(cast(Snapshot, InstalledSnapshot()))
    except BadInputError:
        raise QuarkUnavailable(
            "amd-quark is not installed in this Python environment: the PTQ commands need "
            "the ML extra (README, 'PTQ workflow')"
        ) from None
    if path is not None:
        with contextlib.suppress(OSError):
            atomic_write_text(path, json.dumps(dataclasses.asdict(info), sort_keys=True))
    return info


@cache
def installed_cli_flags() -> dict[str, Mapping[str, object]]:
    """The installed amd-quark's ``quark-cli torch-llm-ptq`` options, read with :mod:`ast` (no import):
    every option string (``--kv_cache_dtype`` and its alias ``--kv_cache_quant_scheme`` alike) -> the
    attributes of its ``add_argument`` call (``choices``, ``default``... as in
    :func:`quarkci.facts.cli_flags.flags_in`; a default computed at run time is its source text).

    ``{}`` when amd-quark is not installed or its CLI module is missing or unreadable.
    """
    from quarkci.upstream.installed import InstalledSnapshot

    try:
        snapshot = InstalledSnapshot()
    except BadInputError:
        return {}
    tree = parse(cast(Snapshot, snapshot), PACKAGED_CLI)
    if tree is None:
        return {}
    flags: dict[str, Mapping[str, object]] = {}
    for item in flags_in(tree, PACKAGED_CLI, SCRIPTS[PACKAGED_CLI]):
        for option in cast(list[str], item.attrs["options"]):
            flags[option] = dict(item.attrs)
    return flags
