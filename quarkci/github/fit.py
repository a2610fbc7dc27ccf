"""Fit a Markdown body into GitHub's size limit for issue, PR and comment bodies.

GitHub rejects a body over 65,536 characters with ``422 body is too long``. :func:`fit_body`
shortens such a body **inside its sections**, never by dropping a section whole: the body is split
at headings (found with markdown-it-py, so a ``#`` inside a code block is not a heading), and every
section gets a share of the budget by water-filling (small sections are kept whole, the large ones
are cut to the same size, so one huge section cannot crowd out the others and is itself kept as
far as the budget allows). A section is cut at a line boundary outside any code block (no fence is
left open) and ends with one line saying how many list items (or lines) were left out and where the
full report is. The first line (which carries the hidden marker) is always kept.
"""

from __future__ import annotations

from markdown_it import MarkdownIt

GITHUB_BODY_LIMIT = 65536

_md = MarkdownIt("commonmark")


def _blocks(text: str) -> tuple[list[int], list[tuple[int, int]]]:
    """(start lines of headings, [start, end) line ranges of fenced/indented code and HTML blocks)."""
    headings: list[int] = []
    code: list[tuple[int, int]] = []
    for token in _md.parse(text):
        if token.map is None:
            continue
        if token.type == "heading_open" and token.level == 0:
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


def _cut(text: str, budget: int) -> tuple[str, list[str]]:
    """(the longest prefix of ``text`` ending at a line boundary outside code within ``budget``,
    the lines left out). The first line is always kept."""
    lines = text.splitlines(keepends=True)
    _, code = _blocks(text)
    inside = {n for a, b in code for n in range(a + 1, b)}  # cutting after line a..b-2 splits a block
    kept, size = 1, len(lines[0]) if lines else 0
    for n, line in enumerate(lines[1:], start=1):
        if size + len(line) > budget:
            break
        size += len(line)
        if n + 1 not in inside:
            kept = n + 1
    return "".join(lines[:kept]), lines[kept:]


def _note(left_out: list[str], full_report_url: str | None) -> str:
    items = sum(
        1
        for line in left_out
        if line.lstrip().startswith(("- ", "* ", "+ ")) or line[:3].strip(". ").isdigit()
    )
    what = f"{items} more item(s)" if items else f"{sum(1 for x in left_out if x.strip())} more line(s)"
    where = (
        f"the full report: {full_report_url}" if full_report_url else "the full report in the job artifacts"
    )
    return f"\n_… {what} not shown here (GitHub's size limit); see {where}._\n\n"


NOTE_MAX = 260  # an upper bound on len(_note(...)) with a URL of up to 160 characters


def _fill(sizes: list[int], budget: int) -> int:
    """The largest cap ``c`` with ``sum(min(s, c)) <= budget`` (water-filling), at least 0."""
    lo, hi = 0, max(sizes, default=0)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if sum(min(s, mid) for s in sizes) <= budget:
            lo = mid
        else:
            hi = mid - 1
    return lo


def fit_body(
    body: str, *, limit: int = GITHUB_BODY_LIMIT, full_report_url: str | None = None, reserve: int = 0
) -> str:
    """``body`` unchanged when ``len(body) <= limit - reserve``; otherwise shortened inside its
    sections as the module describes.

    ``full_report_url`` must be trusted (an artifact or job URL built by quarkci, at most 160
    characters); it is quoted as-is. ``reserve`` leaves room for a line the caller adds later. The
    result is at most ``limit - reserve`` characters and starts with ``body``'s first line.
    """
    limit -= reserve
    if len(body) <= limit:
        return body
    if full_report_url is not None and len(full_report_url) > 160:
        full_report_url = None
    sections = split_sections(body)
    budget = limit - NOTE_MAX * len(sections)
    if budget < 200 * len(sections):  # too many sections to give each a note: keep the first ones
        sections = sections[: max(1, limit // (NOTE_MAX + 200))]
        budget = limit - NOTE_MAX * len(sections) - NOTE_MAX
    cap = _fill([len(s) for s in sections], budget)
    out = []
    for section in sections:
        if len(section) <= cap:
            out.append(section)
            continue
        kept, left_out = _cut(section, cap)
        out.append((kept if kept.endswith("\n") else kept + "\n") + _note(left_out, full_report_url))
    text = "".join(out)
    dropped = len(split_sections(body)) - len(sections)
    if dropped:
        text += _note(["x\n"] * dropped, full_report_url).replace("line(s)", "section(s)")
    return text[:limit]
