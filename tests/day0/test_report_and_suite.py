"""The day-0 report (one producer: quarkci.report) and the demo eval suite."""

from __future__ import annotations

import json
import re

from quarkci.contracts.fallback import day0_result
from quarkci.core.documents import validate_document
from quarkci.day0.suite import (
    GEN_TASK,
    MC_TASK,
    MC_VARIANTS,
    gen_items,
    mc_items,
    resolve_suite,
    write_demo_suite,
)
from quarkci.report import day0 as report


def _result(**over) -> dict:
    doc = day0_result("/m", "int8", "UNKNOWN", "x", "investigate")
    doc.update(
        decision="REGRESSION",
        threshold=0.01,
        tasks=[
            {
                "task": "gsm8k",
                "metric": "exact_match",
                "baseline": 80.0,
                "candidate": 77.0,
                "delta": -3.0,
                "stderr": 0.5,
                "samples": 1319,
                "within": False,
                "status": "REGRESSION",
            },
            {
                "task": "arc|`<b>@dev`",
                "metric": "acc",
                "baseline": 0.5,
                "candidate": 0.5,
                "delta": 0.0,
                "stderr": 0.002,
                "samples": 1000,
                "within": True,
                "status": "PASS",
            },
        ],
    )
    doc.update(over)
    return doc


def test_report_renders_table_chart_and_escapes_untrusted_text():
    result = _result()
    assert validate_document(result, "day0_result") == []
    md = report.render(result)
    assert md == report.render(result)  # deterministic
    assert md.startswith("<!-- quarkci:report:day0 -->\n# Day-0 release: REGRESSION\n")
    assert "| `gsm8k` | `exact_match` | 80.0000 | 77.0000 | -3.0000 | 0.5000 | 1319 | no | REGRESSION |" in md
    # the hostile task name stays inside a code span: no pipe breaks the row, no tag, no mention
    row = next(line for line in md.splitlines() if "arc" in line and line.startswith("| `arc"))
    assert len(re.findall(r"(?<!\\)\|", row)) == 10  # 9 cells: the hostile pipe is escaped
    outside_code = re.sub(r"`[^`\n]*`", "", re.sub(r"```mermaid\n.*?```", "", md, flags=re.S))
    assert "<b>" not in outside_code and "@dev" not in outside_code  # fences and code spans never ping
    chart = re.search(r"```mermaid\n(.*?)```", md, re.S).group(1)
    # one bar series (the deltas) and -threshold as a line on each task's own scale: two bar series
    # would be drawn over each other without a legend
    assert chart.count("bar [") == 1 and "bar [-3, 0]" in chart and "line [-1, -0.01]" in chart
    assert 'title "Per-task delta as bars, -threshold as a line"' in chart
    assert "<b>" not in chart


def test_report_json_is_a_valid_validation_report_of_kind_day0():
    doc = report.report_json(_result(), "day0_result.json")
    assert validate_document(doc, "validation_report") == []
    assert (doc["kind"], doc["status"], doc["day0"]["decision"]) == ("day0", "failed", "REGRESSION")
    broken = {**doc, "kind": "nightly"}  # negative control
    assert validate_document(broken, "validation_report") != []


def test_demo_suite_items_and_files(tmp_path):
    mc = mc_items()
    assert len(mc) == 100 * MC_VARIANTS and len(gen_items()) == 100
    for item in mc:
        answer = item["choices"][item["label"]]
        a, b = (int(x) for x in item["question"].split(" = ")[0].replace("=", "").split(" + "))
        assert answer == " ".join(str(a + b))
        assert len(set(item["choices"])) == 4
        for wrong in item["choices"]:  # no distractor is a prefix of the answer or the reverse
            if wrong != answer:
                assert not wrong.startswith(answer) and not answer.startswith(wrong)
    suite = write_demo_suite(tmp_path / "a")
    again = write_demo_suite(tmp_path / "b")
    assert suite.config_hash == again.config_hash  # the hash ignores where the suite sits
    assert suite.tasks == (MC_TASK, GEN_TASK) and suite.generate_tasks == (GEN_TASK,)
    first = json.loads((tmp_path / "a" / f"{MC_TASK}.jsonl").read_text().splitlines()[0])
    assert set(first) == {"question", "choices", "label", "variant"}


def test_resolve_suite(tmp_path):
    assert resolve_suite("quick", tmp_path).tasks == ("arc_easy", "piqa")
    assert resolve_suite("gsm8k, mmlu", tmp_path).tasks == ("gsm8k", "mmlu")
    import pytest

    from quarkci.core.errors import BadInputError

    for bad in ("", " , ", "a;b", "x" * 101):
        with pytest.raises(BadInputError, match="--tasks"):
            resolve_suite(bad, tmp_path)


def test_ptq_report_kind(tmp_path):
    from quarkci.core.documents import read_artifact
    from quarkci.report import ptq

    summary = {
        "scheme": "fp8",
        "size_ratio": 0.27,
        "source": {"bytes": 4 * 2**20},
        "output": {"bytes": 2**20},
    }
    verdict = {
        "pass": False,
        "failure_class": "QUANT_COVERAGE_FAILURE",
        "detail": "d",
        "checks": [
            {
                "name": "coverage",
                "status": "fail",
                "failure_class": "QUANT_COVERAGE_FAILURE",
                "detail": "1 layer | stored `unquantized`",
            }
        ],
    }
    md = ptq.write(summary, verdict, tmp_path)
    assert md.startswith("<!-- quarkci:report:ptq -->\n# PTQ gate: FAIL (QUANT_COVERAGE_FAILURE)")
    assert "| coverage | fail | QUANT_COVERAGE_FAILURE | `1 layer \\| stored 'unquantized'` |" in md
    doc = read_artifact("validation_report", tmp_path / "validation_report.json")
    assert doc["kind"] == "ptq" and doc["ptq"]["failure_class"] == "QUANT_COVERAGE_FAILURE"
