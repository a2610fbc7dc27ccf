"""``quarkci facts``: print the static facts of one upstream release.

``quarkci facts --upstream SPEC [--json] [--kind K ...]``. ``--json`` prints :meth:`FactSet.to_json`
(keys ``version``, ``source``, ``coverage`` and one ``{"items", "unavailable"}`` object per kind);
otherwise a short table. Output is deterministic: the same snapshot gives byte-identical output.
Exit 0; 2 for a bad spec (missing file, non-wheel, unknown release); 3 when PyPI is unreachable.
"""

from __future__ import annotations

import argparse
import json

from quarkci.commands import arguments as _args
from quarkci.facts import EXTRACTORS, extract_all
from quarkci.facts.base import FACT_KINDS, FactSet
from quarkci.facts.cache import facts_of
from quarkci.upstream.resolve import SPEC_HELP, resolve

_NAMES_SHOWN = 8


def add_parser(subparsers: _args.Subparsers) -> None:
    """Register ``facts`` on the top-level subparsers."""
    parser = subparsers.add_parser(
        "facts",
        help="print the static facts of an upstream Quark release",
        description=__doc__.splitlines()[0],
    )
    parser.add_argument(
        "--upstream",
        default="amd-quark",
        metavar="SPEC",
        type=_args.upstream_spec,
        help=f"the Quark release: {SPEC_HELP} (default: the newest amd-quark on PyPI)",
    )
    parser.add_argument(
        "--kind",
        action="append",
        choices=list(EXTRACTORS),
        metavar="KIND",
        help=f"only these fact kinds (repeatable): {', '.join(FACT_KINDS)} (default: every kind)",
    )
    parser.add_argument("--json", action="store_true", help="print the FactSet JSON on stdout")
    parser.set_defaults(func=run)


def to_json_text(facts: FactSet, kinds: list[str] | None = None) -> str:
    """The ``--json`` text: ``FactSet.to_json`` limited to ``kinds`` (all when None), 2-space indent."""
    payload = facts.to_json()
    if kinds:
        payload = {k: v for k, v in payload.items() if k not in FACT_KINDS or k in kinds}
    return json.dumps(payload, indent=2, ensure_ascii=True) + "\n"


def to_table(facts: FactSet, kinds: list[str]) -> str:
    """A short human summary: per kind, the item count, the distinct-name count, the first names (the
    ``(+N more)`` suffix counts the distinct names not shown) and what is unavailable; then a ``total``
    row whose counts are the sums of the rows above it.

    ``items`` counts fact items, ``names`` distinct names: they differ where one name is stated in
    several places (the same CLI flag in two scripts, a dependency in two requirement lists).
    """
    lines = [
        f"{facts.label}: version {facts.version}; covers {', '.join(sorted(facts.coverage)) or 'nothing'}",
        f"{'kind':<16} {'items':>5} {'names':>5}  first names",
    ]
    total_items = total_names = 0
    for kind in kinds:
        names = sorted(facts.names(kind))
        items = len(facts.kinds.get(kind, []))
        total_items += items
        total_names += len(names)
        shown = ", ".join(names[:_NAMES_SHOWN]) + (
            f", ... (+{len(names) - _NAMES_SHOWN} more)" if len(names) > _NAMES_SHOWN else ""
        )
        lines.append(f"{kind:<16} {items:>5} {len(names):>5}  {shown}".rstrip())
        for path in facts.unavailable.get(kind, []):
            lines.append(f"{'':<16} {'':>5} {'':>5}  unverifiable here: {path} (not in this snapshot)")
    lines.append(f"{'total':<16} {total_items:>5} {total_names:>5}")
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    """Resolve ``--upstream``, extract the facts and print them. Returns 0."""
    kinds = [k for k in FACT_KINDS if k in (args.kind or FACT_KINDS)]
    snapshot = resolve(args.upstream)
    facts = facts_of(snapshot) if kinds == list(FACT_KINDS) else extract_all(snapshot, kinds)
    print(to_json_text(facts, args.kind) if args.json else to_table(facts, kinds), end="")
    return 0
