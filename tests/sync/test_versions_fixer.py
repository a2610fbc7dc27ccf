"""Version statements and the fixer on their own."""

from __future__ import annotations

import pytest
from packaging.specifiers import SpecifierSet

from quarkci.core.findings import Finding, Fix
from quarkci.skills.claims.phrases import minors, parse_statement, render
from quarkci.sync.fixer import apply_fixes, apply_to_text


@pytest.mark.parametrize(
    "text, spec, lower, upper, style",
    [
        ("Python 3.11 to 3.13", ">=3.11,<=3.13.99999", True, True, "range"),
        ("Python 3.11, 3.12, or 3.13", ">=3.11,<=3.13.99999", True, True, "list"),
        ("PyTorch 2.2 or newer", ">=2.2", True, False, "open"),
        ("requires `>=3.11, <3.14`", ">=3.11,<3.14", True, True, "spec"),
        ("transformers<5.16", "<5.16", False, True, "spec"),
    ],
)
def test_parse_statement(text, spec, lower, upper, style):
    stated = parse_statement(text)
    assert stated.spec == SpecifierSet(spec)
    assert (stated.lower, stated.upper, stated.style) == (lower, upper, style)
    assert stated.text in text


def test_a_lone_version_states_no_range():
    assert parse_statement("tested on Python 3.12") is None


def test_render_keeps_the_authors_style():
    assert render(parse_statement("Python 3.9 to 3.12"), ["3.10", "3.11", "3.12", "3.13"]) == "3.10 to 3.13"
    assert render(parse_statement("3.9, 3.10, or 3.11"), ["3.10", "3.11"]) == "3.10, or 3.11"
    assert (
        render(
            parse_statement("requires `>=3.9, <3.13`"),
            minors(SpecifierSet(">=3.11,<3.14"), 3),
            SpecifierSet(">=3.11,<3.14"),
        )
        == ">=3.11, <3.14"
    )


def test_apply_to_text_preserves_crlf_and_skips_stale_anchors():
    text = "a\r\nb\r\nc"
    new, done, missed = apply_to_text(
        text, [Fix("f", 2, "b", "B"), Fix("f", 3, "zzz", "Z"), Fix("f", 1, "a", "a2", insert_after=True)]
    )
    assert new == "a\r\na2\r\nB\r\nc"
    assert len(done) == 2 and [m.line for m in missed] == [3]


def test_only_mechanical_fixes_are_applied():
    fix = Fix("f.md", 1, "old", "new")
    findings = [
        Finding("r", "removed", "c", "s", "x", "a", "b", "i", fix=fix, kind="breaking"),
        Finding("r2", "deprecated", "c", "s", "y", "a", "b", "i", fix=fix, kind="semantic"),
    ]
    written = {}
    outcome = apply_fixes(findings, lambda f: "old\n", lambda f, t: written.setdefault(f, t) and f)
    assert outcome.applied == () and written == {}


def test_an_inserted_line_is_never_duplicated_by_a_later_run():
    fix = Fix("f", 1, "| `a` | x |", "| `b` | new |", insert_after=True)
    once, done, _ = apply_to_text("| `a` | x |\n", [fix])
    assert once == "| `a` | x |\n| `b` | new |\n" and done == [fix]
    twice, done, missed = apply_to_text(once, [fix])
    assert twice == once and done == [] and missed == []


def test_inline_lists_get_names_appended_to_the_last_cell():
    from quarkci.sync.rules._common import _append_to_last_cell

    assert _append_to_last_cell("| **Other** | a, b |", ["c", "d"]) == "| **Other** | a, b, c, d |"
    assert _append_to_last_cell("Models: a, b.", ["c"]) == "Models: a, b, c"


def test_several_fixes_of_one_line_are_all_applied_when_they_edit_disjoint_parts():
    line = "Pin `a>=1,<2`, `b>=1,<2` and `c>=1,<2`."
    fixes = [
        Fix("f", 1, line, line.replace("a>=1,<2", "a>=3,<4")),
        Fix("f", 1, line, line.replace("b>=1,<2", "b>=5")),
        Fix("f", 1, line, line.replace("c>=1,<2", "c<9")),
    ]
    new, done, missed = apply_to_text(line + "\n", fixes)
    assert new == "Pin `a>=3,<4`, `b>=5` and `c<9`.\n" and len(done) == 3 and missed == []
    # two edits of the same words: the second is skipped, never merged into nonsense
    clash = [
        Fix("f", 1, line, line.replace("a>=1", "a>=3")),
        Fix("f", 1, line, line.replace("a>=1,<2", "a<7")),
    ]
    new, done, missed = apply_to_text(line, clash)
    assert new == line.replace("a>=1", "a>=3") and len(done) == 1 and len(missed) == 1
