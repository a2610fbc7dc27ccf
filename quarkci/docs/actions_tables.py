"""The README's generated blocks: every action's and workflow's inputs, outputs, secrets, a copy-paste
example each, and the permissions every workflow job needs (with each reusable workflow's union).

``python -m quarkci.docs.actions_tables --write`` rewrites the blocks of ``README.md`` in place,
``--check`` exits 1 when they differ from the files (``tests/docs/test_actions_tables.py`` does the same);
with neither it prints the blocks. A block sits between ``<!-- generated: NAME -->`` and the next
``<!-- /generated -->``; the text around the blocks is never touched. Exit 2 (one line) when a file is
not readable YAML or a marker is missing.
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from quarkci.core.atomic import atomic_write_text
from quarkci.core.errors import EXIT_BAD_INPUT, EXIT_FINDINGS, EXIT_OK, BadInputError
from quarkci.core.escape import cell, code, md
from quarkci.core.templates import template
from quarkci.docs.interfaces import Field, Interface, read_all
from quarkci.docs.permissions import Grant, JobNeed, caller_union, job_needs

COMMAND = "python -m quarkci.docs.actions_tables --write"
BLOCKS = ("actions-tables", "permissions-table")
END = "<!-- /generated -->"
OWNER_PREFIX = "OWNER/quarkci/"
PIN = "<full-commit-sha>"
_JOB_ID = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")
_SHORT = {"workflow_call": "call", "workflow_dispatch": "dispatch"}


@dataclass(frozen=True)
class Table:
    """A Markdown table: each cell already escaped for a table cell."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Section:
    """One action or workflow: a heading, a summary line, its tables (caption, table) and its example."""

    heading: str
    summary: str
    tables: tuple[tuple[str, Table], ...]
    example: str
    example_lang: str


def marker(name: str) -> str:
    """The start marker of block ``name``."""
    return f"<!-- generated: {name} -->"


# --- permissions ----------------------------------------------------------------------------------------


def needs_by_workflow(workflows: Sequence[Interface]) -> dict[str, list[JobNeed]]:
    """Every workflow's jobs with what each needs (``path -> [JobNeed]``), local calls resolved.

    A job that calls a local reusable workflow without ``permissions:`` needs that workflow's union, so
    the called workflows are resolved first (a cycle leaves the job unbounded).
    """
    done: dict[str, list[JobNeed]] = {}
    unions: dict[str, Grant | None] = {}
    for _ in range(len(workflows) + 1):  # each pass resolves at least one more level of local calls
        for wf in workflows:
            done[wf.path] = job_needs(wf.document, wf.path, unions)
        new = {path: caller_union(needs) for path, needs in done.items()}
        if new == unions:
            break
        unions = new
    return done


def grant_text(grant: Grant | None) -> str:
    """A grant as table text: ``contents: read``, ...; ``none`` for ``{}``; unbounded for ``None``."""
    if grant is None:
        return "not set: whatever the caller grants"
    if not grant:
        return "none (`{}`)"
    return ", ".join(code(f"{scope}: {level}") for scope, level in grant.items())


def grant_flow(grant: Grant) -> str:
    """A grant as a YAML flow mapping (``{contents: read, pull-requests: write}``)."""
    return "{" + ", ".join(f"{scope}: {level}" for scope, level in grant.items()) + "}"


def permissions_tables(workflows: Sequence[Interface]) -> tuple[Table, Table]:
    """(each reusable workflow's union for its calling job, every job of every workflow)."""
    needs = needs_by_workflow(workflows)
    calls = Table(
        ("reusable workflow", "the calling job grants", "needed by"),
        tuple(
            (
                code(Path(wf.path).name),
                cell(grant_text(caller_union(needs[wf.path]))),
                cell(_needed_by(needs[wf.path])),
            )
            for wf in workflows
            if wf.reusable
        ),
    )
    jobs = Table(
        ("workflow", "job", "`if:`", "permissions"),
        tuple(
            (
                code(Path(wf.path).name),
                code(need.job),
                cell(code(need.condition)) if need.condition else "none",
                cell(grant_text(need.permissions) + _source(need.source)),
            )
            for wf in workflows
            for need in needs[wf.path]
        ),
    )
    return calls, jobs


def _needed_by(needs: Sequence[JobNeed]) -> str:
    """For each scope of the union, the jobs that need its level (``contents: write``: ``a``, ``b``)."""
    grant = caller_union(needs)
    if grant is None:
        return ", ".join(code(n.job) for n in needs if n.permissions is None) + ": no `permissions:`"
    parts = []
    for scope, level in grant.items():
        jobs = [code(n.job) for n in needs if n.permissions is not None and n.permissions.get(scope) == level]
        parts.append(f"{code(f'{scope}: {level}')}: {', '.join(jobs)}")
    return "; ".join(parts) if parts else "no job needs a permission"


def _source(source: str) -> str:
    if source == "workflow":
        return " (the workflow's)"
    if source.startswith("calls "):
        return f" (as {code(Path(source[6:]).name)})"
    return ""


# --- inputs, outputs, secrets ---------------------------------------------------------------------------


def _default(f: Field) -> str:
    if not f.has_default:
        return ""
    value = f.default
    if isinstance(value, bool):
        return code("true" if value else "false")
    if value == "":
        return code('""')
    return code(value)


def _type(f: Field) -> str:
    if f.type == "choice" and f.options:
        return "choice: " + ", ".join(code(o) for o in f.options)
    return f.type


def _merged(values: list[tuple[str, str]]) -> str:
    """One cell for a field's values across triggers: once when they agree, else each labelled."""
    if len({v for _, v in values}) == 1:
        return values[0][1]
    return "<br>".join(f"{_SHORT.get(t, t)}: {v}" if v else f"{_SHORT.get(t, t)}: (none)" for t, v in values)


def inputs_table(item: Interface) -> Table | None:
    """The inputs of ``item`` over all its triggers, one row per name (``None`` when it has none)."""
    per_trigger = {t: {f.name: f for f in fields} for t, fields in item.inputs.items()}
    names = list(dict.fromkeys(f.name for fields in item.inputs.values() for f in fields))
    if not names:
        return None
    typed = item.kind == "workflow"
    rows = []
    for name in names:
        present = [(t, by_name[name]) for t, by_name in per_trigger.items() if name in by_name]
        label = code(name)
        if len(present) < len(per_trigger):
            label += " (" + ", ".join(_SHORT.get(t, t) for t, _ in present) + " only)"
        cells = [label]
        if typed:
            cells.append(_merged([(t, _type(f)) for t, f in present]))
        cells += [
            _merged([(t, "yes" if f.required else "no") for t, f in present]),
            _merged([(t, _default(f)) for t, f in present]),
            _merged([(t, md(f.description)) for t, f in present]),
        ]
        rows.append(tuple(cell(c) for c in cells))
    header = (
        ("input", "type", "required", "default", "description")
        if typed
        else (
            "input",
            "required",
            "default",
            "description",
        )
    )
    return Table(header, tuple(rows))


def outputs_table(fields: Sequence[Field]) -> Table | None:
    """Outputs as ``output | description`` (``None`` when there are none)."""
    if not fields:
        return None
    return Table(("output", "description"), tuple((code(f.name), cell(md(f.description))) for f in fields))


def secrets_table(fields: Sequence[Field]) -> Table | None:
    """Secrets as ``secret | required | description`` (``None`` when there are none)."""
    if not fields:
        return None
    return Table(
        ("secret", "required", "description"),
        tuple((code(f.name), "yes" if f.required else "no", cell(md(f.description))) for f in fields),
    )


# --- examples -------------------------------------------------------------------------------------------


def _scalar(value: Any) -> str:
    """A YAML scalar for ``value`` (JSON's spelling, which YAML reads back as the same value)."""
    return json.dumps(value if isinstance(value, bool | int | float) else str(value), ensure_ascii=False)


def _placeholder(f: Field) -> str:
    if f.type == "boolean":
        return "true"
    if f.type == "number":
        return "0"
    if f.type == "choice" and f.options:
        return _scalar(f.options[0])
    return _scalar(f"<{f.name}>")


def _with_lines(fields: Sequence[Field], indent: str) -> list[str]:
    """``with:`` lines: required inputs set to a placeholder, optional ones commented with their default."""
    required = [f for f in fields if f.required]
    if not fields:
        return []
    lines = [f"{indent}with:" if required else f"{indent}# with:"]
    for f in fields:
        if f.required:
            lines.append(f"{indent}  {f.name}: {_placeholder(f)}  # required")
        else:
            lines.append(f"{indent}  # {f.name}: {_scalar(f.default if f.has_default else '')}")
    return lines


def action_example(item: Interface) -> str:
    """A step using the action from a pinned commit."""
    lines = [f"- uses: {OWNER_PREFIX}{item.path}@{PIN}"]
    lines += _with_lines(item.inputs.get("action", ()), "  ")
    return "\n".join(lines) + "\n"


def workflow_example(item: Interface, grant: Grant | None) -> tuple[str, str]:
    """(text, language): a calling job for a reusable workflow, else ``gh workflow run`` for a dispatchable
    one, else ``""``."""
    file = Path(item.path).name
    if item.reusable:
        job = Path(file).stem if _JOB_ID.match(Path(file).stem) else "call"
        lines = [
            "jobs:",
            f"  {job}:",
            f"    permissions: {grant_flow(grant) if grant is not None else '{}  # set what the jobs need'}",
            f"    uses: {OWNER_PREFIX}{item.path}@{PIN}",
            *_with_lines(item.inputs.get("workflow_call", ()), "    "),
        ]
        if item.secrets:
            required = any(s.required for s in item.secrets)
            lines.append("    secrets:" if required else "    # secrets:")
            for s in item.secrets:
                env = re.sub(r"[^A-Z0-9_]", "_", s.name.upper())
                value = "${{ secrets." + env + " }}"
                lines.append(
                    f"      {s.name}: {value}  # required" if s.required else f"      # {s.name}: {value}"
                )
        return "\n".join(lines) + "\n", "yaml"
    if item.dispatchable:
        fields = item.inputs.get("workflow_dispatch", ())
        flags = "".join(f" -f {f.name}={_placeholder(f)}" for f in fields if f.required)
        return f"gh workflow run {file} --ref main{flags}\n", "sh"
    return "", ""


# --- sections and blocks --------------------------------------------------------------------------------


def sections(actions: Sequence[Interface], workflows: Sequence[Interface]) -> list[Section]:
    """One section per action, then one per workflow that a caller or a dispatch can start."""
    needs = needs_by_workflow(workflows)
    out = []
    for item in actions:
        out.append(
            Section(
                heading=f"{code(item.path)}: {md(item.name)}",
                summary=md(item.description),
                tables=_tables(item),
                example=action_example(item),
                example_lang="yaml",
            )
        )
    for item in workflows:
        if not (item.reusable or item.dispatchable):
            continue
        grant = caller_union(needs[item.path])
        summary = "Triggers: " + ", ".join(code(t) for t in item.triggers) + "."
        if item.reusable:
            summary += f" A calling job must grant {grant_text(grant)} (every job's, optional ones included)."
        text, lang = workflow_example(item, grant)
        out.append(
            Section(
                heading=f"{code(Path(item.path).name)}: {md(item.name)}",
                summary=summary,
                tables=_tables(item),
                example=text,
                example_lang=lang,
            )
        )
    return out


def _tables(item: Interface) -> tuple[tuple[str, Table], ...]:
    pairs = [
        ("Inputs", inputs_table(item)),
        ("Outputs", outputs_table(item.outputs)),
        ("Secrets", secrets_table(item.secrets)),
    ]
    return tuple((caption, t) for caption, t in pairs if t is not None)


def render_blocks(root: Path) -> dict[str, str]:
    """The text of each generated block (name -> Markdown, ending with a newline) for the files under
    ``root``. Raises :class:`BadInputError` naming the file when one is unreadable."""
    actions, workflows = read_all(root)
    calls, jobs = permissions_tables(workflows)
    return {
        "actions-tables": template("quarkci.docs", "actions_tables.md.j2").render(
            command=COMMAND, sections=sections(actions, workflows)
        ),
        "permissions-table": template("quarkci.docs", "permissions_table.md.j2").render(
            command=COMMAND, calls=calls, jobs=jobs
        ),
    }


def replace_blocks(text: str, blocks: dict[str, str], where: str) -> str:
    """``text`` with each block's content (between its start marker and the next end marker) replaced.

    Raises :class:`BadInputError` naming ``where`` when a block's markers are missing or repeated.
    """
    for name, body in blocks.items():
        start = marker(name)
        if text.count(start) != 1:
            raise BadInputError(f"{where}: needs exactly one {start!r} line (found {text.count(start)})")
        head, rest = text.split(start, 1)
        if END not in rest:
            raise BadInputError(f"{where}: {start!r} has no {END!r} after it")
        rest = rest.split(END, 1)[1]
        text = f"{head}{start}\n{body}{END}{rest}"
    return text


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m quarkci.docs.actions_tables [--root DIR] [--readme FILE] [--check | --write]``."""
    parser = argparse.ArgumentParser(prog="python -m quarkci.docs.actions_tables", description=__doc__)
    parser.add_argument("--root", default=".", help="repository root (default: the current directory)")
    parser.add_argument("--readme", help="the README holding the blocks (default: ROOT/README.md)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="exit 1 when the README's blocks are stale")
    mode.add_argument("--write", action="store_true", help="rewrite the README's blocks in place")
    args = parser.parse_args(argv)
    root = Path(args.root)
    readme = Path(args.readme) if args.readme else root / "README.md"
    try:
        blocks = render_blocks(root)
        if not (args.check or args.write):
            sys.stdout.write("".join(f"{marker(n)}\n{b}{END}\n" for n, b in blocks.items()))
            return EXIT_OK
        try:
            current = readme.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise BadInputError(f"--readme {readme}: cannot read: {exc}") from None
        wanted = replace_blocks(current, blocks, f"--readme {readme}")
    except BadInputError as exc:
        print(f"quarkci: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if wanted == current:
        return EXIT_OK
    if args.write:
        atomic_write_text(readme, wanted)
        print(f"{readme}: generated blocks rewritten")
        return EXIT_OK
    diff = difflib.unified_diff(
        current.splitlines(keepends=True), wanted.splitlines(keepends=True), str(readme), "generated", n=1
    )
    sys.stdout.writelines(list(diff)[:80])
    print(f"{readme}: generated blocks are stale; run `{COMMAND}`", file=sys.stderr)
    return EXIT_FINDINGS


if __name__ == "__main__":
    sys.exit(main())
