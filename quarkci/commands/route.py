"""``quarkci route "<goal>"``: route a goal to the smallest Quark skill and write session_context.json.

``quarkci route GOAL|- [--env-context F] [--workspace-context F] [--session-context F]
[--skills DIR|bundled:SPEC] [--output FILE] [--json]``. ``-`` reads the goal from standard input (UTF-8, at
most :data:`MAX_STDIN_BYTES` bytes: a pasted log fits). Prints the routing reason (or, with ``--json``, the
document) and writes ``--output`` (default ``session_context.json``) atomically. No route yet is
``workflow: "undecided"`` with the interpretations in ``open_questions``. Exit 0; 2 for bad input (a goal
that is empty, white space or invisible characters only, or over-long; an unreadable or invalid context
file; an unknown skills spec; ``--output`` naming the ``--env-context`` or ``--workspace-context`` file): one
line, no file. ``--output`` may name the ``--session-context`` file: the session is read whole, carried
forward and replaced atomically.
"""

from __future__ import annotations

import argparse
import json

from quarkci.commands import arguments as _args
from quarkci.core.paths import check_apart

MAX_STDIN_BYTES = 64 * 1024


def add_parser(subparsers: _args.Subparsers) -> None:
    """Register ``route`` on the top-level subparsers."""
    parser = subparsers.add_parser(
        "route",
        help="route a goal to a Quark skill; write session_context.json",
        description=__doc__.splitlines()[0],
    )
    parser.add_argument(
        "goal", metavar="GOAL", help="what you want to do, in your own words ('-' reads standard input)"
    )
    parser.add_argument(
        "--env-context",
        metavar="FILE",
        type=_args.input_file,
        help="env_context.json from environment preflight (default: none)",
    )
    parser.add_argument(
        "--workspace-context",
        metavar="FILE",
        type=_args.input_file,
        help="workspace_context.json from workspace validation (default: none)",
    )
    parser.add_argument(
        "--session-context",
        metavar="FILE",
        type=_args.input_file,
        help="an existing session_context.json to carry forward (default: none)",
    )
    parser.add_argument(
        "--skills",
        metavar="DIR|bundled:SPEC",
        type=_args.skills_spec,
        help="skills catalog (default: embedded 0.13 names)",
    )
    parser.add_argument(
        "--output",
        dest="out",
        default="session_context.json",
        metavar="FILE",
        type=_args.output_file,
        help="where to write the session context JSON",
    )
    parser.deprecate("--out", "--output")
    parser.add_argument("--json", action="store_true", help="print the session context JSON on stdout")
    parser.set_defaults(func=run)


def read_goal(source: str) -> str:
    """The goal: ``source`` itself, or for ``-`` standard input read up to :data:`MAX_STDIN_BYTES` bytes.

    Raises :class:`BadInputError` naming ``GOAL -`` when standard input holds more, or is not UTF-8.
    """
    if source != "-":
        return source
    import io
    import sys

    from quarkci.core.documents import read_capped
    from quarkci.core.errors import BadInputError

    if hasattr(sys.stdin, "buffer"):
        data = read_capped(sys.stdin.buffer, MAX_STDIN_BYTES, "GOAL -")
    else:  # a text stream (tests): bounded all the same
        data = read_capped(
            io.BytesIO(sys.stdin.read(MAX_STDIN_BYTES + 1).encode("utf-8")), MAX_STDIN_BYTES, "GOAL -"
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInputError(f"GOAL -: standard input is not UTF-8 text (byte {exc.start})") from None


def run(args: argparse.Namespace) -> int:
    """Route, write ``--out``, print the reason. Returns 0."""
    from quarkci.router import route, write
    from quarkci.router.catalog import load_catalog
    from quarkci.router.session import check_contexts, clean_goal

    # bad input before slow work: the goal, then the context files (another skill's artifact is never
    # replaced; the session context itself may be carried forward in place)
    goal = clean_goal(read_goal(args.goal))
    skills_dir = args.skills if args.skills and not str(args.skills).startswith("bundled:") else None
    check_apart(
        [(args.out, "--output")],
        [(args.env_context, "--env-context"), (args.workspace_context, "--workspace-context"),
         (skills_dir, "--skills")],
    )  # fmt: skip
    check_contexts(args.env_context, args.workspace_context, args.session_context)
    catalog, label = load_catalog(args.skills)
    result = route(
        goal,
        catalog,
        label,
        env_context=args.env_context,
        workspace_context=args.workspace_context,
        session_context=args.session_context,
    )
    path = write(result, args.out)
    if args.json:
        print(json.dumps(result.document, indent=2, sort_keys=True, ensure_ascii=False))
    else:
        print(result.reason)
        for question in result.document["open_questions"]:
            print(f"  open question: {question}")
        print(f"wrote {path}")
    return 0
