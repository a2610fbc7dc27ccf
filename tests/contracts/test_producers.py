"""The one-producer rule: a static scan flags code outside an artifact's producer that writes it."""

from __future__ import annotations

import textwrap
from pathlib import Path

from quarkci.contracts.producers import check_producers, find_writes

REPO = Path(__file__).resolve().parents[2]


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for rel, code in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(code))
    return tmp_path


def _modules(root: Path) -> list[tuple[str, str]]:
    return [(v.module, v.artifact) for v in check_producers(root)]


def test_quarkci_itself_has_one_writer_per_artifact():
    """The enforcement: fails when any quarkci module writes an artifact it does not produce."""
    violations = check_producers(REPO)
    assert violations == [], "\n".join(v.one_line() for v in violations)


def test_the_scan_sees_the_real_producers_writes():
    """Negative control for the enforcement: the scan is not vacuous on quarkci's own tree."""
    writes = {(w.module, w.artifact) for w in find_writes(REPO)}
    assert ("quarkci.ptq.intake", "model_analysis") in writes


def test_producer_may_write_its_artifact(tmp_path):
    root = _tree(tmp_path, {
        "quarkci/ptq/plan.py": """
            from quarkci.core.atomic import atomic_write_text
            def write(out, text):
                atomic_write_text(out / "quant_plan.json", text)
        """,
        "quarkci/ptq/manifest/__init__.py": """
            def write(out, text):
                (out / "run_manifest.yaml").write_text(text)
        """,
    })
    assert _modules(root) == []


def test_literal_write_outside_the_producer_is_flagged(tmp_path):
    root = _tree(tmp_path, {"quarkci/commands/ptq.py": """
        import json
        def save(out, plan):
            with open(out + "/quant_plan.json", "w") as fh:
                json.dump(plan, fh)
    """})
    [violation] = check_producers(root)
    assert (violation.module, violation.artifact, violation.line) == ("quarkci.commands.ptq", "quant_plan", 4)
    assert violation.one_line().startswith("quarkci/commands/ptq.py:4:")
    assert violation.one_line().endswith("whose one producer is quarkci.ptq.plan [contract-producer]")


def test_write_through_variables_fstrings_and_imported_constants(tmp_path):
    root = _tree(tmp_path, {
        "quarkci/ptq/intake.py": 'ANALYSIS_FILE = "model_analysis.json"\n',
        "quarkci/report/render.py": """
            from pathlib import Path
            from quarkci.ptq.intake import ANALYSIS_FILE
            NAME = "session_context.json"
            def a(out):
                target = Path(out) / NAME
                target.write_text("{}")
            def b(out, run):
                Path(f"{out}/{run}-validation_report.json").write_text("{}")
            def c(out):
                p = out / ANALYSIS_FILE
                q = p
                q.write_bytes(b"{}")
        """,
    })
    assert sorted(_modules(root)) == [("quarkci.report.render", "model_analysis"),
                                      ("quarkci.report.render", "session_context")]
    # validation_report is quarkci.report's own artifact, so b() is allowed


def test_external_artifacts_may_not_be_written_by_quarkci_at_all(tmp_path):
    root = _tree(tmp_path, {"quarkci/router/__init__.py": """
        from quarkci.core.atomic import atomic_write_text
        def w(out):
            atomic_write_text(out / "env_context.json", "{}")
    """})
    assert _modules(root) == [("quarkci.router", "env_context")]


def test_reads_and_mentions_in_content_are_not_writes(tmp_path):
    root = _tree(tmp_path, {"quarkci/report/md.py": """
        from pathlib import Path
        from quarkci.core.atomic import atomic_write_text
        def r(out):
            data = Path(out, "quant_plan.json").read_text()
            with open(Path(out) / "run_manifest.yaml") as fh:
                fh.read()
            atomic_write_text(out / "summary.md", "see quant_plan.json and run_manifest.yaml")
            return data
    """})
    assert _modules(root) == []


def test_same_variable_name_in_another_function_is_not_confused(tmp_path):
    root = _tree(tmp_path, {"quarkci/commands/x.py": """
        def a(out):
            path = out / "quant_plan.json"
            return path.exists()
        def b(out):
            path = out / "notes.txt"
            path.write_text("ok")
    """})
    assert _modules(root) == []


def test_a_contract_named_write_from_a_wrong_module_is_caught(tmp_path):
    root = _tree(tmp_path, {
        "quarkci/gates/ptq.py": """
            from quarkci.core.documents import write_artifact
            def f(path, doc):
                write_artifact("validation_summary", path, doc)
        """,
        "quarkci/ptq/validate.py": """
            from quarkci.core import documents
            def g(out, doc):
                documents.write_artifact("validation_summary", out, doc)
        """,
    })
    assert _modules(root) == [("quarkci.gates.ptq", "validation_summary")]
