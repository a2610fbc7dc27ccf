"""Benchmark: static facts (``quarkci facts``) vs the runtime path, measured side by side in one run.

1. One release, warm cache: ``quarkci facts --upstream amd-quark==0.13 --json`` as a fresh process vs a
   process that imports ``quark.torch`` and calls ``LLMTemplate.list_available()`` and
   ``LLMTemplate.get_supported_schemes()`` (needs the ML extra). The template and scheme names of both
   are compared for equality.
2. The whole history (0.10, 0.11, 0.11.1, 0.11.2, 0.12.post1, 0.13): one ``quarkci facts`` process per
   release, timed end to end.
3. All 12 releases with ``quark/`` (0.6.0 ... 0.13, the release vocabulary's): their facts in one process
   (``quarkci.facts.vocabulary.record``), cold (an empty facts cache, wheels already downloaded) and warm.

Targets (printed as PASS/FAIL, never asserted in tests): one release <= 1 s warm, >= 20x faster than the
runtime path with identical names; whole history <= 10 s warm; all 12 releases <= 30 s cold and <= 2 s warm.

Run: ``.venv/bin/python benchmarks/bench_facts.py [--repeat N] [--runtime-repeat M]``.
Wheels come from the quarkci cache (``$QUARKCI_CACHE_DIR`` or ``~/.cache/quarkci/wheels``); they are
downloaded once, untimed, before measuring.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

from quarkci.facts.vocabulary import RELEASES
from quarkci.upstream.fetch import fetch_wheel

HISTORY = ("0.10", "0.11", "0.11.1", "0.11.2", "0.12.post1", "0.13")
TARGET = "0.13"
RUNTIME_SCRIPT = """
import json
import os
from quark.torch import LLMTemplate
print("QUARKCI-RESULT " + json.dumps({"model_templates": sorted(LLMTemplate.list_available()),
                                      "schemes": sorted(LLMTemplate.get_supported_schemes())}))
"""


def _timed(cmd: list[str], cwd: str | None = None) -> tuple[float, str]:
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, check=False)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(
            f"bench: {' '.join(cmd[:4])}... failed ({proc.returncode}): {proc.stderr.strip()[-400:]}"
        )
    return elapsed, proc.stdout


def static_once(version: str) -> tuple[float, dict]:
    """Seconds for one ``quarkci facts --json`` process, and its payload."""
    elapsed, out = _timed(
        [sys.executable, "-m", "quarkci", "facts", "--upstream", f"amd-quark=={version}", "--json"]
    )
    return elapsed, json.loads(out)


def runtime_once() -> tuple[float, dict]:
    """Seconds for one import-quark process, and the names it reports."""
    with tempfile.TemporaryDirectory() as cwd:  # away from any source tree that could shadow quark
        elapsed, out = _timed([sys.executable, "-c", RUNTIME_SCRIPT], cwd=cwd)
    line = next(ln for ln in out.splitlines() if ln.startswith("QUARKCI-RESULT "))
    return elapsed, json.loads(line.removeprefix("QUARKCI-RESULT "))


def _static_names(payload: dict, kind: str) -> list[str]:
    items = payload[kind]["items"]
    if kind == "model_templates":
        items = [i for i in items if i.get("registry") == "DEFAULT_TEMPLATES"]
    return sorted({i["name"] for i in items})


def _verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def vocabulary_once(cache: str) -> float:
    """Seconds of one process computing the facts of all 12 releases with ``QUARKCI_CACHE_DIR=cache``."""
    code = "from quarkci.facts.vocabulary import record; record()"
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, env={**os.environ, "QUARKCI_CACHE_DIR": cache})
    return time.perf_counter() - start


def all_releases(repeat: int) -> tuple[float, float]:
    """(cold, warm median) seconds for the facts of the 12 releases; cold starts from an empty facts cache
    in a temporary cache directory holding links to the downloaded wheels."""
    with tempfile.TemporaryDirectory() as tmp:
        for version in RELEASES:
            wheel = fetch_wheel(version)
            os.symlink(wheel, os.path.join(tmp, wheel.name))
        cold = vocabulary_once(tmp)
        warm = statistics.median(vocabulary_once(tmp) for _ in range(repeat))
    return cold, warm


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="static runs per measurement (median taken)")
    parser.add_argument("--runtime-repeat", type=int, default=2, help="runtime-path runs (median taken)")
    args = parser.parse_args(argv)

    for version in HISTORY:  # warm the cache, untimed
        fetch_wheel(version)
    static_once(TARGET)  # warm the OS file cache and .pyc files, untimed

    static_times, payload = [], {}
    runtime_times, runtime = [], {}
    for i in range(max(args.repeat, args.runtime_repeat)):  # interleaved: same machine load for both
        if i < args.repeat:
            elapsed, payload = static_once(TARGET)
            static_times.append(elapsed)
        if i < args.runtime_repeat:
            elapsed, runtime = runtime_once()
            runtime_times.append(elapsed)
    static_s, runtime_s = statistics.median(static_times), statistics.median(runtime_times)

    history_runs = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        for version in HISTORY:
            static_once(version)
        history_runs.append(time.perf_counter() - start)
    history_s = statistics.median(history_runs)
    cold_all, warm_all = all_releases(args.repeat)

    same = {kind: _static_names(payload, kind) == runtime[kind] for kind in ("model_templates", "schemes")}
    ratio = runtime_s / static_s
    print(
        f"python {sys.version.split()[0]}; static runs={args.repeat}, runtime runs={args.runtime_repeat}; "
        "medians of fresh processes"
    )
    print(f"{'measurement':<46} {'seconds':>8}")
    print(f"{'quarkci facts amd-quark==' + TARGET + ' (warm cache)':<46} {static_s:>8.3f}")
    print(f"{'runtime: import quark.torch + LLMTemplate':<46} {runtime_s:>8.3f}")
    print(f"{'whole history (' + str(len(HISTORY)) + ' releases, one process each)':<46} {history_s:>8.3f}")
    print(f"{'all 12 releases, one process, cold facts cache':<46} {cold_all:>8.3f}")
    print(f"{'all 12 releases, one process, warm':<46} {warm_all:>8.3f}")
    print(f"speed-up static vs runtime: {ratio:.1f}x")
    for kind in ("model_templates", "schemes"):
        print(
            f"{kind}: static {len(_static_names(payload, kind))} vs runtime {len(runtime[kind])} names -> "
            f"{'identical' if same[kind] else 'DIFFERENT'}"
        )
        if not same[kind]:
            static_set, runtime_set = set(_static_names(payload, kind)), set(runtime[kind])
            print(
                f"  only static: {sorted(static_set - runtime_set)}; only runtime: {sorted(runtime_set - static_set)}"
            )
    checks = [
        ("one release <= 1 s warm", static_s <= 1.0),
        (">= 20x faster than runtime", ratio >= 20),
        ("identical names", all(same.values())),
        ("whole history <= 10 s warm", history_s <= 10.0),
        ("12 releases <= 30 s cold", cold_all <= 30.0),
        ("12 releases <= 2 s warm", warm_all <= 2.0),
    ]
    for label, ok in checks:
        print(f"target {label:<32} {_verdict(ok)}")
    return 0 if all(ok for _, ok in checks) else 1


if __name__ == "__main__":
    raise SystemExit(main())
