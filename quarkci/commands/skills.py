"""``quarkci skills``: discover skills and print the claims they make.

``quarkci skills list --skills SPEC [--json]`` lists every SKILL.md (with parse errors as values);
``quarkci skills claims --skills SPEC [--json] [--kind K]`` prints every claim with file:line;
``quarkci skills export --skills SPEC --out DIR`` copies a skill set (e.g. the bundled skills of a
release, which are read-only) into a new directory where ``quarkci sync --skills DIR --fix`` can edit them.
``SPEC`` is ``DIR`` or ``bundled:UPSTREAM`` (e.g. ``bundled:amd-quark==0.13``). JSON output is
deterministic (sorted keys, skills by path, claims by file/line). Exit 0; 2 for bad input (a
missing directory, an unknown kind); 3 when ``bundled:`` cannot reach PyPI. An empty directory is
not an error: it holds 0 skills. ``claims`` never hides an unreadable skill: each is named on stderr
(and listed under ``unreadable`` in JSON); exit 1 when some skills are unreadable, 2 when none is readable.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path, PurePosixPath
from typing import Any

from quarkci.commands import arguments as _args
from quarkci.core.atomic import atomic_write_bytes
from quarkci.core.documents import read_capped, write_json_streamed
from quarkci.core.errors import EXIT_FINDINGS, BadInputError
from quarkci.core.paths import check_disjoint, check_relative_file
from quarkci.facts import vocabulary
from quarkci.skills import DirectorySource, SkillSource, SnapshotSource, discover, open_skills
from quarkci.skills.claims import extract_claims
from quarkci.skills.model import CLAIM_KINDS
from quarkci.upstream.wheel import MAX_MEMBER_BYTES as MAX_EXPORT_FILE_BYTES  # as large as a wheel may hold


def add_parser(subparsers: _args.Subparsers) -> None:
    """Register ``skills list|claims`` on the top-level subparsers."""
    parser = subparsers.add_parser(
        "skills", help="discover skills and extract their claims", description=__doc__.splitlines()[0]
    )
    actions = parser.add_subparsers(dest="skills_command", metavar="ACTION", parser_class=type(parser))
    actions.required = True
    for name, helptext in (
        ("list", "every SKILL.md with its references"),
        ("claims", "every claim with file:line"),
    ):
        action = actions.add_parser(name, help=helptext)
        action.add_argument(
            "--skills",
            required=True,
            metavar="SPEC",
            type=_args.skills_spec,
            help="skills to read: a directory holding SKILL.md files, or bundled:UPSTREAM_SPEC",
        )
        action.add_argument("--json", action="store_true", help="machine output on stdout")
        if name == "claims":
            action.add_argument(
                "--kind", choices=sorted(CLAIM_KINDS), help="only claims of this kind (default: every kind)"
            )
        action.set_defaults(func=run)
    export = actions.add_parser(
        "export",
        help="copy a skill set (e.g. a release's bundled skills) to a new "
        "directory, to audit and --fix there",
    )
    export.add_argument(
        "--skills",
        required=True,
        metavar="SPEC",
        type=_args.skills_spec,
        help="skills to copy: a directory holding SKILL.md files, or bundled:UPSTREAM_SPEC",
    )
    export.add_argument(
        "--out",
        required=True,
        metavar="DIR",
        type=_args.output_dir,
        help="new or empty directory to write the skill files into; not the --skills directory, "
        "nor inside or above it",
    )
    export.set_defaults(func=run_export)


def run_export(args: argparse.Namespace) -> int:
    """Copy every file of ``--skills`` into ``--out`` (which must be new or empty, and neither the skills
    directory, inside it nor above it). Exit 2 when it is not."""
    out = Path(args.out)
    if not args.skills.startswith("bundled:"):
        check_disjoint(out, "--out", args.skills, "--skills")
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise BadInputError(f"--out {out}: exists and is not an empty directory")
    source = open_skills(args.skills)
    files = source.files()
    if not any(f == "SKILL.md" or f.endswith("/SKILL.md") for f in files):
        raise BadInputError(f"--skills {args.skills}: no SKILL.md found in {source.label}")
    plan = export_plan(files, out, f"--skills {args.skills}")  # the whole plan, before the first write
    for rel, target in plan:
        data = _read_bytes(source, rel)
        try:
            atomic_write_bytes(target, data)
        except OSError as exc:
            raise BadInputError(f"--out {out}: cannot write {rel} ({exc.strerror or exc})") from None
    print(f"wrote {len(files)} files of {source.label} to {out}")
    return 0


def export_plan(files: list[str], out: Path, label: str) -> list[tuple[str, Path]]:
    """``(file, target)`` for every file of a skill set exported into ``out``, checked as a whole before
    anything is written: each name a normalised relative path (no ``..``, ``.``, empty or absolute
    component; no component over 255 bytes), its target inside ``out`` once resolved, and no name that
    is both a file and the directory of another. Raises :class:`BadInputError` naming ``label``."""
    names = set(files)
    root = out.resolve()
    plan: list[tuple[str, Path]] = []
    for rel in files:
        check_relative_file(rel, f"{label}: member")
        target = out / rel
        if not (root / rel).resolve().is_relative_to(root):
            raise BadInputError(f"{label}: {rel!r} escapes the output directory")
        parents = [str(parent) for parent in PurePosixPath(rel).parents][:-1]
        if any(parent in names for parent in parents):
            raise BadInputError(f"{label}: {rel!r} lies below another member that is a file")
        plan.append((rel, target))
    return plan


def _read_bytes(source: SkillSource, rel: str) -> bytes:
    """The exact bytes of a skill file (text or not) from a snapshot or a directory source, at most the
    largest member a wheel may hold. Raises :class:`BadInputError` when it cannot be read or is larger."""
    if isinstance(source, SnapshotSource):
        return source.snapshot.read_bytes(source.prefix + rel)
    if isinstance(source, DirectorySource):
        return read_capped(source.root / rel, MAX_EXPORT_FILE_BYTES, f"--skills {source.root}: {rel}")
    return source.read_text(rel).encode("utf-8")


def run(args: argparse.Namespace) -> int:
    """Print skills or claims for ``args.skills``. Raises BadInputError / UpstreamUnreachableError."""
    source = open_skills(args.skills)
    skills = discover(source)
    unreadable = [s for s in skills if s.error]
    if args.skills_command == "list":
        payload: dict[str, Any] = {
            "source": args.skills,
            "count": len(skills),
            "skills": [s.to_json() for s in skills],
        }
        lines = [_skill_line(s) for s in skills] + [f"{len(skills)} skills in {source.label}"]
        print(json.dumps(payload, indent=2, sort_keys=True) if args.json else "\n".join(lines))
    else:
        if not skills:  # as in sync: a skill set with no SKILL.md is bad input, never "0 claims"
            raise BadInputError(f"--skills {args.skills}: no SKILL.md found in {source.label}")
        if unreadable and len(unreadable) == len(skills):
            raise BadInputError(
                f"--skills {args.skills}: none of the {len(skills)} skills is readable "
                f"({unreadable[0].error})"
            )
        claims = [
            c
            for s in skills
            if not s.error
            for c in extract_claims(s, source.read_text, vocabulary.shipped())
        ]
        if args.kind:
            claims = [c for c in claims if c.kind == args.kind]
        counts = {kind: sum(1 for c in claims if c.kind == kind) for kind in CLAIM_KINDS}
        payload = {
            "source": args.skills,
            "skills": len(skills),
            "count": len(claims),
            "counts": {k: v for k, v in counts.items() if v},
            "unreadable": [{"path": s.path, "error": s.error} for s in unreadable],
        }
        # Streamed, one claim at a time: a 2 MiB SKILL.md can hold 200,000 claims (issue 24).
        if args.json:
            write_json_streamed(sys.stdout, payload, "claims", (c.to_json() for c in claims))
            sys.stdout.write("\n")
        else:
            for c in claims:
                sys.stdout.write(f"{c.file}:{c.line}: {c.kind} {c.value}{_context_suffix(c.context)}\n")
            sys.stdout.write(
                f"{len(claims)} claims in {len(skills)} skills"
                + "".join(f", {k}={v}" for k, v in payload["counts"].items())
                + "\n"
            )
    if args.skills_command == "claims" and unreadable:
        for skill in unreadable:
            print(
                f"quarkci: error: skill unreadable, its claims are not listed: {skill.path}: {skill.error}",
                file=sys.stderr,
            )
        return EXIT_FINDINGS
    return 0


def _skill_line(skill: Any) -> str:
    if skill.error:
        return f"{skill.path}: error: {skill.error}"
    extra = f" -> {skill.delegates_to}" if skill.delegates_to else ""
    return (
        f"{skill.path}: {skill.name} ({len(skill.references)} references, "
        f"{len(skill.source_knowledge)} source_knowledge){extra}"
    )


def _context_suffix(context: dict[str, Any]) -> str:
    command = context.get("command")
    if command:
        return f" [{command}]"
    if context.get("field"):
        return f" [{context['field']}]"
    return ""
