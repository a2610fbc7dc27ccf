"""Bodies over GitHub's 65,536-character limit are shortened inside their sections."""

from __future__ import annotations

import re

from markdown_it import MarkdownIt

from quarkci.github.fit import GITHUB_BODY_LIMIT, fit_body, split_sections

MARKER = "<!-- quarkci:report:ci -->"


def _body(sections: int, size: int) -> str:
    parts = [f"{MARKER}\n# Report\n\nintro\n"]
    for n in range(sections):
        parts.append(f"## Section {n}\n\n" + ("x" * 99 + "\n") * (size // 100))
    return "\n".join(parts)


def test_short_body_is_untouched():
    body = _body(3, 1000)
    assert fit_body(body) is body


def test_long_body_is_cut_inside_each_section_with_counts_and_the_report_link():
    """Case 7: no section is dropped whole; each long one keeps its start and says what was left out."""
    body = _body(10, 10_000)
    assert len(body) > GITHUB_BODY_LIMIT
    out = fit_body(body, full_report_url="https://example.invalid/run/1")
    assert GITHUB_BODY_LIMIT - 4000 < len(out) <= GITHUB_BODY_LIMIT  # the budget is used, not wasted
    assert out.startswith(MARKER + "\n")
    assert all(f"## Section {n}\n" in out for n in range(10))
    notes = re.findall(r"_… (\d+) more line\(s\) not shown here", out)
    kept = out.count("x" * 99 + "\n")
    assert len(notes) == 10 and sum(int(n) for n in notes) + kept == 10 * 100  # every omitted line counted
    assert out.count("https://example.invalid/run/1") == 10


def test_one_huge_section_keeps_almost_the_whole_budget():
    """Case 7: a single huge section used to leave a 160-character comment."""
    body = MARKER + "\n" + "".join(f"- item {n} " + "z" * 60 + "\n" for n in range(5000))
    out = fit_body(body, full_report_url="https://example.invalid/r")
    assert len(out) > GITHUB_BODY_LIMIT - 1000
    shown = out.count("\n- item ")
    (left,) = re.findall(r"_… (\d+) more item\(s\) not shown here", out)
    assert shown + int(left) == 5000 and shown > 800


def test_heading_inside_code_is_not_a_section():
    body = f"{MARKER}\n```\n## not a section\n```\n## Real\ntext\n"
    assert len(split_sections(body)) == 2
    assert "".join(split_sections(body)) == body


def test_huge_first_section_is_cut_outside_code_blocks():
    body = MARKER + "\n" + ("text line\n" * 3000) + "```\n" + ("code line\n" * 8000) + "```\n## Tail\n"
    out = fit_body(body, limit=40_000)
    assert len(out) <= 40_000 and out.startswith(MARKER)
    fences = [t for t in MarkdownIt("commonmark").parse(out) if t.type == "fence"]
    assert fences == []  # the block did not fit whole, so it was cut before its fence, not inside it
    assert "8002 more line(s) not shown" in out and out.endswith("## Tail\n")
