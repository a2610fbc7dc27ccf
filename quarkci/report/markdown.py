"""``validation_report.md`` rendered with Jinja2 from the same DTO as the JSON report."""

from __future__ import annotations

from functools import cache

import jinja2

from quarkci.report.dto import build
from quarkci.report.escape import cell, code, md, plain
from quarkci.sync.finding import KINDS
from quarkci.sync.outcome import SyncOutcome

TEMPLATE = "validation_report.md.j2"
SECTION_TITLES = {"breaking": "Breaking", "semantic": "Semantic", "mechanical": "Mechanical",
                  "unverifiable": "Unverifiable"}


@cache
def environment() -> jinja2.Environment:
    """The Jinja2 environment: package templates, strict undefined, Markdown escaping filters."""
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("quarkci.report", "templates"),
        undefined=jinja2.StrictUndefined, autoescape=False, keep_trailing_newline=True,
        trim_blocks=True, lstrip_blocks=True,
    )
    env.filters.update(md=md, code=code, plain=plain, cell=cell)
    return env


def _where(loc) -> str:
    return f"{loc.file}:{loc.line}" if loc is not None and loc.line else (loc.file if loc is not None else "")


def render(outcome: SyncOutcome) -> str:
    """The Markdown report; byte-identical for identical input (no timestamps, stable order)."""
    report = build(outcome)
    sections = []
    for kind in KINDS:
        items = [f for f in report.findings if f.kind == kind]
        sections.append({"kind": kind, "title": SECTION_TITLES[kind], "findings": items})
    text = environment().get_template(TEMPLATE).render(
        report=report, sections=sections, where=_where,
        touched=[c for c in report.release_diff if c["skills"]],
        untouched=sum(1 for c in report.release_diff if not c["skills"]),
        broken=[s for s in report.skills if s["error"]],
    )
    return "\n".join(line.rstrip() for line in text.splitlines()) + "\n"
