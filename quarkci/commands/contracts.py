"""``quarkci contracts``: the artifact contracts (list, validate, check-producers, diff).

* ``quarkci contracts list [--json]``: each artifact, its one producer, consumers, schema, fallback.
* ``quarkci contracts validate FILE [--artifact NAME] [--json]``: validate a JSON or YAML document
  (artifact inferred from the file name). Exit 0 valid, 1 invalid (one line per violation naming
  the JSON path), 2 unreadable/unparsable file or unknown artifact.
* ``quarkci contracts check-producers [--root DIR] [--json]``: static scan of quarkci's source; every
  artifact must be written through ``write_artifact(contract, ...)`` by its registry producer; exit 1 on a
  write from another module, any write that bypasses write_artifact, or a produced artifact never verified.
* ``quarkci contracts diff --upstream SPEC [--json] [--all] [--fail-on KIND]``: compare our
  schemas with the contracts shipped in a Quark release; exit 1 when a finding is at or above
  ``--fail-on`` (default ``breaking``), 2 bad spec, 3 upstream unreachable.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from quarkci.commands import arguments as _args
from quarkci.core.artifacts import ARTIFACTS, get_artifact
from quarkci.core.errors import EXIT_FINDINGS, EXIT_OK
from quarkci.core.findings import SEVERITY, Finding


def add_parser(subparsers: _args.Subparsers) -> None:
    """Register ``contracts`` and its subcommands on the top-level subparsers."""
    parser = subparsers.add_parser(
        "contracts",
        help="artifact contracts: list, validate, check-producers, diff",
        description=__doc__.splitlines()[0],
    )
    sub = parser.add_subparsers(dest="contracts_command", metavar="SUBCOMMAND", parser_class=type(parser))
    sub.required = True

    p = sub.add_parser("list", help="list the artifacts, their producer, consumers and fallback")
    p.add_argument("--json", action="store_true", help="machine output on stdout")
    p.set_defaults(func=run_list)

    p = sub.add_parser("validate", help="validate a JSON/YAML artifact against its contract")
    p.add_argument(
        "file", metavar="FILE", type=_args.input_file, help="the JSON or YAML document to validate"
    )
    p.add_argument(
        "--artifact",
        metavar="NAME",
        choices=list(ARTIFACTS),
        help=f"artifact name, one of {', '.join(ARTIFACTS)} (default: from the file name)",
    )
    p.add_argument("--json", action="store_true", help="machine output on stdout")
    p.set_defaults(func=run_validate)

    p = sub.add_parser("check-producers", help="fail when code outside an artifact's producer writes it")
    p.add_argument(
        "--root",
        default=".",
        metavar="DIR",
        type=_args.input_dir,
        help="repository root holding quarkci/ (default: .)",
    )
    p.add_argument("--json", action="store_true", help="machine output on stdout")
    p.set_defaults(func=run_check_producers)

    p = sub.add_parser("diff", help="compare our contracts with those shipped in a Quark release")
    p.add_argument(
        "--upstream",
        required=True,
        metavar="SPEC",
        type=_args.upstream_spec,
        help="the Quark release: amd-quark==X | path/to/x.whl | path/to/checkout | installed",
    )
    p.add_argument("--json", action="store_true", help="machine output on stdout")
    p.add_argument("--all", action="store_true", help="also list differences our schemas mark as deliberate")
    p.add_argument(
        "--fail-on",
        default="breaking",
        choices=["breaking", "semantic", "mechanical", "none"],
        help="exit 1 when a finding is at or above this kind (default: breaking)",
    )
    p.set_defaults(func=run_diff)


def run_list(args: argparse.Namespace) -> int:
    """Print the registry. Returns 0."""
    rows = [
        {
            "artifact": a.name,
            "file": a.filename,
            "format": a.fmt,
            "producer": a.producer,
            "upstream_producer": a.upstream_producer,
            "consumers": list(a.consumers),
            "schema": f"quarkci/core/schemas/{a.schema_file}",
            "fallback": a.fallback,
        }
        for a in ARTIFACTS.values()
    ]
    if args.json:
        print(json.dumps(rows, indent=2, sort_keys=True))
        return EXIT_OK
    for row in rows:
        print(f"{row['artifact']:<24} {row['file']:<30} producer: {row['producer']}")
        print(f"{'':<24} consumers: {', '.join(row['consumers'])}")
        print(f"{'':<24} fallback: {row['fallback']}")
    return EXIT_OK


def run_validate(args: argparse.Namespace) -> int:
    """Validate one file. Returns 0 valid, 1 invalid; raises BadInputError (2) for bad input."""
    from quarkci.core.documents import infer_artifact, load_document, validate_document
    from quarkci.core.errors import BadInputError

    if Path(args.file).suffix.lower() == ".md":
        raise BadInputError(f"{args.file}: a Markdown report has no schema; validate its JSON twin (.json)")
    artifact = get_artifact(args.artifact).name if args.artifact else infer_artifact(args.file)
    document = load_document(args.file)
    problems = validate_document(document, artifact)
    if args.json:
        print(
            json.dumps(
                {
                    "file": args.file,
                    "artifact": artifact,
                    "valid": not problems,
                    "errors": [{"path": p.path, "message": p.message} for p in problems],
                },
                indent=2,
                sort_keys=True,
            )
        )
    elif problems:
        for p in problems:
            print(f"{args.file}: {p.path}: {p.message} [{artifact}]")
    else:
        print(f"{args.file}: valid {artifact}")
    return EXIT_FINDINGS if problems else EXIT_OK


def run_check_producers(args: argparse.Namespace) -> int:
    """Scan ``--root``/quarkci; returns 1 on any violation (see :mod:`quarkci.contracts.producers`)."""
    from quarkci.contracts.producers import audit
    from quarkci.core.errors import BadInputError

    root = Path(args.root)
    if not (root / "quarkci").is_dir():
        raise BadInputError(f"--root {args.root}: no quarkci/ package directory there")
    report = audit(root)
    if args.json:
        print(
            json.dumps(
                {
                    "violations": [v.__dict__ for v in report.violations],
                    "writes": [w.__dict__ for w in report.writes],
                    "verified": list(report.verified),
                    "produced": list(report.produced),
                    "external": list(report.external),
                },
                indent=2,
                sort_keys=True,
            )
        )
        return EXIT_FINDINGS if report.violations else EXIT_OK
    for v in report.violations:
        print(v.one_line())
    calls = sum(w.style == "write_artifact" or w.style.startswith("writer:") for w in report.writes)
    print(
        f"verified {len(report.verified)} of {len(report.produced)} quarkci-produced artifacts "
        f"({', '.join(report.verified) or 'none'}): written through write_artifact by their producer "
        f"({calls} call(s)); {len(report.external)} external artifacts written nowhere in quarkci: "
        f"{'no' if any(v.problem == 'external' for v in report.violations) else 'yes'}; "
        f"{len(report.violations)} violation(s)"
    )
    return EXIT_FINDINGS if report.violations else EXIT_OK


def _loc(x: Any) -> dict[str, Any] | None:
    return None if x is None else {"file": x.file, "line": x.line}


def finding_json(f: Finding) -> dict[str, Any]:
    """Wire form of a contract finding (same keys as the validation report's findings)."""
    loc = _loc
    return {
        "fingerprint": f.fingerprint,
        "kind": f.kind,
        "rule": f.rule,
        "category": f.category,
        "skill": f.skill,
        "subject": f.subject,
        "skill_says": f.skill_says,
        "source_says": f.source_says,
        "impact": f.impact,
        "skill_location": loc(f.skill_location),
        "source_location": loc(f.source_location),
        "fix": None,
        "accepted": f.extra.get("accepted"),
    }


def run_diff(args: argparse.Namespace) -> int:
    """Print the contract diff against ``--upstream``; exit 1 at or above ``--fail-on``."""
    from quarkci.contracts.diff import diff_contracts
    from quarkci.sync.policy import classify
    from quarkci.upstream.resolve import resolve

    snapshot = resolve(args.upstream)
    findings = [classify(f) for f in diff_contracts(snapshot, include_deviations=args.all)]
    if args.json:
        print(
            json.dumps(
                {
                    "upstream": snapshot.label,
                    "version": snapshot.version,
                    "findings": [finding_json(f) for f in findings],
                },
                indent=2,
                sort_keys=True,
            )
        )
    else:
        print(f"contracts vs {snapshot.label}: {len(findings)} finding(s)")
        for f in findings:
            if f.extra.get("accepted"):
                print(
                    f"  {'accepted':<12} {f.skill}: {f.subject}: ours {f.skill_says}; upstream {f.source_says}; "
                    f"reason: {f.extra['accepted']} [{f.rule}]"
                )
            else:
                print(
                    f"  {f.kind:<12} {f.skill}: {f.subject}: ours {f.skill_says}; upstream {f.source_says} [{f.rule}]"
                )
    floor = SEVERITY["none"] if args.fail_on == "none" else SEVERITY[args.fail_on]
    gating = [f for f in findings if not f.extra.get("accepted")]
    return EXIT_FINDINGS if any(SEVERITY.get(f.kind, 0) >= floor for f in gating) else EXIT_OK
