"""python-module-misspelt: a Quark module path the skill imports or names that no amd-quark release has."""

from __future__ import annotations

import difflib

from quarkci.core.findings import Finding
from quarkci.sync.rules._api import index_of, unknown_module
from quarkci.sync.rules._common import make, release
from quarkci.sync.state import AuditState

ID = "python-module-misspelt"
DESC = "A module path the skill imports or names exists in no amd-quark release (check the name)"
CATEGORY = "public_api"


def check(state: AuditState) -> list[Finding]:
    """``changed`` per ``python_name`` claim whose module path no release of the vocabulary has
    (:func:`~quarkci.sync.rules._api.unknown_module`: ``quark.torch.quantisation.config``), with the
    nearest module of the audited release (:func:`difflib.get_close_matches` over its module names) as
    the suggestion. Classified semantic (check the name), see ``RULE_KINDS`` in :mod:`quarkci.sync.policy`;
    ``python-import-unresolved`` leaves these claims to it. Silent without a vocabulary or ``public_api``."""
    index = index_of(state.upstream)
    vocabulary = state.vocabulary
    if not index or vocabulary is None:
        return []
    modules = sorted(index.modules)
    out = []
    for claim in state.claims_of("python_name", historical=True):
        module = unknown_module(claim, index, lambda m: bool(vocabulary.releases_of("module", m)))
        if module is None:
            continue
        nearest = difflib.get_close_matches(module, modules, n=1, cutoff=0.75)
        hint = f"; the nearest module of {release(state.upstream)} is `{nearest[0]}`" if nearest else ""
        text = claim.context.get("text") or claim.value
        out.append(
            make(
                ID,
                CATEGORY,
                "changed",
                claim,
                subject=module,
                skill_says=f"uses `{text}`",
                source_says=f"no amd-quark release has a module `{module}`: check the name{hint}",
                impact=f"`{text}` raises ModuleNotFoundError",
            )
        )
    return out
