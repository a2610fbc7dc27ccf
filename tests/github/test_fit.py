"""Bodies over GitHub's 65,536-character limit are shortened section by section."""

from __future__ import annotations

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


def test_long_body_drops_sections_from_the_end_and_points_to_the_report():
    body = _body(10, 10_000)
    assert len(body) > GITHUB_BODY_LIMIT
    out = fit_body(body, full_report_url="https://example.invalid/run/1")
    assert len(out) <= GITHUB_BODY_LIMIT
    assert out.startswith(MARKER + "\n")
    assert "## Section 5" in out and "## Section 6" not in out  # 6 kept sections fit, the 7th does not
    assert "4 section(s) omitted (Section 6, Section 7, Section 8, Section 9)" in out
    assert "https://example.invalid/run/1" in out


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
    assert "Cut short" in out
