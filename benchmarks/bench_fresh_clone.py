"""Benchmark a newcomer's first hour: README's two set-up commands and its PTQ walkthrough, on a fresh clone.

The commands are read from README.md itself (the first command of each of the first two ``bash``
blocks under "## Set-up", the first ``bash`` block under "## PTQ workflow"), so the benchmark measures what the README says, and run in a fresh ``git clone``
of this repository's HEAD in a temporary directory (it creates its own ``.venv``: minutes, network for
the package registries). Prints the wall time of each command and of each walkthrough step, with the
targets of issue 14 beside them (intake + plan + manifest <= 3 s; whole walkthrough <= 90 s).
Not part of the test suite, which installs nothing. Nothing is asserted.

    python benchmarks/bench_fresh_clone.py [--pytest-args "-q -x tests/test_cli.py"] [--skip-suite] [--keep]

``--pytest-args`` is passed to ``scripts/test.sh`` (default: none, the whole suite, as README says).
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TARGETS = {"intake+plan+manifest": 3.0, "walkthrough": 90.0}


def readme_blocks(readme: str, heading: str) -> list[list[str]]:
    """The command lines of each ```bash block of README's ``## heading`` section (comments dropped)."""
    section = readme.split(f"\n## {heading}", 1)[1].split("\n## ", 1)[0]
    blocks = [
        [line for line in block.splitlines() if line.strip() and not line.lstrip().startswith("#")]
        for block in re.findall(r"```bash\n(.*?)```", section, re.S)
    ]
    if not blocks:
        raise SystemExit(f"README: no bash block under '## {heading}'")
    return blocks


def timed(command: str, cwd: Path, env: dict[str, str], log: Path) -> tuple[int, float]:
    """Run ``command`` with bash in ``cwd``, its output appended to ``log``; (exit code, seconds)."""
    start = time.perf_counter()
    with log.open("a", encoding="utf-8") as out:
        out.write(f"\n$ {command}\n")
        out.flush()
        code = subprocess.run(
            ["bash", "-c", command], cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT
        ).returncode
    return code, time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--pytest-args", default="", help="arguments for scripts/test.sh (default: the whole suite)"
    )
    parser.add_argument(
        "--skip-suite", action="store_true", help="do not run scripts/test.sh's pytest at all"
    )
    parser.add_argument(
        "--keep", action="store_true", help="keep the clone (its path is printed; the log is kept)"
    )
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="quarkci-fresh-clone-"))
    clone = work / "quarkci"
    log = work / "bench.log"
    subprocess.run(["git", "clone", "--quiet", "--no-hardlinks", str(REPO), str(clone)], check=True)
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    env.pop("VIRTUAL_ENV", None)
    env.pop("PYTHONPATH", None)
    readme = (clone / "README.md").read_text(encoding="utf-8")
    setup = [block[0] for block in readme_blocks(readme, "Set-up")[:2]]  # the two set-up commands
    rows: list[tuple[str, int, float]] = []

    code, seconds = timed(setup[0], clone, env, log)
    rows.append((setup[0], code, seconds))
    suite = setup[1]
    if args.skip_suite:
        suite += " --co -q"  # installs everything, lints, collects; runs no test
    elif args.pytest_args:
        suite += " " + args.pytest_args
    code, seconds = timed(suite, clone, env, log)
    rows.append((suite, code, seconds))

    walk_env = {**env, "PATH": f"{clone / '.venv' / 'bin'}{os.pathsep}{env.get('PATH', '')}"}
    steps: list[tuple[str, int, float]] = []
    for line in readme_blocks(readme, "PTQ workflow")[0]:
        code, seconds = timed(line, clone, walk_env, log)
        steps.append((line, code, seconds))

    print(f"fresh clone of {REPO} at {clone} (log: {log})\n")
    print(f"{'README set-up command':<90} {'exit':>4} {'seconds':>8}")
    for command, code, seconds in rows:
        print(f"{command[:90]:<90} {code:>4} {seconds:8.1f}")
    print(f"\n{'PTQ walkthrough step':<90} {'exit':>4} {'seconds':>8}")
    for command, code, seconds in steps:
        print(f"{command.split('#')[0].strip()[:90]:<90} {code:>4} {seconds:8.1f}")

    def step(name: str) -> float:
        return sum(s for c, _, s in steps if shlex.split(c.split("#")[0])[1:3] == ["ptq", name])

    static = step("intake") + step("plan") + step("manifest")
    total = sum(s for _, _, s in steps)
    print(f"\nintake + plan + manifest: {static:.1f} s (target <= {TARGETS['intake+plan+manifest']:.0f} s)")
    print(f"whole walkthrough:        {total:.1f} s (target <= {TARGETS['walkthrough']:.0f} s)")
    print(f"set-up + suite:           {sum(s for _, _, s in rows):.1f} s")
    if not args.keep:
        shutil.rmtree(clone, ignore_errors=True)  # the log stays
    return 0


if __name__ == "__main__":
    sys.exit(main())
