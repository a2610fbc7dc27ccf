"""Bad inputs over every command, and a driver that runs them with slow work made impossible.

Each case is (id, argv, name): ``argv`` may use ``{d}`` (a fresh directory holding the files of
:func:`make_inputs`); ``name`` is the flag (or positional) the one stderr line must name.

``python tests/bad_input_cases.py OUT.json`` runs every case in THIS process through
:func:`quarkci.cli.main` with the network and the slow imports blocked structurally:

* sockets: ``pytest_socket.disable_socket()`` plus ``socket.getaddrinfo`` (DNS) refused and recorded;
* imports: a ``sys.meta_path`` finder refuses and records any import of quark, torch, transformers,
  safetensors, accelerate or lm_eval (the driver starts in a fresh interpreter, so nothing is cached);
* writes: every file under the case directory, ``$HOME`` and ``$TMPDIR`` is listed before and after.

It writes one JSON record per case (exit code, stderr, new files, blocked imports and connections,
seconds). tests/test_bad_inputs.py asserts on them; benchmarks/bench_bad_inputs.py prints the times.
"""

from __future__ import annotations

import contextlib
import importlib.abc
import io
import json
import logging
import os
import sys
import time
from pathlib import Path
from typing import Any

SLOW_MODULES = frozenset(
    {"quark", "torch", "transformers", "safetensors", "accelerate", "lm_eval", "datasets"}
)

CASES: list[tuple[str, list[str], str]] = [
    # sync
    ("sync-out-proc", ["sync", "--skills", "{d}/skills", "--out", "/proc/quarkci-x"], "--out"),
    ("sync-out-is-a-file", ["sync", "--skills", "{d}/skills", "--out", "{d}/file.txt"], "--out"),
    ("sync-skills-bundled-foo", ["sync", "--skills", "bundled:foo"], "--skills"),
    ("sync-baseline-garbage", ["sync", "--skills", "{d}/skills", "--baseline", "garbage"], "--baseline"),
    ("sync-baseline-range", ["sync", "--skills", "{d}/skills", "--baseline", "amd-quark>=1"], "--baseline"),
    (
        "sync-baseline-missing-json",
        ["sync", "--skills", "{d}/skills", "--baseline", "{d}/none.json"],
        "--baseline",
    ),
    ("sync-skills-missing", ["sync", "--skills", "{d}/none"], "--skills"),
    ("sync-skills-is-a-file", ["sync", "--skills", "{d}/file.txt"], "--skills"),
    ("sync-skills-empty-dir", ["sync", "--skills", "{d}/emptydir", "--out", "{d}/r"], "--skills"),
    ("sync-skills-none-readable", ["sync", "--skills", "{d}/binskills", "--out", "{d}/r"], "--skills"),
    ("sync-skills-bundled-empty", ["sync", "--skills", "bundled:"], "--skills"),
    ("sync-upstream-other-project", ["sync", "--upstream", "foo==1"], "--upstream"),
    ("sync-upstream-range", ["sync", "--upstream", "amd-quark>=0.1"], "--upstream"),
    ("sync-upstream-missing-wheel", ["sync", "--upstream", "{d}/none.whl"], "--upstream"),
    ("sync-upstream-not-a-wheel", ["sync", "--upstream", "{d}/file.txt"], "--upstream"),
    ("sync-upstream-not-a-checkout", ["sync", "--upstream", "{d}/emptydir"], "--upstream"),
    ("sync-upstream-empty", ["sync", "--upstream", ""], "--upstream"),
    ("sync-fix-bundled", ["sync", "--fix", "--out", "{d}/r"], "--fix"),
    ("sync-fail-on-unknown", ["sync", "--fail-on", "bogus"], "--fail-on"),
    ("sync-unknown-flag", ["sync", "--bogus-flag"], "--bogus-flag"),
    # history
    ("history-from-garbage", ["history", "--from", "garbage", "--out", "{d}/r"], "--from"),
    ("history-from-after-to", ["history", "--from", "0.13", "--to", "0.11", "--out", "{d}/r"], "--from"),
    ("history-out-proc", ["history", "--out", "/proc/quarkci-x"], "--out"),
    ("history-skills-missing", ["history", "--skills", "{d}/none"], "--skills"),
    (
        "history-out-inside-skills",
        ["history", "--skills", "{d}/skills", "--out", "{d}/skills/reports"],
        "--out",
    ),
    ("history-skills-empty-dir", ["history", "--skills", "{d}/emptydir", "--out", "{d}/r"], "--skills"),
    # verify
    ("verify-init-repo-missing", ["verify", "init", "--repo", "{d}/none", "--skills", "{d}/s"], "--repo"),
    (
        "verify-init-skills-proc",
        ["verify", "init", "--repo", "{d}/emptydir", "--skills", "/proc/quarkci-x"],
        "--skills",
    ),
    (
        "verify-init-lib-bad",
        ["verify", "init", "--repo", "{d}/emptydir", "--lib", "a/b", "--skills", "{d}/s"],
        "--lib",
    ),
    (
        "verify-prove-skill-missing",
        ["verify", "prove", "--skill", "{d}/none", "--feature", "x", "--out", "{d}/e"],
        "--skill",
    ),
    (
        "verify-prove-timeout-zero",
        ["verify", "prove", "--skill", "{d}/skills", "--feature", "x", "--timeout", "0", "--out", "{d}/e"],
        "--timeout",
    ),
    (
        "verify-maintain-out-proc",
        ["verify", "maintain", "--skill", "{d}/skills", "--out", "/proc/quarkci-x"],
        "--out",
    ),
    # day0
    (
        "day0-run-model-missing",
        ["day0", "run", "--model", "{d}/none", "--scheme", "int8", "--out", "{d}/o"],
        "--model",
    ),
    (
        "day0-run-out-proc",
        ["day0", "run", "--model", "{d}/emptydir", "--scheme", "int8", "--out", "/proc/quarkci-x"],
        "--out",
    ),
    (
        "day0-run-tasks-bogus",
        ["day0", "run", "--model", "{d}/emptydir", "--scheme", "int8", "--tasks", "bogus", "--out", "{d}/o"],
        "--tasks",
    ),
    (
        "day0-run-out-inside-model",
        ["day0", "run", "--model", "{d}/model", "--scheme", "int8", "--out", "{d}/model/out"],
        "--out",
    ),
    (
        "day0-run-threshold-text",
        ["day0", "run", "--model", "{d}/emptydir", "--scheme", "int8", "--threshold", "abc"],
        "--threshold",
    ),
    (
        "day0-gate-compare-missing",
        ["day0", "gate-compare", "--baseline", "{d}/none.json", "--candidate", "{d}/none.json"],
        "--baseline",
    ),
    (
        "day0-canary-out-proc",
        ["day0", "canary", "--checkpoint", "{d}/emptydir", "--out", "/proc/quarkci-x"],
        "--out",
    ),
    ("skills-claims-empty-dir", ["skills", "claims", "--skills", "{d}/emptydir"], "--skills"),
    # facts, upstream, contracts
    ("facts-upstream-other-project", ["facts", "--upstream", "foo"], "--upstream"),
    ("facts-kind-unknown", ["facts", "--kind", "flavours"], "--kind"),
    ("upstream-action-unknown", ["upstream", "bogus"], "ACTION"),
    ("upstream-wheel-sha256-bad-version", ["upstream", "wheel-sha256", "--version", "0.13;id"], "--version"),
    ("step-output-no-equals", ["step-output", "noequals"], "NAME=VALUE"),
    ("preflight-pull-request", ["preflight", "--event", "pull_request", "--runner", "cpu"], "--event"),
    ("preflight-runner-unknown", ["preflight", "--event", "push", "--runner", "gpu"], "--runner"),
    (
        "preflight-new-release-without-hash",
        [
            "preflight",
            "--event",
            "push",
            "--runner",
            "cpu",
            "--quark-version",
            "0.99",
            "--lock",
            "{d}/file.txt",
        ],
        "--quark-sha256",
    ),
    ("contracts-diff-upstream-bad", ["contracts", "diff", "--upstream", "foo==1"], "--upstream"),
    ("contracts-diff-upstream-missing", ["contracts", "diff"], "--upstream"),
    (
        "contracts-diff-fail-on-unknown",
        ["contracts", "diff", "--upstream", "installed", "--fail-on", "x"],
        "--fail-on",
    ),
    ("contracts-validate-missing-file", ["contracts", "validate", "{d}/none.json"], "FILE"),
    (
        "contracts-validate-artifact-unknown",
        ["contracts", "validate", "{d}/ok.json", "--artifact", "x"],
        "--artifact",
    ),
    ("contracts-check-producers-root", ["contracts", "check-producers", "--root", "{d}/none"], "--root"),
    # skills
    ("skills-list-missing-dir", ["skills", "list", "--skills", "{d}/none"], "--skills"),
    ("skills-claims-bundled-foo", ["skills", "claims", "--skills", "bundled:foo"], "--skills"),
    ("skills-claims-kind-unknown", ["skills", "claims", "--skills", "{d}/skills", "--kind", "x"], "--kind"),
    (
        "skills-export-out-is-the-skills-dir",
        ["skills", "export", "--skills", "{d}/skills", "--out", "{d}/skills"],
        "--out",
    ),
    (
        "skills-export-out-inside-skills",
        ["skills", "export", "--skills", "{d}/skills", "--out", "{d}/skills/copy"],
        "--out",
    ),
    (
        "skills-export-out-above-skills",
        ["skills", "export", "--skills", "{d}/skills/good", "--out", "{d}/skills"],
        "--out",
    ),
    ("skills-claims-none-readable", ["skills", "claims", "--skills", "{d}/binskills"], "--skills"),
    # route, report
    ("route-goal-empty", ["route", "", "--output", "{d}/s.json"], "goal"),
    ("route-env-context-missing", ["route", "fp8 please", "--env-context", "{d}/none.json"], "--env-context"),
    ("route-skills-missing", ["route", "fp8 please", "--skills", "{d}/none"], "--skills"),
    ("route-output-is-a-dir", ["route", "fp8 please", "--output", "{d}/emptydir"], "--output"),
    ("route-output-proc", ["route", "fp8 please", "--output", "/proc/quarkci-s.json"], "--output"),
    (
        "report-markdown-json-missing",
        ["report", "markdown", "--report-json", "{d}/none.json", "--output", "{d}/r.md"],
        "--report-json",
    ),
    (
        "report-markdown-output-proc",
        ["report", "markdown", "--report-json", "{d}/ok.json", "--output", "/proc/quarkci-r.md"],
        "--output",
    ),
    ("report-github-report-dir-missing", ["report", "github", "--report-dir", "{d}/none"], "--report-dir"),
    (
        "report-github-report-dir-is-a-file",
        ["report", "github", "--report-dir", "{d}/file.txt"],
        "--report-dir",
    ),
    (
        "report-github-workspace-missing",
        ["report", "github", "--report-dir", "{d}", "--workspace", "{d}/none"],
        "--workspace",
    ),
    # demo-model, ptq
    ("demo-model-out-proc", ["demo-model", "--out", "/proc/quarkci-demo"], "--out"),
    ("demo-model-max-steps-zero", ["demo-model", "--out", "{d}/demo", "--max-steps", "0"], "--max-steps"),
    ("demo-model-seed-not-int", ["demo-model", "--out", "{d}/demo", "--seed", "abc"], "--seed"),
    (
        "ptq-intake-output-proc",
        ["ptq", "intake", "--model", "{d}/emptydir", "--output", "/proc/quarkci-a.json"],
        "--output",
    ),
    (
        "ptq-plan-analysis-missing",
        ["ptq", "plan", "--analysis", "{d}/none.json", "--scheme", "fp8"],
        "--analysis",
    ),
    (
        "ptq-plan-num-calib-zero",
        ["ptq", "plan", "--analysis", "{d}/ok.json", "--scheme", "fp8", "--num-calib-data", "0"],
        "--num-calib-data",
    ),
    (
        "ptq-plan-output-proc",
        ["ptq", "plan", "--analysis", "{d}/ok.json", "--scheme", "fp8", "--output", "/proc/quarkci-p.json"],
        "--output",
    ),
    ("ptq-plan-scheme-missing", ["ptq", "plan", "--analysis", "{d}/ok.json"], "--scheme"),
    (
        "ptq-manifest-plan-missing",
        ["ptq", "manifest", "--plan", "{d}/none.json", "--out", "{d}/run"],
        "--plan",
    ),
    (
        "ptq-manifest-out-proc",
        ["ptq", "manifest", "--plan", "{d}/ok.json", "--out", "/proc/quarkci-run"],
        "--out",
    ),
    (
        "ptq-manifest-out-is-a-file",
        ["ptq", "manifest", "--plan", "{d}/ok.json", "--out", "{d}/file.txt"],
        "--out",
    ),
    ("ptq-run-manifest-missing", ["ptq", "run", "--manifest", "{d}/none.yaml", "--yes"], "--manifest"),
    (
        "ptq-validate-output-hard-break",
        ["ptq", "validate", "--source", "{d}/emptydir", "--output", "{d}/emptydir"],
        "--checkpoint",
    ),
    (
        "ptq-validate-source-missing",
        ["ptq", "validate", "--source", "{d}/none", "--checkpoint", "{d}/emptydir"],
        "--source",
    ),
    (
        "ptq-plan-calib-dataset-missing",
        ["ptq", "plan", "--analysis", "{d}/ok.json", "--scheme", "fp8", "--calib-dataset", "{d}/none.txt"],
        "--calib-dataset",
    ),
    (
        "ptq-plan-calib-dataset-is-a-dir",
        ["ptq", "plan", "--analysis", "{d}/ok.json", "--scheme", "fp8", "--calib-dataset", "{d}/emptydir"],
        "--calib-dataset",
    ),
    ("ptq-intake-model-missing", ["ptq", "intake", "--model", "{d}/none"], "--model"),
    (
        "ptq-validate-checkpoint-missing",
        ["ptq", "validate", "--source", "{d}/emptydir", "--checkpoint", "{d}/none"],
        "--checkpoint",
    ),
    (
        "ptq-validate-checkpoint-is-a-file",
        ["ptq", "validate", "--source", "{d}/emptydir", "--checkpoint", "{d}/file.txt"],
        "--checkpoint",
    ),
    (
        "ptq-validate-run-result-missing",
        [
            "ptq",
            "validate",
            "--source",
            "{d}/emptydir",
            "--checkpoint",
            "{d}/emptydir",
            "--run-result",
            "{d}/none.json",
        ],
        "--run-result",
    ),
    ("ptq-run-manifest-is-a-dir", ["ptq", "run", "--manifest", "{d}/emptydir", "--yes"], "--manifest"),
    ("ptq-gate-summary-file-missing", ["ptq", "gate", "--summary", "{d}/none.json"], "--summary"),
    ("ptq-gate-summary-missing", ["ptq", "gate"], "--summary"),
    (
        "ptq-gate-markdown-proc",
        ["ptq", "gate", "--summary", "{d}/ok.json", "--markdown", "/proc/quarkci-g.md"],
        "--markdown",
    ),
    (
        "ptq-gate-ratio-not-a-number",
        ["ptq", "gate", "--summary", "{d}/ok.json", "--max-size-ratio", "abc"],
        "--max-size-ratio",
    ),
    # gh (the arguments are refused before the token is even looked at)
    ("gh-comment-pr-zero", ["gh", "comment", "--pr", "0", "--body-file", "{d}/file.txt"], "--pr"),
    ("gh-comment-body-missing", ["gh", "comment", "--pr", "1", "--body-file", "{d}/none.md"], "--body-file"),
    ("gh-comment-body-too-big", ["gh", "comment", "--pr", "1", "--body-file", "{d}/big.md"], "--body-file"),
    (
        "gh-comment-body-is-a-dir",
        ["gh", "comment", "--pr", "1", "--body-file", "{d}/emptydir"],
        "--body-file",
    ),
    (
        "gh-issues-max-new-negative",
        ["gh", "issues", "--max-new", "-1", "--report", "{d}/ok.json"],
        "--max-new",
    ),
    ("gh-pr-report-missing", ["gh", "pr", "--report", "{d}/none.json"], "--report"),
    (
        "gh-dispatch-repo-not-owner-name",
        ["gh", "dispatch", "--workflow", "w.yml", "--ref", "main", "--repo", "x"],
        "--repo",
    ),
    # completion, top level
    ("completion-shell-unknown", ["completion", "fish"], "SHELL"),
    ("top-level-unknown-flag", ["--bogus", "facts"], "--bogus"),
]


def make_inputs(d: Path) -> None:
    """The files a case may point at: a text file, an empty dir, one good and one unreadable skill set."""
    (d / "file.txt").write_text("x\n")
    (d / "ok.json").write_text("{}\n")
    (d / "emptydir").mkdir()
    with open(d / "big.md", "wb") as fh:  # one byte over gh comment's 1 MiB body cap, sparse
        fh.truncate(1024 * 1024 + 1)
    (d / "model").mkdir()
    (d / "model" / "config.json").write_text("{}\n")
    (d / "skills" / "good").mkdir(parents=True)
    (d / "skills" / "good" / "SKILL.md").write_text("---\nname: good\ndescription: d\n---\nUse fp8.\n")
    (d / "binskills" / "bad").mkdir(parents=True)
    (d / "binskills" / "bad" / "SKILL.md").write_bytes(b"\xff\xfe\x00binary")


def _files(*roots: Path) -> set[str]:
    return {str(p) for root in roots for p in root.rglob("*")}


class _ImportGuard(importlib.abc.MetaPathFinder):
    """Refuses and records every import of a slow module (quark, torch, ...)."""

    def __init__(self) -> None:
        self.hits: list[str] = []

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        if name.split(".")[0] in SLOW_MODULES:
            self.hits.append(name)
            raise ImportError(f"bad-input driver: import of {name} blocked")
        return None


def run_all(root: Path) -> list[dict[str, Any]]:
    """Run every case under ``root`` (one fresh directory each) and return the records."""
    import socket

    import pytest_socket

    connections: list[str] = []

    def refuse(host: Any, *args: Any, **kwargs: Any) -> Any:
        connections.append(f"getaddrinfo {host}")
        raise OSError("bad-input driver: network blocked")

    guard = _ImportGuard()
    sys.meta_path.insert(0, guard)
    pytest_socket.disable_socket(allow_unix_socket=False)
    socket.getaddrinfo = refuse  # DNS does not open a Python socket: refuse it too
    os.environ["HF_HUB_OFFLINE"] = "1"
    from quarkci import cli

    startup_imports = list(guard.hits)
    home, tmp = Path(os.environ["HOME"]), Path(os.environ["TMPDIR"])
    records = []
    for case_id, argv, name in CASES:
        d = root / case_id
        d.mkdir()
        make_inputs(d)
        before = _files(d, home, tmp)
        guard.hits.clear()
        connections.clear()
        logging.getLogger().handlers.clear()
        err, out = io.StringIO(), io.StringIO()
        cwd = os.getcwd()
        os.chdir(d)
        start = time.perf_counter()
        try:
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
                try:
                    code: Any = cli.main([a.format(d=d) for a in argv])
                except SystemExit as exc:
                    code = exc.code
        finally:
            os.chdir(cwd)
        seconds = time.perf_counter() - start
        records.append(
            {
                "id": case_id,
                "argv": argv,
                "name": name,
                "code": code,
                "stderr": err.getvalue(),
                "new_files": sorted(_files(d, home, tmp) - before),
                "imports": list(guard.hits),
                "startup_imports": startup_imports,
                "connections": list(connections),
                "seconds": seconds,
            }
        )
    return records


if __name__ == "__main__":
    import tempfile

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    with tempfile.TemporaryDirectory(prefix="quarkci-bad-inputs-") as work:
        result = run_all(Path(work))
    Path(sys.argv[1]).write_text(json.dumps(result, indent=1), encoding="utf-8")
