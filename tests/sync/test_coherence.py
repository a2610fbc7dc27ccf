"""Fixes stay coherent (quarkci.sync.coherence) on the real 0.13 wheel: a fix that would leave its paragraph
contradicting itself is not offered, and the report counts it as a hand edit, never as "fixable"."""

from __future__ import annotations

import json

import pytest

from quarkci.cli import main
from quarkci.sync.coherence import paragraph_ids

# 0.13 METADATA: Requires-Python >=3.11,<3.14 (3.10 no longer allowed, 3.13 allowed)
SAME_PARAGRAPH = "Python 3.10, 3.11 or 3.12 is required. *Python 3.13 is not currently supported*\n"
SPLIT = "Python 3.10, 3.11 or 3.12 is required.\n\nInstall it first.\n"


def _sync(tmp_path, body: str, run: str, *flags: str) -> tuple[dict, str]:
    from tests.realwheels import real_wheel

    skill = tmp_path / "skills" / "env" / "SKILL.md"
    if not skill.exists():
        skill.parent.mkdir(parents=True)
        skill.write_text(f"---\nname: env\ndescription: env\n---\n\n{body}", encoding="utf-8")
    argv = ["sync", "--upstream", str(real_wheel("0.13")), "--baseline", str(real_wheel("0.12.post1"))]
    argv += ["--skills", str(tmp_path / "skills"), "--out", str(tmp_path / run), "--fail-on", "none", *flags]
    assert main(argv) == 0
    report = json.loads((tmp_path / run / "validation_report.json").read_text(encoding="utf-8"))
    return report, skill.read_text(encoding="utf-8")


@pytest.mark.real
def test_a_fix_that_would_contradict_its_paragraph_is_not_offered(tmp_path, capsys):
    audit, _ = _sync(tmp_path, SAME_PARAGRAPH, "audit")
    found = sorted(
        (f["rule"], f["kind"], f["skill_location"]["line"], f["fix"] is not None)
        for f in audit["findings"]
        if f["kind"] != "unverifiable"
    )
    # both sentences are false against 0.13; rewriting the first alone would make them contradict each other
    assert found == [("python-version-mismatch", "mechanical", 6, False)] * 2
    (withheld,) = [f for f in audit["findings"] if "not fixed by --fix" in f["source_says"]]
    assert withheld["subject"] == "Python 3.10, 3.11 or 3.12 in env/SKILL.md"
    assert "line 6 of the same paragraph would still disagree" in withheld["source_says"]
    fixed, text = _sync(tmp_path, SAME_PARAGRAPH, "fix", "--fix")
    capsys.readouterr()
    assert fixed["applied_fixes"] == [] and text.endswith(SAME_PARAGRAPH)
    assert fixed["summary"].endswith("; 0 fixes applied, 0 fixable left, 2 mechanical to edit by hand")


@pytest.mark.real
def test_a_statement_alone_in_its_paragraph_is_fixed(tmp_path, capsys):
    # negative control: with nothing else in its paragraph the same sentence is rewritten
    fixed, text = _sync(tmp_path, SPLIT, "fix", "--fix")
    capsys.readouterr()
    assert fixed["applied_fixes"] == ["env/SKILL.md:6: Python 3.10, 3.11 or 3.12 -> 3.11, 3.12, or 3.13"]
    assert "Python 3.11, 3.12, or 3.13 is required." in text
    assert fixed["summary"].endswith("; 1 fixes applied, 0 fixable left")


def test_paragraphs_are_runs_of_non_blank_lines():
    ids = paragraph_ids("a\nb\n\nc\n  \n\nd")
    assert ids[0] == ids[1] and len({ids[0], ids[3], ids[6]}) == 3


def test_siblings_of_a_withheld_list_fix_are_told_and_unrelated_fixes_stay():
    from quarkci.core.findings import Finding, Fix, Location
    from quarkci.facts.base import FactSet
    from quarkci.skills.model import Skill
    from quarkci.sync.coherence import coherent
    from quarkci.sync.policy import FindingSet
    from quarkci.sync.state import AuditState, UpstreamView

    text = "---\nname: s\ndescription: d\n---\n| **Other** | a, b |\nThe list has 2 entries.\n\nPin `x<1`.\n"
    src = Location("t.py", 3)

    def finding(rule, subject, line, fix=None, says="", source=src):
        return Finding(
            rule,
            "missing_from_list",
            "c",
            "s",
            subject,
            "says",
            says,
            "i",
            Location("s/SKILL.md", line),
            source,
            fix,
            kind="mechanical",
        )

    row = "| **Other** | a, b |"
    carrier = finding("list", "L: c", 5, Fix("s/SKILL.md", 5, row, "| **Other** | a, b, c, d |"), "defines c")
    sibling = finding("list", "L: d", 5, None, "defines d (fixed together with `c`)")
    other = finding("pin", "x", 8, Fix("s/SKILL.md", 8, "Pin `x<1`.", "Pin `x<2`."), "x<2", Location("M", 9))
    left = finding("list", "count", 6, None, "the release has 4", src)  # same rule and source, same paragraph
    facts = FactSet(version="1.0", label="l", coverage=frozenset(), kinds={}, unavailable={})
    view = UpstreamView(spec="s", kind="wheel", facts=facts, files=frozenset())
    skill = Skill("s", "s/SKILL.md", {}, "", 5)
    state = AuditState([skill], [], view, None, lambda _f: text)
    out = coherent(FindingSet((carrier, sibling, other)), state, lambda _trial: FindingSet((left,)))
    by_subject = {f.subject: f for f in out.findings}
    assert by_subject["L: c"].fix is None and "line 6 of the same paragraph" in by_subject["L: c"].source_says
    assert by_subject["L: d"].source_says == "defines d; not fixed by --fix, as `L: c` is not"
    assert by_subject["x"].fix is not None  # another paragraph: its fix stays
    # negative control: nothing left after the edit, every fix stays
    kept = coherent(FindingSet((carrier, sibling, other)), state, lambda _trial: FindingSet(()))
    assert [f.fix is not None for f in kept.findings] == [True, False, True]
