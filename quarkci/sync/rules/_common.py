"""Helpers shared by the drift rules: building findings from claims, finding facts, list rows."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from quarkci.core.findings import Finding, Fix, Location
from quarkci.facts.base import FactItem
from quarkci.skills.model import Claim
from quarkci.sync.state import AuditState, UpstreamView


def source_loc(item: FactItem | None) -> Location | None:
    """The upstream location of a fact (None when there is no fact)."""
    return Location(item.file, item.line) if item is not None else None


def make(
    rule: str,
    category: str,
    change: str,
    claim: Claim,
    *,
    subject: str | None = None,
    skill_says: str,
    source_says: str,
    impact: str,
    source: Location | None = None,
    fix: Fix | None = None,
) -> Finding:
    """A finding anchored at ``claim`` (the primary location is always the skill's line)."""
    return Finding(
        rule=rule,
        change=change,
        category=category,
        skill=claim.skill,
        subject=subject if subject is not None else claim.value,
        skill_says=skill_says,
        source_says=source_says,
        impact=impact,
        skill_location=Location(claim.file, claim.line),
        source_location=source,
        fix=fix,
    )


def first_item(view: UpstreamView, kind: str, name: str) -> FactItem | None:
    """The first fact of ``kind`` named ``name`` (items are sorted, so this is deterministic)."""
    for item in view.items(kind):
        if item.name == name:
            return item
    return None


def kind_source(view: UpstreamView, kind: str) -> Location | None:
    """Where a fact kind comes from: the first item's file (or None when the kind is empty)."""
    items = view.items(kind)
    return Location(items[0].file, 0) if items else None


def shown(view: UpstreamView, kind: str) -> bool:
    """True when the snapshot shows facts of ``kind`` (some items, or nothing it needed is missing)."""
    return bool(view.items(kind)) or not view.unavailable(kind)


def release(view: UpstreamView) -> str:
    return f"amd-quark {view.version}"


def enumerated_groups(claims: Iterable[Claim]) -> dict[tuple[str, str, str], list[Claim]]:
    """Claims the skill makes inside a list it presents as complete, grouped by (skill, file, section).

    A claim is part of such a list when its context has ``enumerates`` true.
    """
    groups: dict[tuple[str, str, str], list[Claim]] = {}
    for claim in claims:
        if claim.context.get("enumerates"):
            # one list may span sub-headings under the heading that claims it (count_line)
            heading = claim.context.get("count_line")
            section = str(claim.context.get("section", ""))
            if heading:
                section = section.split(" > ")[1] if section.count(" > ") >= 2 else section
            # a stated count in the heading ("(21 total)") is not part of the list's identity, so
            # fingerprints survive the count fix
            section = re.sub(r"\s*\(\d+[^)]*\)", "", section)
            key = (claim.skill, claim.file, section)
            groups.setdefault(key, []).append(claim)
    return groups


_NOTE_HEADER = re.compile(r"\b(?:description|notes?|comments?|remarks?|details?|status)\b", re.IGNORECASE)


def list_row(
    anchor: str, name: str, note: str, column: int | None = None, headers: list[str] | tuple[str, ...] = ()
) -> str:
    """A new list entry for ``name`` written in the style of ``anchor`` (the list's last line).

    Table rows keep the anchor's column count: the name (in a code span) goes in ``column`` (the
    column the list's names sit in; first when unknown) and ``note`` in the first other column whose
    header (``headers``) reads Description/Notes/Comment/Remarks/Details/Status; every other cell stays
    empty, since nothing true is known for it. Bullets keep their marker and indentation and carry
    ``note``; anything else becomes a ``- `name``` bullet.
    """
    stripped = anchor.strip()
    indent = anchor[: len(anchor) - len(anchor.lstrip())]
    if stripped.startswith("|") and stripped.endswith("|"):
        cells = [c.strip() for c in stripped[1:-1].split("|")]
        at = column if column is not None and 0 <= column < len(cells) else 0
        row = [""] * len(cells)
        row[at] = f"`{name}`"
        described = next(
            (i for i, h in enumerate(headers) if i != at and i < len(cells) and _NOTE_HEADER.search(h)), None
        )
        if described is not None and note:
            row[described] = note
        return indent + "| " + " | ".join(row) + " |"
    bullet = re.match(r"([-*+]|\d+[.)])\s", stripped)
    marker = bullet.group(1) if bullet else "-"
    if marker[0].isdigit():
        marker = "-"
    return f"{indent}{marker} `{name}` — {note}"


def anchor_fixes(state: AuditState, claims: list[Claim]) -> tuple[str, int, str] | None:
    """(file, line, text) of the last line of an enumerated list, or None if unreadable."""
    last = max(claims, key=lambda c: c.line)
    text = state.line(last.file, last.line)
    return None if text is None else (last.file, last.line, text)


def unknown_names(
    state: AuditState,
    *,
    rule: str,
    category: str,
    claim_kind: str,
    fact_kind: str,
    noun: str,
    also: tuple[str, ...] = (),
    accepted: frozenset[str] = frozenset(),
    history: Callable[[str], tuple[str, ...]] | None = None,
    misspelt: Callable[[str], bool] | None = None,
) -> list[Finding]:
    """Claims naming an item (scheme, model template, ...) the upstream does not have: ``removed``.

    Names of the fact kinds in ``also`` count as known too (0.10's CLI model tables for model types),
    and so do the names in ``accepted`` (the values a release's CLI accepts, e.g. 0.10's ``--quant_scheme``
    choices). ``history(name)`` gives the releases that define a name (the release vocabulary), named in
    the finding. A claim marked ``misspelt_of`` or ``negative`` is left to other rules, and so is a name no
    release defines that ``misspelt(name)`` says is a misspelling (the misspelling rule's). Silent when the
    snapshot cannot show ``fact_kind`` (the *-unverifiable rules report that).
    """
    view = state.upstream
    if not view.items(fact_kind):
        return []
    names = view.facts.names(fact_kind).union(*(view.facts.names(kind) for kind in also)) | accepted
    out = []
    for claim in state.claims_of(claim_kind):
        if claim.value in names or claim.context.get("misspelt_of") or claim.context.get("negative"):
            continue  # misspellings have their own rule; "not available: X" agrees with X's absence
        was = None
        if state.baseline is not None:
            was = first_item(state.baseline, fact_kind, claim.value)
        since = (
            f"; it was in amd-quark {state.baseline.version} ({was.file}:{was.line})"
            if was is not None and state.baseline is not None
            else ""
        )
        if history is not None:
            releases = history(claim.value)
            if misspelt is not None and not releases and misspelt(claim.value):
                continue
            since += (
                f"; releases defining it: {releases_text(releases)}"
                if releases
                else "; no amd-quark release on PyPI defines it"
            )
        out.append(
            make(
                rule,
                category,
                "removed",
                claim,
                skill_says=f"names {noun} `{claim.value}`",
                source_says=f"{release(view)} has no {noun} `{claim.value}` ({len(names)} known){since}",
                impact=f"a plan or command using `{claim.value}` is rejected by Quark",
                source=kind_source(view, fact_kind),
            )
        )
    return out


def releases_text(releases: tuple[str, ...]) -> str:
    """``("0.10",)`` -> ``"0.10"``; several -> ``"0.11 … 0.13 (4 releases)"`` (first and last, oldest first)."""
    if len(releases) == 1:
        return releases[0]
    return f"{releases[0]} … {releases[-1]} ({len(releases)} releases)"


def _append_to_last_cell(line: str, names: list[str]) -> str:
    """``| **Other** | a, b |`` + [c, d] -> ``| **Other** | a, b, c, d |`` (bullets: appended at the end)."""
    stripped = line.rstrip()
    tail = line[len(stripped) :]
    addition = ", " + ", ".join(names)
    if stripped.endswith("|") and stripped.count("|") >= 2:
        body = stripped[:-1].rstrip()
        return body + addition + " |" + tail
    return stripped.rstrip(".") + addition + tail


def list_incomplete(
    state: AuditState, *, rule: str, category: str, claim_kind: str, fact_kind: str, noun: str
) -> list[Finding]:
    """Upstream items missing from a list the skill presents as complete: ``missing_from_list``.

    One finding per missing item. A list its section presents as complete but its own words as a selection
    ("Models we have run") gets one finding instead, saying it is not exhaustive (:func:`_not_exhaustive`):
    never rows appended to it. The fix follows the list's shape: a list with one item per line
    (table rows, bullets) gets one new line per item after its last entry; a list whose last line
    holds several items (``| **Other** | a, b, c |``) gets the missing names appended to that line,
    as one fix carried by the first missing item's finding (the others point at it).
    """
    view = state.upstream
    if not view.items(fact_kind):
        return []
    out = []
    claims = [c for c in state.claims_of(claim_kind)]
    for (_skill, _file, section), group in sorted(enumerated_groups(claims).items()):
        listed = {c.value for c in group}
        totals = [
            c.context["section_total"] for c in group if isinstance(c.context.get("section_total"), int)
        ]
        if totals and len(listed) < max(totals):
            # "0.13 registers fifty-one built-in templates" above a table of five: a selection of a total the
            # section states (the count is checked on its own, by the count rule)
            continue
        anchor = anchor_fixes(state, group)
        last = max(group, key=lambda c: c.line)
        inline = sum(1 for c in group if c.line == last.line) > 1
        missing: list[FactItem] = []
        for item in view.items(fact_kind):
            if item.name not in listed:
                listed.add(item.name)  # duplicates (same name in two files) are reported once
                missing.append(item)
        where = f"'{section}'" if section else "its list"
        chosen = next((c.context["selection"] for c in group if c.context.get("selection")), None)
        if chosen and missing:
            out.append(_not_exhaustive(state, group, section, missing, str(chosen), rule, category, noun))
            continue
        base = state.baseline
        for n, item in enumerate(missing):
            fix = None
            if anchor is not None:
                a_file, a_line, a_text = anchor
                if not inline:
                    # true by construction: new since the baseline when the baseline lacks it; else no date
                    new = (
                        base is not None
                        and base.items(fact_kind)
                        and item.name not in base.facts.names(fact_kind)
                    )
                    note = (
                        f"new since amd-quark {base.version}; describe before use"
                        if new and base is not None
                        else "describe before use"
                    )
                    column = last.context.get("column")
                    fix = Fix(
                        a_file,
                        a_line,
                        a_text,
                        list_row(
                            a_text,
                            item.name,
                            note,
                            column if isinstance(column, int) else None,
                            tuple(last.context.get("headers") or ()),
                        ),
                        insert_after=True,
                        description=f"add {noun} `{item.name}` to the list",
                    )
                elif n == 0:
                    names = [m.name for m in missing]
                    fix = Fix(
                        a_file,
                        a_line,
                        a_text,
                        _append_to_last_cell(a_text, names),
                        description=f"add {len(names)} {noun}s to the list: {', '.join(names)}",
                    )
            out.append(
                make(
                    rule,
                    category,
                    "missing_from_list",
                    last,
                    subject=f"{section}: {item.name}",
                    skill_says=f"{where} enumerates {len(group)} {noun}s without `{item.name}`",
                    source_says=f"{release(view)} defines {noun} `{item.name}`"
                    + (f" (fixed together with `{missing[0].name}`)" if inline and n else ""),
                    impact=f"an agent following the skill never offers `{item.name}`",
                    source=source_loc(item),
                    fix=fix,
                )
            )
    return out


NOT_EXHAUSTIVE = " (not exhaustive)"


def _not_exhaustive(
    state: AuditState,
    group: list[Claim],
    section: str,
    missing: list[FactItem],
    chosen: str,
    rule: str,
    category: str,
    noun: str,
) -> Finding:
    """``missing_from_list`` for a list presented as a selection (``chosen``: the words that say so) under a
    heading that presents it as complete. The fix marks its introducing line (the nearest line above the
    list, when it holds those words) ``(not exhaustive)``; it never adds rows."""
    first = min(group, key=lambda c: c.line)
    fix = None
    for number in range(first.line - 1, max(0, first.line - 12), -1):
        text = state.line(first.file, number)
        if text is None or not text.strip() or text.lstrip().startswith("|"):
            continue
        if chosen in text and NOT_EXHAUSTIVE.strip() not in text:
            body = text.rstrip()
            colon = body.endswith(":")
            new = (body[:-1] if colon else body.rstrip(".")) + NOT_EXHAUSTIVE + (":" if colon else ".")
            fix = Fix(first.file, number, text, new, description="say the list is not exhaustive")
        break
    names = ", ".join(f"`{m.name}`" for m in missing[:5]) + (", …" if len(missing) > 5 else "")
    view = state.upstream
    return make(
        rule,
        category,
        "missing_from_list",
        first,
        subject=f"{section}: not exhaustive",
        skill_says=f"'{section}' shows {len(group)} {noun}s as a selection ('{chosen}')",
        source_says=f"{release(view)} defines {len(missing)} more {noun}s ({names}): the list is not "
        "exhaustive; say so, or list them all",
        impact=f"a reader of '{section}' takes the selection for every {noun} the release supports",
        source=source_loc(missing[0]),
        fix=fix,
    )


def count_fix(state: AuditState, claim: Claim, actual: int, subject: str) -> Fix | None:
    """The fix rewriting a stated count (``claim.value``, written in digits) to ``actual`` when the claim's
    line holds that number once; None otherwise (a number in words, or several on the line)."""
    line = state.line(claim.file, claim.line)
    pattern = re.compile(rf"(?<![\d.]){re.escape(claim.value)}(?![\d.])")
    if line is None or len(pattern.findall(line)) != 1:
        return None
    return Fix(
        claim.file,
        claim.line,
        line,
        pattern.sub(str(actual), line),
        description=f"{subject} {claim.value} -> {actual}",
    )


def count_mismatches(
    state: AuditState,
    *,
    rule: str,
    category: str,
    claim_kind: str,
    fact_kind: str,
    noun: str,
    subject: str,
    how: str,
) -> list[Finding]:
    """``changed`` per ``claim_kind`` claim (a stated count) that differs from the number of distinct
    ``fact_kind`` names the release defines (``how`` says what is counted); the fix rewrites the first
    occurrence of the stated number on the claim's line. Silent when the release shows no ``fact_kind``."""
    view = state.upstream
    if not view.items(fact_kind):
        return []
    count = len(view.facts.names(fact_kind))
    out = []
    for claim in state.claims_of(claim_kind):
        try:
            stated = int(claim.value)
        except ValueError:
            continue
        if stated == count:
            continue
        line = state.line(claim.file, claim.line)
        fix = None
        pattern = re.compile(rf"(?<![\d.]){stated}(?![\d.])")
        if line is not None and pattern.search(line):
            fix = Fix(
                claim.file,
                claim.line,
                line,
                pattern.sub(str(count), line, count=1),
                description=f"{subject} {stated} -> {count}",
            )
        out.append(
            make(
                rule,
                category,
                "changed",
                claim,
                subject=subject,
                skill_says=f"states {stated} {noun}",
                source_says=f"{release(view)} defines {count} {noun} ({how})",
                impact="the agent trusts a stale list size",
                source=kind_source(view, fact_kind),
                fix=fix,
            )
        )
    return out
