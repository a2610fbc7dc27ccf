"""Claim extraction time and stored context per input byte, for the shapes of issue 24, side by side.

Each shape is a generated SKILL.md of ``--kib`` KiB (default 2048: the SKILL.md cap): an import list
(``from quark.a import (X0, X1, ...)``), a table of inline-code cells, version phrases, flags on one command
line, plain prose. For each, the seconds ``extract_claims`` takes with the shipped release vocabulary, the
claim count and the stored context bytes per input byte (the structural bound the tests assert). Run at two
sizes (``--kib`` and a quarter of it) the ratio of times shows whether extraction is linear (ratio ~4).

Usage: ``python benchmarks/bench_claims.py [--kib N]``.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable

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
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
