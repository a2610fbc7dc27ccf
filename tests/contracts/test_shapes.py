"""quarkci.contracts.shapes follows the contracts: for every artifact and every nested object it types,
the TypedDict's required keys are the schema's ``required``, its keys are properties the schema
defines, and a closed object (``additionalProperties: false``) has every property typed."""

from __future__ import annotations

import types
import typing

import pytest

from quarkci.contracts import shapes
from quarkci.contracts.behaviour import resolve_ref
from quarkci.core.artifacts import ARTIFACTS, load_schema

SHAPES = {name: getattr(shapes, "".join(p.capitalize() for p in name.split("_"))) for name in ARTIFACTS}


def _typed_dict(hint: object) -> type | None:
    """The TypedDict inside ``hint`` (``X``, ``X | None``, ``list[X]``), else None."""
    if typing.is_typeddict(hint):
        return typing.cast(type, hint)
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        found = [_typed_dict(a) for a in typing.get_args(hint) if a is not type(None)]
        return found[0] if len(found) == 1 else None
    if typing.get_origin(hint) is list:
        return _typed_dict(typing.get_args(hint)[0])
    return None


def mismatches(
    shape: type, node: object, root: dict, where: str = "$", seen: list | None = None
) -> list[str]:
    """Every way ``shape`` departs from schema ``node`` (recursively through nested TypedDicts; the
    paths compared are appended to ``seen``)."""
    if seen is not None:
        seen.append(where)
    node = resolve_ref(node, root)
    assert isinstance(node, dict), where
    if "items" in node and "properties" not in node:
        node = resolve_ref(node["items"], root)
    for alternative in node.get("oneOf", []) + node.get("anyOf", []):  # ``null`` or an object
        if isinstance(alternative, dict) and "properties" in alternative:
            node = alternative
    props = node.get("properties", {})
    out = []
    required = set(shape.__required_keys__)
    if required != set(node.get("required", [])):
        out.append(f"{where}: required {sorted(required)} != {sorted(node.get('required', []))}")
    keys = set(typing.get_type_hints(shape))
    if keys - set(props):
        out.append(f"{where}: keys the schema does not define: {sorted(keys - set(props))}")
    if node.get("additionalProperties") is False and set(props) - keys:
        out.append(f"{where}: closed object, untyped keys: {sorted(set(props) - keys)}")
    for key, hint in typing.get_type_hints(shape).items():
        inner = _typed_dict(hint)
        if inner is not None and key in props:
            out += mismatches(inner, props[key], root, f"{where}.{key}", seen)
    return out


@pytest.mark.parametrize("artifact", sorted(ARTIFACTS))
def test_each_shape_follows_its_contract(artifact):
    schema = load_schema(artifact)
    assert mismatches(SHAPES[artifact], schema, schema) == []


def test_nested_objects_are_checked_too():
    checked: list[str] = []
    schema = load_schema("day0_result")
    assert mismatches(shapes.Day0Result, schema, schema, seen=checked) == []
    assert {
        "$",
        "$.publish",
        "$.model",
        "$.suite",
        "$.sizes",
        "$.stages",
        "$.tasks",
        "$.baseline_cache",
    } <= set(checked)


def test_a_shape_that_departs_from_its_contract_is_caught():
    """Negative controls: a required key made optional, an unknown key, a closed object's key left out,
    in a nested object."""
    schema = load_schema("env_context")
    schema["properties"]["hardware"]["required"] = []
    assert mismatches(shapes.EnvContext, schema, schema) == ["$.hardware: required ['accelerator'] != []"]
    schema = load_schema("run_result")
    del schema["properties"]["device"]
    assert (
        mismatches(shapes.RunResult, schema, schema)[-1] == "$: keys the schema does not define: ['device']"
    )
    schema = load_schema("day0_result")
    schema["properties"]["publish"]["properties"]["url"] = {"type": "string"}
    assert mismatches(shapes.Day0Result, schema, schema) == [
        "$.publish: closed object, untyped keys: ['url']"
    ]
