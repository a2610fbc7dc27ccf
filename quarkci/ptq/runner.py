"""``ptq run``: execute a confirmed manifest in-process with amd-quark's API, on CPU or GPU.

The sequence is Quark's own (``quark-cli torch-llm-ptq``, amd-quark 0.13
``quark/experimental/cli/torch_llm_ptq.py``): load the model -> calibration dataloader ->
``LLMTemplate.get(model_type).get_config(...)`` -> ``ModelQuantizer.quantize_model`` -> ``freeze``
-> ``export_safetensors(custom_mode="quark", weight_format="real_quantized", pack_method="reorder")``
(hf_format) -> tokenizer saved next to it. ``quark.torch`` is imported once per process.

Progress goes to stderr (Quark's own console output is redirected there too). The export is
written to a temporary sibling directory and renamed onto the output directory only when complete.

Upstream failures are values, not tracebacks: an exception raised inside a stage becomes a
:class:`RunResult` with ``status: "failed"``, the stage, the failure class (see
:mod:`quarkci.gates.failure_class`) and the upstream message (for an empty message, the exception
type and the innermost ``quark/`` frame).
"""

from __future__ import annotations

import contextlib
import os
import platform
import shutil
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from quarkci.core.documents import write_artifact
from quarkci.gates.failure_class import FailureClass
from quarkci.ptq import quark_api, quark_static
from quarkci.ptq.doc_types import Calibration, QuantPlan, RunResultDoc
from quarkci.ptq.plan import CLI_DATASETS

if TYPE_CHECKING:  # the ML stack is not analysed (pyproject [tool.mypy]): these names are Any to mypy
    from torch.utils.data import DataLoader
    from transformers import PreTrainedTokenizerBase

STAGES = ("load", "calibration", "config", "quantize", "freeze", "export")
# what a failure in each stage means (classified where it is detected)
STAGE_FAILURE_CLASS = {
    "load": FailureClass.MODEL_UNSUPPORTED,
    "calibration": FailureClass.USER_CONFIG_ERROR,
    "config": FailureClass.USER_CONFIG_ERROR,
    "quantize": FailureClass.MODEL_UNSUPPORTED,
    "freeze": FailureClass.MODEL_UNSUPPORTED,
    "export": FailureClass.MODEL_UNSUPPORTED,
}


@dataclass
class RunResult:
    """Outcome of one PTQ run. Times in seconds. ``failure_class`` is a :class:`FailureClass` value."""

    status: Literal["succeeded", "failed"]
    scheme: str
    output_dir: str
    device: str
    model_dtype: str
    stage: str | None = None
    failure_class: str | None = None
    message: str | None = None
    exit_code: int = 0
    timings: dict[str, float] = field(default_factory=dict)
    versions: dict[str, str] = field(default_factory=dict)
    exclude_applied: list[str] = field(default_factory=list)

    def to_json(self) -> RunResultDoc:
        """The ``run_result`` document: every field, in field order (sorted keys when dumped)."""
        return {
            "status": self.status,
            "scheme": self.scheme,
            "output_dir": self.output_dir,
            "device": self.device,
            "model_dtype": self.model_dtype,
            "stage": self.stage,
            "failure_class": self.failure_class,
            "message": self.message,
            "exit_code": self.exit_code,
            "timings": dict(self.timings),
            "versions": dict(self.versions),
            "exclude_applied": list(self.exclude_applied),
        }


class StageFailed(Exception):
    """Raised by :func:`_stage` to stop the run; carries the stage and the upstream exception."""

    def __init__(self, stage: str, cause: BaseException):
        super().__init__(stage)
        self.stage = stage
        self.cause = cause


def upstream_message(exc: BaseException) -> str:
    """One line describing an upstream exception: ``Type: message``; for an empty message the
    innermost frame inside a ``quark/`` package (``file:line: source``) is appended."""
    text = " ".join(str(exc).split())
    head = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    if text:
        return head[:1000]
    frames = traceback.extract_tb(exc.__traceback__)
    quark_frames = [f for f in frames if f"{os.sep}quark{os.sep}" in f.filename] or frames
    if quark_frames:
        f = quark_frames[-1]
        short = f.filename.split(f"{os.sep}site-packages{os.sep}")[-1]
        head += f" at {short}:{f.lineno}" + (f": {f.line.strip()}" if f.line else "")
    return head[:1000]


@contextlib.contextmanager
def _stage(name: str, timings: dict[str, float], say: Callable[[str], None]) -> Iterator[None]:
    index = STAGES.index(name) + 1
    say(f"ptq run: [{index}/{len(STAGES)}] {name} ...")
    start = time.perf_counter()
    try:
        yield
    except Exception as exc:  # upstream failure: becomes a value (see module docstring)
        timings[name] = round(time.perf_counter() - start, 3)
        raise StageFailed(name, exc) from exc
    timings[name] = round(time.perf_counter() - start, 3)
    say(f"ptq run: [{index}/{len(STAGES)}] {name} done in {timings[name]:.2f}s")


def resolve_device(requested: str) -> str:
    """``auto`` -> ``cuda`` when torch sees an accelerator (CUDA or ROCm), else ``cpu``."""
    import torch

    if requested == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    return requested


def calibration_dataloader(calib: Calibration, tokenizer: PreTrainedTokenizerBase, device: str) -> DataLoader:
    """A DataLoader of ``input_ids`` tensors ``[batch, seq_len]`` for Quark's calibration.

    ``calib["dataset"]`` is a text file (one sample per line; the first ``num_calib_data`` lines,
    padded/truncated to ``seq_len``) or a quark-cli dataset name, loaded with Quark's
    ``get_calib_dataloader`` (needs the network and ``datasets``).
    Raises ``FileNotFoundError``/``ValueError`` (caught as a calibration-stage failure).
    """
    import torch

    dataset = str(calib.get("dataset"))
    num, seq_len, batch = int(calib["num_calib_data"]), int(calib["seq_len"]), int(calib["batch_size"])
    if dataset in CLI_DATASETS:
        from quark.torch.utils.llm import get_calib_dataloader

        return get_calib_dataloader(
            dataset_name=dataset,
            tokenizer=tokenizer,
            batch_size=batch,
            num_calib_data=num,
            seqlen=seq_len,
            device=device,
        )
    lines = [ln for ln in Path(dataset).read_text(encoding="utf-8").splitlines() if ln.strip()][:num]
    if not lines:
        raise ValueError(f"calibration file {dataset} has no samples")
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    ids = tokenizer(lines, return_tensors="pt", padding=True, truncation=True, max_length=seq_len)[
        "input_ids"
    ]
    return torch.utils.data.DataLoader(ids.to(device), batch_size=batch, shuffle=False)


def _versions() -> dict[str, str]:
    import torch
    import transformers

    return {
        "quark": quark_static.installed_quark_static().version,
        "torch": torch.__version__,
        "transformers": transformers.__version__,
        "python": platform.python_version(),
    }


def run_plan(
    plan: QuantPlan,
    output_dir: str | os.PathLike[str],
    say: Callable[[str], None] | None = None,
    overwrite: bool = False,
) -> RunResult:
    """Quantize and export ``plan``'s model to ``output_dir`` (must not exist or be empty, unless
    ``overwrite``: then an existing directory is replaced only once the new export is complete).

    Returns a :class:`RunResult`; upstream failures are recorded in it, never raised.
    Raises :class:`quark_api.QuarkUnavailable` when the ML stack cannot be imported.
    """
    emit = say or (lambda msg: print(f"quarkci: {msg}", file=sys.stderr, flush=True))
    started = time.perf_counter()
    qt = quark_api.quark_torch()
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    model_path = plan["model"]["model_path"]
    device = resolve_device(plan.get("device", "auto"))
    dtype_name = plan.get("model_dtype", "auto")
    out = Path(output_dir)
    result = RunResult(
        status="failed",
        scheme=plan["global_scheme"],
        output_dir=str(out),
        device=device,
        model_dtype=dtype_name,
        versions=_versions(),
    )
    timings = result.timings
    tmp: Path | None = None
    try:
        with contextlib.redirect_stdout(sys.stderr):
            with _stage("load", timings, emit):
                dtype = "auto" if dtype_name == "auto" else getattr(torch, dtype_name)
                model = AutoModelForCausalLM.from_pretrained(model_path, dtype=dtype, trust_remote_code=False)
                model = model.to(device).eval()
                tokenizer = AutoTokenizer.from_pretrained(model_path, trust_remote_code=False)
                result.model_dtype = str(next(model.parameters()).dtype).removeprefix("torch.")
            with _stage("calibration", timings, emit):
                dataloader = calibration_dataloader(plan["calibration"], tokenizer, device)
            with _stage("config", timings, emit):
                template = qt.LLMTemplate.get(plan["model"]["model_type"])
                algorithms = plan.get("algorithm")
                algorithm = algorithms.split(",") if algorithms else None
                config = template.get_config(
                    scheme=plan["global_scheme"],
                    algorithm=algorithm,
                    kv_cache_scheme=plan.get("kv_cache_scheme"),
                    layer_config=plan.get("layer_quant_config") or {},
                    exclude_layers=plan["exclude_layers"],
                )
            with _stage("quantize", timings, emit):
                quantizer = qt.ModelQuantizer(config)
                model = quantizer.quantize_model(model, dataloader)
                result.exclude_applied = list(quantizer.config.exclude or [])
            with _stage("freeze", timings, emit):
                model = quantizer.freeze(model)
            with _stage("export", timings, emit):
                out.parent.mkdir(parents=True, exist_ok=True)
                tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
                with torch.no_grad():
                    qt.export_safetensors(
                        model=model,
                        output_dir=str(tmp),
                        custom_mode="quark",
                        weight_format="real_quantized",
                        pack_method="reorder",
                    )
                tokenizer.save_pretrained(str(tmp))
                tmp.chmod(0o755)
                if out.exists():
                    if overwrite and any(out.iterdir()):
                        shutil.rmtree(out)  # explicitly asked for; the source model is refused up front
                    else:
                        out.rmdir()  # empty (checked before the run); non-empty fails loudly
                os.replace(tmp, out)
                tmp = None
        result.status = "succeeded"
    except StageFailed as failed:
        result.stage = failed.stage
        result.failure_class = STAGE_FAILURE_CLASS[failed.stage].value
        result.message = upstream_message(failed.cause)
        result.exit_code = 1
        emit(f"ptq run: {failed.stage} failed [{result.failure_class}]: {result.message}")
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    timings["total"] = round(time.perf_counter() - started, 3)
    return result


def write_run_result(result: RunResultDoc, path: str | Path) -> Path:
    """Write a run result (``RunResult.to_json()``) as the ``run_result`` artifact (schema-checked,
    atomic)."""
    return write_artifact("run_result", path, result)
