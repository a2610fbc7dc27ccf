"""Model templates: the keys of ``DEFAULT_TEMPLATES`` in ``quark/torch/quantization/config/template.py``.

Every release 0.10 .. 0.13 spells it as one module-level dict literal whose keys are HF ``model_type``
strings and which is registered at import (``for model_type, config in DEFAULT_TEMPLATES.items()``);
later ``DEFAULT_TEMPLATES["x"] = {...}`` assignments and ``**other`` splats of module-level dicts are
followed too. Items: ``registry="DEFAULT_TEMPLATES"``, attrs ``fields`` (the config keys set).

0.10 also keeps model tables in the CLI (``quark/experimental/cli/torch_llm/llm_utils/model_preparation.py``:
``MODEL_NAME_*_MAP`` dicts keyed by the CLI's own model names, e.g. ``deepseekv2v3``); those become items
with ``registry="cli_model_map"`` and ``maps`` (which tables name them). From 0.11 the moved
``quark/torch/utils/llm/model_preparation.py`` holds no model list, so nothing is read there.
"""

from __future__ import annotations

import ast

from quarkci.facts._source import assigned_name, parse, str_const
from quarkci.facts.base import FactItem
from quarkci.upstream.base import Snapshot

KIND = "model_templates"
TEMPLATE_PATH = "quark/torch/quantization/config/template.py"
CLI_MODEL_PREPARATION = "quark/experimental/cli/torch_llm/llm_utils/model_preparation.py"
REGISTRY = "DEFAULT_TEMPLATES"


def _dict_entries(value: ast.AST, module_dicts: dict[str, ast.Dict]) -> list[tuple[str, int, ast.AST]]:
    """``(key, line, value)`` of a dict literal, following ``**NAME`` splats of module-level dicts."""
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "dict":
        out = [(k.arg, k.value.lineno, k.value) for k in value.keywords if k.arg]
        return out
    if not isinstance(value, ast.Dict):
        return []
    out: list[tuple[str, int, ast.AST]] = []
    for key, item in zip(value.keys, value.values, strict=True):
        if key is None:  # **splat
            if isinstance(item, ast.Name) and item.id in module_dicts:
                out.extend(_dict_entries(module_dicts[item.id], module_dicts))
            continue
        name = str_const(key)
        if name is not None:
            out.append((name, key.lineno, item))
    return out


def _fields(value: ast.AST) -> list[str]:
    if isinstance(value, ast.Dict):
        return sorted(k for k in (str_const(key) for key in value.keys) if k)
    return []


def _default_templates(tree: ast.Module) -> list[FactItem]:
    module_dicts = {
        found[0]: found[1]
        for node in tree.body
        if (found := assigned_name(node)) and isinstance(found[1], ast.Dict)
    }
    items: dict[str, FactItem] = {}
    for node in tree.body:
        found = assigned_name(node)
        if found and found[0] == REGISTRY:
            for key, line, value in _dict_entries(found[1], module_dicts):
                items[key] = FactItem(key, TEMPLATE_PATH, line, {"registry": REGISTRY, "fields": _fields(value)})
        elif isinstance(node, ast.Assign):  # DEFAULT_TEMPLATES["x"] = {...}
            for target in node.targets:
                if (isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name)
                        and target.value.id == REGISTRY and (key := str_const(target.slice))):
                    items[key] = FactItem(key, TEMPLATE_PATH, node.lineno,
                                          {"registry": REGISTRY, "fields": _fields(node.value)})
    return list(items.values())


def _cli_model_maps(tree: ast.Module) -> list[FactItem]:
    first: dict[str, int] = {}
    maps: dict[str, set[str]] = {}
    for node in tree.body:
        found = assigned_name(node)
        if not found or not found[0].startswith(("MODEL_NAME_", "MOE_MODEL_NAME_")):
            continue
        name, value = found
        if not isinstance(value, ast.Dict):
            continue
        pattern_map = name == "MODEL_NAME_PATTERN_MAP"  # HF class pattern -> CLI model name
        for key, item in zip(value.keys, value.values, strict=True):
            model = str_const(item) if pattern_map else str_const(key)
            if model is None:
                continue
            where = (item if pattern_map else key).lineno
            first[model] = min(first.get(model, where), where)
            maps.setdefault(model, set()).add(name)
    return [FactItem(m, CLI_MODEL_PREPARATION, first[m], {"registry": "cli_model_map", "maps": sorted(maps[m])})
            for m in first]


def extract(snapshot: Snapshot) -> tuple[list[FactItem], list[str]]:
    """Model-template items (DEFAULT_TEMPLATES keys, plus 0.10's CLI model tables) and unavailable paths."""
    items: list[FactItem] = []
    unavailable: list[str] = []
    if snapshot.exists(TEMPLATE_PATH):
        tree = parse(snapshot, TEMPLATE_PATH)
        if tree is not None:
            items.extend(_default_templates(tree))
    elif not snapshot.covers(TEMPLATE_PATH):
        unavailable.append(TEMPLATE_PATH)
    if snapshot.exists(CLI_MODEL_PREPARATION):
        tree = parse(snapshot, CLI_MODEL_PREPARATION)
        if tree is not None:
            items.extend(_cli_model_maps(tree))
    return sorted(items), sorted(unavailable)
