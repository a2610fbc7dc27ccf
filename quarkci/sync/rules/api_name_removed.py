"""api-name-removed: a public module or name the skill uses existed in the baseline and is gone."""

from __future__ import annotations

from quarkci.core.findings import Finding, Location
from quarkci.core.rules import Skip
from quarkci.sync.rules._api import index_of, public_names, resolve
from quarkci.sync.rules._common import make, release
from quarkci.sync.state import AuditState

ID = "api-name-removed"
DESC = (
    "A module, class or function the skill imports or tells users to call was in the baseline release "
    "and is not in this one"
)
CATEGORY = "public_api"


def check(state: AuditState) -> list[Finding]:
    """``removed`` (breaking) per ``python_name`` claim resolving in the baseline but not upstream; a bare
    CamelCase name (```ModelExporter```) counts when a framework package of the baseline (``quark``,
    ``quark.torch``, ``quark.onnx``...) exported it and none of this release does. Skipped without a
    baseline; silent when either side shows no ``public_api``."""
    if state.baseline is None:
        raise Skip("needs a baseline")
    view, base = state.upstream, state.baseline
    index, base_index = index_of(view), index_of(base)
    if not index or not base_index:
        return []
    now_public: dict[str, str] | None = None
    was_public: dict[str, str] | None = None
    out = []
    for claim in state.claims_of("python_name"):
        if claim.context.get("form") == "bare":
            now_public = now_public if now_public is not None else public_names(view, top_level=True)
            was_public = was_public if was_public is not None else public_names(base, top_level=True)
            name = claim.value
            if name in now_public or name not in was_public:
                continue
            module = was_public[name]
            elsewhere = public_names(view).get(name)
            out.append(
                make(
                    ID,
                    CATEGORY,
                    "removed",
                    claim,
                    skill_says=f"tells users to use `{name}`",
                    source_says=f"{release(view)} exports no `{name}` from its framework packages; "
                    f"amd-quark {base.version} had `{module}.{name}`"
                    + (f" (only `{elsewhere}.{name}` remains, a different module)" if elsewhere else ""),
                    impact=f"code written from the skill fails: `from {module} import {name}` raises "
                    "ImportError",
                    source=Location(base_index.modules[module].file, 1),
                )
            )
            continue
        res = resolve(claim, index)
        if res.status not in ("no_module", "no_name"):
            continue
        was = resolve(claim, base_index)
        if was.status != "ok":
            continue
        text = claim.context.get("text") or claim.value
        gone = f"module `{res.module}`" if res.status == "no_module" else f"`{res.module}.{res.name}`"
        out.append(
            make(
                ID,
                CATEGORY,
                "removed",
                claim,
                skill_says=f"uses `{text}`",
                source_says=f"{release(view)} removed {gone} (in amd-quark {base.version}: {was.file})",
                impact=f"`{text}` fails with ImportError/AttributeError",
                source=Location(res.file, 1) if res.file else None,
            )
        )
    return out
