"""``quarkci skills``: discover skills and print the claims they make.

``quarkci skills list --skills SPEC [--json]`` lists every SKILL.md (with parse errors as values);
``quarkci skills claims --skills SPEC [--json] [--kind K]`` prints every claim with file:line.
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
from typing import Any

from quarkci.commands import arguments as _args
from quarkci.core.errors import EXIT_FINDINGS, BadInputError
from quarkci.skills import discover, open_skills
from quarkci.skills.claims import extract_claims
from quarkci.skills.model import CLAIM_KINDS


def add_parser(subparsers: Any) -> None:
    """Register ``skills list|claims`` on the top-level subparsers."""
    parser = subparsers.add_parser("skills", help="discover skills and extract their claims",
                                   description=__doc__.splitlines()[0])
    actions = parser.add_subparsers(dest="skills_command", metavar="ACTION", parser_class=type(parser))
    actions.required = True
    for name, helptext in (("list", "every SKILL.md with its references"), ("claims", "every claim with file:line")):
        action = actions.add_parser(name, help=helptext)
        action.add_argument("--skills", required=True, metavar="SPEC", type=_args.skills_spec, help="skills to read: a directory holding SKILL.md files, or bundled:UPSTREAM_SPEC")
        action.add_argument("--json", action="store_true", help="machine output on stdout")
        if name == "claims":
            action.add_argument("--kind", choices=sorted(CLAIM_KINDS), help="only claims of this kind (default: every kind)")
        action.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print skills or claims for ``args.skills``. Raises BadInputError / UpstreamUnreachableError."""
    source = open_skills(args.skills)
    skills = discover(source)
    unreadable = [s for s in skills if s.error]
    if args.skills_command == "list":
        payload: dict[str, Any] = {"source": args.skills, "count": len(skills),
                                   "skills": [s.to_json() for s in skills]}
        lines = [_skill_line(s) for s in skills] + [f"{len(skills)} skills in {source.label}"]
    else:
        if unreadable and len(unreadable) == len(skills):
            raise BadInputError(f"--skills {args.skills}: none of the {len(skills)} skills is readable "
                                f"({unreadable[0].error})")
        claims = [c for s in skills if not s.error for c in extract_claims(s, source.read_text)]
        if args.kind:
            claims = [c for c in claims if c.kind == args.kind]
        counts = {kind: sum(1 for c in claims if c.kind == kind) for kind in CLAIM_KINDS}
        payload = {"source": args.skills, "skills": len(skills), "count": len(claims),
                   "counts": {k: v for k, v in counts.items() if v},
                   "claims": [c.to_json() for c in claims],
                   "unreadable": [{"path": s.path, "error": s.error} for s in unreadable]}
        lines = [f"{c.file}:{c.line}: {c.kind} {c.value}{_context_suffix(c.context)}" for c in claims]
        lines.append(f"{len(claims)} claims in {len(skills)} skills"
                     + "".join(f", {k}={v}" for k, v in payload["counts"].items()))
    print(json.dumps(payload, indent=2, sort_keys=True) if args.json else "\n".join(lines))
    if args.skills_command == "claims" and unreadable:
        for skill in unreadable:
            print(f"quarkci: error: skill unreadable, its claims are not listed: {skill.path}: {skill.error}",
                  file=sys.stderr)
        return EXIT_FINDINGS
    return 0


def _skill_line(skill: Any) -> str:
    if skill.error:
        return f"{skill.path}: error: {skill.error}"
    extra = f" -> {skill.delegates_to}" if skill.delegates_to else ""
    return (f"{skill.path}: {skill.name} ({len(skill.references)} references, "
            f"{len(skill.source_knowledge)} source_knowledge){extra}")


def _context_suffix(context: dict[str, Any]) -> str:
    command = context.get("command")
    if command:
        return f" [{command}]"
    if context.get("field"):
        return f" [{context['field']}]"
    return ""
