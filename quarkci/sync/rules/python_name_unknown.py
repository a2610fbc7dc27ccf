"""python-name-unknown: a Python name a skill uses in prose that the release does not define, though another
release does."""

from __future__ import annotations

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
    claim the text presents as past or unsupported is left alone. A name no release defines is
    ``python-name-misspelt``'s. Silent without a vocabulary or ``public_api``."""
    vocabulary = state.vocabulary
    if not index_of(state.upstream) or vocabulary is None:
        return []
    defined_here, _members = api_names(state.upstream.facts)
    out = []
    for claim in state.claims_of("python_name"):
        if claim.context.get("form") != "bare" or claim.value in defined_here:
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
