"""``validation_report.json``: the DTO, validated against the schema before it is written."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

import jsonschema

from quarkci.core.documents import dump_json
from quarkci.report.dto import build
from quarkci.sync.outcome import SyncOutcome

SCHEMA = "validation_report.schema.json"


@cache
def schema() -> dict[str, Any]:
    """The validation_report JSON Schema (Draft 2020-12) shipped in quarkci.contracts.schemas."""
    text = resources.files("quarkci.core").joinpath("schemas", SCHEMA).read_text(encoding="utf-8")
    document: dict[str, Any] = json.loads(text)
    return document


def validate(document: dict[str, Any]) -> None:
    """Raise ``jsonschema.ValidationError`` when ``document`` breaks the wire contract."""
    jsonschema.Draft202012Validator(_inlined()).validate(document)


@cache
def _inlined() -> dict[str, Any]:
    """:func:`schema` with each bare local reference (``{"$ref": "#/$defs/NAME"}``) replaced by its
    definition: the same constraints, without a reference lookup per finding (a 2 MiB skill can carry
    200,000 findings: issue 24). A definition that refers back to itself keeps its reference."""
    document = schema()
    defs = document.get("$defs", {})

    def expand(node: Any, seen: tuple[str, ...]) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if len(node) == 1 and isinstance(ref, str) and ref.startswith("#/$defs/"):
                name = ref.removeprefix("#/$defs/")
                if name in defs and name not in seen:
                    return expand(defs[name], (*seen, name))
                return node
            return {k: v if k == "$defs" else expand(v, seen) for k, v in node.items()}
        if isinstance(node, list):
            return [expand(v, seen) for v in node]
        return node

    expanded: dict[str, Any] = expand(document, ())
    return expanded


def render(outcome: SyncOutcome, run_id: str | None = None) -> str:
    """The JSON text: schema-valid, sorted keys, 2-space indent, final newline; byte-identical for
    identical input. ``run_id`` (:mod:`quarkci.report.provenance`) is recorded when given. Raises
    ``jsonschema.ValidationError`` (a bug) when the DTO breaks the schema."""
    document = build(outcome).to_json()
    if run_id:
        document["run_id"] = run_id
    validate(document)
    return dump_json(document)
