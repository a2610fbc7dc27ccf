"""onnx-config-misspelt: an ONNX configuration name the skill uses that no release has ever defined."""

from __future__ import annotations

from quarkci.core.findings import Finding, Location
from quarkci.sync.rules._common import make, release
from quarkci.sync.rules.onnx_config_unknown import SOURCE, unknown
from quarkci.sync.state import AuditState

ID = "onnx-config-misspelt"
DESC = "An ONNX configuration name no amd-quark release defines, close to one that a release does"
CATEGORY = "schemes"


def check(state: AuditState) -> list[Finding]:
    """``changed`` (semantic, see ``RULE_KINDS`` in :mod:`quarkci.sync.policy`) per ``onnx_config`` claim
    no release defines, with the name it is close to or extends (``context["misspelt_of"]``)."""
    out = []
    for claim, having in unknown(state):
        nearest = claim.context.get("misspelt_of")
        if having or not isinstance(nearest, str):
            continue
        out.append(
            make(
                ID,
                CATEGORY,
                "changed",
                claim,
                subject=f"ONNX config {claim.value}",
                skill_says=f"uses ONNX config `{claim.value}`",
                source_says=f"no amd-quark release defines the ONNX config `{claim.value}`: check the name; "
                f"the nearest is `{nearest}` ({release(state.upstream)})",
                impact=f"`get_default_config('{claim.value}')` raises: no such configuration",
                source=Location(SOURCE, 0),
            )
        )
    return out
