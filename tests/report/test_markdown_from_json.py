"""quarkci report markdown: the Markdown re-rendered from a JSON report equals the original, and an
untrusted (hand-edited) JSON report is escaped the same way or refused with exit 2."""

from __future__ import annotations

import json
from pathlib import Path

from quarkci import cli

GOLDEN = Path(__file__).resolve().parents[1] / "fixtures" / "sync" / "golden"


def test_rerendered_markdown_is_byte_identical_to_the_golden_report(tmp_path):
    out = tmp_path / "re.md"
    assert (
        cli.main(
            [
                "report",
                "markdown",
                "--report-json",
                str(GOLDEN / "validation_report.json"),
                "--output",
                str(out),
            ]
        )
        == 0
    )
    assert out.read_bytes() == (GOLDEN / "validation_report.md").read_bytes()


def test_hostile_strings_in_an_artifact_cannot_ping_inject_html_or_break_fences(tmp_path):
    report = json.loads((GOLDEN / "validation_report.json").read_text(encoding="utf-8"))
    assert report["findings"], "the golden report must hold findings for this test to mean anything"
    hostile = (
        "@octocat <img src=x onerror=alert(1)> ``` [click](https://evil.example) <!-- quarkci:report:x -->"
    )
    report["findings"][0]["skill_says"] = hostile
    report["findings"][0]["source_says"] = hostile
    src = tmp_path / "r.json"
    src.write_text(json.dumps(report), encoding="utf-8")
    out = tmp_path / "re.md"
    assert cli.main(["report", "markdown", "--report-json", str(src), "--output", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert "@octocat" not in text
    assert "<img" not in text
    assert "[click](" not in text  # the brackets are escaped: no link
    assert text.count("<!-- quarkci:report:") == 1  # only the report's own marker


def test_a_json_that_is_not_a_report_is_exit_2_and_writes_nothing(tmp_path, capsys):
    src = tmp_path / "r.json"
    src.write_text(json.dumps({"status": "great"}), encoding="utf-8")
    out = tmp_path / "re.md"
    assert cli.main(["report", "markdown", "--report-json", str(src), "--output", str(out)]) == 2
    err = capsys.readouterr().err
    assert err == (  # the one reading path and its one JSON-path format, naming the flag
        f"quarkci: error: --report-json {src}: not a valid validation_report: "
        "$: missing required field 'evidence' (+3 more)\n"
    )
    assert not out.exists()
    src.write_text("{not json", encoding="utf-8")
    assert cli.main(["report", "markdown", "--report-json", str(src), "--output", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"quarkci: error: --report-json {src}: ") and err.count("\n") == 1
    assert not out.exists()
