"""onnx-config-count-mismatch: the number of ONNX configuration names a skill states differs from the
release's ``DefaultConfigMapping`` (mechanical)."""

from __future__ import annotations

from quarkci.core.findings import Finding, Location
from quarkci.facts.public_api import ONNX_CONFIG_MODULE
from quarkci.sync.rules._common import count_fix, make, release
from quarkci.sync.state import AuditState

ID = "onnx-config-count-mismatch"
DESC = "The skill states a count of ONNX configuration names other than the DefaultConfigMapping's"
CATEGORY = "schemes"
SOURCE = "quark/onnx/quantization/config/custom_config.py"


def mapping_size(state: AuditState) -> int | None:
    """The number of keys of ``DefaultConfigMapping`` in the release's
    ``quark/onnx/quantization/config/custom_config.py`` (57 in 0.8.2, 64 in 0.9, 65 from 0.10 on), or None
    when the release shows no such table."""
    for item in state.upstream.items("public_api"):
        if item.name == ONNX_CONFIG_MODULE:
            keys = (item.attrs.get("tables") or {}).get("DefaultConfigMapping")
            if keys:
                return len(keys)
    return None


def check(state: AuditState) -> list[Finding]:
    """``changed`` per ``onnx_config_count`` claim whose number differs from :func:`mapping_size` (the
    names ``get_default_config`` and ``quark-cli onnx-ptq --config`` accept; the ``*_CONFIG`` constants
    and the auto-search presets are not counted); the fix rewrites a number written in digits once on the
    line. Silent when the release shows no table."""
    size = mapping_size(state)
    if size is None:
        return []
    out = []
    for claim in state.claims_of("onnx_config_count"):
        if claim.value == str(size):
            continue
        fix = count_fix(state, claim, size, "ONNX configuration count")
        out.append(
            make(
                ID,
                CATEGORY,
                "changed",
                claim,
                subject="ONNX configuration count",
                skill_says=f"states {claim.value} ONNX configuration names",
                source_says=f"{release(state.upstream)}: `DefaultConfigMapping` ({ONNX_CONFIG_MODULE}) has "
                f"{size} names",
                impact="the agent trusts a stale list size",
                source=Location(SOURCE, 0),
                fix=fix,
            )
        )
    return out
