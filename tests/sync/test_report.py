"""Renderers: escaping of untrusted text, annotations, SARIF, schema validity of a blocked report."""

from __future__ import annotations

import json
import re

import jsonschema
import pytest

from quarkci.core.escape import ZWSP, code, md
from quarkci.core.findings import Finding, Location
from quarkci.report import json_report, lines, markdown, sarif
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


def test_json_report_is_schema_valid_and_rejects_a_broken_dto():
    document = json.loads(json_report.render(_outcome()))
    assert document["status"] == "failed" and document["counts"]["breaking"] == 1
    document["status"] = "fine"
    with pytest.raises(jsonschema.ValidationError):
        json_report.validate(document)


def test_annotations_cannot_inject_workflow_commands():
    f = Finding(
        "r",
        "removed",
        "c",
        "s",
        "x",
        "line1\n::error::pwned",
        "b%",
        "i",
        skill_location=Location("a,b:c.md", 7),
        kind="breaking",
    )
    out = lines.github_annotations([f], prefix="skills/")
    assert out.count("\n") == 1 and out.startswith("::error file=skills/a%2Cb%3Ac.md,line=7,")
    assert "%0A::error::pwned" in out and "b%25" in out


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
    chart = markdown.skill_chart(findings)
    assert chart.count("bar [") == 3 and "bar [2]" in chart  # one series per drift kind, one skill
    body = chart.split("\n", 1)[1].rsplit("```", 1)[0]
    assert '"]' not in body.replace('"]\n', "") and "<" not in body and "`" not in body
    assert "other" not in chart  # unverifiable findings are not drift


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
