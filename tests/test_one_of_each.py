"""One way to do each thing: one Markdown escaper, one workflow-command escaper, one kind -> level table,
one version-phrase module, one JSON-path format, one reading path for the sync report and one home for
each document's TypedDict (asserted by import, over the source and on the readers' messages, so a second
copy fails here)."""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "quarkci"


def _constants(path: Path) -> list[str]:
    return [
        n.value
        for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(n, ast.Constant) and isinstance(n.value, str)
    ]


def _modules_with(predicate) -> list[str]:
    return sorted(p.relative_to(ROOT.parent).as_posix() for p in ROOT.rglob("*.py") if predicate(p))


@pytest.mark.parametrize(
    "gone",
    [
        "quarkci.report.escape",
        "quarkci.github.safe_text",
        "quarkci.sync.versions",
        "quarkci.contracts.shapes",
        "quarkci.ptq.doc_types",
        "quarkci.ptq.summary_types",
    ],
)
def test_the_old_copies_are_gone(gone: str) -> None:
    assert importlib.util.find_spec(gone) is None


def _typed_dict_names(path: Path) -> set[str]:
    """The TypedDicts a module defines: ``class X(TypedDict)`` and ``X = TypedDict("X", ...)``."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ClassDef) and any(
            isinstance(b, ast.Name) and b.id == "TypedDict" for b in node.bases
        ):
            names.add(node.name)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "TypedDict"
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            names.add(str(node.args[0].value))
    return names


def second_shapes(root: Path) -> dict[str, list[str]]:
    """Each TypedDict defined outside ``core/shapes/`` under a name a document shape there has."""
    home = {n for p in (root / "core" / "shapes").glob("*.py") for n in _typed_dict_names(p)}
    found: dict[str, list[str]] = {}
    for path in sorted(root.rglob("*.py")):
        if (root / "core" / "shapes") not in path.parents:
            for name in sorted(_typed_dict_names(path) & home):
                found.setdefault(name, []).append(path.relative_to(root).as_posix())
    return found


def test_one_home_for_each_document_shape(tmp_path: Path) -> None:
    """A registered document's TypedDicts live in ``core/shapes/`` only; a copy elsewhere fails (negative
    control: a feature package redefining ``Side``)."""
    assert second_shapes(ROOT) == {}
    (tmp_path / "core" / "shapes").mkdir(parents=True)
    (tmp_path / "core" / "shapes" / "summary.py").write_text("class Side(TypedDict):\n    path: str\n")
    (tmp_path / "ptq").mkdir()
    (tmp_path / "ptq" / "types.py").write_text('Side = TypedDict("Side", {"path": str})\n')
    assert second_shapes(tmp_path) == {"Side": ["ptq/types.py"]}


def test_one_markdown_escaper() -> None:
    """The mention defuse (a zero-width space after ``@``) and HTML entity escaping live in one module."""

    def escapes_markdown(path: Path) -> bool:
        consts = _constants(path)
        return "\u200b" in consts or "&lt;" in consts

    assert _modules_with(escapes_markdown) == ["quarkci/core/escape.py"]


def test_one_workflow_command_escaper() -> None:
    assert _modules_with(lambda p: "%0A" in _constants(p)) == ["quarkci/core/escape.py"]


def test_one_kind_to_level_table() -> None:
    """No module but core.levels maps a finding kind to a SARIF or annotation level in a literal."""
    levels = {"error", "warning", "note", "notice", "none"}

    def maps_kinds(path: Path) -> bool:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Dict):
                keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
                values = {v.value for v in node.values if isinstance(v, ast.Constant)}
                calls = [v for v in node.values if isinstance(v, ast.Call)]
                if "mechanical" in keys and (values & levels or calls):
                    return True
        return False

    assert _modules_with(maps_kinds) == ["quarkci/core/levels.py"]


def test_level_table_values() -> None:
    from quarkci.core.levels import LEVELS, annotation_level, sarif_level

    assert [sarif_level(k) for k in ("breaking", "semantic", "mechanical", "unverifiable")] == [
        "error",
        "warning",
        "note",
        "none",
    ]
    assert [annotation_level(k) for k in ("breaking", "semantic", "mechanical", "unverifiable")] == [
        "error",
        "warning",
        "notice",
        "notice",
    ]
    assert set(LEVELS) == {"breaking", "semantic", "mechanical", "unverifiable"}


def test_version_phrases_are_parsed_under_skills_claims_only() -> None:
    """The "3.11 to 3.13" / "2.2 or newer" phrase grammar lives in skills/claims: ``phrases`` (statement
    parse + rewrite, used by the fixer) and ``versions`` (package-anchored claim extraction)."""

    def parses_phrases(path: Path) -> bool:
        return any("or\\s+" in c and "newer" in c for c in _constants(path))

    assert _modules_with(parses_phrases) == [
        "quarkci/skills/claims/phrases.py",
        "quarkci/skills/claims/versions.py",
    ]


def test_one_jinja2_environment_and_no_inline_templates() -> None:
    """Templates are files rendered through core.templates: no other module builds an Environment or a
    template from a string (a second environment would drift in escaping filters or undefined handling)."""

    def builds_templates(path: Path) -> bool:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "attr", getattr(node.func, "id", ""))
                if name in {"Environment", "from_string", "Template"}:
                    return True
        return False

    assert _modules_with(builds_templates) == ["quarkci/core/templates.py"]


def test_one_json_path_format() -> None:
    """Only core.documents turns a jsonschema error into a message (``json_path``, ``Violation``): no other
    module reads an error's path or runs a validator's ``iter_errors``/``validate`` itself."""

    def formats_schema_errors(path: Path) -> bool:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in {
                "absolute_path",
                "relative_path",
                "iter_errors",
                "best_match",
            }:
                return True
            if isinstance(node, ast.Attribute) and node.attr == "ValidationError":
                return True
        return False

    assert _modules_with(formats_schema_errors) == ["quarkci/core/documents.py"]
    from quarkci.core.documents import json_path

    assert json_path([]) == "$"
    assert json_path(["findings", 0, "skill_location", "file"]) == "$.findings[0].skill_location.file"
    assert json_path(["a b", 2]) == '$["a b"][2]'


def test_every_reader_of_the_sync_report_says_a_violation_in_one_format(tmp_path: Path) -> None:
    """``report markdown``, ``report github`` and ``gh``'s report loader read validation_report.json through
    ``core.documents.read_artifact``: the same broken document gives the same ``$.path: message``."""
    import json

    from quarkci.core.errors import BadInputError
    from quarkci.github.report_input import load_report
    from quarkci.report.github_actions import publish
    from quarkci.report.markdown import render_json
    from tests.report.test_github_actions import _report

    finding = {"kind": "breaking", "rule": "r", "skill_location": {"file": "a/SKILL.md", "line": "3"}}
    document = _report([finding])
    (tmp_path / "rd").mkdir()
    path = tmp_path / "rd" / "validation_report.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    messages = []
    for read in (
        lambda: load_report(path),
        lambda: publish(tmp_path / "rd", tmp_path),
        lambda: render_json(document, str(path)),
    ):
        with pytest.raises(BadInputError) as caught:
            read()
        messages.append(str(caught.value))
    assert messages[0].startswith(f"{path}: not a valid validation_report: $.findings[0]")
    assert messages == [messages[0]] * 3, messages
