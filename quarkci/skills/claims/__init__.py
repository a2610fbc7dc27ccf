"""Claim extraction: what a skill asserts that an upstream release can confirm or contradict.

:func:`extract_claims` walks the SKILL.md body and the skill's Markdown reference files once each
(markdown-it-py) and runs every extractor of :data:`EXTRACTORS` over them, in this order. Each
extractor is one module with ``extract(unit) -> Iterator[Found]``; see their docstrings for exactly
which places count as a claim (precision over recall).
"""

from __future__ import annotations

import bisect
import gc
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from quarkci.skills.claims import (
    choices,
    counts,
    defaults,
    dependencies,
    exports,
    extras,
    flags,
    links,
    models,
    onnx_configs,
    paths,
    programs,
    python_api,
    python_code,
    schemes,
    signature_defaults,
    structured,
    tokens,
    versions,
)
from quarkci.skills.claims import commands as sh
from quarkci.skills.claims.context import (
    Negations,
    Surrounding,
    answered_no,
    cell_release,
    comment_label,
    dated,
    is_negative,
    markers,
    negations,
    said_absent,
    surrounding,
)
from quarkci.skills.claims.lexicon import Lexicon
from quarkci.skills.claims.unit import Found, Inference, Unit
from quarkci.skills.claims.walk import Code, Text, heading_path
from quarkci.skills.model import CLAIM_KINDS, Claim, Skill
from quarkci.skills.source import SkillFileError

Extractor = Callable[[Unit], Iterator[Found]]

# Explicit, ordered registry: name -> extractor (the kinds each emits are in its docstring).
EXTRACTORS: dict[str, Extractor] = {
    "flags": flags.extract,
    "programs": programs.extract,
    "schemes": schemes.extract,
    "onnx_configs": onnx_configs.extract,
    "models": models.extract,
    "versions": versions.extract,
    "exports": exports.extract,
    "paths": paths.extract,
    "python_api": python_api.extract,
    "python_code": python_code.extract,
    "structured": structured.extract,
    "dependencies": dependencies.extract,
    "extras": extras.extract,
    "defaults": defaults.extract,
    "signature_defaults": signature_defaults.extract,
    "choices": choices.extract,
    "counts": counts.extract,
    "tokens": tokens.extract,
    "links": links.extract,
}
REFERENCE_SUFFIXES = (".md", ".markdown")


def extract_claims(skill: Skill, read: Callable[[str], str], lexicon: Lexicon | None = None) -> list[Claim]:
    """All claims of ``skill``, sorted by (file, line, kind, value), duplicates removed.

    ``lexicon`` is the release vocabulary that token claims resolve against (:mod:`.tokens`); without it
    only the extractors that need no vocabulary run.

    ``read(path)`` returns the text of a root-relative reference file (e.g. ``SkillSource.read_text``);
    a reference that raises :class:`SkillFileError`, ``OSError`` or ``UnicodeDecodeError`` is skipped.
    A skill with ``error`` set has no claims. ``Claim.skill`` is ``skill.id`` (unique; names repeat
    between a thin adapter and its implementation). Lines are 1-based in the file named by
    ``Claim.file``. Time and memory are linear in the files' size (``benchmarks/bench_claims.py``).
    """
    if skill.error is not None:
        return []
    with _collector_paused():
        return _extract(skill, read, lexicon)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic garbage collector paused while claims are extracted, then resumed as it was. The
    parser's tokens and the blocks are many, long-lived and freed by reference counting; each collection
    walked all of them again (a quarter of the time of a 2 MiB table)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _extract(skill: Skill, read: Callable[[str], str], lexicon: Lexicon | None) -> list[Claim]:
    found: list[tuple[str, Found]] = [(skill.path, f) for f in paths.from_frontmatter(skill)]
    units = [Unit(skill.path, skill.body, skill.body_line, lexicon)]
    description = _description_unit(skill, read)
    if description is not None:
        found.extend((skill.path, f) for extract in _DESCRIPTION_EXTRACTORS for f in extract(description))
    for ref in skill.references:
        if not ref.lower().endswith(REFERENCE_SUFFIXES):
            continue
        try:
            units.append(Unit(ref, read(ref), 1, lexicon))
        except (SkillFileError, OSError, UnicodeDecodeError):
            continue
    skill_command = _skill_command(skill, units)
    subcommands = {n for u in units for n in u.names() if n.startswith(sh.QUARK_CLI + " ")}
    for unit in units:
        unit.skill_command = skill_command
        unit.quark_cli_subcommand = next(iter(subcommands)) if len(subcommands) == 1 else None
    for unit in units:
        marked = _Markers(unit)
        for extractor in EXTRACTORS.values():
            found.extend((unit.file, marked.add(f)) for f in extractor(unit))
    claims: dict[tuple[str, str, str, int], Claim] = {}
    for file, f in found:
        assert f.kind in CLAIM_KINDS, f"extractor produced unknown claim kind {f.kind!r}"
        key = (file, f.kind, f.value, f.line)
        if key not in claims:
            claims[key] = Claim(f.kind, f.value, skill.id, file, f.line, f.context)
    return sorted(claims.values(), key=lambda c: (c.file, c.line, c.kind, c.value))


# source_knowledge entries that name the program a skill's bare flags belong to.
_SCRIPT_BY_SOURCE = {
    "quantize_quark.py": sh.QUANTIZE_QUARK,
    "quark/experimental/cli/torch_llm_ptq.py": sh.TORCH_LLM_PTQ,
}


def _skill_command(skill: Skill, units: list[Unit]) -> Inference:
    """The one command the whole skill names (across its files), else the one PTQ program its
    ``source_knowledge`` names; no command (with the competing names) when neither is unique."""
    names = set().union(*(u.names() for u in units))
    if any(n.startswith(sh.QUARK_CLI + " ") for n in names):
        names.discard(sh.QUARK_CLI)
    if len(names) == 1:
        return Inference(next(iter(names)), "skill")
    if names:
        return Inference(None, "skill", tuple(sorted(names)))
    scripts = {
        cmd
        for entry in skill.source_knowledge
        for suffix, cmd in _SCRIPT_BY_SOURCE.items()
        if entry.endswith(suffix)
    }
    if len(scripts) == 1:
        return Inference(next(iter(scripts)), "source_knowledge")
    return Inference(None, None, tuple(sorted(scripts)))


class _Markers:
    """The context markers (historical, negative, non_exhaustive, releases) of the text around a line of
    one unit (see :mod:`quarkci.skills.claims.context`) and that text itself (``around``, at most 200
    characters). Computed once per group of blocks covering a line (a paragraph, a table row's cells) or
    per code line, and shared by every claim there: reading a long paragraph again for each of its claims
    made extraction quadratic in its size."""

    def __init__(self, unit: Unit) -> None:
        self._blocks: list[Text | Code] = []
        self._at: dict[int, list[int]] = {}  # line -> indices into _blocks (headings left out)
        self._lines: dict[int, list[str]] = {}  # index of a code block -> its lines
        self._labels: dict[int, list[tuple[int, str]]] = {}  # index of a code block -> (line, release) labels
        self._cache: dict[tuple[tuple[int, int], ...], dict[str, Any]] = {}
        self._surrounding: dict[tuple[str, str], Surrounding] = {}  # (lead, section) -> what they say
        self._keys: dict[int, tuple[tuple[int, int], ...]] = {}  # line -> its cache key
        # line of a table row -> its cells (text, the release its column or row label names)
        self._cells: dict[int, list[tuple[str, str | None]]] = {}
        self._read: dict[
            tuple[tuple[int, int], ...], tuple[str, str, str, Surrounding]
        ] = {}  # what markers read
        self._negations: dict[tuple[tuple[int, int], ...], Negations] = {}  # key -> its negative words
        # line -> the heading or HTML comment on it: their claims are read in their own words
        self._headings: dict[int, str] = {}
        for body, line_of in unit.comments():
            for number in range(body.count("\n") + 1):
                self._headings.setdefault(line_of(0) + number, " ".join(body.split()))
        self._said_absent: dict[tuple[tuple[int, int], ...], frozenset[str]] = {}
        self._dated_of: dict[tuple[tuple[int, int], ...], dict[str, str]] = {}
        self._items: dict[int, Text] = {}  # line -> the list item paragraph on it
        self._absent_items: set[str] = set()  # the leading spans of list items under a heading saying absent
        self._negative_leads: dict[str, bool] = {}  # a list's lead -> is_negative(lead)
        self._answered_no: set[int] = set()  # lines of a question heading the next paragraph answers "No"
        question: Text | None = None
        for block in unit.blocks:
            if (
                isinstance(block, Text)
                and question is not None
                and block.kind != "heading"
                and answered_no(question.text, block.text)
            ):
                self._answered_no.add(question.line)
            question = block if isinstance(block, Text) and block.kind == "heading" else None
            if isinstance(block, Text):
                if block.kind == "heading":
                    self._headings[block.line] = block.text
                    continue
                if block.in_list and block.lead:
                    for line in range(block.line, block.line + block.text.count("\n") + 1):
                        self._items.setdefault(line, block)
                if block.in_list and block.headings and _ABSENT_HEADING.match(block.headings[-1].text):
                    # "## Not in this release" then "- `QronosConfig`. Rotation is ...": the item's subject
                    lead = _LEADING_SPANS.match(block.text)
                    self._absent_items.update(re.findall(r"`([^`\n]+)`", lead.group(0)) if lead else ())
                first, last = block.line, block.line + block.text.count("\n")
            else:
                first, last = block.first_line, block.first_line + block.text.count("\n")
            self._blocks.append(block)
            for line in range(first, last + 1):
                self._at.setdefault(line, []).append(len(self._blocks) - 1)
            if isinstance(block, Text) and block.cell is not None and not block.cell.is_header:
                self._cells.setdefault(block.line, []).append((block.text, cell_release(block.cell)))

    def add(self, found: Found) -> Found:
        """``found`` with the markers and ``around`` of its line; an extractor's own context keys win. A
        dependency's own versions (``context["text"]``: "0.4.12 or newer, below 0.6") are no amd-quark
        releases: the line is read again without them before it counts as a migration note."""
        marks = self.at(found.line)
        text = found.context.get("text")
        if found.kind == "dependency" and marks.get("historical") and isinstance(text, str) and text:
            own, lead, section, read = self._read[self._keys[found.line]]
            again = markers(own.replace(text, " "), lead, section, read)
            if not again.get("historical"):
                marks = {k: v for k, v in marks.items() if k != "historical"}
        if (marks.get("negative") or marks.get("historical")) and found.line in self._keys:
            own, _lead, _section, read = self._read[self._keys[found.line]]
            text = found.context.get("text")
            names = (found.value, text if isinstance(text, str) else "")
            said = self._negations_of(self._keys[found.line])
            if marks.get("negative") and not read.negative and not said.of(names):
                marks = {k: v for k, v in marks.items() if k != "negative"}
            if marks.get("negative") and said.absent_of(names):
                marks = {**marks, "unavailable": True}  # said not to exist, not just refused
            if marks.get("historical") and not read.historical and said.instructs(names):
                # "... are gone. For perplexity on another corpus add `--evaluation_dataset`.": usage now, of
                # the release the lead or heading names, if any
                drop = {"historical"} | ({"releases"} if read.scope is None and not said.dated else set())
                marks = {k: v for k, v in marks.items() if k not in drop}
            elif marks.get("historical") and not read.historical and said.current(names):
                # the history is another clause's ("...; `true_sequential` is gone since 0.9")
                marks = {k: v for k, v in marks.items() if k != "historical"}
        if not marks.get("negative") and self._said_absent_here(found):
            marks = {**marks, "negative": True, "unavailable": True}
        if not marks.get("negative") and self._listed_absent(found):
            marks = {**marks, "negative": True}  # "These 0.10 options are not accepted by 0.11:" then items
        if (when := self._dated(found)) is not None:
            # "(0.8.2 only had the older `MXSpec`)": that name speaks of that release, or of the past
            if when == "current":
                marks = {k: v for k, v in marks.items() if k != "historical"}
            else:
                marks = {**marks, "historical": True} if when == "historical" else {**marks, "releases": when}
        if (labelled := self._labelled(found)) is not None:
            # "| 0.10 CLI | 0.11 CLI |", "| 0.12.post1 (this one) | 3.11 – 3.13 |": the cell speaks of that
            # release only, whatever the lead says of history
            marks = {**{k: v for k, v in marks.items() if k != "historical"}, "releases": labelled}
        return Found(found.kind, found.value, found.line, {**marks, **found.context})

    def _negations_of(self, key: tuple[tuple[int, int], ...]) -> Negations:
        """:func:`negations` of the text read for ``key`` (its own sentence, cell or line), read once."""
        said = self._negations.get(key)
        if said is None:
            said = self._negations[key] = negations(self._read[key][0])
        return said

    def _said_absent_here(self, found: Found) -> bool:
        """True when the text around ``found`` says its name is not there: a question answered "No"
        ("**Q: Is there a plain `X`?** A: No.", in one paragraph or under a question heading), a negation
        right next to it ("0.9 has no `quark-cli`", "`mx9` is **not** a scheme"), a row whose cells say
        "no" or "removed", a list item under a heading saying absent ("## Not in this release")."""
        key = self._keys.get(found.line)
        if key is not None and "?" in self._read[key][0]:
            said = self._negations_of(key)
            text = found.context.get("text")
            if said.absent_of((found.value, text if isinstance(text, str) else "")):
                return True
        return (
            found.line in self._answered_no
            or found.value.rsplit(".", 1)[-1] in self._absent(found.line)
            # "There is no `register-template` subcommand": the command `quark-cli register-template`
            or (found.kind == "command" and found.value.split()[-1] in self._absent(found.line))
            or self._row_says_no(found)
            or found.value in self._absent_items
        )

    def _dated(self, found: Found) -> str | None:
        """What :func:`~quarkci.skills.claims.context.dated` says of ``found``'s name in the whole text
        around its line ("historical", a release specifier), read once per text; None when nothing."""
        key = self._keys.get(found.line)
        if key is None or key not in self._read:
            return None
        cached = self._dated_of.get(key)
        if cached is None:
            cached = self._dated_of[key] = dated(self._read[key][0])
        if not cached:
            return None
        text = found.context.get("text")
        package = found.context.get("package")  # a requirement's span: `onnxslim>=0.1.84`
        needles = (
            found.value,
            text if isinstance(text, str) else "",
            found.value.rsplit(".", 1)[-1],
            f"{package}{found.value}" if isinstance(package, str) else "",
            f"{package}{text}" if isinstance(package, str) and isinstance(text, str) else "",
        )
        for needle in needles:
            if needle and needle in cached:
                return cached[needle]
        return None

    def _absent(self, line: int) -> frozenset[str]:
        """:func:`said_absent` of the whole text around ``line`` (not its bounded ``around``), read once."""
        key = self._keys.get(line)
        if key is None or key not in self._read:
            return frozenset()
        cached = self._said_absent.get(key)
        if cached is None:
            cached = self._said_absent[key] = said_absent(self._read[key][0])
        return cached

    def _row_says_no(self, found: Found) -> bool:
        """True when ``found`` is the label of a table row whose every other cell says "no" ("| `quark-cli` |
        no | **no** | no |": absent in each release the columns name), or one of whose other cells opens with
        a word saying it is gone (:data:`_GONE_CELL`: "| `quark.shares` | renamed to `quark.common` |")."""
        cells = self._cells.get(found.line)
        if not cells or len(cells) < 2 or f"`{found.value}`" not in cells[0][0]:
            return False
        first = re.search(r"`([^`\n]+)`", cells[0][0])
        # "| `QuaRotConfig` | removed; use `RotationConfig` |": a status cell says the row's subject (its
        # first span: "`ModelExporter` in `quark.torch`" is about the class) is gone
        if (
            first is not None
            and first.group(1).removesuffix("()") == found.value
            and any(_GONE_CELL.match(text.replace("*", "")) for text, _ in cells[1:])
        ):
            return True
        return all(
            _NO_CELL.fullmatch(text.replace("*", "").replace("`", "").strip()) for text, _ in cells[1:]
        )

    def _listed_absent(self, found: Found) -> bool:
        """True when ``found`` heads a list item whose lead says what follows is not accepted or not
        available ("These 0.10 options are not accepted by 0.11 (argparse rejects them):" then
        "- `--group_size` (0.10 default 128): choose `int4_wo_32` ..."): the names before the item's
        first ``:``, ``(``, ``;`` or dash are the ones said absent, not the advice after it."""
        item = self._items.get(found.line)
        if item is None:
            return False
        negative = self._negative_leads.get(item.lead)
        if negative is None:
            # a lead introduces its list when it ends with a colon; a paragraph saying `mx9` is not available
            # above a code block and a list speaks of `mx9`
            introduces = item.lead.rstrip("*_ \n").endswith(":")
            negative = self._negative_leads[item.lead] = introduces and is_negative(item.lead)
        if not negative:
            return False
        head = re.split(r"[:(;]|\s[—–-]\s", item.text, maxsplit=1)[0]
        return f"`{found.value}`" in head or f"`{found.context.get('text')}`" in head

    def _labelled(self, found: Found) -> str | None:
        """The release the table cells holding ``found`` are labelled with (:func:`~quarkci.skills.claims.
        context.cell_release`), when every cell of its row that holds it has that one label; None when it
        is on no labelled cell, or on cells of two releases or of none (a name in both columns of a
        "0.10 | 0.11" table speaks of both)."""
        cells = self._cells.get(found.line)
        if not cells or all(label is None for _, label in cells):
            return None
        for needle in (found.context.get("text"), found.value, found.value.rsplit(".", 1)[-1]):
            if not isinstance(needle, str) or not needle:
                continue
            labels = {label for text, label in cells if needle in text}
            if labels:
                return next(iter(labels)) if len(labels) == 1 else None
        return None

    def _comment_label(self, index: int, line: int) -> str | None:
        """The release the last label comment above ``line`` in code block ``index`` names (``# 0.10``,
        ``# Quark 0.13 (this release)``, ``# before (0.11.2):``, see :func:`~quarkci.skills.claims.context.
        comment_label`), as a specifier; None when no such comment precedes it in the block."""
        labels = self._labels.get(index)
        if labels is None:
            block = self._blocks[index]
            labels = self._labels[index] = []
            if isinstance(block, Code):
                for offset, text in enumerate(block.text.split("\n")):
                    if (label := comment_label(text)) is not None:
                        labels.append((block.first_line + offset, label))
        before = bisect.bisect_right(labels, (line, "\uffff"))  # the labels on or above ``line``
        return labels[before - 1][1] if before else None

    def at(self, line: int) -> dict[str, Any]:
        """The markers (and ``around``) of the blocks covering ``line`` (shared: do not modify)."""
        indices = self._at.get(line, ())
        key = tuple((i, line if isinstance(self._blocks[i], Code) else 0) for i in indices)
        if not key and line in self._headings:
            key = ((-1, line),)  # a heading or comment line: its own words
        self._keys[line] = key
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        own: list[str] = []
        lead, section = "", ""
        for index in indices:
            block = self._blocks[index]
            if isinstance(block, Text):
                own.append(block.text)
                lead, section = lead or block.lead, heading_path(block.headings)
            else:
                lines = self._lines.get(index)
                if lines is None:
                    lines = self._lines[index] = block.text.split("\n")
                own.append(lines[line - block.first_line])
                lead, section = block.lead, heading_path(block.headings)
        if not indices and line in self._headings:
            own.append(self._headings[line])
        around = " ".join(" ".join(own).split())
        read = self._surrounding.get((lead, section))
        if read is None:
            read = self._surrounding[(lead, section)] = surrounding(lead, section)
        found = markers(around, lead, section, read)
        labels = [self._comment_label(i, line) for i in indices if isinstance(self._blocks[i], Code)]
        if labels and labels[0] is not None:
            # "# 0.10" over the old command, "# 0.13" over its equivalent: each speaks of its release
            found = {**{k: v for k, v in found.items() if k != "historical"}, "releases": labels[0]}
        self._read[key] = (around, lead, section, read)
        if around:  # the sentence, cell or code line the claim sits in (bounded), for humans and reports
            found["around"] = around if len(around) <= 200 else around[:199] + "…"
        self._cache[key] = found
        return found


# a heading saying what its section lists is not there: "Not in this release", "Missing here", "Removed"
_ABSENT_HEADING = re.compile(
    r"^\W*(?:not\s+(?:in|available|included|part of|shipped|yet)|missing|absent|unavailable|removed|gone"
    r"|dropped|what(?:'s| is) (?:missing|not (?:here|there|available)))\b",
    re.IGNORECASE,
)
# the code spans a list item opens with ("`QConfig` / `QLayerConfig` (0.11 and later)"): its subject
_LEADING_SPANS = re.compile(r"^\s*(?:`[^`\n]+`\s*(?:,|and|or|/)\s*)*`[^`\n]+`")
# a status cell saying the row's name is no longer there: "removed; use `X`", "renamed to `quark.common`"
_GONE_CELL = re.compile(
    r"\s*(?:removed|gone|dropped|deleted|renamed|replaced|superseded|retired|fails to import"
    r"|cannot be imported|no longer (?:exists?|available|exported|importable)|not available|unavailable"
    r"|does not exist)\b",
    re.IGNORECASE,
)
_NO_CELL = re.compile(r"no|none|absent|not (?:available|shipped|present)|—|–|-|✗|❌|✘|n/a", re.IGNORECASE)


# What a frontmatter description can state that a release can check (its prose is read like the body's).
_DESCRIPTION_EXTRACTORS: tuple[Extractor, ...] = (versions.extract, python_api.extract, dependencies.extract)


def _description_unit(skill: Skill, read: Callable[[str], str]) -> Unit | None:
    """The frontmatter ``description`` as a Markdown unit with its SKILL.md lines (a folded ``>``/``|``
    scalar starts on the next line), or None when the skill has no string description."""
    description = skill.frontmatter.get("description")
    if not isinstance(description, str) or not description.strip():
        return None
    try:
        lines = read(skill.path).splitlines()
    except (SkillFileError, OSError, UnicodeDecodeError):
        return None
    for number, line in enumerate(lines[1 : skill.body_line], start=2):
        if line.startswith("description:"):
            folded = line.split(":", 1)[1].strip()[:1] in (">", "|")
            return Unit(skill.path, description, number + 1 if folded else number)
    return None
