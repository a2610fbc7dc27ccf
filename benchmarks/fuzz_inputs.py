"""Fuzz campaign (issue 24): seeded bad SKILL.md trees, wheels, reports, pyproject.toml, contexts and flags
through the commands that read untrusted input and import no torch, one child process per input.

Each child runs ``python -m quarkci ...`` under RLIMIT_AS (default 4 GiB) and a wall-clock timeout
(default 30 s) and reports its own peak RSS. Counted per input: a traceback or ``internal error`` on
stderr, an exit code outside {0, 1, 2, 3}, a hang (timeout), peak RSS over 1 GiB, and a file created or
changed outside the command's output location (``--out``/``--output``/``$GITHUB_OUTPUT``, all kept
under ``OUT/`` of the input's directory; ``sync --fix`` may also edit the skills it audits). Nothing reaches the network: upstreams are local wheels,
baselines ``none``, ``gh`` runs ``--dry-run`` without a token.

    python benchmarks/fuzz_inputs.py --seed 24 --count 10000 --jobs 2 --fork --summary fuzz_summary.json

``--fork`` forks each child from a worker that imported quarkci's CLI and command modules once (no torch),
instead of a new interpreter per input: the same code on the same inputs (the same exit codes, tested),
about five times the inputs per second.

The same seed and count give the same inputs (they are generated in order in one thread; ``--jobs`` only
runs that many children at once). The summary JSON holds the totals, the seed, per-family
counts and every failing input (family, argv, exit code, the last stderr line); the exit status is 1 when
anything failed.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import io
import json
import multiprocessing
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable, Iterator
from concurrent.futures import (
    FIRST_COMPLETED,
    Executor,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
    wait,
)
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
RSS_LIMIT_KB = 1024 * 1024  # peak RSS over 1 GiB counts as a failure
LAUNCHER = (
    "import os, resource, runpy, sys\n"
    "resource.setrlimit(resource.RLIMIT_AS, (int(os.environ['FUZZ_AS']),) * 2)\n"
    "sys.argv = ['quarkci', *sys.argv[1:]]\n"
    "try:\n"
    "    runpy.run_module('quarkci', run_name='__main__')\n"
    "finally:\n"
    "    with open('/proc/self/status') as st:\n"
    "        hwm = [line.split()[1] for line in st if line.startswith('VmHWM:')]\n"
    "    with open(os.environ['FUZZ_RSS'], 'w') as fh:\n"
    "        fh.write(hwm[0])\n"
)
# The peak is the child's own address space's high-water mark (VmHWM, KiB), not getrusage's ru_maxrss:
# Linux carries ru_maxrss across fork and execve, so a child of a 1 GiB pytest worker reported 1 GiB.
METADATA = "Metadata-Version: 2.1\nName: amd-quark\nVersion: 0.99\nRequires-Python: >=3.10,<3.14\n\n"
SKILL = "---\nname: {name}\ndescription: a fuzz skill\n---\n\n{body}\n"
BODIES = [
    "Use `--quant_scheme fp8`.",
    "```bash\nquark-cli torch-llm-ptq --model_dir m --quant_scheme fp8 --num_calib_data 128\n```",
    "Requires Python `>=3.9,<3.13` and `transformers<5.16`.",
    "```python\nfrom quark.torch import ModelQuantizer\n```",
    "| Model type | Notes |\n|---|---|\n| `llama` | x |",
    "## Outputs: validation_report.json\n\n```json\n{}\n```",
]


def _garbage(rng: random.Random, size: int) -> str:
    """Text with the characters that break parsers: controls, surrogates' neighbours, markup, quotes."""
    alphabet = "ab{}[]:,'\"\\\n\t `#|-*&!%@<>\x00\x07\x1b\u2028\ufeff\U0001f600é"
    return "".join(rng.choice(alphabet) for _ in range(size))


def _value(rng: random.Random, depth: int = 0) -> Any:
    choice = rng.randrange(10 if depth < 3 else 6)
    if choice == 0:
        return None
    if choice == 1:
        return rng.choice([True, False])
    if choice == 2:
        return rng.choice([0, -1, 2**63, 10 ** rng.randrange(1, 30), 1.5, float("nan"), float("inf")])
    if choice == 3:
        return _garbage(rng, rng.randrange(0, 40))
    if choice == 4:
        return rng.choice([".", "..", "/etc/passwd", "a/../../b", "x" * 300, "skills/demo/SKILL.md", ""])
    if choice == 5:
        return "7" * rng.choice([10, 4301, 6000])  # a string of digits (spliced in raw as a number below)
    if choice in (6, 7):
        return [_value(rng, depth + 1) for _ in range(rng.randrange(0, 4))]
    return {str(_value(rng, depth + 1))[:20]: _value(rng, depth + 1) for _ in range(rng.randrange(0, 4))}


def _report(rng: random.Random) -> str:
    """A validation_report.json with random fields replaced, and sometimes raw huge numbers."""
    document: dict[str, Any] = {
        "status": "failed",
        "summary": "s",
        "evidence": [],
        "next_actions": [],
        "upstream": {"spec": "amd-quark==0.99", "version": "0.99", "kind": "wheel", "label": "x"},
        "skills_root": "skills",
        "counts": {"breaking": 1, "semantic": 0, "mechanical": 0, "unverifiable": 0},
        "findings": [
            {
                "fingerprint": "0123456789abcdef",
                "kind": "breaking",
                "rule": "cli-flag-removed",
                "category": "cli_flags",
                "skill": "demo",
                "subject": "--old",
                "skill_says": "x",
                "source_says": "y",
                "impact": "z",
                "skill_location": {"file": "demo/SKILL.md", "line": 3},
                "source_location": None,
                "fix": None,
            }
        ],
        "changed_files": ["skills/demo/SKILL.md"],
    }
    for _ in range(rng.randrange(1, 4)):
        target: Any = document
        keys = ["counts", "findings", "changed_files", "upstream", "skills_root", "status", "summary"]
        key = rng.choice(keys)
        findings = document["findings"]
        nested = isinstance(findings, list) and findings and isinstance(findings[0], dict) and findings[0]
        if key == "findings" and rng.random() < 0.6 and nested:
            target = findings[0]
            key = rng.choice(list(target))
        target[key] = _value(rng)
    text = json.dumps(document, default=str)
    if rng.random() < 0.2:
        text = text.replace('"line": 3', f'"line": {"9" * rng.choice([10, 4301, 50000])}')
    if rng.random() < 0.1:
        text = text[: rng.randrange(len(text))]
    return text


def _wheel(rng: random.Random, path: Path, members: dict[str, str | bytes]) -> Path:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", rng.choice([zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED])) as zf:
        zf.writestr("quark/__init__.py", "")
        for name, data in members.items():
            zf.writestr(name, data)
        if rng.random() < 0.9:
            zf.writestr("amd_quark-0.99.dist-info/METADATA", rng.choice([METADATA, _garbage(rng, 200)]))
    data = bytearray(buffer.getvalue())
    mutation = rng.randrange(6)
    if mutation == 0 and len(data) > 100:  # flip bytes anywhere: bad CRC, bad headers, bad directory
        for _ in range(rng.randrange(1, 8)):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    elif mutation == 1:
        data = data[: rng.randrange(1, len(data))]
    path.write_bytes(bytes(data))
    return path


def _skills(rng: random.Random, root: Path) -> Path:
    for n in range(rng.randrange(1, 4)):
        folder = root / f"s{n}"
        folder.mkdir(parents=True, exist_ok=True)
        kind = rng.randrange(8)
        if kind == 0:
            (folder / "SKILL.md").write_bytes(rng.randbytes(rng.randrange(1, 300)))
        elif kind == 1:
            (folder / "SKILL.md").symlink_to("SKILL.md")
        elif kind == 2:
            (folder / "SKILL.md").write_text("---\n" + _garbage(rng, 200) + "\n---\nx\n", encoding="utf-8")
        elif kind == 3:
            (folder / "SKILL.md").write_text("---\nname: [" + "[" * 5000 + "\n---\n", encoding="utf-8")
        else:
            body = "\n\n".join(rng.choice(BODIES) for _ in range(rng.randrange(1, 4)))
            if rng.random() < 0.3:
                body += "\n" + _garbage(rng, 300)
            (folder / "SKILL.md").write_text(SKILL.format(name=f"s{n}", body=body), encoding="utf-8")
        if rng.random() < 0.2:
            (folder / "ref.md").symlink_to(rng.choice(["ref.md", "/nonexistent", "../s0/SKILL.md"]))
    return root


def _odd(rng: random.Random, output: bool) -> str:
    """An odd path value; for an output flag only ones that cannot be valid (a valid one may be written)."""
    bad = ["x" * 300, "a/" + "b" * 256, "é" * 130, "/proc/self/fd/0", "/proc/quarkci/x", "\u2028" * 90]
    return rng.choice(bad if output else [*bad, "", " ", "-", "//", ".", "..", "~", "bundled:", "none"])


Case = tuple[str, list[str]]  # (family, argv); argv may hold {d}


def case_skills(rng: random.Random, d: Path) -> Case:
    _skills(rng, d / "skills")
    argv = rng.choice([["skills", "list"], ["skills", "claims"], ["skills", "export", "--out", "{d}/OUT/x"]])
    return "skills", [*argv, "--skills", "{d}/skills"]


def case_sync(rng: random.Random, d: Path) -> Case:
    _skills(rng, d / "skills")
    _wheel(rng, d / "amd_quark-0.99-py3-none-any.whl", {})
    if rng.random() < 0.3:
        (d / ".git").mkdir()
        table = rng.choice(
            [f"level = {'9' * 5000}", "x = " + "[" * 3000 + "]" * 3000, _garbage(rng, 100), "sync = 5"]
        )
        (d / "pyproject.toml").write_text(f"[tool.quarkci]\n{table}\n", encoding="utf-8")
    argv = ["sync", "--upstream", "{d}/amd_quark-0.99-py3-none-any.whl", "--skills", "{d}/skills"]
    argv += ["--baseline", "none", "--out", "{d}/OUT"]
    if rng.random() < 0.3:
        (d / "base.json").write_text(_report(rng), encoding="utf-8")
        argv[argv.index("none")] = "{d}/base.json"
    if rng.random() < 0.3:
        argv.append("--fix")
    return "sync", argv


def case_wheel(rng: random.Random, d: Path) -> Case:
    members: dict[str, str | bytes] = {}
    for n in range(rng.randrange(0, 4)):
        members[f"quark/m{n}.py"] = rng.choice(
            ["x = 1\n", _garbage(rng, 300), "(" * 300 + ")" * 300, "def f(:\n", "y=1\n" * 200_000]
        )
    if rng.random() < 0.5:
        body = rng.choice(BODIES).replace("{}", _report(rng))
        members["quark/_bundled_skills/demo/SKILL.md"] = SKILL.format(name="demo", body=body)
    if rng.random() < 0.2:
        members["quark/_bundled_skills/zz/../../../escape.md"] = "x"
    _wheel(rng, d / "amd_quark-0.99-py3-none-any.whl", members)
    wheel = "{d}/amd_quark-0.99-py3-none-any.whl"
    argv = rng.choice(
        [
            ["facts", "--upstream", wheel],
            ["skills", "export", "--skills", f"bundled:{wheel}", "--out", "{d}/OUT/x"],
            ["sync", "--upstream", wheel, "--baseline", "none", "--out", "{d}/OUT"],
            ["contracts", "diff", "--upstream", wheel],
        ]
    )
    return "wheel", argv


def case_report(rng: random.Random, d: Path) -> Case:
    (d / "rd").mkdir()
    (d / "rd" / "validation_report.json").write_text(_report(rng), encoding="utf-8")
    _skills(rng, d / "skills")
    argv = rng.choice(
        [
            [
                "report",
                "github",
                "--report-dir",
                "{d}/rd",
                "--workspace",
                "{d}",
                "--stage-changed",
                "{d}/OUT/st",
            ],
            [
                "report",
                "markdown",
                "--report-json",
                "{d}/rd/validation_report.json",
                "--output",
                "{d}/OUT/r.md",
            ],
            ["gh", "issues", "--report", "{d}/rd/validation_report.json", "--dry-run", "--repo", "o/r"],
            ["gh", "pr", "--report", "{d}/rd/validation_report.json", "--dry-run", "--repo", "o/r"],
            ["contracts", "validate", "{d}/rd/validation_report.json"],
        ]
    )
    return "report", argv


def case_context(rng: random.Random, d: Path) -> Case:
    document = _value(rng)
    text = json.dumps(document, default=str) if rng.random() < 0.7 else _garbage(rng, 200)
    (d / "env_context.json").write_text(text, encoding="utf-8")
    argv = ["route", _garbage(rng, rng.randrange(0, 60)) or "fp8", "--env-context", "{d}/env_context.json"]
    return "context", [*argv, "--output", "{d}/OUT/session_context.json"]


ARTIFACTS: dict[str, dict[str, Any]] = {
    # miniature real-shaped documents each command reads: a Hugging Face config.json, an lm-eval 0.4
    # results JSON, a quant_plan.json; the fuzzer replaces fields, splices huge numbers and truncates
    "config": {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "num_hidden_layers": 2,
               "hidden_size": 64, "torch_dtype": "bfloat16", "quantization_config": None},
    "results": {"results": {"arc_easy": {"acc,none": 0.5, "acc_stderr,none": 0.01, "alias": "arc_easy"}},
                "n-samples": {"arc_easy": {"original": 100, "effective": 100}},
                "configs": {"arc_easy": {"num_fewshot": 0, "metadata": {"version": 1.0}}},
                "config": {"model": "hf", "limit": None}, "versions": {"arc_easy": 1.0}},
    "plan": {"model": {"path": "m", "model_type": "llama"}, "scheme": "fp8", "algorithms": [],
             "exclude": ["lm_head"], "calibration": {"dataset": "pileval", "num_calib_data": 128}},
}  # fmt: skip


def _artifact(rng: random.Random, kind: str) -> str:
    document = json.loads(json.dumps(ARTIFACTS[kind]))
    for _ in range(rng.randrange(0, 4)):
        target = document
        key = rng.choice(list(target))
        if isinstance(target[key], dict) and target[key] and rng.random() < 0.5:
            target = target[key]
            key = rng.choice(list(target))
        target[key] = _value(rng)
    text = json.dumps(document, default=str)
    if rng.random() < 0.15:
        text = text.replace("0.5", "9" * rng.choice([10, 4301, 50000]), 1)
    if rng.random() < 0.1:
        text = text[: rng.randrange(len(text) or 1)]
    return text


def case_artifact(rng: random.Random, d: Path) -> Case:
    (d / "m").mkdir()
    (d / "m" / "config.json").write_text(_artifact(rng, "config"), encoding="utf-8")
    (d / "base.json").write_text(_artifact(rng, "results"), encoding="utf-8")
    (d / "cand.json").write_text(_artifact(rng, "results"), encoding="utf-8")
    (d / "plan.json").write_text(_artifact(rng, "plan"), encoding="utf-8")
    argv = rng.choice(
        [
            ["ptq", "intake", "--model", "{d}/m", "--output", "{d}/OUT/a.json"],
            ["ptq", "plan", "--analysis", "{d}/m/config.json", "--scheme", rng.choice(["fp8", "int4_wo_128", "x"]),
             "--output", "{d}/OUT/p.json"],
            ["ptq", "manifest", "--plan", "{d}/plan.json", "--out", "{d}/OUT/m"],
            ["day0", "gate-run", "--results", "{d}/cand.json"],
            ["day0", "gate-compare", "--baseline", "{d}/base.json", "--candidate", "{d}/cand.json"],
            ["day0", "gate-verbosity", "--baseline", "{d}/base.json", "--candidate", "{d}/cand.json"],
        ]
    )  # fmt: skip
    return "artifact", argv


FLAG_BASES: list[tuple[list[str], list[str], list[str]]] = [
    # (a complete offline command line, its input path flags, its output path flags)
    (["sync", "--upstream", "{d}/w.whl", "--skills", "{d}/skills", "--baseline", "none", "--out", "{d}/OUT"],
     ["--upstream", "--skills", "--baseline"], ["--out"]),
    (["facts", "--upstream", "{d}/w.whl"], ["--upstream"], []),
    (["skills", "claims", "--skills", "{d}/skills"], ["--skills"], []),
    (["skills", "export", "--skills", "{d}/skills", "--out", "{d}/OUT/x"], ["--skills"], ["--out"]),
    (["report", "markdown", "--report-json", "{d}/r.json", "--output", "{d}/OUT/r.md"], ["--report-json"],
     ["--output"]),
    (["route", "fp8", "--env-context", "{d}/r.json", "--output", "{d}/OUT/s.json"], ["--env-context"],
     ["--output"]),
    (["ptq", "gate", "--summary", "{d}/r.json", "--markdown", "{d}/OUT/g.md"], ["--summary"], ["--markdown"]),
    (["day0", "gate-compare", "--baseline", "{d}/r.json", "--candidate", "{d}/r.json"],
     ["--baseline", "--candidate"], []),
    (["contracts", "validate", "{d}/r.json"], [], []),
]  # fmt: skip


def case_flags(rng: random.Random, d: Path) -> Case:
    _skills(rng, d / "skills")
    _wheel(rng, d / "w.whl", {})
    (d / "r.json").write_text(_report(rng), encoding="utf-8")
    base, inputs, outputs = rng.choice(FLAG_BASES)
    flags = [(f, False) for f in inputs] + [(f, True) for f in outputs]
    if not flags:
        return "flags", [*base[:-1], "{d}/" + _odd(rng, False)]
    flag, output = rng.choice(flags)
    value = _odd(rng, output)
    if rng.random() < 0.7 and not value.startswith("/"):  # ("{d}//proc/x" would be a valid new directory)
        value = "{d}/" + value
    return "flags", [*base, flag, value]  # the last occurrence of a flag wins


FAMILIES: list[Callable[[random.Random, Path], Case]] = [
    case_skills,
    case_sync,
    case_wheel,
    case_report,
    case_context,
    case_flags,
    case_artifact,
]


def _tree(root: Path, skip: Path) -> dict[str, str]:
    """Every file under ``root`` (links not followed) but ``skip``: path -> size and sha256 prefix."""
    found: dict[str, str] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        here = Path(dirpath)
        dirnames[:] = [n for n in dirnames if here / n != skip]
        for name in filenames:
            path = here / name
            try:
                digest = (
                    hashlib.sha256(path.read_bytes()).hexdigest()[:16] if not path.is_symlink() else "link"
                )
            except OSError:
                digest = "unreadable"
            found[str(path.relative_to(root))] = digest
    return found


def _child_env(d: Path, home: Path, out: Path) -> dict[str, str]:
    """The child's environment: this one without GITHUB_*/QUARKCI_* variables, HOME/TMPDIR/cache under
    ``home``, no token, and the Actions output files under ``out``."""
    return {
        **{k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "QUARKCI_"))},
        "PYTHONPATH": str(REPO),
        "HOME": str(home),
        "TMPDIR": str(home),
        "QUARKCI_CACHE_DIR": str(home / "cache"),
        "GITHUB_TOKEN": "",
        "GH_TOKEN": "",
        "GITHUB_OUTPUT": str(out / "gh_output"),
        "GITHUB_STEP_SUMMARY": str(out / "gh_summary"),
    }


def run_one(
    argv: list[str], d: Path, timeout: float, address_space: int, launcher: str = LAUNCHER
) -> dict[str, Any]:
    """Run one input in a child (``launcher``: the Python code that runs quarkci); return its exit code
    (None for a hang), stderr, seconds, peak RSS (KiB) and the files written outside ``d/OUT``."""
    out = d / "OUT"
    home = d.parent / "home"
    rss = d.parent / f"{d.name}.rss"  # one per input: runs may overlap (--jobs)
    rss.unlink(missing_ok=True)
    env = {**_child_env(d, home, out), "FUZZ_AS": str(address_space), "FUZZ_RSS": str(rss)}
    out.mkdir()
    before = _tree(d, out)
    start = time.perf_counter()
    args = [a.replace("{d}", str(d)).replace("\0", "") for a in argv]  # argv cannot hold a NUL
    try:
        done = subprocess.run(
            [sys.executable, "-c", launcher, *args], cwd=d, env=env, capture_output=True, timeout=timeout
        )
        code: int | None = done.returncode
        stderr = done.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        code, stderr = None, ""
    seconds = time.perf_counter() - start
    after = _tree(d, out)
    writes = sorted(p for p, h in after.items() if before.get(p) != h)
    peak = int(rss.read_text()) if rss.is_file() else 0
    rss.unlink(missing_ok=True)
    return {"code": code, "stderr": stderr, "seconds": seconds, "rss_kb": peak, "writes": writes}


PRELOADED = False


def preload() -> None:
    """Import quarkci's CLI and every command module once, in this process, before any fork (``--fork``):
    each child then starts from these modules instead of a fresh interpreter (about 0.25 s an input).
    Nothing is run; importing them imports no torch (asserted)."""
    global PRELOADED
    if PRELOADED:
        return
    sys.path.insert(0, str(REPO))
    import importlib

    import quarkci.cli as cli

    for module in cli.COMMANDS.values():
        importlib.import_module(module)
    assert "torch" not in sys.modules, "a command module imports torch at import time"
    PRELOADED = True


def _child(argv: list[str], d: Path, env: dict[str, str], address_space: int, err: Path, rss: Path) -> None:
    """In a forked child: run ``quarkci argv`` in ``d`` as ``python -m quarkci`` would, then ``_exit``."""
    code: int = 1
    try:
        os.chdir(d)
        os.environ.clear()
        os.environ.update(env)
        tempfile.tempdir = None  # gettempdir() reads TMPDIR again (the parent's answer is cached)
        null = os.open(os.devnull, os.O_RDWR)
        os.dup2(null, 0)
        os.dup2(null, 1)
        os.dup2(os.open(err, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), 2)
        resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))
        import quarkci.cli as cli

        sys.argv = ["quarkci", *argv]
        try:
            code = cli.main(argv)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        except BaseException:  # what the interpreter does with an uncaught exception: traceback, exit 1
            import traceback

            traceback.print_exc()
            code = 1
    finally:
        try:
            sys.stderr.flush()
            with open("/proc/self/status") as st:
                hwm = [line.split()[1] for line in st if line.startswith("VmHWM:")]
            rss.write_text(hwm[0])
        finally:
            os._exit(code & 0xFF)


def run_forked(argv: list[str], d: Path, timeout: float, address_space: int) -> dict[str, Any]:
    """:func:`run_one`'s record for ``argv``, run in a child forked from this process after
    :func:`preload` (the same quarkci code and environment, without a new interpreter per input).
    Call it from a single-threaded process (``--jobs`` runs one such process per job)."""
    preload()
    out = d / "OUT"
    home = d.parent / "home"
    rss, err = d.parent / f"{d.name}.rss", d.parent / f"{d.name}.err"
    env = _child_env(d, home, out)
    out.mkdir()
    before = _tree(d, out)
    args = [a.replace("{d}", str(d)).replace("\0", "") for a in argv]
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        _child(args, d, env, address_space, err, rss)
    code: int | None = None
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            code = os.waitstatus_to_exitcode(status)
            break
        if time.perf_counter() - start > timeout:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            break
        time.sleep(0.005)
    seconds = time.perf_counter() - start
    stderr = err.read_text(encoding="utf-8", errors="replace") if err.is_file() else ""
    peak = int(rss.read_text() or 0) if rss.is_file() else 0
    rss.unlink(missing_ok=True)
    err.unlink(missing_ok=True)
    after = _tree(d, out)
    writes = sorted(p for p, h in after.items() if before.get(p) != h)
    return {"code": code, "stderr": stderr, "seconds": seconds, "rss_kb": peak, "writes": writes}


def problems_of(record: dict[str, Any], argv: list[str]) -> list[str]:
    """What is wrong with one child's ``record`` (from :func:`run_one`), each ``"<total key>: detail"``;
    ``[]`` when it ended as documented."""
    problems = []
    if record["code"] is None:
        problems.append("hangs: over the timeout")
    elif record["code"] == 4:
        problems.append("exit_4: internal error")
    elif record["code"] not in (0, 1, 2, 3):
        problems.append(f"exit_other: exit {record['code']}")
    if "Traceback" in record["stderr"] or "internal error" in record["stderr"]:
        problems.append("tracebacks: on stderr")
    if record["rss_kb"] > RSS_LIMIT_KB:
        problems.append(f"rss_over_1gib: {record['rss_kb']} KiB")
    writes = record["writes"]
    if "--fix" in argv:  # --fix edits the skills in place: those writes are asked for
        writes = [w for w in writes if not w.startswith("skills/")]
    if writes:
        problems.append(f"writes_outside_out: {writes[:5]}")
    return problems


def _run_case(
    case: tuple[int, str, list[str], Path], timeout: float, address_space: int, fork: bool
) -> tuple[int, str, list[str], dict[str, Any]]:
    index, family, case_argv, d = case
    if fork:
        record = run_forked(case_argv, d, timeout, address_space)
    else:
        record = run_one(case_argv, d, timeout, address_space)
    shutil.rmtree(d, ignore_errors=True)
    return index, family, case_argv, record


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=24, help="generator seed (default 24)")
    parser.add_argument("--count", type=int, default=300, help="inputs to run (default 300)")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per child (default 30)")
    parser.add_argument("--address-space", type=int, default=4 << 30, help="RLIMIT_AS bytes (default 4 GiB)")
    parser.add_argument("--jobs", type=int, default=1, help="children run at once (default 1)")
    parser.add_argument(
        "--fork",
        action="store_true",
        help="fork each child from a process that has imported quarkci once (run_forked) instead of "
        "starting a new interpreter per input: the same code, about 5 times the inputs per second",
    )
    parser.add_argument("--summary", type=Path, help="write the summary JSON here")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    work = Path(tempfile.mkdtemp(prefix="quarkci-fuzz-"))
    (work / "home").mkdir()
    failures: list[dict[str, Any]] = []
    totals = {"inputs": 0, "tracebacks": 0, "exit_4": 0, "exit_other": 0, "hangs": 0, "rss_over_1gib": 0}
    totals["writes_outside_out"] = 0
    families: dict[str, dict[str, int]] = {}
    codes: dict[str, int] = {}
    peak_kb, slowest = 0, 0.0

    def generated() -> Iterator[tuple[int, str, list[str], Path]]:
        for index in range(args.count):
            d = work / f"i{index}"
            d.mkdir()
            family, case_argv = rng.choice(FAMILIES)(random.Random(rng.random()), d)
            yield index, family, case_argv, d

    run = functools.partial(_run_case, timeout=args.timeout, address_space=args.address_space, fork=args.fork)

    try:
        results: list[tuple[int, str, list[str], dict[str, Any]]] = []
        jobs = max(1, args.jobs)
        pool: Executor = (
            ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("fork"), initializer=preload)
            if args.fork
            else ThreadPoolExecutor(max_workers=jobs)
        )
        with pool:
            pending: set[Future[tuple[int, str, list[str], dict[str, Any]]]] = set()
            for case in generated():  # at most 2 * jobs inputs on disk at once
                if len(pending) >= 2 * jobs:
                    done, pending = wait(pending, return_when=FIRST_COMPLETED)
                    results.extend(f.result() for f in done)
                pending.add(pool.submit(run, case))
            results.extend(f.result() for f in pending)
        results.sort(key=lambda r: r[0])
        for index, family, case_argv, record in results:
            totals["inputs"] += 1
            problems = problems_of(record, case_argv)
            for problem in problems:
                totals[problem.split(":")[0]] += 1
            stats = families.setdefault(family, {"inputs": 0, "failed": 0})
            stats["inputs"] += 1
            codes[str(record["code"])] = codes.get(str(record["code"]), 0) + 1
            peak_kb, slowest = max(peak_kb, record["rss_kb"]), max(slowest, record["seconds"])
            if problems:
                stats["failed"] += 1
                lines = record["stderr"].strip().splitlines()
                failures.append(
                    {
                        "index": index,
                        "family": family,
                        "argv": case_argv,
                        "code": record["code"],
                        "problems": problems,
                        "stderr_last": lines[-1][:300] if lines else "",
                    }  # fmt: skip
                )
    finally:
        shutil.rmtree(work, ignore_errors=True)
    summary = {
        "seed": args.seed,
        "count": args.count,
        "jobs": args.jobs,
        "fork": args.fork,
        "timeout_s": args.timeout,
        "address_space_bytes": args.address_space,
        "totals": totals,
        "exit_codes": dict(sorted(codes.items())),
        "families": families,
        "peak_rss_kib": peak_kb,
        "slowest_s": round(slowest, 2),
        "failures": failures,
    }
    text = json.dumps(summary, indent=2, sort_keys=True) + "\n"
    if args.summary:
        args.summary.write_text(text, encoding="utf-8")
    print(json.dumps({k: summary[k] for k in ("totals", "exit_codes", "peak_rss_kib", "slowest_s")}))
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
