"""Model templates: the keys of ``DEFAULT_TEMPLATES`` in ``quark/torch/quantization/config/template.py``.

Every release 0.10 .. 0.13 spells it as one module-level dict literal whose keys are HF ``model_type``
strings and which is registered at import (``for model_type, config in DEFAULT_TEMPLATES.items()``);
later ``DEFAULT_TEMPLATES["x"] = {...}`` assignments and ``**other`` splats of module-level dicts are
followed too. Items: ``registry="DEFAULT_TEMPLATES"``, attrs ``fields`` (the config keys set).

0.10 also keeps model tables in the CLI; those are the separate ``cli_models`` kind
(:mod:`quarkci.facts.cli_models`), so this kind counts exactly the templates (25 in 0.10).
"""

from __future__ import annotations

import ast

from quarkci.facts.base import FactItem
from quarkci.facts.source import assigned_name, parse, str_const
from quarkci.upstream.base import Snapshot

KIND = "model_templates"
TEMPLATE_PATH = "quark/torch/quantization/config/template.py"
REGISTRY = "DEFAULT_TEMPLATES"


def _dict_entries(value: ast.AST, module_dicts: dict[str, ast.Dict]) -> list[tuple[str, int, ast.AST]]:
    """``(key, line, value)`` of a dict literal, following ``**NAME`` splats of module-level dicts."""
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "dict":
        return [(k.arg, k.value.lineno, k.value) for k in value.keywords if k.arg]
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
                items[key] = FactItem(
                    key, TEMPLATE_PATH, line, {"registry": REGISTRY, "fields": _fields(value)}
                )
        elif isinstance(node, ast.Assign):  # DEFAULT_TEMPLATES["x"] = {...}
            for target in node.targets:
                if (
                    isinstance(target, ast.Subscript)
                    and isinstance(target.value, ast.Name)
                    and target.value.id == REGISTRY
                    and (name := str_const(target.slice))
                ):
                    items[name] = FactItem(
                        name,
                        TEMPLATE_PATH,
                        node.lineno,
                        {"registry": REGISTRY, "fields": _fields(node.value)},
                    )
    return list(items.values())


def extract(snapshot: Snapshot) -> tuple[list[FactItem], list[str]]:
    """Model-template items (the DEFAULT_TEMPLATES keys) and unavailable paths."""
    items: list[FactItem] = []
    unavailable: list[str] = []
    if snapshot.exists(TEMPLATE_PATH):
        tree = parse(snapshot, TEMPLATE_PATH)
        if tree is not None:
            items.extend(_default_templates(tree))
        else:  # present but not parsed (invalid, or too large): its templates are unverifiable
            unavailable.append(TEMPLATE_PATH)
    elif not snapshot.covers(TEMPLATE_PATH):
        unavailable.append(TEMPLATE_PATH)
    return sorted(items), sorted(unavailable)
