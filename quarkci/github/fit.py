"""Fit a Markdown body into GitHub's size limit for issue, PR and comment bodies.

GitHub rejects a body over 65,536 characters with ``422 body is too long``. :func:`fit_body`
shortens such a body **section by section**: sections (split at top-level headings, found with
markdown-it-py so a ``#`` inside a code block is not a heading) are dropped from the end, one at
a time, until the kept part plus one note fits; the note names the omitted sections and points to
the full report. The first section (which carries the hidden marker) is always kept; if it alone
is too long it is cut at a line boundary outside any code block, so no fence is left open.
"""

from __future__ import annotations

from markdown_it import MarkdownIt

GITHUB_BODY_LIMIT = 65536

_md = MarkdownIt("commonmark")


def _blocks(text: str) -> tuple[list[int], list[tuple[int, int]]]:
    """(start lines of top-level headings, [start, end) line ranges of fenced/indented code)."""
    headings: list[int] = []
    code: list[tuple[int, int]] = []
    for token in _md.parse(text):
        if token.map is None or token.level != 0:
            continue
        if token.type == "heading_open":
            headings.append(token.map[0])
        elif token.type in ("fence", "code_block", "html_block"):
            code.append((token.map[0], token.map[1]))
    return headings, code


def split_sections(body: str) -> list[str]:
    """``body`` cut before each top-level heading; ``"".join(result) == body``."""
    lines = body.splitlines(keepends=True)
    starts = [0] + [h for h in _blocks(body)[0] if h > 0]
    bounds = starts + [len(lines)]
    return ["".join(lines[a:b]) for a, b in zip(bounds, bounds[1:], strict=False) if b > a]


def _heading_title(section: str) -> str:
    first = section.split("\n", 1)[0].strip()
    return first.lstrip("#").strip() if first.startswith("#") else ""


def _cut(text: str, budget: int) -> str:
    """The longest prefix of ``text`` ending at a line boundary outside code, within ``budget``."""
    lines = text.splitlines(keepends=True)
    _, code = _blocks(text)
    inside = {n for a, b in code for n in range(a + 1, b)}  # cutting after line a..b-2 splits a block
    kept, size = 0, 0
    for n, line in enumerate(lines):
        if size + len(line) > budget:
            break
        size += len(line)
        if n + 1 not in inside:
            kept = n + 1
    return "".join(lines[:kept])


def _note(omitted: list[str], limit: int, full_report_url: str | None) -> str:
    names = [t for t in (_heading_title(s) for s in omitted) if t]
    listed = ", ".join(names[:10]) + (f" and {len(names) - 10} more" if len(names) > 10 else "")
    where = f"the full report: {full_report_url}" if full_report_url else "the full report in the job artifacts"
    what = f"{len(omitted)} section(s) omitted" + (f" ({listed})" if listed else "")
    return f"\n---\n_Shortened to fit GitHub's {limit:,}-character limit: {what}. See {where}._\n"


def fit_body(body: str, *, limit: int = GITHUB_BODY_LIMIT, full_report_url: str | None = None) -> str:
    """``body`` unchanged when ``len(body) <= limit``; otherwise shortened as the module describes.

    ``full_report_url`` must be trusted (an artifact or job URL built by quarkci); it is quoted
    as-is. The result is at most ``limit`` characters and starts with ``body``'s first line.
    """
    if len(body) <= limit:
        return body
    sections = split_sections(body)
    for keep in range(len(sections) - 1, 0, -1):
        kept = "".join(sections[:keep])
        note = _note(sections[keep:], limit, full_report_url)
        if not kept.endswith("\n"):
            kept += "\n"
        if len(kept) + len(note) <= limit:
            return kept + note
    note = _note(sections[1:], limit, full_report_url)
    note = note.replace("_Shortened", "_Cut short and shortened", 1)
    head = _cut(sections[0], limit - len(note) - 1)
    if not head.endswith("\n"):
        head += "\n"
    return head + note
