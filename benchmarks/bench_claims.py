"""Claim extraction time and stored context per input byte, for the shapes of issue 24, side by side.

Each shape is a generated SKILL.md of ``--kib`` KiB (default 2048: the SKILL.md cap): an import list
(``from quark.a import (X0, X1, ...)``), a table of inline-code cells, version phrases, flags on one command
line, plain prose. For each, the seconds ``extract_claims`` takes with the shipped release vocabulary, the
claim count and the stored context bytes per input byte (the structural bound the tests assert). Run at two
sizes (``--kib`` and a quarter of it) the ratio of times shows whether extraction is linear (ratio ~4).

With ``--sync WHEEL`` it also runs the whole ``quarkci sync --upstream WHEEL --baseline none`` (a child
process: CPU seconds and peak RSS from ``getrusage``) on the two shapes whose claims each meet every
upstream flag: a table of rows ``| `a1` | `--b1` | `quark.c1` |`` (99,084 claims at 2 MiB) and one
``quark-cli run --f0 --f1 ...`` command line (233,000 flags). Figures on the 2-core shared machine
(load 8), 2 MiB, amd-quark 0.13 wheel, CPU s / peak RSS:

    shape            before issue-24 fix             after (flag index, markers once per line, one parse,
                                                     schema refs inlined)
    table            64.8 s / 939 MB                 30.0 s / 960 MB
    one-line flags   >90 s (killed at 300 s wall)    49.3 s / 1.92 GB

The audit itself (extraction and every rule) is now about 15 % of the one-line-flags run and a third of the
table run (cProfile at 256 KiB); what is left is linear and mostly the report writer: jsonschema validation
of every finding, then the JSON, SARIF and Markdown texts, for 99,084 and 220,800 findings (a 135 MB JSON
and a 202 MB SARIF report for the one-line flags).

Usage: ``python benchmarks/bench_claims.py [--kib N] [--sync path/to/amd_quark-0.13-py3-none-any.whl]``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from quarkci.facts import vocabulary
from quarkci.skills.claims import extract_claims
from quarkci.skills.model import Skill

HEAD = "---\nname: probe\ndescription: probe\n---\n\n"


def _fill(unit: Callable[[int], str], size: int, sep: str = "") -> str:
    parts, total, n = [], 0, 0
    while total < size:
        piece = unit(n) + sep
        parts.append(piece)
        total += len(piece)
        n += 1
    return "".join(parts)


SHAPES: dict[str, Callable[[int], str]] = {
    "import list": lambda size: (
        "```python\nfrom quark.a import (\n" + _fill(lambda n: f"    X{n},\n", size) + ")\n```\n"
    ),
    "table of code cells": lambda size: (
        "| a | b | c |\n| --- | --- | --- |\n"
        + _fill(lambda n: f"| `w_int4_per_group_sym` | `--seq_len` | `fp8_{n}` |\n", size)
    ),
    "version phrases": lambda size: _fill(
        lambda n: f"Quark needs onnx 1.{n % 30}–1.{n % 30 + 2} and Python 3.{n % 4 + 10} or newer. ", size
    ),
    "flags on one line": lambda size: (
        "```bash\nquark-cli torch-llm-ptq " + _fill(lambda n: f"--flag_{n} {n} ", size) + "\n```\n"
    ),
    "plain prose": lambda size: _fill(
        lambda n: "The quantizer reads the model, calibrates it and writes the output folder. ", size
    ),
}


SYNC_SHAPES: dict[str, Callable[[int], str]] = {
    "table (sync)": lambda size: (
        "| a | b | c |\n|---|---|---|\n" + _fill(lambda n: f"| `a{n}` | `--b{n}` | `quark.c{n}` |\n", size)
    ),
    "one-line flags (sync)": lambda size: (
        "```bash\nquark-cli run " + _fill(lambda n: f"--f{n} ", size) + "\n```\n"
    ),
}


def measure_sync(kib: int, wheel: str) -> dict[str, dict[str, float]]:
    """``{shape: {cpu_seconds, peak_rss_mb, code, exit}}`` of a whole ``quarkci sync`` per shape, each in
    its own child process."""
    out = {}
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(root)}
    for name, make in SYNC_SHAPES.items():
        with tempfile.TemporaryDirectory() as tmp:
            skill = Path(tmp, "skills", "big")
            skill.mkdir(parents=True)
            (skill / "SKILL.md").write_text(
                "---\nname: big\ndescription: a big skill\n---\n\n# Big\n\n" + make(kib * 1024),
                encoding="utf-8",
            )
            command = [sys.executable, "-c", _CHILD, wheel, str(skill.parent), str(Path(tmp, "out"))]
            done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
            usage = json.loads(done.stdout.strip().splitlines()[-1])
        out[name] = {**usage, "exit": done.returncode}
    return out


# The child runs the sync in-process and reports its own CPU time and peak RSS (Linux: ru_maxrss in KiB).
_CHILD = """
import contextlib, json, os, resource, sys
from quarkci.cli import main
try:
    with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
        code = main(["sync", "--upstream", sys.argv[1], "--skills", sys.argv[2], "--baseline", "none",
                 "--out", sys.argv[3], "--fail-on", "none"])
except SystemExit as exc:
    code = exc.code
use = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"cpu_seconds": use.ru_utime + use.ru_stime, "peak_rss_mb": use.ru_maxrss / 1024,
                  "code": code}))
"""


def measure(kib: int) -> dict[str, dict[str, float]]:
    """``{shape: {seconds, claims, context_per_byte}}`` at ``kib`` KiB per input."""
    lexicon = vocabulary.shipped()
    out = {}
    for name, make in SHAPES.items():
        body = make(kib * 1024)
        text = HEAD + body
        skill = Skill("probe", "probe/SKILL.md", {"name": "probe", "description": "probe"}, body, 6)
        start = time.perf_counter()
        claims = extract_claims(skill, lambda _p, t=text: t, lexicon)
        seconds = time.perf_counter() - start
        stored = sum(len(json.dumps(c.context)) for c in claims)
        out[name] = {"seconds": seconds, "claims": len(claims), "context_per_byte": stored / len(text)}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--kib", type=int, default=2048, help="input size in KiB (default 2048)")
    parser.add_argument(
        "--sync", metavar="WHEEL", help="also time the whole sync against this amd-quark wheel"
    )
    args = parser.parse_args()
    small, large = measure(max(args.kib // 4, 1)), measure(args.kib)
    print(f"{'shape':<22} {'KiB':>6} {'s':>8} {'KiB/4 s':>8} {'ratio':>6} {'claims':>7} {'ctx B/B':>8}")
    for name in SHAPES:
        s, big = small[name], large[name]
        ratio = big["seconds"] / max(s["seconds"], 1e-9)
        print(
            f"{name:<22} {args.kib:>6} {big['seconds']:>8.2f} {s['seconds']:>8.2f} {ratio:>6.1f} "
            f"{int(big['claims']):>7} {big['context_per_byte']:>8.2f}"
        )
    if args.sync:
        print(f"{'sync shape':<22} {'KiB':>6} {'CPU s':>8} {'RSS MB':>8} {'exit':>5}")
        for name, row in measure_sync(args.kib, args.sync).items():
            print(
                f"{name:<22} {args.kib:>6} {row['cpu_seconds']:>8.1f} {row['peak_rss_mb']:>8.0f} "
                f"{row['code']!s:>5}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
