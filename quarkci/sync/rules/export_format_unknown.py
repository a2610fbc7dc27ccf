"""export-format-unknown: an export format the skill names is not offered by the release's export API."""

from __future__ import annotations

from dataclasses import replace

from quarkci.core.findings import Finding
from quarkci.facts.base import FactItem
from quarkci.sync.rules._common import kind_source, make, release
from quarkci.sync.rules._flags import resolve as resolve_flag
from quarkci.sync.state import AuditState

ID = "export-format-unknown"
DESC = "An export format the skill names matches no export function, exporter class or CLI choice upstream"
CATEGORY = "export_formats"


def _key(text: str) -> str:
    """``hf_format`` / ``HF-Format`` -> ``hf``: spelling-insensitive, without a trailing ``format``."""
    key = text.lower().replace("-", "").replace("_", "")
    return key[: -len("format")] if key.endswith("format") and len(key) > len("format") else key


def offered(items: list[FactItem]) -> set[str]:
    """Format keys the export facts offer: CLI choices and API names, ``export_X`` -> X,
    ``XExporter`` -> X (so ``GgufExporter`` offers ``gguf``), and the export package's module a function
    is defined in (0.9's ``export_hf_model`` in ``quark/torch/export/safetensors.py`` offers ``safetensors``)."""
    keys = set()
    for item in items:
        name = item.name
        folder, _, module = item.file.rpartition("/")
        if folder.endswith("/export") and module.endswith(".py"):
            stem = module[: -len(".py")]
            if stem not in ("__init__", "api", "utils", "constants", "main"):
                keys.add(_key(stem))
        keys.add(_key(name))
        if name.startswith("export_"):
            keys.add(_key(name[len("export_") :]))
        if name.endswith("Exporter"):
            keys.add(_key(name[: -len("Exporter")]))
        if name.endswith("ExporterConfig"):
            keys.add(_key(name[: -len("ExporterConfig")]))
    keys.discard("")
    return keys


def check(state: AuditState) -> list[Finding]:
    """One ``removed`` finding per ``export_format`` claim no export fact offers (see :func:`offered`)."""
    view = state.upstream
    items = view.items("export_formats")
    if not items:
        return []
    keys = offered(items)
    out = []
    for claim in state.claims_of("export_format"):
        if claim.context.get("where") == "flag":
            # a `--model_export X` value belongs to that command's parser: cli-flag-choice-invalid checks it
            # where the parser is in the release; for an absent script it is unverifiable, not an unknown format
            as_flag = replace(claim, kind="cli_flag", value=str(claim.context.get("flag", "--model_export")))
            res = resolve_flag(as_flag, view, state.baseline)
            if res.status != "removed" or res.target.any_script:
                if res.status == "not_shown":
                    out.append(
                        make(
                            ID,
                            CATEGORY,
                            "not_shown",
                            claim,
                            skill_says=f"passes `{claim.value}` to {res.target.label}",
                            source_says=f"{release(view)}: cannot tell; {res.reason}",
                            impact="unknown until the command runs",
                        )
                    )
                continue
        key = _key(claim.value)
        if key in keys or any(key in k for k in keys if len(key) >= 4):
            continue
        out.append(
            make(
                ID,
                CATEGORY,
                "removed",
                claim,
                skill_says=f"exports as `{claim.value}`",
                source_says=f"{release(view)} offers no `{claim.value}` export (API: "
                f"{', '.join(sorted(i.name for i in items if i.name.startswith('export_'))) or 'none'})",
                impact="the export step the skill describes is not available",
                source=kind_source(view, "export_formats"),
            )
        )
    return out
