"""``validation_report.md`` rendered with Jinja2 from the same DTO as the JSON report."""

from __future__ import annotations

from functools import cache
from typing import Any

import jinja2
import jsonschema

from quarkci.core.errors import BadInputError
from quarkci.core.escape import cell, code, md, plain
from quarkci.core.findings import KINDS
from quarkci.report import json_report
from quarkci.report.dto import build
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


def _field(obj: Any, name: str) -> Any:
    """``obj.name`` for the DTO, ``obj[name]`` for a report read back from JSON."""
    return obj[name] if isinstance(obj, dict) else getattr(obj, name)


def _where(loc: Any) -> str:
    if loc is None:
        return ""
    file, line = _field(loc, "file"), _field(loc, "line")
    return f"{file}:{line}" if line else file


def render(outcome: SyncOutcome) -> str:
    """The Markdown report; byte-identical for identical input (no timestamps, stable order)."""
    return _render(build(outcome))


def render_json(payload: dict[str, Any]) -> str:
    """Re-render the Markdown from a ``validation_report.json`` document (e.g. an artifact of a fork
    PR's run: untrusted). Every string goes through the same escaping filters as :func:`render`, so
    the result cannot ping people, inject HTML or break out of code fences.

    Raises :class:`~quarkci.core.errors.BadInputError` when ``payload`` breaks the validation_report
    schema or lacks a field the report shows.
    """
    try:
        json_report.validate(payload)
    except jsonschema.ValidationError as exc:
        where = "$" + "".join(f"[{p!r}]" if isinstance(p, int) else f".{p}" for p in exc.absolute_path)
        raise BadInputError(f"not a quarkci validation report: {where}: {exc.message[:200]}") from None
    try:
        return _render(payload)
    except (jinja2.UndefinedError, KeyError, TypeError) as exc:
        raise BadInputError(f"validation report lacks a field the Markdown shows: {exc}") from None


def _render(report: Any) -> str:
    sections = []
    for kind in KINDS:
        items = [f for f in _field(report, "findings") if _field(f, "kind") == kind]
        sections.append({"kind": kind, "title": SECTION_TITLES[kind], "findings": items})
    release_diff = _field(report, "release_diff")
    text = environment().get_template(TEMPLATE).render(
        report=report, sections=sections, where=_where,
        touched=[c for c in release_diff if c["skills"]],
        untouched=sum(1 for c in release_diff if not c["skills"]),
        broken=[s for s in _field(report, "skills") if s["error"]],
    )
    return "\n".join(line.rstrip() for line in text.splitlines()) + "\n"
