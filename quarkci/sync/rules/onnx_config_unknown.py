"""onnx-config-unknown: an ONNX configuration name the skill uses that the release does not define."""

from __future__ import annotations

from quarkci.core.findings import Finding, Location
from quarkci.facts.public_api import ONNX_CONFIG_MODULE, onnx_configs
from quarkci.skills.model import Claim
from quarkci.sync.rules._common import make, release, releases_text
from quarkci.sync.state import AuditState

ID = "onnx-config-unknown"
DESC = "An ONNX configuration name (`XINT8`, `A8W8_ADAROUND`) the release's DefaultConfigMapping lacks"
CATEGORY = "schemes"
SOURCE = "quark/onnx/quantization/config/custom_config.py"


def unknown(state: AuditState) -> list[tuple[Claim, tuple[str, ...]]]:
    """``(claim, releases having the name)`` per ``onnx_config`` claim the audited release's
    ``DefaultConfigMapping`` lacks (a "not available" sentence agrees with the absence); empty when the
    release shows no such table or there is no vocabulary."""
    names = onnx_configs(state.upstream.items("public_api"))
    if not names or state.vocabulary is None:
        return []
    out = []
    for claim in state.claims_of("onnx_config", historical=True):
        if (
            claim.value in names
            or claim.value.removesuffix("_CONFIG") in names
            or claim.context.get("negative")
        ):
            continue
        having = state.vocabulary.releases_of("onnx_config", claim.value.removesuffix("_CONFIG"))
        if having and claim.context.get("historical"):
            continue  # "XINT8_ADAROUND was added later": true history
        out.append((claim, having))
    return out


def check(state: AuditState) -> list[Finding]:
    """``removed`` (breaking: ``get_default_config`` raises for a name its table lacks) per ``onnx_config``
    claim another release defines; one no release defines is ``onnx-config-misspelt``'s."""
    out = []
    for claim, having in unknown(state):
        if not having:
            continue
        out.append(
            make(
                ID,
                CATEGORY,
                "removed",
                claim,
                subject=f"ONNX config {claim.value}",
                skill_says=f"uses ONNX config `{claim.value}`",
                source_says=f"{release(state.upstream)}: `DefaultConfigMapping` ({ONNX_CONFIG_MODULE}) has "
                f"no `{claim.value}`; releases defining it: {releases_text(having)}",
                impact=f"`get_default_config('{claim.value}')` and `--config {claim.value}` fail here",
                source=Location(SOURCE, 0),
            )
        )
    return out
