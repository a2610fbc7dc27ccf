"""``quarkci history``: audit one skill set against every release in a range (a drift timeline).

``quarkci history [--from SPEC] [--to SPEC] [--skills DIR|bundled:SPEC] [--out DIR] [--json]`` writes
``OUT/drift_history.md`` (Mermaid chart + release x kind table) and ``OUT/drift_history.json``.
Releases: the final amd-quark releases on PyPI from ``--from`` (default: the oldest) to ``--to``
(default: the newest); skills default to the bundled skills of the ``--to`` release. Exit 0; 2 for
bad input (checked before any download); 3 when PyPI is unreachable.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from packaging.version import Version

from quarkci.commands import arguments as _args
from quarkci.core.atomic import atomic_write_text
from quarkci.core.documents import dump_json
from quarkci.core.errors import BadInputError
from quarkci.core.paths import check_disjoint, check_output_dir
from quarkci.facts import vocabulary
from quarkci.skills import SnapshotSource, discover, open_skills
from quarkci.skills.claims import extract_claims
from quarkci.sync.history import run_history, to_json, to_markdown
from quarkci.upstream.base import Snapshot
from quarkci.upstream.pypi import PyPIIndex
from quarkci.upstream.resolve import resolve

HISTORY_MD = "drift_history.md"
HISTORY_JSON = "drift_history.json"


def add_parser(subparsers: _args.Subparsers) -> None:
    """Register ``history`` on the top-level subparsers."""
    p = subparsers.add_parser(
        "history",
        help="audit one skill set against every release in a range",
        description=__doc__.splitlines()[0],
    )
    p.add_argument(
        "--from",
        dest="from_",
        metavar="VERSION",
        default=None,
        help="oldest amd-quark release to audit against, e.g. 0.9 (default: the oldest on PyPI)",
    )
    p.add_argument(
        "--to",
        metavar="VERSION",
        default=None,
        help="newest amd-quark release, e.g. 0.13 (default: the newest on PyPI)",
    )
    p.add_argument(
        "--skills",
        metavar="DIR|bundled:SPEC",
        default=None,
        type=_args.skills_spec,
        help="skills to audit (default: the bundled skills of the --to release)",
    )
    p.add_argument(
        "--out",
        metavar="DIR",
        default="reports",
        type=_args.output_dir,
        help="directory for drift_history.md and drift_history.json (default: reports/)",
    )
    p.add_argument("--json", action="store_true", help="print the JSON timeline on stdout")
    p.set_defaults(func=run)


def _version(flag: str, raw: str | None) -> Version | None:
    if raw is None:
        return None
    try:
        return Version(raw.removeprefix("amd-quark==").strip())
    except ValueError:  # InvalidVersion, or an integer of over 4,300 digits (int() limit)
        raise BadInputError(f"{flag} {raw!r}: not a release version (e.g. 0.11.2)") from None


def releases(low: Version | None, high: Version | None, index: PyPIIndex | None = None) -> list[Version]:
    """Final releases on PyPI within [low, high], oldest first. BadInputError when none."""
    listed = [
        v
        for v in (index or PyPIIndex()).versions()
        if (low is None or v >= low) and (high is None or v <= high)
    ]
    if not listed:
        raise BadInputError(
            f"--from/--to: no amd-quark release between {low or 'the first'} and {high or 'the last'}"
        )
    return listed


def run(args: argparse.Namespace) -> int:
    """Validate arguments, resolve the releases, audit, write both files."""
    low, high = _version("--from", args.from_), _version("--to", args.to)
    if low is not None and high is not None and low > high:
        raise BadInputError(f"--from {args.from_} is newer than --to {args.to}")
    out = Path(args.out)
    check_output_dir(out, "--out")
    if args.skills and not args.skills.startswith("bundled:"):
        check_disjoint(
            out, "--out", args.skills, "--skills"
        )  # reports written among the skills would be read
    if args.skills and not args.skills.startswith("bundled:") and not discover(open_skills(args.skills)):
        raise BadInputError(f"--skills {args.skills}: no SKILL.md found; 0 skills would be audited")
    versions = releases(low, high)
    snapshots: list[tuple[str, Snapshot]] = []
    for version in versions:
        print(f"quarkci: resolving amd-quark=={version}", file=sys.stderr, flush=True)
        snapshots.append((f"amd-quark=={version}", resolve(f"amd-quark=={version}")))
    source = open_skills(args.skills) if args.skills else SnapshotSource(snapshots[-1][1])
    root = args.skills or f"bundled:amd-quark=={versions[-1]}"
    skills = discover(source)
    if not skills:
        raise BadInputError(f"--skills {root}: no SKILL.md found; 0 skills would be audited")
    claims = [
        c
        for s in skills
        if s.error is None
        for c in extract_claims(s, source.read_text, vocabulary.shipped())
    ]
    timeline = run_history(
        snapshots, skills, claims, source.read_text, root, skill_files=frozenset(source.files())
    )
    document = to_json(timeline)
    atomic_write_text(out / HISTORY_JSON, dump_json(document))
    atomic_write_text(out / HISTORY_MD, to_markdown(timeline))
    if args.json:
        sys.stdout.write(dump_json(document))
    else:
        for p in timeline.points:
            print(f"{p.version}: " + ", ".join(f"{k} {v}" for k, v in p.counts.items()))
        print(f"drift timeline of {len(timeline.points)} releases -> {out / HISTORY_MD}")
    return 0
