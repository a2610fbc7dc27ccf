"""Which schemes the real runs of the test suite show working, per device and Quark version.

Recorded from the ML test tier (``tests/ptq/test_workflow_ml.py``, demo model, fp32, CPU) on
amd-quark 0.13; each entry names the test that shows it, so a plan can warn with the evidence before
minutes of calibration are spent. A scheme not listed is simply untested here (no warning).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

TESTS = "tests/ptq/test_workflow_ml.py"


@dataclass(frozen=True)
class Evidence:
    """One observed outcome: ``works`` or not, what happened, and the test that shows it."""

    works: bool
    outcome: str
    test: str


# (quark version, device) -> scheme -> evidence
OBSERVED: dict[tuple[str, str], dict[str, Evidence]] = {
    ("0.13", "cpu"): {
        **{
            s: Evidence(
                True,
                "quantizes, exports, reloads in transformers and keeps the demo-task accuracy",
                f"{TESTS}::test_scheme_end_to_end_passes_the_gate[{s}]",
            )
            for s in ("fp8", "int8", "int4_wo_128", "mxfp4")
        },
        **{
            s: Evidence(
                False,
                "fails at export (AssertionError in quark/torch/export)",
                f"{TESTS}::test_schemes_that_fail_at_export[{s}]",
            )
            for s in ("mx6", "mx9", "bfp16")
        },
        **{
            s: Evidence(
                False,
                "exports, but transformers reloads it with missing/unexpected keys and garbage "
                "output (no exception)",
                f"{TESTS}::test_schemes_that_reload_wrong[{s}]",
            )
            for s in ("nvfp4", "int4_fp8", "fp4_block16_scale_e4m3")
        },
        "amdfp4_global16": Evidence(
            False,
            "exports, but the reloaded model fails at forward (dequantize)",
            f"{TESTS}::test_amdfp4_global16_fails_on_reload",
        ),
    },
}


def target_device(device: str) -> str:
    """``cpu`` or ``cuda`` for a plan's device; ``auto`` is decided without importing torch, from the
    accelerator device nodes (``/dev/kfd`` for ROCm, ``/dev/nvidiactl`` for CUDA)."""
    if device != "auto":
        return device
    return "cuda" if any(os.path.exists(p) for p in ("/dev/kfd", "/dev/nvidiactl")) else "cpu"


def plan_warnings(scheme: str, device: str, quark_version: str) -> list[str]:
    """One warning per known failure of ``scheme`` on ``device`` with ``quark_version``, with its evidence."""
    seen = OBSERVED.get((quark_version, target_device(device)), {}).get(scheme)
    if seen is None or seen.works:
        return []
    return [
        f"scheme {scheme} is known to fail on {target_device(device)} with amd-quark {quark_version}: "
        f"{seen.outcome} (evidence: {seen.test})"
    ]
