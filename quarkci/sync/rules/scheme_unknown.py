"""scheme-unknown: a scheme the skill names is not defined upstream."""

from __future__ import annotations

from quarkci.core.findings import Finding
from quarkci.facts.cli_flags import scheme_choices
from quarkci.facts.vocabulary import Vocabulary
from quarkci.skills.claims.tokens import family_head
from quarkci.sync.rules._common import unknown_names
from quarkci.sync.state import AuditState

ID = "scheme-unknown"
DESC = "A scheme the skill names is not defined upstream"
CATEGORY = "schemes"


def check(state: AuditState) -> list[Finding]:
    """See :func:`quarkci.sync.rules._common.unknown_names` (claims `scheme` vs facts `schemes`).

    A name the release's CLI accepts as a scheme is known too: the ``choices`` of every flag whose
    option names a scheme (``--quant_scheme``, ``--kv_cache_quant_scheme``); 0.10's ``quark-cli
    torch-llm-ptq`` took ``w_*`` names from its own ``SUPPORTED_QUANT_SCHEME`` list
    (``quark/experimental/cli/torch_llm/llm_ptq/customized_configuration.py``). A name no release defines
    within two edits of a known name, or a variant of a known scheme
    (:func:`~quarkci.skills.claims.tokens.family_head`: ``ptpc_fp8_dynamic``), is ``scheme-misspelt``'s
    (semantic: check the name), wherever it was read; one close to none (``w_int4_a_bf16``) stays here
    (breaking: the command fails, and no name was evidently meant).
    """
    vocabulary = state.vocabulary
    return unknown_names(
        state,
        rule=ID,
        category=CATEGORY,
        claim_kind="scheme",
        fact_kind="schemes",
        noun="scheme",
        accepted=scheme_choices(state.upstream.items("cli_flags")),
        history=(lambda name: vocabulary.releases_of("scheme", name)) if vocabulary is not None else None,
        misspelt=(lambda name: _close_to_known(name, vocabulary)) if vocabulary is not None else None,
    )


def _close_to_known(name: str, vocabulary: Vocabulary) -> bool:
    """True when ``name`` is within two edits of a scheme some release defines, or a variant of one."""
    return (
        vocabulary.nearest("scheme", name) is not None
        or family_head(name, vocabulary.names("scheme")) is not None
    )
