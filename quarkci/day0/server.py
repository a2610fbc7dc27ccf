"""A minimal OpenAI-compatible completions server over transformers (the CPU canary's server).

``python -m quarkci.day0.server --model DIR --port-file FILE`` binds ``127.0.0.1`` on an ephemeral
port (written to ``FILE`` once listening), loads the model in a background thread, and serves:

* ``GET /health`` -> 200 ``{"status": "ok"}`` once the model is loaded, 503 while loading, 500 when
  loading failed (the error in the body and the log);
* ``GET /v1/models`` -> the served model;
* ``POST /v1/completions`` ``{"prompt": str, "max_tokens": int <= 64, "temperature": 0}`` ->
  ``{"choices": [{"text", "finish_reason"}], "usage": {"prompt_tokens", "completion_tokens"}}``,
  greedy decoding.

Standard library HTTP server (``http.server.ThreadingHTTPServer``); request bodies are capped at
64 KiB. Logs go to stderr (the canary redirects them into ``server.log``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
import traceback
from collections.abc import Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, TypedDict


class _Choice(TypedDict):
    index: int
    text: str
    finish_reason: str


class _Usage(TypedDict):
    prompt_tokens: int
    completion_tokens: int


class _Completion(TypedDict):
    object: str
    model: str
    choices: list[_Choice]
    usage: _Usage  # an OpenAI text completion, the fields the canary and lm-eval read


HOST = "127.0.0.1"
MAX_BODY = 64 * 1024
MAX_TOKENS = 64


class _State:
    def __init__(self, model_dir: str) -> None:
        self.model_dir = model_dir
        self.model: Any = None
        self.tokenizer: Any = None
        self.error: str | None = None
        self.lock = threading.Lock()

    def load(self) -> None:
        started = time.perf_counter()
        try:
            from transformers import AutoModelForCausalLM, AutoTokenizer

            self.tokenizer = AutoTokenizer.from_pretrained(self.model_dir)
            self.model = AutoModelForCausalLM.from_pretrained(self.model_dir)
            self.model.eval()
            _log(f"model loaded in {time.perf_counter() - started:.1f}s")
        except Exception as exc:  # reported through /health and the log
            self.error = f"{type(exc).__name__}: {exc}"[:2000]
            _log("model load failed:\n" + traceback.format_exc())

    def complete(self, prompt: str, max_tokens: int) -> _Completion:
        import torch

        with self.lock, torch.no_grad():
            batch = self.tokenizer(prompt, return_tensors="pt")
            pad = (
                self.tokenizer.pad_token_id
                if self.tokenizer.pad_token_id is not None
                else self.tokenizer.eos_token_id
            )
            out = self.model.generate(**batch, max_new_tokens=max_tokens, do_sample=False, pad_token_id=pad)
        new = out[0, batch["input_ids"].shape[1] :].tolist()
        eos = self.tokenizer.eos_token_id
        finish = "stop" if eos is not None and eos in new else "length"
        text = self.tokenizer.decode(new, skip_special_tokens=True)
        return {
            "object": "text_completion",
            "model": self.model_dir,
            "choices": [{"index": 0, "text": text, "finish_reason": finish}],
            "usage": {"prompt_tokens": int(batch["input_ids"].shape[1]), "completion_tokens": len(new)},
        }


def _log(message: str) -> None:
    print(f"[quarkci-server {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def _handler(state: _State) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - upstream signature
            _log(format % args)

        def _send(self, code: int, body: Mapping[str, object]) -> None:
            data = json.dumps(body).encode()
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:  # noqa: N802 - http.server naming
            if self.path == "/health":
                if state.error:
                    self._send(500, {"status": "error", "error": state.error})
                elif state.model is None:
                    self._send(503, {"status": "loading"})
                else:
                    self._send(200, {"status": "ok"})
            elif self.path == "/v1/models":
                self._send(200, {"object": "list", "data": [{"id": state.model_dir, "object": "model"}]})
            else:
                self._send(404, {"error": "not found"})

        def do_POST(self) -> None:  # noqa: N802 - http.server naming
            if self.path != "/v1/completions":
                self._send(404, {"error": "not found"})
                return
            if state.model is None:
                self._send(503, {"error": "model not loaded"})
                return
            try:
                length = int(self.headers.get("Content-Length") or 0)
                if not 0 < length <= MAX_BODY:
                    raise ValueError(f"body must be 1..{MAX_BODY} bytes")
                body = json.loads(self.rfile.read(length))
                prompt = body["prompt"]
                max_tokens = int(body.get("max_tokens", 16))
                if not isinstance(prompt, str) or not 0 < max_tokens <= MAX_TOKENS:
                    raise ValueError(f"prompt must be a string and 0 < max_tokens <= {MAX_TOKENS}")
            except (ValueError, KeyError, TypeError) as exc:
                self._send(400, {"error": str(exc)[:200]})
                return
            try:
                self._send(200, state.complete(prompt, max_tokens))
            except Exception as exc:  # a generation failure is the canary's finding, reported as 500
                _log("generation failed:\n" + traceback.format_exc())
                self._send(500, {"error": f"{type(exc).__name__}: {exc}"[:500]})

    return Handler


def serve(model_dir: str, port_file: str | None = None, port: int = 0) -> None:
    """Bind 127.0.0.1, write the port to ``port_file``, load the model in the background, serve forever."""
    state = _State(model_dir)
    server = ThreadingHTTPServer((HOST, port), _handler(state))
    bound = server.server_address[1]
    _log(f"listening on http://{HOST}:{bound} (pid {os.getpid()}), loading {model_dir}")
    if port_file:
        tmp = Path(f"{port_file}.tmp")
        tmp.write_text(str(bound))
        os.replace(tmp, port_file)
    threading.Thread(target=state.load, daemon=True).start()
    server.serve_forever()


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``python -m quarkci.day0.server``."""
    parser = argparse.ArgumentParser(prog="quarkci-day0-server", description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True)
    parser.add_argument("--port-file")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args(argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    serve(args.model, args.port_file, args.port)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
