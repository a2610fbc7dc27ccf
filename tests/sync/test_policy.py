"""The finding policy (quarkci/sync/policy.py): inline ignore markers are read once per line (issue 24:
one command line of a 2 MiB SKILL.md can carry 200,000 flag findings)."""

from __future__ import annotations

from quarkci.core.findings import Finding, Location
from quarkci.sync import policy


def _finding(rule: str, subject: str, line: int) -> Finding:
    return Finding(
        rule=rule,
        change="removed",
        category="cli_flags",
        skill="s",
        subject=subject,
        skill_says=f"passes `{subject}`",
        source_says="gone",
        impact="fails",
        skill_location=Location("s/SKILL.md", line),
    )


def test_inline_markers_are_read_once_per_line_and_still_apply():
    lines = {
        4: "run "
        + " ".join(f"--f{i}" for i in range(2000))
        + "  <!-- quarkci: ignore[cli-flag-removed, x] -->",
        6: "<!-- quarkci: ignore[scheme-unknown] -->",
        7: "uses `old_scheme`",
    }
    reads: list[tuple[str, int]] = []

    def line_of(file: str, n: int) -> str | None:
        reads.append((file, n))
        return lines.get(n)

    findings = [_finding("cli-flag-removed", f"--f{i}", 4) for i in range(2000)]
    findings += [_finding("cli-flag-unverifiable", f"--f{i}", 4) for i in range(3)]  # not named: kept
    findings += [_finding("scheme-unknown", "old_scheme", 7)]  # marker on the line above
    result = policy.apply(findings, policy.Config(), line_of)
    assert len(reads) == len(set(reads)) <= 4  # lines 3, 4, 6, 7: each read once
    assert [f.rule for f in result.findings] == ["cli-flag-unverifiable"] * 3
    assert len(result.ignored) == 2001
    assert {reason for _, reason in result.ignored} == {
        "inline quarkci: ignore[cli-flag-removed]",
        "inline quarkci: ignore[scheme-unknown]",
    }


def test_a_duplicate_ignored_finding_is_counted_once():
    same = [_finding("cli-flag-removed", "--f1", 4), _finding("cli-flag-removed", "--f1", 9)]
    result = policy.apply(same, policy.Config(), lambda _f, _n: "quarkci: ignore[cli-flag-removed]")
    assert len(result.ignored) == 1 and result.findings == ()
    # negative control: without the marker the first location is kept, once
    kept = policy.apply(same, policy.Config(), lambda _f, _n: None)
    assert [f.skill_location.line for f in kept.findings if f.skill_location] == [4]
