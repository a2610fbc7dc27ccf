"""``python -m tests.fakegithub``: run the fake GitHub server as a process (CLI in the package docstring)."""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
from pathlib import Path

from tests.fakegithub.server import FakeGitHub, Fault
from tests.fakegithub.state import RepoState, seeded


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fakegithub", description="fake GitHub REST server")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--state", type=Path, required=True)
    parser.add_argument("--print-url", action="store_true")
    parser.add_argument("--token", default="fake-token")
    parser.add_argument("--repo", default="octo/skills")
    parser.add_argument("--faults", type=Path)
    args = parser.parse_args(argv)
    if args.state.exists():
        state = RepoState.from_json(json.loads(args.state.read_text(encoding="utf-8")))
    else:
        owner, _, name = args.repo.partition("/")
        state = seeded(token=args.token, owner=owner, name=name)
    fake = FakeGitHub(state, port=args.port, state_file=args.state)
    if args.faults:
        fake.faults = [Fault(**f) for f in json.loads(args.faults.read_text(encoding="utf-8"))]
    fake.persist()
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    with fake:
        if args.print_url:
            print(fake.url, flush=True)
        stop.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
