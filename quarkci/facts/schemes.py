"""Quantization schemes: the ``_schemes["name"] = ...`` assignments in LLMTemplate's scheme collection.

Source: ``quark/torch/quantization/config/template.py`` (``_collect_supported_schemes``). An alias is a
scheme assigned from another entry (``_schemes["fp4_block16_scale_e4m3"] = self._schemes["nvfp4"]``,
from 0.12.post1) and is its own item with ``alias_of``. Only subscript *assignments with a string
literal key* count: reads, ``del``, variable keys (``register_scheme``) and the module/class docstrings
(which list stale scheme names) never do.

Item attrs: ``scheme_class`` (the constructor's source text, e.g. ``Int4WeightOnlyScheme``),
``args`` (the call's unparsed arguments), ``alias_of`` (or None).
"""

from __future__ import annotations

import ast

from quarkci.facts.base import FactItem
from quarkci.facts.source import parse, str_const
from quarkci.upstream.base import Snapshot

KIND = "schemes"
TEMPLATE_PATH = "quark/torch/quantization/config/template.py"
REGISTRY_ATTR = "_schemes"


def _scheme_key(target: ast.AST) -> str | None:
    """``"int8"`` for a target ``<anything>._schemes["int8"]`` / ``_schemes["int8"]``."""
    if not isinstance(target, ast.Subscript):
        return None
    owner = target.value
    named = (isinstance(owner, ast.Attribute) and owner.attr == REGISTRY_ATTR) or (
        isinstance(owner, ast.Name) and owner.id == REGISTRY_ATTR
    )
    return str_const(target.slice) if named else None


def _describe(value: ast.AST) -> dict[str, object]:
    alias_of = _scheme_key(value)
    if alias_of is not None:
        return {"alias_of": alias_of, "scheme_class": None, "args": None}
    if isinstance(value, ast.Call):
        args = [ast.unparse(a) for a in value.args] + [ast.unparse(k) for k in value.keywords]
        return {"alias_of": None, "scheme_class": ast.unparse(value.func), "args": ", ".join(args)}
    return {"alias_of": None, "scheme_class": ast.unparse(value), "args": None}


def extract(snapshot: Snapshot) -> tuple[list[FactItem], list[str]]:
    """Scheme items of ``snapshot`` (one per assignment, aliases included) and unavailable paths."""
    if not snapshot.exists(TEMPLATE_PATH):
        return [], ([TEMPLATE_PATH] if not snapshot.covers(TEMPLATE_PATH) else [])
    tree = parse(snapshot, TEMPLATE_PATH)
    if tree is None:  # present but not parsed (invalid, or too large): its schemes are unverifiable
        return [], [TEMPLATE_PATH]
    items: list[FactItem] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            continue
        for target in targets:
            name = _scheme_key(target)
            if name is not None:
                items.append(FactItem(name, TEMPLATE_PATH, node.lineno, _describe(value)))
    return sorted(items), []
