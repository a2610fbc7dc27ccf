"""The one Markdown escaper: untrusted text cannot ping, inject HTML, or break out of code (checked by parsing)."""

from __future__ import annotations

from markdown_it import MarkdownIt

from quarkci.core import escape
from quarkci.github.markers import first_line_marker

md = MarkdownIt("commonmark")


def test_mentions_are_defused_everywhere():
    for render in (escape.plain, escape.md, escape.code, escape.title):
        out = render("ping @octocat and @org/team")
        assert "@octocat" not in out and "@org/team" not in out
        assert "@\u200boctocat" in out
    assert "a@b" not in escape.plain("mail a@b.com")  # harmless over-match, still not a mention


def test_plain_text_renders_no_html_or_links():
    html = md.render(
        escape.plain("<img src=x onerror=alert(1)> [click](http://evil) ![i](http://t/p.png) **b**")
    )
    assert "<img" not in html and "<a " not in html and "<strong>" not in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html


def test_code_span_cannot_be_closed_by_its_content():
    nasty = "a `` b ``` c"
    tokens = md.parseInline(escape.code(nasty))[0].children
    assert [t.type for t in tokens] == ["code_inline"]
    assert tokens[0].content == nasty.replace("`", "'")


def test_code_block_cannot_be_closed_by_its_content():
    nasty = "line\n```\n# not a heading\n<b>html</b>\n````\n@user"
    tokens = md.parse(escape.code_block(nasty, info="py`evil"))
    assert [t.type for t in tokens] == ["fence"]
    assert tokens[0].info == "pyevil"
    assert tokens[0].content.startswith("line\n```\n# not a heading")


def test_untrusted_text_cannot_forge_a_marker():
    forged = "<!-- quarkci:finding:0123456789abcdef -->"
    for render in (escape.plain, escape.code, escape.code_block, escape.title):
        assert "<!--" not in render(forged)
    assert first_line_marker(forged) == ("finding", "0123456789abcdef")  # the negative control


def test_title_is_one_bounded_line():
    out = escape.title("a\nb\r\nc\x00" + "x" * 500, limit=50)
    assert "\n" not in out and "\x00" not in out and len(out) == 50


# --- properties over arbitrary text (hypothesis) ------------------------------------------------------------

import re  # noqa: E402

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

PIECES = [*"ab @<>&`*_[]()!#|~\\-.:,\n\r\t%", "<!--", "-->", "http://x", "@user", "```", "\x00", "[x](y)"]
HOSTILE = st.lists(st.sampled_from(PIECES), max_size=30).map("".join)
_TAG = re.compile(r"</?([a-z0-9]+)")


@settings(max_examples=300, deadline=None)
@given(HOSTILE)
def test_plain_and_md_render_no_markup_and_ping_nobody(text: str) -> None:
    for render in (escape.plain, escape.md):
        out = render(text)
        assert "\n" not in out and "\r" not in out
        assert not re.search(r"@[A-Za-z0-9_-]", out)
        html = md.render(f"text: {out}")  # inline escapers: the text sits inside a line (list item, cell)
        allowed = {"p", "code"} if render is escape.md else {"p"}
        assert set(_TAG.findall(html)) <= allowed, (text, out, html)


@settings(max_examples=300, deadline=None)
@given(HOSTILE)
def test_code_is_always_one_code_span(text: str) -> None:
    out = escape.code(text)
    tokens = md.parseInline(out)[0].children
    assert [t.type for t in tokens] == ["code_inline"], (text, out)
    assert "<!--" not in out and not re.search(r"@[A-Za-z0-9_-]", out)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_workflow_command_data_is_one_line_and_reversible(text: str) -> None:
    codes = {"25": "%", "0A": "\n", "0D": "\r", "3A": ":", "2C": ","}
    for escaped in (escape.escape_data(text), escape.escape_property(text)):
        assert "\n" not in escaped and "\r" not in escaped
        assert re.sub(r"%(25|0A|0D|3A|2C)", lambda m: codes[m.group(1)], escaped) == text
    assert ":" not in escape.escape_property(text) and "," not in escape.escape_property(text)
