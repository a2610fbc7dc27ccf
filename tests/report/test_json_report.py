"""quarkci.report.json_report.validate: the schema with its local references inlined accepts and rejects
exactly what the shipped schema does (issue 24: no reference lookup per finding)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import jsonschema
import pytest

from quarkci.report import json_report

GOLDEN = Path(__file__).resolve().parents[1] / "fixtures" / "sync" / "golden" / "validation_report.json"


def _error(schema: dict, document: dict) -> tuple[list, str] | None:
    try:
        jsonschema.Draft202012Validator(schema).validate(document)
    except jsonschema.ValidationError as exc:
        return list(exc.absolute_path), exc.message
    return None


def test_inlined_schema_follows_no_reference():
    inlined = json_report._inlined()
    body = {k: v for k, v in inlined.items() if k != "$defs"}
    assert '"$ref"' not in json.dumps(body)
    assert '"$ref"' in json.dumps(json_report.schema())  # the shipped schema does use them


MUTATIONS = {
    "kind": lambda d: d["findings"][0].__setitem__("kind", "nope"),
    "line": lambda d: d["findings"][0].__setitem__("skill_location", {"file": "a", "line": "x"}),
    "extra": lambda d: d["findings"][0].__setitem__("extra", 1),
    "fingerprint": lambda d: d["findings"][0].__setitem__("fingerprint", "XYZ"),
    "fix": lambda d: d["findings"][0].__setitem__("fix", {"file": 1}),
}


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_inlined_schema_rejects_what_the_shipped_one_rejects(name):
    document = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert document["findings"]
    json_report.validate(document)  # the golden report is valid
    broken = copy.deepcopy(document)
    MUTATIONS[name](broken)
    expected = _error(json_report.schema(), broken)
    assert expected is not None
    assert _error(json_report._inlined(), broken) == expected
    with pytest.raises(jsonschema.ValidationError):
        json_report.validate(broken)
