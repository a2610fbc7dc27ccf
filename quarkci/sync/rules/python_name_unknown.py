"""python-name-unknown: a Python name a skill uses in prose that the release does not define, though another
release does."""

from __future__ import annotations

import re

from quarkci.core.findings import Finding
from quarkci.facts.vocabulary import api_names
from quarkci.sync.rules._api import index_of
from quarkci.sync.rules._common import make, release, releases_text
from quarkci.sync.state import AuditState

ID = "python-name-unknown"
DESC = (
    "A class or function a skill names in prose (`export_safetensors`, `GPTAQConfig`) that no module of the "
    "release defines, though another release does"
)
CATEGORY = "public_api"


def check(state: AuditState) -> list[Finding]:
    """``removed`` (breaking) per bare ``python_name`` claim (a name in a code span of prose) that no module
    of the audited release defines as a class or function while some release of the vocabulary does; a
    claim the text presents as past or unsupported is left alone, and so is a method of a class the same
    sentence writes called (0.8's ``ModelImporter(...)`` then ``import_model_info(model)``, "``ModelImporter
    (model_info_dir)`` has ``import_model_info``"). A name
    no release defines is
    ``python-name-misspelt``'s. Silent without a vocabulary or ``public_api``."""
    vocabulary = state.vocabulary
    if not index_of(state.upstream) or vocabulary is None:
        return []
    defined_here, members = api_names(state.upstream.facts)
    owners: dict[str, set[str]] = {}  # method name -> the classes defining it
    for member in members:
        owner, _, name = member.rpartition(".")
        owners.setdefault(name, set()).add(owner)
    out = []
    for claim in state.claims_of("python_name"):
        if claim.context.get("form") != "bare" or claim.value in defined_here:
            continue
        around = str(claim.context.get("around") or "")
        if any(re.search(rf"\b{re.escape(c)}\(", around) for c in owners.get(claim.value, ())):
            # "`ModelImporter(...)` followed by `import_model_info(model)`": the method of the instance made
            continue
        if claim.context.get("historical") or claim.context.get("negative"):
            continue
        # a CamelCase name: a class any module of a release defined; a snake_case one: a name a framework
        # package exported (a field or parameter such as `base_url` is no function users import)
        kind = "name" if claim.value[:1].isupper() else "export"
        defined = vocabulary.releases_of(kind, claim.value)
        if not defined:
            continue
        out.append(
            make(
                ID,
                CATEGORY,
                "removed",
                claim,
                skill_says=f"names `{claim.value}`",
                source_says=f"no module of {release(state.upstream)} defines `{claim.value}`; releases "
                f"defining it: {releases_text(defined)}",
                impact=f"code written from the skill fails: `{claim.value}` cannot be imported",
            )
        )
    return out
