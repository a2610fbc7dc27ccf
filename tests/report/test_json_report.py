"""quarkci.core.documents.inline_refs: the validation_report schema with its local references inlined (what
the one validator checks with) accepts and rejects exactly what the shipped schema does (issue 24: no
reference lookup per finding)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import jsonschema
import pytest

from quarkci.core.artifacts import load_schema
from quarkci.core.documents import check_produced, inline_refs

GOLDEN = Path(__file__).resolve().parents[1] / "fixtures" / "sync" / "golden" / "validation_report.json"


def _error(schema: dict, document: dict) -> tuple[list, str] | None:
    try:
        jsonschema.Draft202012Validator(schema).validate(document)
    except jsonschema.ValidationError as exc:
        return list(exc.absolute_path), exc.message
    return None


def test_inlined_schema_follows_no_reference():
    shipped = load_schema("validation_report")
    inlined = inline_refs(shipped)
    body = {k: v for k, v in inlined.items() if k != "$defs"}
    assert '"$ref"' not in json.dumps(body)
    assert '"$ref"' in json.dumps(shipped)  # the shipped schema does use them


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
    check_produced(document, "validation_report")  # the golden report is valid
    broken = copy.deepcopy(document)
    MUTATIONS[name](broken)
    shipped = load_schema("validation_report")
    expected = _error(shipped, broken)
    assert expected is not None
    assert _error(inline_refs(shipped), broken) == expected
    with pytest.raises(ValueError, match="producer wrote an invalid document"):
        check_produced(broken, "validation_report")
