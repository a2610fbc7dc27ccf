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
    jsonschema.Draft202012Validator(schema()).validate(document)


def render(outcome: SyncOutcome, run_id: str | None = None) -> str:
    """The JSON text: schema-valid, sorted keys, 2-space indent, final newline; byte-identical for
    identical input. ``run_id`` (:mod:`quarkci.report.provenance`) is recorded when given. Raises
    ``jsonschema.ValidationError`` (a bug) when the DTO breaks the schema."""
    document = build(outcome).to_json()
    if run_id:
        document["run_id"] = run_id
    validate(document)
    return dump_json(document)
