"""Claim extraction is linear in a SKILL.md's size (issue 24), asserted structurally, never by timing.

For each shape of issue 24 (``benchmarks/bench_claims.py``: an import list, a table of code cells, version
phrases, flags on one command line, plain prose) and the other kinds that were super-linear (a long
multi-line paragraph, many reference links, many sections with bare flags, ...), generated at 16 and 64
KiB: the context the claims store stays under a constant number of bytes per input byte and does not grow
with the size, and the number of claims grows at most linearly. A negative control shows the measure sees
a claim that copies its whole statement. The indexes that replaced rescans answer exactly what the
rescans answered (compared on generated inputs). Times are in the benchmark.
"""

from __future__ import annotations

import json
import random
import re
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from markdown_it.rules_block.table import escapedSplit

from quarkci.facts import vocabulary
from quarkci.skills import markdown
from quarkci.skills.claims import extract_claims, links, python_api, schemes
from quarkci.skills.claims.walk import Newlines
from quarkci.skills.model import Claim, Skill

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "benchmarks"))

import bench_claims  # noqa: E402

HEAD = bench_claims.HEAD
_fill = bench_claims._fill

# More kinds of the same problem (a long block read again for each of its claims, a rescan per match).
MORE: dict[str, Callable[[int], str]] = {
    "multi-line paragraph of versions": lambda size: _fill(
        lambda n: (
            f"Quark needs onnx 1.{n % 30}–1.{n % 30 + 2} and\n"
            f"Python 3.{n % 4 + 10} or newer; `torch>=2.{n % 5}`\n"
        ),
        size,
    ),
    "one paragraph of code spans": lambda size: (
        "Use " + _fill(lambda n: f"`--seq_len {n}` `w_int4_per_group_sym` `quark.torch.X{n}` ", size)
    ),
    "reference links": lambda size: (
        _fill(lambda n: f"See [a{n}][r{n}].\n\n", size)
        + _fill(lambda n: f"[r{n}]: refs/f{n}.md\n", size // 2)
    ),
    "sections with bare flags": lambda size: _fill(
        lambda n: f"## c{n}\n\n`cmd{n} --a`\n\n## f{n}\n\n`--b`\n\n", size
    ),
    "escaped flag values": lambda size: (
        "```bash\nquark-cli torch-llm-ptq " + _fill(lambda n: f"--f{n} a\\ {n} ", size) + "\n```\n"
    ),
    "HTML comments": lambda size: _fill(lambda n: f"<!-- fp8_{n} w_int4_per_group_sym -->\n", size),
    "stated defaults": lambda size: _fill(lambda n: f"`--seq_len` defaults to {n}. ", size),
    "a list item of many code spans": lambda size: (
        "## Schemes\n\n- " + _fill(lambda n: f"`w_int{n}`, ", size) + "x\n"
    ),
    "from-imports": lambda size: (
        "```python\n" + _fill(lambda n: f"from quark.a{n} import X{n}\n", size) + "```\n"
    ),
}
SHAPES = {**bench_claims.SHAPES, **MORE}
# Bytes of JSON context per input byte: the densest shape (a flag every ~12 bytes, each claim with its
# command, values and the bounded text around it) stores ~26; a copy of a statement or a row per claim
# grows with the size instead.
MAX_CONTEXT_PER_BYTE = 40
SMALL, LARGE = 16 * 1024, 64 * 1024


def _claims(text: str) -> list[Claim]:
    skill = Skill(
        "probe", "probe/SKILL.md", {"name": "probe", "description": "probe"}, text, len(HEAD.splitlines()) + 1
    )
    return extract_claims(skill, lambda _p: HEAD + text, vocabulary.shipped())


def _measure(make: Callable[[int], str], size: int) -> tuple[int, float]:
    body = make(size)
    claims = _claims(body)
    stored = sum(len(json.dumps(c.context)) for c in claims)
    return len(claims), stored / len(HEAD + body)


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_context_per_input_byte_is_bounded_and_claims_grow_linearly(shape: str) -> None:
    small_claims, small_ratio = _measure(SHAPES[shape], SMALL)
    large_claims, large_ratio = _measure(SHAPES[shape], LARGE)
    assert large_ratio < MAX_CONTEXT_PER_BYTE, (shape, large_ratio)
    assert large_ratio <= small_ratio * 1.25 + 0.5, (shape, small_ratio, large_ratio)  # not growing
    assert large_claims <= 4 * small_claims * 1.25 + 8, (shape, small_claims, large_claims)


def test_the_shapes_yield_claims_where_they_should() -> None:
    """The measure means something only where there are claims: the shapes that state things yield them."""
    counts = {shape: _measure(SHAPES[shape], SMALL)[0] for shape in SHAPES}
    assert counts["plain prose"] == 0
    assert all(n > 0 for shape, n in counts.items() if shape != "plain prose"), counts


def test_negative_control_a_claim_copying_its_statement_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the statement kept whole for every name (the bug), the import list's context per input byte
    grows with the size and passes the bound."""
    monkeypatch.setattr(python_api, "MAX_STATEMENT_CHARS", 1 << 30)
    _, small_ratio = _measure(bench_claims.SHAPES["import list"], SMALL)
    _, large_ratio = _measure(bench_claims.SHAPES["import list"], LARGE)
    assert large_ratio > small_ratio * 1.25 + 0.5
    assert large_ratio > MAX_CONTEXT_PER_BYTE


def test_a_long_import_keeps_each_name_s_own_statement_a_short_one_keeps_its_words() -> None:
    names = ", ".join(f"Name{n}" for n in range(40))
    imports = "from quark.torch import A, B\nimport quark.onnx\n"
    body = f"```python\nfrom quark.torch import ({names})\n{imports}```\n"
    found = {(c.value, c.line): c.context["text"] for c in _claims(body) if c.kind == "python_name"}
    assert found[("quark.torch.Name7", 7)] == "from quark.torch import Name7"
    assert found[("quark.torch.A", 8)] == "from quark.torch import A, B"
    assert found[("quark.onnx", 9)] == "import quark.onnx"


def test_flags_keep_a_bounded_list_of_competing_commands() -> None:
    body = "".join(f"`tool{n} --a`\n\n" for n in range(20)) + "## Elsewhere\n\n`--b 1`\n"
    (bare,) = [c for c in _claims(body) if c.kind == "cli_flag" and c.value == "--b"]
    assert bare.context["command"] is None
    assert bare.context["candidates"] == sorted(f"tool{n}" for n in range(20))[:16]
    assert bare.context["candidates_total"] == 20
    assert bare.context["quark"] is False  # none of the 20 is Quark's
    assert bare.line == 48  # 5 frontmatter lines, 40 of tool spans, the heading, a blank line


def test_newlines_line_of_is_a_count_of_the_newlines_before() -> None:
    rng = random.Random(5)
    for _ in range(300):
        text = "".join(rng.choice("ab\n") for _ in range(rng.randint(0, 40)))
        index = Newlines(text)
        for offset in range(-2, len(text) + 3):
            assert index.line_of(offset) == text.count("\n", 0, max(offset, 0))


def _line_of_by_scanning(lines: list[str], start: int, end: int, href: str, path: str) -> int:
    """The answer links gave before its indexes: read the block's lines, then every line."""
    written = (f"({path}", f"(<{path}", f"({href}")
    for index in range(start, min(end, len(lines))):
        if any(w in lines[index] for w in written):
            return index
    definition = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(?:" + re.escape(path) + "|" + re.escape(href) + ")")
    for index, line in enumerate(lines):
        if definition.match(line):
            return index
    return start


def test_link_destination_lines_are_what_scanning_the_lines_gives() -> None:
    rng = random.Random(11)
    pieces = ["(", "(<", "a", "ab", "a/b", " ", "\t", ")", "[r]:", "  [x]: ", "<", "\u00a0", "x.md", "#"]
    for _ in range(3000):
        lines = [
            "".join(rng.choice(pieces) for _ in range(rng.randint(0, 6))) for _ in range(rng.randint(1, 8))
        ]
        where = links._Destinations(lines)
        for _ in range(6):
            start = rng.randrange(len(lines))
            end = rng.randint(start, len(lines) + 1)
            path = "".join(
                rng.choice(["a", "b", "/", ".md", " ", ")", "<"]) for _ in range(rng.randint(1, 3))
            )
            href = rng.choice([path, path + "#s", "a%20b", " " + path])
            assert where.line_of(start, end, href, path) == _line_of_by_scanning(
                lines, start, end, href, path
            ), (
                lines,
                start,
                end,
                href,
                path,
            )


def test_table_row_cells_are_counted_as_markdown_it_splits_them() -> None:
    rng = random.Random(3)
    for _ in range(20000):
        row = "".join(rng.choice("|\\a `") for _ in range(rng.randint(1, 8))).strip(" ")
        if not row:
            continue
        cells = escapedSplit(row)
        if cells and cells[0] == "":
            cells.pop(0)
        if cells and cells[-1] == "":
            cells.pop()
        assert markdown._cells(row) == len(cells), row


def test_padded_table_cells_have_a_budget_per_document() -> None:
    """markdown-it pads short rows up to the header's width, capped per table; many wide tables with
    one-cell rows were ~17 tokens per input byte. The document's budget bounds them; an ordinary table
    parses exactly as markdown-it parses it."""
    wide = (
        "| "
        + " | ".join(f"h{i}" for i in range(1000))
        + " |\n|"
        + "---|" * 1000
        + "\n"
        + "| `x` |\n" * 70
        + "\n"
    )
    document = wide * 3
    tokens = markdown.parse(document).tokens
    plain = MarkdownIt("commonmark").enable("table")
    alone = plain.parse(
        document
    )  # markdown-it alone: three tables padded up to its cap, ~197,000 tokens each
    assert len(alone) > 3 * 3 * markdown.MAX_PADDED_CELLS
    # the first table takes the budget, each later one stops before its first padded row
    assert len(tokens) < 3 * markdown.MAX_PADDED_CELLS + 3 * 3 * 1000 + 2 * 70 * 3 + 100
    assert [(t.type, t.map) for t in tokens[: len(tokens) // 3]] == [
        (t.type, t.map) for t in alone[: len(tokens) // 3]
    ]
    ordinary = "| a | b |\n| --- | --- |\n| 1 |\n| 2 | 3 |\n> quote\n\n" + "| x |\n| - |\n" + "| y |\n" * 50
    assert [(t.type, t.map, t.content) for t in markdown.parse(ordinary).tokens] == [
        (t.type, t.map, t.content) for t in plain.parse(ordinary)
    ]


def test_the_garbage_collector_is_resumed_as_it_was(monkeypatch: pytest.MonkeyPatch) -> None:
    """Extraction pauses the cyclic collector (its tokens and blocks are freed by reference counting) and
    resumes it after, also when an extractor fails; a collector the caller disabled stays disabled."""
    import gc

    assert gc.isenabled()
    seen: list[bool] = []

    def failing(unit: object) -> list[object]:
        seen.append(gc.isenabled())
        raise RuntimeError("boom")

    _claims("Some text.\n")
    assert gc.isenabled()
    monkeypatch.setitem(extract_claims.__globals__["EXTRACTORS"], "flags", failing)
    with pytest.raises(RuntimeError):
        _claims("Some text.\n")
    assert seen == [False] and gc.isenabled()
    gc.disable()
    try:
        monkeypatch.undo()
        _claims("Some text.\n")
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_first_spans_are_where_find_finds_them() -> None:
    rng = random.Random(2)
    for _ in range(3000):
        text = "".join(rng.choice(["`", "a", "b", "``", " ", "\n"]) for _ in range(rng.randint(0, 14)))
        end = rng.randint(0, len(text))
        first = schemes._first_spans(text, end)
        for content in {c for c in ("a", "b", "ab", " ", "a b", "ba") if f"`{c}`" in text[:end]}:
            assert first[content] == text.find(f"`{content}`"), (text, end, content)
