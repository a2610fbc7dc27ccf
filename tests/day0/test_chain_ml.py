"""The day-0 chain for real on the demo model (CPU, amd-quark 0.13, lm-eval hf backend).

Minutes of CPU: marked ``ml`` and ``slow``. Each named case of the issue is one test with its
expected decision; the kill/resume test kills its own child process (by pid) mid candidate eval.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from quarkci.cli import main

pytestmark = [pytest.mark.ml, pytest.mark.slow]
REPO = Path(__file__).resolve().parents[2]


def _run(tmp: Path, source: Path, scheme: str, cache: Path, *extra: str) -> tuple[int, dict]:
    out = tmp / f"run-{scheme}"
    code = main(
        [
            "day0",
            "run",
            "--model",
            str(source),
            "--scheme",
            scheme,
            "--out",
            str(out),
            "--cache-dir",
            str(cache),
            "--health-timeout",
            "600",
            *extra,
        ]
    )
    return code, json.loads((out / "day0_result.json").read_text())


def _stage(result: dict, name: str) -> dict:
    return next(s for s in result["stages"] if s["name"] == name)


# Counts `import quark.torch` per process of a chain run in a child: every process started with this
# directory on PYTHONPATH (the conductor, and the servers it starts, which inherit its environment) appends
# "<pid> <ppid> <argv>" to $QUARKCI_TEST_IMPORT_LOG each time the import machinery looks for quark.torch,
# i.e. each time it is really imported (not already in sys.modules).
IMPORT_SPY = """
import os, sys
class _QuarkTorchSpy:
    def find_spec(self, name, path=None, target=None):
        if name == "quark.torch" and os.environ.get("QUARKCI_TEST_IMPORT_LOG"):
            with open(os.environ["QUARKCI_TEST_IMPORT_LOG"], "a") as log:
                log.write(f"{os.getpid()} {os.getppid()} {' '.join(sys.argv)}\\n")
        return None
sys.meta_path.insert(0, _QuarkTorchSpy())
"""


def _spied_env(tmp: Path) -> tuple[dict[str, str], Path]:
    spy = tmp / "spy"
    spy.mkdir()
    (spy / "sitecustomize.py").write_text(IMPORT_SPY)
    log = tmp / "quark_torch_imports.log"
    env = {
        **os.environ,
        "PYTHONPATH": f"{REPO}{os.pathsep}{spy}",
        "HF_HUB_OFFLINE": "1",
        "QUARKCI_TEST_IMPORT_LOG": str(log),
    }
    return env, log


def _imports_per_process(log: Path, conductor: int) -> dict[str, int]:
    """``{role: imports}`` from the spy's log: ``conductor`` (pid ``conductor``), ``canary-server`` (a
    child running quarkci.day0.server), else ``other:<argv>``."""
    counts: dict[str, int] = {}
    for line in log.read_text().splitlines() if log.is_file() else []:
        pid, ppid, argv = line.split(" ", 2)
        if int(pid) == conductor:
            role = "conductor"
        elif int(ppid) == conductor and "quarkci/day0/server.py" in argv:
            role = f"canary-server:{pid}"
        else:
            role = f"other:{argv[:120]}"
        counts[role] = counts.get(role, 0) + 1
    return counts


def _assert_one_import_per_chain_process(counts: dict[str, int]) -> None:
    """Exactly one import in the conductor (PTQ, validate and the evals share it) and one in the one
    canary server (a process of its own, which loads the Quark export); no other process imports it."""
    assert counts.pop("conductor") == 1, counts
    servers = [role for role in counts if role.startswith("canary-server:")]
    assert len(servers) == 1 and counts[servers[0]] == 1, counts
    assert set(counts) == set(servers), counts  # nothing else imported quark.torch


def test_int8_accept_after_a_kill_mid_eval_and_resume(demo_source, tmp_path):
    cache = tmp_path / "cache"  # fresh: the baseline really runs before the kill
    out = tmp_path / "run"
    argv = [
        sys.executable,
        "-m",
        "quarkci",
        "day0",
        "run",
        "--model",
        str(demo_source),
        "--scheme",
        "int8",
        "--out",
        str(out),
        "--cache-dir",
        str(cache),
    ]
    env, imports = _spied_env(tmp_path)
    proc = subprocess.Popen(
        argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    state_file = out / "day0_state.json"
    deadline = time.time() + 900
    try:
        while time.time() < deadline:
            if state_file.is_file():
                state = json.loads(state_file.read_text())
                if any(s["name"] == "candidate_eval" and s["status"] == "running" for s in state["stages"]):
                    break
            assert proc.poll() is None, "the run ended before its candidate eval"
            time.sleep(0.5)
        time.sleep(3)  # inside lm-eval
        os.killpg(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=60)
    # structural (not timed): setup -> ptq -> gate_ptq -> canary -> baseline eval ran in the child
    _assert_one_import_per_chain_process(_imports_per_process(imports, proc.pid))
    export = out / "ptq" / "model"
    before = {p.name: p.stat().st_mtime_ns for p in export.iterdir()}
    baseline_mtime = (out / "eval" / "baseline.json").stat().st_mtime_ns
    assert not (out / "day0_result.json").exists()

    code = main(
        [
            "day0",
            "run",
            "--model",
            str(demo_source),
            "--scheme",
            "int8",
            "--out",
            str(out),
            "--cache-dir",
            str(cache),
            "--resume",
        ]
    )
    result = json.loads((out / "day0_result.json").read_text())
    assert (code, result["decision"]) == (0, "ACCEPT")
    for name in ("setup", "ptq", "gate_ptq", "canary", "baseline_eval"):
        assert _stage(result, name)["resumed"] is True, name
    assert _stage(result, "candidate_eval")["resumed"] is False
    assert {p.name: p.stat().st_mtime_ns for p in export.iterdir()} == before  # PTQ not redone
    assert (out / "eval" / "baseline.json").stat().st_mtime_ns == baseline_mtime  # baseline not redone
    assert result["publish"]["recommended"] is True
    from quarkci.day0.hashing import directory_sha256

    assert result["publish"]["checkpoint_sha256"] == directory_sha256(export)
    for row in result["tasks"]:
        assert row["stderr"] < result["threshold"] and row["within"] is True
    md = (out / "validation_report.md").read_text()
    assert md.startswith("<!-- quarkci:report:day0 -->") and "```mermaid" in md and "RESULT: PASS" in md
    assert "RESULT: PASS" in (out / "canary" / "server.log").read_text()


@pytest.fixture(scope="module")
def int8_chain(demo_source, shared_cache, tmp_path_factory) -> tuple[int, dict]:
    """The int8 chain from the source model, run once for the tests that start from its ACCEPT."""
    return _run(tmp_path_factory.mktemp("day0-int8"), demo_source, "int8", shared_cache)


def test_int8_then_int4_wo_128_accept_second_baseline_is_a_cache_hit(
    demo_source, shared_cache, int8_chain, tmp_path
):
    code, first = int8_chain
    assert (code, first["decision"]) == (0, "ACCEPT")
    code, result = _run(tmp_path, demo_source, "int4_wo_128", shared_cache)
    assert (code, result["decision"]) == (0, "ACCEPT"), result["stages"]
    assert result["baseline_cache"]["hit"] is True
    assert "cache hit" in _stage(result, "baseline_eval")["detail"]
    assert result["sizes"]["ratio"] < first["sizes"]["ratio"] < 1
    assert "baseline eval skipped" in (tmp_path / "run-int4_wo_128" / "validation_report.md").read_text()


def test_a_given_checkpoint_imports_quark_torch_no_more_than_the_full_chain(
    demo_source, int8_chain, tmp_path
):
    """``day0 run --checkpoint`` (no PTQ) imports quark.torch once in the conductor (gate_ptq's validate
    and the candidate eval share it) and once in the canary server: no more processes than the full chain
    (issue 22: it was slower than the whole chain because more processes imported Quark)."""
    _, clean = int8_chain
    env, imports = _spied_env(tmp_path)
    out = tmp_path / "given"
    argv = [sys.executable, "-m", "quarkci", "day0", "run", "--model", str(demo_source), "--scheme", "int8"]
    argv += ["--out", str(out), "--cache-dir", str(tmp_path / "cache"), "--checkpoint"]
    proc = subprocess.Popen(
        [*argv, clean["publish"]["checkpoint"]], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    _, err = proc.communicate(timeout=900)
    result = json.loads((out / "day0_result.json").read_text())
    assert (proc.returncode, result["decision"]) == (0, "ACCEPT"), err[-2000:]
    assert _stage(result, "ptq")["status"] == "skipped"
    _assert_one_import_per_chain_process(_imports_per_process(imports, proc.pid))
    # the checkpoint's validate reports progress while it runs (a line per step)
    assert b"validate: reloading " in err and b"validate: behaviour probe: top-1 agreement" in err


def _scale_weight_scales(export: Path, factor: float) -> int:
    from safetensors.torch import load_file, save_file

    changed = 0
    for file in export.glob("*.safetensors"):
        tensors = load_file(file)
        for name in tensors:
            if name.endswith("weight_scale"):
                tensors[name] = tensors[name] * factor
                changed += 1
        save_file(tensors, file, metadata={"format": "pt"})
    return changed


def test_corrupted_scales_checkpoint_is_not_accepted(demo_source, shared_cache, int8_chain, tmp_path):
    _, clean = int8_chain
    assert clean["decision"] == "ACCEPT"
    tampered = tmp_path / "tampered"
    shutil.copytree(clean["publish"]["checkpoint"], tampered)
    assert _scale_weight_scales(tampered, 1000.0) > 0
    code, result = _run(tmp_path, demo_source, "int8", shared_cache, "--checkpoint", str(tampered))
    assert code == 1 and result["decision"] != "ACCEPT"
    assert result["publish"]["recommended"] is False
    failed = [s for s in result["stages"] if s["status"] == "failed"]
    assert failed and failed[0]["name"] in ("gate_ptq", "canary")
    assert _stage(result, "baseline_eval")["status"] == "not_run"  # no eval on an unservable checkpoint
    # the export is complete and reloads cleanly: only the behaviour probe sees the damage (measured: demo
    # accuracy 28 % vs 100 %, top-1 agreement 81 %), its own class, decided REGRESSION with its figures
    assert (failed[0]["name"], failed[0]["failure_class"]) == ("gate_ptq", "BEHAVIOUR_PROBE_FAILED")
    assert (result["decision"], result["failure_classes"]) == ("REGRESSION", ["BEHAVIOUR_PROBE_FAILED"])
    probe = result["behaviour_probe"]
    assert (probe["measure"], probe["source_value"], probe["threshold"]) == ("task_accuracy", 1.0, 0.10)
    assert probe["pass"] is False and probe["value"] < 0.9
    assert "## Behaviour probe" in (tmp_path / "run-int8" / "validation_report.md").read_text()


def test_nvfp4_is_not_accepted(demo_source, shared_cache, tmp_path):
    code, result = _run(tmp_path, demo_source, "nvfp4", shared_cache)
    assert code == 1 and result["decision"] != "ACCEPT"
    assert _stage(result, "gate_ptq")["status"] == "failed"
    assert _stage(result, "gate_ptq")["failure_class"] == "QUANT_COVERAGE_FAILURE"


def test_mx9_is_infeasible(demo_source, shared_cache, tmp_path):
    code, result = _run(tmp_path, demo_source, "mx9", shared_cache)
    assert (code, result["decision"]) == (1, "INFEASIBLE")
    assert _stage(result, "ptq")["failure_class"] == "MODEL_UNSUPPORTED"
    assert "MODEL_UNSUPPORTED" in result["failure_classes"]


def test_inconsistent_kv_cache_group_fails_gate_ptq(demo_source, shared_cache, pipeline, tmp_path):
    # the clean fp8 + fp8 KV-cache export of the session's PTQ tests (same intake -> plan -> run as the chain)
    clean = pipeline("fp8", kv_cache="fp8")
    assert clean.gate["pass"] is True, clean.gate["detail"]
    tampered = tmp_path / "kv"
    shutil.copytree(clean.output, tampered)
    config = json.loads((tampered / "config.json").read_text())
    group = config["quantization_config"]["export"]["kv_cache_group"]
    assert sorted(group) == ["*k_proj", "*v_proj"]
    config["quantization_config"]["export"]["kv_cache_group"] = ["*k_proj"]  # the v projections left out
    (tampered / "config.json").write_text(json.dumps(config, indent=2))
    code, result = _run(tmp_path, demo_source, "fp8", shared_cache, "--checkpoint", str(tampered))
    assert code == 1 and result["decision"] != "ACCEPT"
    assert _stage(result, "gate_ptq")["status"] == "failed"
    assert _stage(result, "gate_ptq")["failure_class"] == "QUANT_COVERAGE_FAILURE"
