"""quarkci.core.shapes, the one home of the documents' shapes, follows the contracts: every artifact has
one TypedDict there; for it and every nested object it types, the required keys are the schema's
``required``, every key is one the schema defines or a marked extension of an open object, and a closed
object (``additionalProperties: false``) has every property typed. Every TypedDict of the home is
reached from a document. And every TypedDict of quarkci has, at runtime, the required keys its
annotations say (the ``from __future__ import annotations`` + ``NotRequired`` trap of Python 3.11)."""

# No ``from __future__ import annotations``: this module defines TypedDicts with ``NotRequired`` keys.
import ast
import importlib
import importlib.util
import pkgutil
import sys
import types
import typing
from pathlib import Path
from typing import NotRequired, TypedDict

import pytest

import quarkci
import quarkci.core.shapes
from quarkci.contracts.behaviour import resolve_ref
from quarkci.core.artifacts import ARTIFACTS, load_schema
from quarkci.core.shapes.day0 import BehaviourProbe, Day0Result
from quarkci.core.shapes.marks import EXTENSION, Extension
from quarkci.core.shapes.ptq import ModelAnalysis, RunManifest, RunResult
from quarkci.core.shapes.session import EnvContext
from quarkci.core.shapes.summary import ValidationSummary
from quarkci.gates.verdict import Verdict

ROOT = Path(quarkci.__file__).parent
HOME = [
    importlib.import_module(f"quarkci.core.shapes.{m.name}")
    for m in pkgutil.iter_modules(quarkci.core.shapes.__path__)
]


def _typed_dicts(module: types.ModuleType) -> list[type]:
    """The TypedDicts ``module`` defines (not those it imports)."""
    return [
        v
        for v in vars(module).values()
        if typing.is_typeddict(v) and getattr(v, "__module__", None) == module.__name__
    ]


IN_HOME = [t for m in HOME for t in _typed_dicts(m)]
BY_NAME = {t.__name__: t for t in IN_HOME}
SHAPES = {name: BY_NAME["".join(p.capitalize() for p in name.split("_"))] for name in ARTIFACTS}
DOCUMENTS = set(SHAPES.values())


def _typed_dict(hint: object) -> type | None:
    """The TypedDict inside ``hint`` (``X``, ``X | None``, ``list[X]``, ``dict[str, X]``), else None."""
    if typing.is_typeddict(hint):
        return typing.cast(type, hint)
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        found = [_typed_dict(a) for a in typing.get_args(hint) if a is not type(None)]
        return found[0] if len(found) == 1 else None
    if typing.get_origin(hint) in (list, dict):
        return _typed_dict(typing.get_args(hint)[-1])
    return None


def _is_extension(shape: type, key: str) -> bool:
    """True when ``shape``'s ``key`` is marked :data:`~quarkci.core.shapes.marks.Extension`."""
    hint = typing.get_type_hints(shape, include_extras=True)[key]
    while typing.get_origin(hint) in (typing.NotRequired, typing.Required):
        hint = typing.get_args(hint)[0]
    return typing.get_origin(hint) is typing.Annotated and EXTENSION in hint.__metadata__


def _object_node(node: object, root: dict) -> dict:
    """The object schema of ``node``: through ``$ref``, an array's ``items``, a ``null``-or-object
    alternative."""
    node = resolve_ref(node, root)
    assert isinstance(node, dict)
    if "items" in node and "properties" not in node:
        node = resolve_ref(node["items"], root)
    for alternative in node.get("oneOf", []) + node.get("anyOf", []):
        if isinstance(alternative, dict) and "properties" in alternative:
            node = alternative
    return node


def _reached(shape: type, seen: set[type]) -> None:
    """Add ``shape`` and every TypedDict nested in it to ``seen`` (an extension, which no schema node
    describes)."""
    if shape in seen:
        return
    seen.add(shape)
    for hint in typing.get_type_hints(shape).values():
        if (inner := _typed_dict(hint)) is not None:
            _reached(inner, seen)


def mismatches(
    shape: type, node: object, root: dict, where: str = "$", seen: dict[str, type] | None = None
) -> list[str]:
    """Every way ``shape`` departs from schema ``node``, recursively through nested TypedDicts (the paths
    compared and their shapes go to ``seen``). A nested registered document (another artifact's shape)
    must hold what the embedding node requires; its own contract is checked on its own."""
    if seen is not None:
        seen[where] = shape
    node = _object_node(node, root)
    props = node.get("properties", {})
    wanted = set(node.get("required", []))
    defined = set(props) | wanted
    hints = typing.get_type_hints(shape)
    if where != "$" and shape in DOCUMENTS:
        missing = wanted - set(shape.__required_keys__)
        return [f"{where}: the embedded document does not require {sorted(missing)}"] if missing else []
    out = []
    if set(shape.__required_keys__) != wanted:
        out.append(f"{where}: required {sorted(shape.__required_keys__)} != {sorted(wanted)}")
    marked = {key for key in hints if _is_extension(shape, key)}
    if set(hints) - defined - marked:
        out.append(f"{where}: keys the schema does not define: {sorted(set(hints) - defined - marked)}")
    if marked & defined:
        out.append(f"{where}: keys the schema defines, marked as extensions: {sorted(marked & defined)}")
    if marked and node.get("additionalProperties") is False:
        out.append(f"{where}: extensions of a closed object: {sorted(marked)}")
    if node.get("additionalProperties") is False and set(props) - set(hints):
        out.append(f"{where}: closed object, untyped keys: {sorted(set(props) - set(hints))}")
    for key, hint in hints.items():
        inner = _typed_dict(hint)
        if inner is not None and key in props:
            out += mismatches(inner, props[key], root, f"{where}.{key}", seen)
    return out


def _checked(artifact: str) -> set[type]:
    """Every TypedDict reached from ``artifact``'s shape: compared with a schema node, or under an
    extension."""
    seen: dict[str, type] = {}
    schema = load_schema(artifact)
    mismatches(SHAPES[artifact], schema, schema, seen=seen)
    reached: set[type] = set()
    for shape in seen.values():
        if shape not in DOCUMENTS or shape is SHAPES[artifact]:
            _reached(shape, reached)
    return reached | set(seen.values())


@pytest.mark.parametrize("artifact", sorted(ARTIFACTS))
def test_each_shape_follows_its_contract(artifact):
    schema = load_schema(artifact)
    assert mismatches(SHAPES[artifact], schema, schema) == []


def test_each_name_in_the_home_is_one_shape():
    assert len(BY_NAME) == len(IN_HOME) == len({id(t) for t in IN_HOME})
    assert len(SHAPES) == len(ARTIFACTS) == 13


def test_every_shape_in_the_home_is_checked_from_a_document():
    reached = set().union(*(_checked(a) for a in ARTIFACTS))
    assert sorted(t.__name__ for t in set(IN_HOME) - reached) == []


def test_nested_objects_are_checked_too():
    checked: dict[str, type] = {}
    schema = load_schema("day0_result")
    assert mismatches(Day0Result, schema, schema, seen=checked) == []
    assert {
        "$",
        "$.publish",
        "$.model",
        "$.suite",
        "$.sizes",
        "$.stages",
        "$.tasks",
        "$.behaviour_probe",
        "$.baseline_cache",
    } <= set(checked)
    checked.clear()
    schema = load_schema("validation_summary")
    assert mismatches(ValidationSummary, schema, schema, seen=checked) == []
    assert checked["$.run"] is RunResult
    assert {"$.layers.declaration_mismatch", "$.metadata.blocking", "$.scheme_check", "$.reload"} <= set(
        checked
    )


def test_the_merged_shapes_keep_the_detail_and_the_contract():
    """The merged types: what the producers write (marked extensions) over what the contracts require."""
    assert ModelAnalysis.__required_keys__ == {"analysis_status", "model", "quantization_targets", "risks"}
    assert {"quark", "parameters"} <= ModelAnalysis.__optional_keys__
    assert _is_extension(ModelAnalysis, "parameters") and not _is_extension(ModelAnalysis, "risks")
    inputs = typing.get_type_hints(RunManifest)["inputs"]
    assert inputs.__required_keys__ == frozenset() and "plan_sha256" in inputs.__optional_keys__
    assert ValidationSummary.__optional_keys__ == {
        "scheme_check",
        "kv_cache",
        "fused_layers",
        "names",
        "unquantized_tensors",
    }
    assert BehaviourProbe.__required_keys__ == set(
        load_schema("day0_result")["properties"]["behaviour_probe"]["required"]
    )
    assert typing.get_type_hints(Verdict)["behaviour"] == BehaviourProbe | None


def test_a_shape_that_departs_from_its_contract_is_caught():
    """Negative controls: a required key made optional, an unknown key, a closed object's key left out,
    in a nested object."""
    schema = load_schema("env_context")
    schema["properties"]["hardware"]["required"] = []
    assert mismatches(EnvContext, schema, schema) == ["$.hardware: required ['accelerator'] != []"]
    schema = load_schema("run_result")
    del schema["properties"]["exclude_applied"]
    assert mismatches(RunResult, schema, schema) == [
        "$: keys the schema does not define: ['exclude_applied']"
    ]
    schema = load_schema("day0_result")
    schema["properties"]["publish"]["properties"]["url"] = {"type": "string"}
    assert mismatches(Day0Result, schema, schema) == ["$.publish: closed object, untyped keys: ['url']"]
    schema = load_schema("validation_summary")
    schema["properties"]["run"]["required"].append("device_count")
    assert mismatches(ValidationSummary, schema, schema) == [
        "$.run: the embedded document does not require ['device_count']"
    ]


class _Open(TypedDict):
    name: str
    note: NotRequired[Extension[str]]
    kind: NotRequired[Extension[str]]


def test_a_wrong_extension_mark_is_caught():
    """Negative controls: an extension of a closed object, a defined key marked as an extension, an
    unmarked key the schema does not define."""
    node = {"type": "object", "required": ["name"], "properties": {"name": {}, "note": {}}}
    assert mismatches(_Open, node, node) == ["$: keys the schema defines, marked as extensions: ['note']"]
    node = {"type": "object", "required": ["name"], "properties": {"name": {}}, "additionalProperties": False}
    assert mismatches(_Open, node, node) == ["$: extensions of a closed object: ['kind', 'note']"]
    node = {"type": "object", "required": ["name"], "properties": {"name": {}}}
    assert mismatches(_Open, node, node) == []
    assert mismatches(EnvContext, {"required": ["environment"]}, {}) == [
        "$: required ['environment', 'hardware'] != ['environment']",
        "$: keys the schema does not define: ['hardware']",
    ]


# --- runtime required keys -------------------------------------------------------------------------


def _declared(shape: type) -> tuple[set[str], set[str]]:
    """The required and optional keys ``shape``'s annotations declare (``Required`` / ``NotRequired``,
    else the class's totality)."""
    required, optional = set(), set()
    for key, hint in typing.get_type_hints(shape, include_extras=True).items():
        origin = typing.get_origin(hint)
        if origin is typing.NotRequired or (origin is not typing.Required and not shape.__total__):
            optional.add(key)
        else:
            required.add(key)
    return required, optional


def runtime_mismatches(module: types.ModuleType) -> list[str]:
    """Each TypedDict of ``module`` whose ``__required_keys__`` is not what its annotations declare."""
    out = []
    for shape in _typed_dicts(module):
        required, optional = _declared(shape)
        if (set(shape.__required_keys__), set(shape.__optional_keys__)) != (required, optional):
            out.append(
                f"{module.__name__}.{shape.__name__}: runtime required {sorted(shape.__required_keys__)}"
            )
    return out


def _modules_with_typed_dicts() -> list[str]:
    names = []
    for path in sorted(ROOT.rglob("*.py")):
        if "TypedDict" in path.read_text(encoding="utf-8"):
            parts = path.relative_to(ROOT.parent).with_suffix("").parts
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def test_every_typed_dict_of_quarkci_has_its_declared_required_keys_at_runtime():
    modules = _modules_with_typed_dicts()
    assert {"quarkci.core.shapes.day0", "quarkci.gates.verdict", "quarkci.day0.shapes"} <= set(modules)
    assert [m for name in modules for m in runtime_mismatches(importlib.import_module(name))] == []
    assert Verdict.__required_keys__ == {"gate", "pass", "failure_class", "detail"}
    assert "behaviour" in Verdict.__optional_keys__


def test_the_runtime_check_sees_postponed_annotations(tmp_path):
    """Negative control: the same TypedDict under ``from __future__ import annotations`` gets every key
    required on Python 3.11, and the check says so; without it, it passes."""
    source = (
        "from typing import NotRequired, TypedDict\n\n"
        "class Row(TypedDict):\n    a: int\n    b: NotRequired[int]\n"
    )
    found = {}
    for name, text in (("postponed", "from __future__ import annotations\n" + source), ("evaluated", source)):
        path = tmp_path / f"{name}.py"
        path.write_text(text)
        spec = importlib.util.spec_from_file_location(f"_shapes_{name}", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        try:
            spec.loader.exec_module(module)
            found[name] = runtime_mismatches(module)
        finally:
            del sys.modules[spec.name]
    assert found["postponed"] == ["_shapes_postponed.Row: runtime required ['a', 'b']"]
    assert found["evaluated"] == []


def test_no_home_module_postpones_annotations():
    for module in HOME:
        tree = ast.parse(Path(typing.cast(str, module.__file__)).read_text(encoding="utf-8"))
        future = [n for n in tree.body if isinstance(n, ast.ImportFrom) and n.module == "__future__"]
        assert future == [], module.__name__
