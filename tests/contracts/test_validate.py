"""Document loading and validation: JSON paths in errors, artifact inference, bad input as one line."""

from __future__ import annotations

import pytest

from quarkci.core import documents as v
from quarkci.core.errors import BadInputError


@pytest.mark.parametrize(
    "parts, want",
    [
        ([], "$"),
        (["steps", 0, "kind"], "$.steps[0].kind"),
        (["layer_quant_config", "*attn*"], '$.layer_quant_config["*attn*"]'),
    ],
)
def test_json_path(parts, want):
    assert v.json_path(parts) == want


@pytest.mark.parametrize(
    "name, want",
    [
        ("quant_plan.json", "quant_plan"),
        ("out/run_manifest.yaml", "run_manifest"),
        ("fallback.model_analysis.json", "model_analysis"),
        ("qwen-quant_plan.json", "quant_plan"),
        ("validation_report.json", "validation_report"),
        ("env_context.json", "env_context"),
    ],
)
def test_infer_artifact(name, want):
    assert v.infer_artifact(name) == want


@pytest.mark.parametrize("name", ["plan.json", "myquant_plan.json", "session.json"])
def test_infer_artifact_refuses_unknown_names(name):
    with pytest.raises(BadInputError, match="--artifact"):
        v.infer_artifact(name)


def test_unknown_artifact_names_the_known_ones():
    with pytest.raises(BadInputError, match="unknown artifact 'plan'; known: session_context"):
        v.validate_document({}, "plan")


@pytest.mark.parametrize(
    "name, text, match",
    [
        ("a.json", '{"x": ', "invalid JSON at line 1 column"),
        ("a.yaml", "a: [1, 2\nb: 3\n", "invalid YAML at line"),
        ("a.json", "   \n", "empty document"),
        ("a.txt", "{: [", "invalid YAML"),
    ],
)
def test_parse_errors_are_one_line(tmp_path, name, text, match):
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(BadInputError, match=match) as exc:
        v.load_document(path)
    assert "\n" not in str(exc.value)


def test_missing_non_utf8_and_huge_files(tmp_path, monkeypatch):
    with pytest.raises(BadInputError, match="no such file"):
        v.load_document(tmp_path / "nope.json")
    bad = tmp_path / "b.json"
    bad.write_bytes(b'{"a": "\xff"}')
    with pytest.raises(BadInputError, match="not UTF-8"):
        v.load_document(bad)
    monkeypatch.setattr(v, "MAX_DOCUMENT_BYTES", 10)
    big = tmp_path / "c.json"
    big.write_text('{"user_goal": "0123456789"}')
    with pytest.raises(BadInputError, match="over the 10-byte limit"):
        v.load_document(big)


def test_yaml_and_json_give_the_same_document(tmp_path):
    (tmp_path / "a.json").write_text('{"a": [1, "x"]}')
    (tmp_path / "a.yaml").write_text("a:\n  - 1\n  - x\n")
    assert v.load_document(tmp_path / "a.json") == v.load_document(tmp_path / "a.yaml")


def test_messages_never_echo_a_huge_value():
    doc = {"user_goal": "g", "workflow": "x" * 100_000, "constraints": {}, "open_questions": []}
    problems = v.validate_document(doc, "session_context")
    assert [p.path for p in problems] == ["$.workflow"]
    assert len(problems[0].message) < 200


def test_wrong_types_name_the_field_and_both_types():
    doc = {"status": "ok", "quark_version": 13}
    assert v.validate_document(doc, "quark_install_result") == [
        v.Violation("$.quark_version", "expected string or null, got integer")
    ]


def test_check_document_raises_one_line_with_the_first_violation():
    with pytest.raises(
        BadInputError, match=r"env\.json: not a valid env_context: \$: missing required field"
    ):
        v.check_document({}, "env_context", "env.json")


def test_non_object_document_is_a_type_error():
    assert v.validate_document([1, 2], "quant_plan") == [v.Violation("$", "expected object, got array")]
