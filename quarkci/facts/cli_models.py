"""CLI model names: 0.10's packaged CLI keeps its own model tables.

``quark/experimental/cli/torch_llm/llm_utils/model_preparation.py`` holds ``MODEL_NAME_*_MAP`` dicts
keyed by the CLI's model names (e.g. ``deepseekv2v3``, ``qwen2moe``); ``MODEL_NAME_PATTERN_MAP`` maps
HF class patterns to them. Items carry ``registry="cli_model_map"`` and ``maps`` (which tables name
them). From 0.11 the moved ``quark/torch/utils/llm/model_preparation.py`` holds no model list, so later
releases have no items of this kind. Kept apart from ``model_templates`` (the DEFAULT_TEMPLATES keys).
"""

from __future__ import annotations

import ast

from quarkci.facts.base import FactItem
from quarkci.facts.source import assigned_name, parse, str_const
from quarkci.upstream.base import Snapshot

KIND = "cli_models"
CLI_MODEL_PREPARATION = "quark/experimental/cli/torch_llm/llm_utils/model_preparation.py"


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
            where = item.lineno if pattern_map or key is None else key.lineno
            first[model] = min(first.get(model, where), where)
            maps.setdefault(model, set()).add(name)
    return [
        FactItem(m, CLI_MODEL_PREPARATION, first[m], {"registry": "cli_model_map", "maps": sorted(maps[m])})
        for m in first
    ]


def extract(snapshot: Snapshot) -> tuple[list[FactItem], list[str]]:
    """CLI model-name items of 0.10-style releases; none (and nothing unavailable) otherwise."""
    if not snapshot.exists(CLI_MODEL_PREPARATION):
        return [], []
    tree = parse(snapshot, CLI_MODEL_PREPARATION)
    return (sorted(_cli_model_maps(tree)) if tree is not None else []), []
