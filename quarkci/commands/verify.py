"""``quarkci verify``: verification skills for kernel libraries (init, prove, maintain)."""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

from quarkci.commands import arguments as _args
from quarkci.core.documents import dump_json
from quarkci.core.errors import EXIT_FINDINGS, EXIT_OK, BadInputError
from quarkci.core.paths import check_disjoint, check_output_dir
from quarkci.core.step_outputs import require_output_file, write_outputs

DEFAULT_SKILLS = ".cursor/skills"


def add_parser(subparsers: _args.Subparsers) -> None:
    p = subparsers.add_parser(
        "verify",
        help="verification skills for kernel libraries (init, prove, maintain)",
        description="Generate, prove and maintain a verify-<lib> skill for a kernel library.",
    )
    sub = p.add_subparsers(dest="verify_command", metavar="ACTION")
    sub.required = True
    init = sub.add_parser("init", help="inventory a library and write its verify-<lib> skill")
    init.add_argument(
        "--repo",
        type=_args.path_name,
        required=True,
        metavar="PATH|installed[:DIST]",
        help="a checkout, or an installed distribution (default dist amd-quark)",
    )
    init.add_argument(
        "--lib", default=None, metavar="NAME", help="library name in the skill name (default: package)"
    )
    init.add_argument(
        "--skills",
        type=_args.path_name,
        default=DEFAULT_SKILLS,
        metavar="DIR",
        help=f"skills root (default {DEFAULT_SKILLS})",
    )
    init.add_argument("--json", action="store_true", help="print the feature map on stdout")
    init.set_defaults(func=run_init)
    prove = sub.add_parser("prove", help="run a skill's instructions end to end for one correctness feature")
    prove.add_argument(
        "--skill",
        type=_args.path_name,
        required=True,
        metavar="DIR",
        help="the verify-<lib> skill directory (holds SKILL.md)",
    )
    prove.add_argument(
        "--feature",
        required=True,
        metavar="ID",
        help="one correctness feature id from the skill's features/map.json, or a feature file's stem "
        "(features/<family>-correctness.md: each feature it lists is proved, into --out/<id>/)",
    )
    prove.add_argument(
        "--out",
        type=_args.path_name,
        default="verify-evidence",
        metavar="DIR",
        help="directory for verify_proof.json and the saved stdout (default verify-evidence)",
    )
    prove.add_argument(
        "--lock",
        default=None,
        metavar="FILE",
        type=_args.output_file,
        help="device lock file (default: per device in TMPDIR)",
    )
    prove.add_argument(
        "--timeout", type=float, default=1800.0, metavar="S", help="per-command limit in seconds"
    )
    prove.add_argument("--json", action="store_true", help="print the proof on stdout")
    prove.add_argument(
        "--github-output",
        action="store_true",
        help="also write the step output result ($GITHUB_OUTPUT): PROVED, FAILED or INCONCLUSIVE "
        "(empty when --feature names a feature file of several features)",
    )
    prove.set_defaults(func=run_prove)
    maintain = sub.add_parser("maintain", help="report drift between a skill's feature map and the library")
    maintain.add_argument(
        "--skill",
        type=_args.path_name,
        required=True,
        metavar="DIR",
        help="the verify-<lib> skill directory (holds SKILL.md)",
    )
    maintain.add_argument(
        "--repo",
        type=_args.path_name,
        default=None,
        metavar="PATH|installed[:DIST]",
        help="the library to compare with (default: the map's source)",
    )
    maintain.add_argument("--fix", action="store_true", help="update the map for mechanical drift")
    maintain.add_argument(
        "--out",
        type=_args.path_name,
        default="reports",
        metavar="DIR",
        help="report directory (default reports/)",
    )
    maintain.add_argument(
        "--fail-on",
        default="breaking",
        choices=("none", "mechanical", "semantic", "breaking"),
        help="exit 1 when drift of this kind or worse exists (default breaking)",
    )
    maintain.add_argument("--json", action="store_true", help="print the JSON report on stdout")
    maintain.set_defaults(func=run_maintain)


def _skill_dir(value: str) -> Path:
    path = Path(value)
    if not (path / "SKILL.md").is_file():
        raise BadInputError(f"--skill {value}: no SKILL.md there")
    return path


def run_init(args: argparse.Namespace) -> int:
    from quarkci.verify import featuremap
    from quarkci.verify.generate import generate
    from quarkci.verify.inventory import locate, scan

    if args.lib is not None and not args.lib.replace("-", "").replace("_", "").isalnum():
        raise BadInputError(f"--lib {args.lib}: letters, digits, '-' and '_' only")
    check_output_dir(args.skills, "--skills")
    library = locate(args.repo)
    inventory = scan(library, args.lib)
    skills = Path(args.skills)
    in_repo = not library.installed and skills.resolve().is_relative_to(library.root)
    workdir = library.root if in_repo else Path.cwd()
    dist = args.repo.partition(":")[2] or "amd-quark" if library.installed else ""
    try:
        skill = generate(inventory, skills, workdir, dist)
    except OSError as exc:
        raise BadInputError(f"--skills {args.skills}: cannot write: {exc.strerror or exc}") from None
    data = featuremap.load(skill)
    if args.json:
        sys.stdout.write(dump_json(data))
    else:
        drivable = sum(1 for f in data["features"] if f["kind"] == "correctness" and f["drive"])
        print(
            f"wrote {skill} ({len(data['families'])} families, {len(data['features'])} features, "
            f"{drivable} drivable correctness features, {len(data['gaps'])} gaps; status: draft)"
        )
    return 0


def run_prove(args: argparse.Namespace) -> int:
    from quarkci.core.progress import stderr
    from quarkci.verify.prove import EXIT, prove

    target = require_output_file() if args.github_output else None
    if not (math.isfinite(args.timeout) and args.timeout > 0):
        raise BadInputError(f"--timeout {args.timeout}: must be a positive number of seconds")
    check_output_dir(args.out, "--out")
    skill = _skill_dir(args.skill)
    check_disjoint(args.out, "--out", skill, "--skill")  # evidence written into the skill would be read
    from quarkci.verify import featuremap

    ids = featuremap.resolve_features(featuremap.load(skill), args.feature)
    # A feature file stem listing several features proves each, into --out/<feature id>/.
    outs = [Path(args.out)] if len(ids) == 1 else [Path(args.out) / i for i in ids]
    results: list[str] = []
    documents = []
    for feature, out in zip(ids, outs, strict=True):
        result, document = prove(
            skill,
            feature,
            out,
            Path(args.lock) if args.lock else None,
            timeout=args.timeout,
            say=stderr("quarkci: verify prove"),
        )
        results.append(result)
        documents.append(document)
        if args.json:
            continue
        where = f" at step {document['failed_step']}: {document['reason']}" if document["failed_step"] else ""
        print(f"{result} {feature}{where}")
        for note in document["unverified"]:
            print(f"unverified: {note}")
        if document["draft"]:
            print("skill status: draft (never proved)")
        print(f"proof: {out / 'verify_proof.json'}")
    if target is not None:  # several proofs (a feature file) have no one result: the output is empty
        write_outputs({"result": documents[0]["result"] if len(ids) == 1 else ""}, target)
    if args.json:
        sys.stdout.write(
            dump_json(documents[0] if len(ids) == 1 else {"file": args.feature, "proofs": documents})
        )
    # FAILED outranks INCONCLUSIVE outranks PROVED
    return next((EXIT[r] for r in ("FAILED", "INCONCLUSIVE") if r in results), EXIT["PROVED"])


def run_maintain(args: argparse.Namespace) -> int:
    from quarkci.report import lines
    from quarkci.report.dto import build
    from quarkci.verify.maintain import maintain

    check_output_dir(args.out, "--out")
    skill = _skill_dir(args.skill)
    check_disjoint(args.out, "--out", skill, "--skill")  # the report never lands in the skill --fix edits
    result = maintain(skill, args.repo, args.fix, Path(args.out))
    if args.json:
        sys.stdout.write(result.report_json)
    else:
        sys.stdout.write(lines.canonical(result.outcome.findings.drift()))
        print(f"{build(result.outcome).summary} -> {result.report_md}")
        print(result.status)
    return EXIT_FINDINGS if result.fails(args.fail_on) else EXIT_OK
