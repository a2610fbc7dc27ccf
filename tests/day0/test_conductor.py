"""The conductor without ML: bad input before any work, the stage order, never past a failed gate,
decisions and exit codes, resume, the report, and the conductor's own overhead (structural)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from quarkci.cli import main
from quarkci.core.documents import read_artifact
from quarkci.core.failure_class import FailureClass
from quarkci.day0 import conductor as cond
from quarkci.day0.suite import GEN_TASK, MC_TASK, write_demo_suite


def _model(tmp_path: Path) -> Path:
    model = tmp_path / "src"
    model.mkdir()
    (model / "config.json").write_text('{"model_type": "llama"}')
    (model / "model.safetensors").write_bytes(b"\0" * 1000)
    return model


def _eval(score_mc: float, score_gen: float, tokens: float = 2.0) -> dict:
    def task(score: float, n: int) -> dict:
        return {
            "metric": "acc",
            "score": score,
            "stderr": 0.001,
            "samples": n,
            "expected_samples": n,
            "failed_requests": 0,
        }

    return {
        "tasks": {MC_TASK: task(score_mc, 1000), GEN_TASK: task(score_gen, 100)},
        "verbosity": {GEN_TASK: [{"samples": 100, "mean_completion_tokens": tokens}]},
        "config": {"backend": "hf", "model_path": "x"},
        "seconds": 0.0,
        "error": None,
    }


class FakeConductor(cond.Conductor):
    """Stages replaced by planted outcomes; the chain, gates, state, resume and closeout are real."""

    calls: list[str]

    def __init__(self, config, plan: dict, calls: list[str]):
        super().__init__(config, say=lambda _m: None)
        self.plan, self.calls = plan, calls

    def _ptq(self, stage):
        self.calls.append("ptq")
        export = self.out / "ptq" / "model"
        export.mkdir(parents=True, exist_ok=True)
        (export / "model.safetensors").write_bytes(b"q" * 250)
        self.data["checkpoint"] = str(export)
        stage.outputs = {"checkpoint": str(export)}
        if self.plan.get("ptq_fail"):
            raise cond.GateFailed(FailureClass.MODEL_UNSUPPORTED, "export failed")

    def _gate_ptq(self, stage):
        self.calls.append("gate_ptq")
        self.data["ptq_summary"] = {"source_bytes": 1000, "output_bytes": 250, "size_ratio": 0.25}
        from quarkci.day0.hashing import directory_sha256

        self.data["checkpoint_sha256"] = directory_sha256(self.data["checkpoint"])

    def _canary(self, stage):
        self.calls.append("canary")
        self.data["canary"] = {
            "gate": "canary",
            "pass": not self.plan.get("canary_fail"),
            "detail": "d",
            "server": "hf",
            "log": str(self.out / "canary" / "server.log"),
        }
        if self.plan.get("canary_fail"):
            raise cond.GateFailed(FailureClass.CHECKPOINT_NOT_SERVABLE, "answered 'x'")

    def _eval(self, stage, side, model_path):
        self.calls.append(side)
        if side == "candidate" and self.plan.get("crash_in_candidate"):
            raise KeyboardInterrupt  # a kill mid-eval
        doc = _eval(1.0, 1.0) if side == "baseline" else self.plan.get("candidate", _eval(1.0, 1.0))
        from quarkci.core.atomic import atomic_write_text
        from quarkci.core.documents import dump_json

        path = atomic_write_text(self.out / "eval" / f"{side}.json", dump_json(doc))
        stage.outputs["results"] = str(path)
        return doc


def _config(tmp_path: Path, **kw) -> cond.Day0Config:
    out = tmp_path / "out"
    return cond.Day0Config(
        model=_model(tmp_path) if not (tmp_path / "src").exists() else tmp_path / "src",
        scheme="int8",
        out=out,
        suite=write_demo_suite(tmp_path / "suite"),
        cache_dir=tmp_path / "cache",
        **kw,
    )


def test_accept_runs_every_stage_in_order_and_writes_the_contracts(tmp_path):
    calls: list[str] = []
    result = FakeConductor(_config(tmp_path), {}, calls).run()
    assert calls == ["ptq", "gate_ptq", "canary", "baseline", "candidate"]
    assert result["decision"] == "ACCEPT" and result["publish"]["recommended"] is True
    assert read_artifact("day0_result", tmp_path / "out" / "day0_result.json")["decision"] == "ACCEPT"
    report = read_artifact("validation_report", tmp_path / "out" / "validation_report.json")
    assert report["kind"] == "day0" and report["status"] == "success"
    md = (tmp_path / "out" / "validation_report.md").read_text()
    assert md.startswith("<!-- quarkci:report:day0 -->\n# Day-0 release: ACCEPT")
    assert "xychart-beta" in md and "| `quarkci_addition_mc` | `acc` | 1.0000 | 1.0000 |" in md


def test_a_failed_gate_stops_the_chain(tmp_path):
    calls: list[str] = []
    result = FakeConductor(_config(tmp_path), {"canary_fail": True}, calls).run()
    assert calls == ["ptq", "gate_ptq", "canary"]  # no eval on an unservable checkpoint
    assert result["decision"] == "INFEASIBLE" and result["failure_classes"] == ["CHECKPOINT_NOT_SERVABLE"]
    assert result["triage"] == ["fix the export; do not evaluate"] and not result["publish"]["recommended"]
    assert [s["status"] for s in result["stages"]][-4:] == ["not_run"] * 4


@pytest.mark.parametrize(
    ("plan", "decision", "classes"),
    [
        ({"ptq_fail": True}, "INFEASIBLE", ["MODEL_UNSUPPORTED"]),
        ({"candidate": _eval(0.90, 1.0)}, "REGRESSION", []),
        ({"candidate": _eval(1.0, 1.0, tokens=3.0)}, "REGRESSION", ["VERBOSITY_EXCEEDED"]),
        (
            {"candidate": {**_eval(1.0, 1.0), "tasks": {MC_TASK: _eval(1.0, 1.0)["tasks"][MC_TASK]}}},
            "ANOMALOUS",
            ["SAMPLE_ACCOUNTING_FAILED"],
        ),
    ],
)
def test_decisions(tmp_path, plan, decision, classes):
    result = FakeConductor(_config(tmp_path), plan, []).run()
    assert (result["decision"], result["failure_classes"]) == (decision, classes)


def test_indeterminate_asks_for_independent_runs(tmp_path):
    noisy = _eval(1.0, 1.0)
    noisy["tasks"][GEN_TASK]["stderr"] = 0.02
    result = FakeConductor(_config(tmp_path), {"candidate": noisy}, []).run()
    assert result["decision"] == "INDETERMINATE" and "add independent runs" in result["triage"][0]


def test_resume_after_a_kill_mid_eval_redoes_nothing_finished(tmp_path):
    calls: list[str] = []
    with pytest.raises(KeyboardInterrupt):
        FakeConductor(_config(tmp_path), {"crash_in_candidate": True}, calls).run()
    state = json.loads((tmp_path / "out" / cond.STATE_FILE).read_text())
    assert {s["name"]: s["status"] for s in state["stages"]}["candidate_eval"] == "running"
    calls.clear()
    result = FakeConductor(_config(tmp_path, resume=True), {}, calls).run()
    assert calls == ["candidate"]
    assert result["decision"] == "ACCEPT"
    assert [s["name"] for s in result["stages"] if s["resumed"]] == [
        "setup",
        "ptq",
        "gate_ptq",
        "canary",
        "baseline_eval",
    ]


def test_resume_redoes_from_gate_ptq_when_the_checkpoint_changed(tmp_path):
    calls: list[str] = []
    FakeConductor(_config(tmp_path), {}, calls).run()
    (tmp_path / "out" / "ptq" / "model" / "model.safetensors").write_bytes(b"tampered")
    calls.clear()
    result = FakeConductor(_config(tmp_path, resume=True), {}, calls).run()
    assert calls == [
        "gate_ptq",
        "canary",
        "candidate",
    ]  # the source is unchanged: its baseline comes from the cache
    assert result["baseline_cache"]["hit"] is True


def test_baseline_cache_hit_skips_the_baseline_eval(tmp_path):
    calls: list[str] = []
    first = FakeConductor(_config(tmp_path), {}, calls).run()
    assert first["baseline_cache"]["hit"] is False
    cached = Path(first["baseline_cache"]["path"])
    cached.parent.mkdir(parents=True, exist_ok=True)
    cached.write_text(json.dumps(_eval(1.0, 1.0)))  # what the real baseline stage stores
    calls.clear()
    import shutil

    shutil.rmtree(tmp_path / "out")
    second = FakeConductor(_config(tmp_path), {}, calls).run()
    assert "baseline" not in calls and second["baseline_cache"]["hit"] is True
    assert "cache hit" in next(s for s in second["stages"] if s["name"] == "baseline_eval")["detail"]


def test_setup_gate_is_systemic(tmp_path, monkeypatch):
    monkeypatch.delenv("GITHUB_TOKEN", raising=False)
    monkeypatch.delenv("GH_TOKEN", raising=False)
    calls: list[str] = []
    result = FakeConductor(_config(tmp_path, require_token=True), {}, calls).run()
    assert calls == [] and result["decision"] == "SYSTEMIC" and result["failure_classes"] == ["SYSTEMIC"]
    monkeypatch.setenv("GITHUB_TOKEN", "x")
    import shutil

    shutil.rmtree(tmp_path / "out")
    assert FakeConductor(_config(tmp_path, require_token=True), {}, []).run()["decision"] == "ACCEPT"


def test_conductor_overhead_is_bounded(tmp_path):
    """Structural bound: with stages that do no work, the whole chain (state writes, hashing a small
    checkpoint, gates, closeout, report) takes well under a second, i.e. far below 5 % of a
    multi-minute day-0 run."""
    start = time.perf_counter()
    FakeConductor(_config(tmp_path), {}, []).run()
    assert time.perf_counter() - start < 3.0


def test_cli_bad_input_exit_2_before_any_work(tmp_path, capsys):
    model = _model(tmp_path)
    cases = [
        (["--model", str(tmp_path / "nope"), "--scheme", "int8"], "--model"),
        (["--model", str(model), "--scheme", "INT 8"], "--scheme"),
        (["--model", str(model), "--scheme", "int8", "--threshold", "nan"], "--threshold"),
        (["--model", str(model), "--scheme", "int8", "--threshold", "1.5"], "--threshold"),
        (["--model", str(model), "--scheme", "int8", "--tasks", "a;rm -rf"], "--tasks"),
        (["--model", str(model), "--scheme", "int8", "--checkpoint", str(tmp_path)], "--checkpoint"),
    ]
    for argv, flag in cases:
        out = tmp_path / f"out-{len(list(tmp_path.iterdir()))}"
        assert main(["day0", "run", *argv, "--out", str(out)]) == 2, argv
        err = capsys.readouterr().err
        assert flag in err and err.count("\n") == 1, err
        assert not (out / "day0_result.json").exists()
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "x").write_text("mine")
    assert main(["day0", "run", "--model", str(model), "--scheme", "int8", "--out", str(busy)]) == 2
    assert "--resume" in capsys.readouterr().err


def test_canary_fails_with_result_line_when_the_model_cannot_load(tmp_path, capsys):
    pytest.importorskip("transformers")
    from quarkci.day0.canary import run_canary

    bad = _model(tmp_path)  # a config.json the loader rejects
    verdict = run_canary(bad, tmp_path / "c", health_timeout=300)
    assert verdict["pass"] is False and verdict["failure_class"] == "CHECKPOINT_NOT_SERVABLE"
    assert "RESULT: FAIL" in capsys.readouterr().err
    log = (tmp_path / "c" / "server.log").read_text()
    assert "127.0.0.1" in log and log.rstrip().splitlines()[-1].startswith("RESULT: FAIL")


def test_canary_ceiling_is_a_fail_not_a_pass(tmp_path, capsys):
    from quarkci.day0.canary import run_canary

    verdict = run_canary(_model(tmp_path), tmp_path / "c", health_timeout=0.01)
    assert verdict["pass"] is False and "RESULT: FAIL" in capsys.readouterr().err


def test_an_unknown_scheme_is_refused_before_any_stage(tmp_path, capsys):
    """--scheme / --kv-cache unknown to the installed amd-quark: exit 2, nothing written (attack trial)."""
    import pytest

    pytest.importorskip("quark")
    from quarkci.cli import main

    model = tmp_path / "m"
    model.mkdir()
    (model / "config.json").write_text('{"model_type": "llama"}')
    for extra in (["--scheme", "int9"], ["--scheme", "int8", "--kv-cache", "bogus"]):
        assert main(["day0", "run", "--model", str(model), *extra, "--out", str(tmp_path / "o")]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and extra[-2] in err[0]
        assert not (tmp_path / "o").exists()
