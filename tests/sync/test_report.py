"""Renderers: escaping of untrusted text, SARIF, schema validity of a blocked report."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest

from quarkci.core.documents import validate_document
from quarkci.core.escape import ZWSP, code, md
from quarkci.core.findings import Finding, Location
from quarkci.report import json_report, lines, markdown, sarif
from quarkci.sync.baseline import Change
from quarkci.sync.outcome import SyncOutcome
from quarkci.sync.policy import FindingSet

EVIL = "@octocat <img src=x onerror=alert(1)> [click](javascript:x) ```\n# heading\n| a | b | `--flag` @team"


def _outcome(text: str = EVIL) -> SyncOutcome:
    f = Finding(
        "scheme-unknown",
        "removed",
        "schemes",
        "evil-skill",
        text,
        text,
        text,
        text,
        skill_location=Location("evil/SKILL.md", 3),
        kind="breaking",
    )
    return SyncOutcome(
        mode="audit",
        upstream=("amd-quark==9", "9", "wheel", text),
        baseline=None,
        skills_root="skills",
        skills=(),
        findings=FindingSet((f,)),
    )


def test_md_escape_neutralises_mentions_html_links_and_fences():
    out = md(EVIL)
    assert "@octocat" not in out and f"@{ZWSP}octocat" in out and f"@{ZWSP}team" in out
    assert "<img" not in out and "&lt;img" in out
    assert "[click]" not in out and "\\[click\\]" in out
    assert "```" not in out and "\n" not in out
    assert "`--flag`" in out  # well-formed code spans stay code
    assert code("a`b") == "`a'b`"


def test_markdown_report_has_no_raw_untrusted_markup():
    text = markdown.render(_outcome())
    # the report's own Mermaid chart is the only fence; its labels are escaped by core.mermaid
    chart = re.search(r"^```mermaid\n(?:[^`\n]*\n)*?```$", text, re.M)
    assert chart is not None and "<" not in chart.group(0) and "`" not in chart.group(0).strip("`")
    text = text.replace(chart.group(0), "")
    assert "@octocat" not in text and "@team" not in text and "```" not in text
    assert "\n# heading" not in text
    # outside code spans (where Markdown shows text literally) no HTML tag survives
    outside = re.sub(r"(?<!`)`[^`\n]+`(?!`)", "", text)
    assert "<img" not in outside and "[click](" not in outside


def test_json_report_is_schema_valid_and_rejects_a_broken_dto(monkeypatch):
    document = json.loads(json_report.render(_outcome()))
    assert document["status"] == "failed" and document["counts"]["breaking"] == 1
    assert validate_document(document, "validation_report") == []
    # negative control: a DTO that breaks the contract is a producer bug, in the one $.path format
    broken = json_report.build(_outcome()).to_json() | {"status": "fine"}
    monkeypatch.setattr(json_report, "build", lambda outcome: SimpleNamespace(to_json=lambda: broken))
    with pytest.raises(ValueError) as caught:
        json_report.render(_outcome())
    assert str(caught.value) == (
        "validation_report: producer wrote an invalid document: "
        "$.status: 'fine' is not one of 'success', 'partial', 'failed'"
    )


def test_canonical_line_and_sarif():
    outcome = _outcome("plain")
    assert (
        lines.canonical(outcome.findings.findings)
        == "evil/SKILL.md:3:1: breaking: plain; upstream: plain [scheme-unknown]\n"
    )
    log = json.loads(sarif.render(outcome, prefix="skills/"))
    (result,) = log["runs"][0]["results"]
    assert result["ruleId"] == "quarkci/scheme-unknown" and result["level"] == "error"
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "skills/evil/SKILL.md"


def test_skill_chart_escapes_skill_names_and_counts_drift_only():
    hostile = 'x"] --> click <b>@team</b> `y`'
    findings = [
        Finding("scheme-unknown", "removed", "schemes", hostile, "s", "a", "b", "c", kind="breaking"),
        Finding("scheme-unknown", "removed", "schemes", hostile, "t", "a", "b", "c", kind="breaking"),
        Finding("fact-unverifiable", "not_shown", "x", "other", "u", "a", "b", "c", kind="unverifiable"),
    ]
    chart = markdown.skill_charts(findings)
    assert chart.count("```mermaid") == 1 and chart.count("bar [") == 1 and "bar [2]" in chart
    assert 'title "Breaking findings per skill"' in chart
    body = chart.split("\n", 1)[1].rsplit("```", 1)[0]
    assert '"]' not in body.replace('"]\n', "") and "<" not in body and "`" not in body
    assert "other" not in chart  # unverifiable findings are not drift


def _charts(text: str) -> list[dict]:
    """Each mermaid block as {title, x: [labels], bars: [[values]...], lines: n}."""
    out = []
    for block in re.findall(r"```mermaid\n(.*?)```", text, re.S):
        title = re.search(r'title "(.*)"', block).group(1)
        xs = re.findall(r'"([^"]*)"', re.search(r"x-axis \[(.*)\]", block).group(1))
        bars = [[float(v) for v in b.split(", ")] for b in re.findall(r"  bar \[(.*)\]", block)]
        out.append({"title": title, "x": xs, "bars": bars, "lines": block.count("  line [")})
    return out


def test_charts_do_not_hide_a_kind_behind_another():
    """The issue's case: a skill with 29 mechanical findings drawn over the 3 breaking and 4 semantic of
    others (xychart stacks bar series without a legend). One chart per kind, the kind in its title."""

    def f(kind: str, skill: str, n: int) -> Finding:
        return Finding("r", "changed", "c", skill, f"{kind}{n}", "a", "b", "c", kind=kind)

    findings = [f("mechanical", "torch/quark-torch-model-intake", n) for n in range(29)]
    findings += [f("breaking", "quark-torch-file2file-quantization", n) for n in range(3)]
    findings += [
        f("semantic", "_legacy_impl/l1-atomic/torch/quark-torch-file2file-quantization", n) for n in range(3)
    ]
    findings += [f("semantic", "quark-torch-file2file-quantization", 9)]
    charts = _charts(markdown.skill_charts(findings))
    assert [c["title"] for c in charts] == [
        "Breaking findings per skill",
        "Semantic findings per skill",
        "Mechanical findings per skill",
    ]
    assert all(len(c["bars"]) == 1 and c["lines"] == 0 for c in charts)  # one series per chart
    breaking, semantic, mechanical = charts
    assert breaking["x"] == ["quark-torch-file2file-quantization"] and breaking["bars"] == [[3.0]]
    # two skills with the same directory name (adapter and legacy implementation): two labels, once each,
    # the same label for a skill in every chart
    assert semantic["x"] == ["torch/quark-torch-file2file-quantization", "quark-torch-file2file-quantization"]
    assert semantic["bars"] == [[3.0, 1.0]]
    assert mechanical["x"] == ["quark-torch-model-intake"] and mechanical["bars"] == [[29.0]]
    alone = _charts(
        markdown.skill_charts(
            [f("breaking", "_legacy_impl/l1/torch/quark-torch-x", 0)] + [f("mechanical", "quark-torch-x", 0)]
        )
    )
    assert [c["x"] for c in alone] == [["torch/quark-torch-x"], ["quark-torch-x"]]  # never the same label
    assert sum(sum(c["bars"][0]) for c in charts) == len(findings)  # every drift finding counted once


def test_short_names_and_the_top_20_cut():
    assert markdown.short_names(["a/x/s", "b/x/s", "c/t", "s"]) == ["a/x/s", "b/x/s", "t", "s"]
    assert markdown.short_names(["same", "same"]) == ["same", "same"]  # left to mermaid.unique_labels
    findings = [
        Finding("r", "changed", "c", f"skill-{i:02d}", f"v{n}", "a", "b", "c", kind="mechanical")
        for i in range(25)
        for n in range(i + 1)
    ]
    (chart,) = _charts(markdown.skill_charts(findings))
    assert chart["title"] == "Mechanical findings per skill, top 20 of 25"
    assert chart["x"][0] == "skill-24" and len(chart["x"]) == len(set(chart["x"])) == 20
    assert chart["bars"] == [[float(n) for n in range(25, 5, -1)]]
    assert markdown.skill_charts([]) == ""


def test_drift_history_draws_one_chart_per_kind_a_release_has():
    from quarkci.sync import history

    points = tuple(
        history.Point(v, v, None, {"breaking": b, "semantic": 0, "mechanical": m, "unverifiable": 9}, {})
        for v, b, m in (("0.11", 0, 29), ("0.12", 3, 29), ("0.13", 3, 31))
    )
    charts = _charts(history.chart(history.Timeline("skills", 2, 10, points)))
    assert [c["title"] for c in charts] == [
        "Breaking findings per release",
        "Mechanical findings per release",
    ]
    assert charts[0]["x"] == ["0.11", "0.12", "0.13"] and charts[0]["bars"] == [[0.0, 3.0, 3.0]]
    assert charts[1]["bars"] == [[29.0, 29.0, 31.0]] and all(len(c["bars"]) == 1 for c in charts)


def test_ignored_findings_are_counted_once():
    from quarkci.sync.policy import Config, Ignore, apply

    f = Finding(
        "scheme-unknown",
        "removed",
        "schemes",
        "s",
        "old",
        "a",
        "b",
        "c",
        skill_location=Location("s/SKILL.md", 3),
    )
    twice = [
        f,
        Finding(
            "scheme-unknown",
            "removed",
            "schemes",
            "s",
            "old",
            "a",
            "b",
            "c",
            skill_location=Location("s/SKILL.md", 9),
        ),
    ]
    result = apply(twice, Config(ignore=(Ignore(rule="scheme-unknown"),)))
    assert result.findings == () and len(result.ignored) == 1


GOLDEN_MD = Path(__file__).resolve().parents[1] / "fixtures" / "sync" / "golden" / "validation_report.md"


def _headings(text: str) -> list[str]:
    return [re.sub(r" \(.*", "", h) for h in re.findall(r"^## (.+)$", text, re.M)]


def test_the_report_leads_with_what_to_do_and_ends_with_the_collapsed_release_diff():
    text = GOLDEN_MD.read_text(encoding="utf-8")
    assert _headings(text) == [
        "Breaking",
        "Semantic",
        "Next actions",
        "Mechanical",
        "Drift per skill",
        "Unverifiable",
        "Evidence",
        "Statuses and kinds",
        "Release diff",
    ]
    counts = text.index("| Breaking | Semantic | Mechanical | Unverifiable | Ignored |")
    assert counts < text.index("## Breaking") < text.index("## Semantic") < text.index("## Next actions")
    # Next actions come right after the findings that need a human: within the first third of the report
    assert text[: text.index("## Next actions")].count("\n") < len(text.splitlines()) / 3
    diff = text[text.index("## Release diff") :]
    assert diff.split("\n\n", 2)[1].startswith("<details>\n<summary>") and diff.endswith("</details>\n")
    assert "- python added `3.13`" in diff.split("<details>", 1)[1]  # every change inside the collapse


def test_applied_fixes_follow_the_next_actions_in_a_fix_run():
    change = Change("schemes", "added", "mx9", None, "template.py:3", ("s",))
    outcome = replace(
        _outcome("x"), applied_fixes=("s/SKILL.md:3: add scheme",), fix=True, release_diff=(change,)
    )
    headings = _headings(markdown.render(outcome))
    assert headings[:4] == ["Breaking", "Semantic", "Next actions", "Applied fixes"]
    assert headings[-1] == "Release diff"


@pytest.mark.parametrize(
    ("spec", "version", "expected"),
    [
        ("amd-quark", "0.13", "amd-quark==0.13"),  # the newest release can move: pinned
        ("AMD_Quark", "0.13", "amd-quark==0.13"),
        ("amd-quark==0.12.post1", "0.12.post1", "amd-quark==0.12.post1"),
        ("dist/amd_quark-0.99-py3-none-any.whl", "0.99", "dist/amd_quark-0.99-py3-none-any.whl"),
        ("amd-quark", None, "amd-quark"),  # blocked: no version to pin
    ],
)
def test_next_actions_rerun_the_release_this_job_audited(spec, version, expected):
    from quarkci.report.dto import rerun_spec

    outcome = replace(_outcome("x"), upstream=(spec, version, "wheel", "label"))
    assert rerun_spec(outcome) == expected
