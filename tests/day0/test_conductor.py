"""The conductor without ML: bad input before any work, the stage order, never past a failed gate,
decisions and exit codes, resume, the report, and the conductor's own overhead (structural)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from quarkci.cli import main
from quarkci.core.documents import read_artifact
from quarkci.day0 import conductor as cond
from quarkci.day0.conductor import Conductor
from quarkci.day0.stages import default_stages
from quarkci.day0.state import Day0Config
from quarkci.day0.suite import GEN_TASK, MC_TASK, write_demo_suite
from quarkci.ptq.chain import PtqOutcome, PtqRequest
from quarkci.ptq.quark_api import QuarkUnavailable
from quarkci.ptq.runner import RunResult


def _model(tmp_path: Path) -> Path:
    model = tmp_path / "src"
    model.mkdir()
    (model / "config.json").write_text('{"model_type": "llama"}')
    (model / "model.safetensors").write_bytes(b"\0" * 1000)
    (model / "tokenizer.json").write_text("{}")
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


def _written(path: Path | None) -> Path | None:
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("{}")
    return path


def _probed(agreement: float) -> dict:
    """The real PTQ gate's verdict on a clean export (coverage, size and reload pass) whose behaviour
    probe measured ``agreement`` top-1 agreement with the source (no demo task: the real-model path)."""
    from quarkci.gates.ptq import evaluate

    return dict(
        evaluate(
            {
                "summary_version": 1,
                "output": {"exists": True, "files": 1, "bytes": 250},
                "size_ratio": 0.25,
                "quantization_config": {
                    "present": True,
                    "quant_method": "quark",
                    "global_weight_dtypes": ["int8"],
                },
                "layers": {"total": 2, "quantized": {"int8": 2}},
                "reload": {"checked": True, "ok": True, "counts": {}, "top1_agreement": agreement},
            }
        )
    )


def _outcome(
    request: PtqRequest,
    checkpoint: Path,
    run: RunResult | None,
    passed: bool = True,
    probe: float | None = None,
) -> PtqOutcome:
    """What the PTQ chain returns: a validation summary with sizes and the gate's verdict (``probe``: the
    real gate's verdict on an export whose behaviour probe measured that top-1 agreement)."""
    summary = {
        "source": {"bytes": 1000},
        "output": {"bytes": 250},
        "size_ratio": 0.25,
        "reload": {"task_accuracy": 1.0, "source_task_accuracy": 1.0},
    }
    verdict = (
        _probed(probe)
        if probe is not None
        else {
            "gate": "ptq",
            "pass": passed,
            "failure_class": None if passed else "QUANT_COVERAGE_FAILURE",
            "detail": "ok" if passed else "2 layer(s) declared quantized but stored unquantized",
            "checks": [],
        }
    )
    return PtqOutcome(
        checkpoint=checkpoint,
        summary=_written(request.out / "validation_summary.json"),
        validation=summary,
        verdict=verdict,
        verdict_file=_written(request.gate_output),
        run=run,
        manifest=request.out / "run_manifest.yaml" if run else None,
        run_result=request.out / "run_result.json" if run else request.run_result,
    )


class Fakes:
    """The upstream work of the stages, planted: the PTQ chain, the canary and the eval. The conductor,
    its stages, the gates, state, resume and closeout are real. ``calls`` records what ran: ``ptq``
    (the whole chain), ``gate_ptq`` (the chain on a given checkpoint), ``canary``, ``baseline``,
    ``candidate``."""

    def __init__(self, plan: dict, calls: list[str]):
        self.plan, self.calls = plan, calls
        self.requests: list[PtqRequest] = []

    def chain(self, request: PtqRequest, say) -> PtqOutcome:
        self.requests.append(request)
        if request.checkpoint is not None:
            self.calls.append("gate_ptq")
            return _outcome(
                request, request.checkpoint, None, not self.plan.get("gate_fail"), self.plan.get("probe")
            )
        self.calls.append("ptq")
        if self.plan.get("no_quark"):
            raise QuarkUnavailable("amd-quark is not installed")
        export = request.out / "model"
        export.mkdir(parents=True, exist_ok=True)
        (export / "model.safetensors").write_bytes(b"q" * 250)
        for record in ("run_manifest.yaml", "run_result.json"):  # what resume finds of a finished stage
            (request.out / record).write_text("{}")
        failed = self.plan.get("ptq_fail")
        run = RunResult(
            status="failed" if failed else "succeeded",
            scheme=request.scheme,
            output_dir=str(export),
            device="cpu",
            model_dtype="float32",
            stage="export" if failed else None,
            failure_class="MODEL_UNSUPPORTED" if failed else None,
            message="export failed" if failed else None,
            timings={"total": 1.5},
        )
        return _outcome(
            request, export, run, not (failed or self.plan.get("gate_fail")), self.plan.get("probe")
        )

    def canary(self, checkpoint, out_dir, server, health_timeout, probe, say, vllm=None) -> dict:
        self.calls.append("canary")
        (Path(out_dir) / "server.log").parent.mkdir(parents=True, exist_ok=True)
        (Path(out_dir) / "server.log").write_text("RESULT: PASS\n")
        fail = self.plan.get("canary_fail")
        return {
            "gate": "canary",
            "pass": not fail,
            "failure_class": "CHECKPOINT_NOT_SERVABLE" if fail else None,
            "detail": "answered 'x'" if fail else "answered '7'",
            "server": server,
            "log": str(Path(out_dir) / "server.log"),
        }

    def evaluate(self, model_path, suite, spec, say) -> dict:
        side = "candidate" if Path(model_path).name == "model" else "baseline"
        self.calls.append(side)
        if side == "candidate" and self.plan.get("crash_in_candidate"):
            raise KeyboardInterrupt  # a kill mid-eval
        return _eval(1.0, 1.0) if side == "baseline" else self.plan.get("candidate", _eval(1.0, 1.0))


def _conductor(config: Day0Config, plan: dict, calls: list[str]) -> Conductor:
    """The real conductor over :class:`Fakes`."""
    fakes = Fakes(plan, calls)
    stages = default_stages(chain=fakes.chain, canary=fakes.canary, evaluate=fakes.evaluate)
    return Conductor(config, say=lambda _m: None, stages=stages)


def _config(tmp_path: Path, **kw) -> Day0Config:
    out = tmp_path / "out"
    return Day0Config(
        model=_model(tmp_path) if not (tmp_path / "src").exists() else tmp_path / "src",
        scheme="int8",
        out=out,
        suite=write_demo_suite(tmp_path / "suite"),
        cache_dir=tmp_path / "cache",
        **kw,
    )


def test_accept_runs_every_stage_in_order_and_writes_the_contracts(tmp_path):
    calls: list[str] = []
    result = _conductor(_config(tmp_path), {}, calls).run()
    assert calls == ["ptq", "canary", "baseline", "candidate"]  # gate_ptq judges the chain's verdict
    assert result["decision"] == "ACCEPT" and result["publish"]["recommended"] is True
    assert read_artifact("day0_result", tmp_path / "out" / "day0_result.json")["decision"] == "ACCEPT"
    report = read_artifact("validation_report", tmp_path / "out" / "validation_report.json")
    assert report["kind"] == "day0" and report["status"] == "success"
    md = (tmp_path / "out" / "validation_report.md").read_text()
    assert md.startswith("<!-- quarkci:report:day0 -->\n# Day-0 release: ACCEPT")
    assert "xychart-beta" in md and "| `quarkci_addition_mc` | `acc` | 1.0000 | 1.0000 |" in md


def test_a_failed_gate_stops_the_chain(tmp_path):
    calls: list[str] = []
    result = _conductor(_config(tmp_path), {"canary_fail": True}, calls).run()
    assert calls == ["ptq", "canary"]  # no eval on an unservable checkpoint
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
    result = _conductor(_config(tmp_path), plan, []).run()
    assert (result["decision"], result["failure_classes"]) == (decision, classes)


def test_a_failed_ptq_run_stops_at_ptq_with_the_runners_class(tmp_path):
    calls: list[str] = []
    result = _conductor(_config(tmp_path), {"ptq_fail": True}, calls).run()
    assert calls == ["ptq"]
    ptq = next(s for s in result["stages"] if s["name"] == "ptq")
    assert (ptq["status"], ptq["failure_class"]) == ("failed", "MODEL_UNSUPPORTED")
    assert ptq["detail"] == "ptq run failed at export: export failed"
    assert result["sizes"] == {"source_bytes": None, "candidate_bytes": None, "ratio": None}


def test_the_ptq_gate_is_the_chains_verdict(tmp_path):
    """The chain runs once: gate_ptq judges its verdict, and a failing one stops the chain before serving
    (negative control of the ACCEPT path)."""
    calls: list[str] = []
    result = _conductor(_config(tmp_path), {"gate_fail": True}, calls).run()
    assert calls == ["ptq"]
    gate = next(s for s in result["stages"] if s["name"] == "gate_ptq")
    assert (gate["status"], gate["failure_class"]) == ("failed", "QUANT_COVERAGE_FAILURE")
    assert gate["detail"] == "2 layer(s) declared quantized but stored unquantized"
    assert (result["decision"], result["sizes"]["ratio"]) == ("INFEASIBLE", 0.25)
    assert result["publish"]["checkpoint_sha256"] is None  # hashed only once the gate passed


@pytest.mark.parametrize("given", [False, True], ids=["from-source", "given-checkpoint"])
def test_a_behaviour_probe_failure_is_a_regression_with_the_probes_figures(tmp_path, given):
    """Coverage passed, top-1 agreement 0.73 < 0.80 (the SmolLM2 fp8 case): BEHAVIOUR_PROBE_FAILED at
    gate_ptq, decision REGRESSION (not INFEASIBLE), the figures and the threshold's source in the result
    and the report; nothing served or evaluated."""
    extra = {}
    if given:
        extra["checkpoint"] = tmp_path / "given"
        extra["checkpoint"].mkdir()
    calls: list[str] = []
    result = _conductor(_config(tmp_path, **extra), {"probe": 0.73}, calls).run()
    assert calls == (["gate_ptq"] if given else ["ptq"])
    assert (result["decision"], result["failure_classes"]) == ("REGRESSION", ["BEHAVIOUR_PROBE_FAILED"])
    gate = next(s for s in result["stages"] if s["name"] == "gate_ptq")
    assert (
        gate["detail"] == "[BEHAVIOUR_PROBE_FAILED] behaviour: top-1 agreement with the source 73% (min 80%)"
    )
    probe = result["behaviour_probe"]
    assert (probe["measure"], probe["value"], probe["threshold"], probe["pass"]) == (
        "top1_agreement",
        0.73,
        0.80,
        False,
    )
    assert "DEFAULT_MIN_TOP1_AGREEMENT" in probe["threshold_source"]
    assert result["triage"] and "behaviour probe" in result["triage"][0]
    assert result["publish"]["recommended"] is False
    read_artifact("day0_result", tmp_path / "out" / "day0_result.json")  # the contract holds the class
    md = (tmp_path / "out" / "validation_report.md").read_text()
    assert "# Day-0 release: REGRESSION" in md and "## Behaviour probe" in md
    assert "**FAIL:** `top1_agreement` 0.7300, rule `value >= threshold` with threshold 0.8000" in md
    assert r"Threshold from: quarkci's default DEFAULT\_MIN\_TOP1\_AGREEMENT = 0.8" in md  # Markdown-escaped
    report = read_artifact("validation_report", tmp_path / "out" / "validation_report.json")
    assert any(e.startswith("behaviour probe: top1_agreement 0.7300") for e in report["evidence"])


def test_a_passing_behaviour_probe_keeps_accept(tmp_path):
    """Negative control: agreement 0.97 on the same clean export passes every gate."""
    calls: list[str] = []
    result = _conductor(_config(tmp_path), {"probe": 0.97}, calls).run()
    assert calls == ["ptq", "canary", "baseline", "candidate"]
    assert (result["decision"], result["failure_classes"]) == ("ACCEPT", [])
    assert (result["behaviour_probe"]["value"], result["behaviour_probe"]["pass"]) == (0.97, True)
    assert "**PASS:** `top1_agreement` 0.9700" in (tmp_path / "out" / "validation_report.md").read_text()


def test_the_chain_request_runs_in_out_ptq_with_the_gates_output(tmp_path):
    fakes = Fakes({}, [])
    config = _config(tmp_path, kv_cache="fp8")
    Conductor(
        config, say=lambda _m: None, stages=default_stages(fakes.chain, fakes.canary, fakes.evaluate)
    ).run()
    (request,) = fakes.requests
    root = (tmp_path / "out" / "ptq").resolve()
    assert (request.out, request.gate_output, request.checkpoint) == (root, root / "gate_ptq.json", None)
    assert (request.model, request.scheme, request.kv_cache) == (config.model, "int8", "fp8")


def test_a_given_checkpoint_is_validated_and_gated_through_the_chain(tmp_path):
    given = tmp_path / "given" / "model"
    given.mkdir(parents=True)
    (given / "config.json").write_text("{}")
    (given / "model.safetensors").write_bytes(b"q" * 250)
    fakes = Fakes({}, [])
    stages = default_stages(fakes.chain, fakes.canary, fakes.evaluate)
    result = Conductor(_config(tmp_path, checkpoint=given), say=lambda _m: None, stages=stages).run()
    assert fakes.calls == ["gate_ptq", "canary", "baseline", "candidate"] and result["decision"] == "ACCEPT"
    (request,) = fakes.requests
    assert (request.checkpoint, request.run_result) == (given, None)
    assert next(s for s in result["stages"] if s["name"] == "ptq")["status"] == "skipped"
    assert result["publish"]["checkpoint"] == str(given.resolve())


def test_no_ml_stack_in_the_chain_is_systemic(tmp_path):
    result = _conductor(_config(tmp_path), {"no_quark": True}, []).run()
    assert (result["decision"], result["failure_classes"]) == ("SYSTEMIC", ["SYSTEMIC"])
    assert "amd-quark is not installed (install the ML extra)" in result["stages"][1]["detail"]


def test_stages_must_be_the_chains_in_order(tmp_path):
    stages = default_stages()
    with pytest.raises(ValueError, match="setup, ptq, gate_ptq"):
        Conductor(_config(tmp_path), stages=[stages[1], stages[0], *stages[2:]])
    with pytest.raises(ValueError):
        Conductor(_config(tmp_path), stages=stages[:-1])


def test_indeterminate_asks_for_independent_runs(tmp_path):
    noisy = _eval(1.0, 1.0)
    noisy["tasks"][GEN_TASK]["stderr"] = 0.02
    result = _conductor(_config(tmp_path), {"candidate": noisy}, []).run()
    assert result["decision"] == "INDETERMINATE" and "add independent runs" in result["triage"][0]


def test_resume_after_a_kill_mid_eval_redoes_nothing_finished(tmp_path):
    calls: list[str] = []
    with pytest.raises(KeyboardInterrupt):
        _conductor(_config(tmp_path), {"crash_in_candidate": True}, calls).run()
    state = json.loads((tmp_path / "out" / cond.STATE_FILE).read_text())
    assert {s["name"]: s["status"] for s in state["stages"]}["candidate_eval"] == "running"
    calls.clear()
    result = _conductor(_config(tmp_path, resume=True), {}, calls).run()
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
    _conductor(_config(tmp_path), {}, calls).run()
    (tmp_path / "out" / "ptq" / "model" / "model.safetensors").write_bytes(b"tampered")
    calls.clear()
    result = _conductor(_config(tmp_path, resume=True), {}, calls).run()
    assert calls == [
        "gate_ptq",
        "canary",
        "candidate",
    ]  # the source is unchanged: its baseline comes from the cache
    assert result["baseline_cache"]["hit"] is True


def test_baseline_cache_hit_skips_the_baseline_eval(tmp_path):
    calls: list[str] = []
    first = _conductor(_config(tmp_path), {}, calls).run()
    assert first["baseline_cache"]["hit"] is False
    cached = Path(first["baseline_cache"]["path"])
    cached.parent.mkdir(parents=True, exist_ok=True)
    cached.write_text(json.dumps(_eval(1.0, 1.0)))  # what the real baseline stage stores
    calls.clear()
    import shutil

    shutil.rmtree(tmp_path / "out")
    second = _conductor(_config(tmp_path), {}, calls).run()
    assert "baseline" not in calls and second["baseline_cache"]["hit"] is True
    assert "cache hit" in next(s for s in second["stages"] if s["name"] == "baseline_eval")["detail"]


def test_a_corrupt_baseline_cache_entry_is_a_miss_not_a_crash(tmp_path):
    calls: list[str] = []
    first = _conductor(_config(tmp_path), {}, calls).run()
    cached = Path(first["baseline_cache"]["path"])
    cached.parent.mkdir(parents=True, exist_ok=True)
    cached.write_text('{"results": ' + "9" * 5000 + "}")  # the standard library's reader raises ValueError
    calls.clear()
    import shutil

    shutil.rmtree(tmp_path / "out")
    second = _conductor(_config(tmp_path), {}, calls).run()
    assert "baseline" in calls and second["baseline_cache"]["hit"] is False
    assert second["decision"] == first["decision"]


def test_setup_gate_is_systemic(tmp_path, monkeypatch):
    monkeypatch.delenv("GITHUB_TOKEN", raising=False)
    monkeypatch.delenv("GH_TOKEN", raising=False)
    calls: list[str] = []
    result = _conductor(_config(tmp_path, require_token=True), {}, calls).run()
    assert calls == [] and result["decision"] == "SYSTEMIC" and result["failure_classes"] == ["SYSTEMIC"]
    monkeypatch.setenv("GITHUB_TOKEN", "x")
    import shutil

    shutil.rmtree(tmp_path / "out")
    assert _conductor(_config(tmp_path, require_token=True), {}, []).run()["decision"] == "ACCEPT"


def test_conductor_overhead_is_bounded(tmp_path):
    """Structural bound: with stages that do no work, the whole chain (state writes, hashing a small
    checkpoint, gates, closeout, report) takes well under a second, i.e. far below 5 % of a
    multi-minute day-0 run."""
    start = time.perf_counter()
    _conductor(_config(tmp_path), {}, []).run()
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


def test_a_source_without_a_tokenizer_is_refused_before_any_work(tmp_path, capsys):
    """The PTQ chain's tokenizer precondition, checked by the command before the setup stage (the hand
    copy of the chain skipped it); a given checkpoint needs none."""
    model = _model(tmp_path)
    (model / "tokenizer.json").unlink()
    out = tmp_path / "out"
    assert main(["day0", "run", "--model", str(model), "--scheme", "int8", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert (
        err.startswith("quarkci: error: --model: ") and "no tokenizer files" in err and err.count("\n") == 1
    )
    assert not out.exists()


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


def test_setup_records_the_amd_quark_the_chain_runs_on(tmp_path, monkeypatch):
    import importlib.metadata

    from quarkci.day0 import stages

    result = _conductor(_config(tmp_path), {}, []).run()
    (setup,) = [s for s in result["stages"] if s["name"] == "setup"]
    assert setup["outputs"]["amd_quark"] == importlib.metadata.version("amd-quark")
    # what the interpreter would import, not a fixed string: another installed release is reported as such
    monkeypatch.setattr(importlib.metadata, "version", lambda name: "0.99" if name == "amd-quark" else "")
    assert stages.installed_version("amd-quark") == "0.99"

    def missing(name):
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", missing)
    assert stages.installed_version("amd-quark") is None


def _cli_with_fakes(monkeypatch, plan: dict) -> None:
    """``day0 run`` through the CLI over :class:`Fakes` (the conductor, stages and gates real)."""
    fakes = Fakes(plan, [])
    monkeypatch.setattr(
        cond,
        "default_stages",
        lambda: default_stages(chain=fakes.chain, canary=fakes.canary, evaluate=fakes.evaluate),
    )


def _step_outputs(path: Path) -> dict[str, str]:
    lines, values = path.read_text().splitlines(), {}
    while lines:
        name, marker = lines.pop(0).split("<<")
        end = lines.index(marker)
        values[name], lines = "\n".join(lines[:end]), lines[end + 1 :]
    return values


@pytest.mark.parametrize(
    ("plan", "code", "decision"),
    [({}, 0, "ACCEPT"), ({"candidate": _eval(0.5, 1.0)}, 1, "REGRESSION")],
)
def test_cli_github_output_writes_the_decision(tmp_path, monkeypatch, capsys, plan, code, decision):
    _cli_with_fakes(monkeypatch, plan)
    outputs = tmp_path / "github_output"
    outputs.write_text("")
    monkeypatch.setenv("GITHUB_OUTPUT", str(outputs))
    argv = ["day0", "run", "--model", str(_model(tmp_path)), "--scheme", "int8", "--out", str(tmp_path / "o")]
    assert main([*argv, "--cache-dir", str(tmp_path / "cache"), "--github-output"]) == code
    assert _step_outputs(outputs) == {"decision": decision}
    assert json.loads((tmp_path / "o" / "day0_result.json").read_text())["decision"] == decision


def test_cli_github_output_outside_a_step_is_bad_input_before_any_work(tmp_path, monkeypatch, capsys):
    _cli_with_fakes(monkeypatch, {})
    monkeypatch.delenv("GITHUB_OUTPUT", raising=False)
    out = tmp_path / "o"
    argv = ["day0", "run", "--model", str(_model(tmp_path)), "--scheme", "int8", "--out", str(out)]
    assert main([*argv, "--github-output"]) == 2
    err = capsys.readouterr().err
    assert "--github-output" in err and "GITHUB_OUTPUT" in err and err.count("\n") == 1
    assert not out.exists()


@pytest.mark.parametrize(("hip", "backend"), [("6.2.41133", "rocm"), (None, "cuda")])
def test_accelerator_gpu_is_the_backend_torch_was_built_for(tmp_path, monkeypatch, capsys, hip, backend):
    """``--accelerator gpu`` (the workflow on a GPU runner) is rocm for a HIP build of torch, else cuda;
    on this CPU-only torch the setup gate then sees no device (SYSTEMIC, exit 3)."""
    torch = pytest.importorskip("torch")
    from quarkci.day0.stages import gpu_backend

    monkeypatch.setattr(torch.version, "hip", hip)
    assert gpu_backend() == backend
    _cli_with_fakes(monkeypatch, {})
    out = tmp_path / "o"
    argv = ["day0", "run", "--model", str(_model(tmp_path)), "--scheme", "int8", "--out", str(out)]
    assert (
        main([*argv, "--cache-dir", str(tmp_path / "cache"), "--accelerator", "gpu", "--server", "hf"]) == 3
    )
    result = json.loads((out / "day0_result.json").read_text())
    setup = next(s for s in result["stages"] if s["name"] == "setup")
    assert setup["outputs"]["accelerator"] == backend
    assert f"the runner declares {backend} but torch sees none" in setup["detail"]
