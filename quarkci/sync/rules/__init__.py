"""Drift rules: one module per rule, each with ``ID``, ``DESC``, ``CATEGORY`` and ``check(state)``.

A rule is a pure function of an :class:`~quarkci.sync.state.AuditState` returning
:class:`~quarkci.core.findings.Finding` objects with a ``change`` (never a ``kind``: the policy
layer classifies). Rules never filter, format or write. A rule whose prerequisite is missing
raises :class:`Skip` (logged, not an error); a crash is wrapped in :class:`RuleError` tagged
with the rule id (both from :mod:`quarkci.core.rules`, whose ``run_rules`` runs sync's and verify's
registries alike). The ordered list of rules lives in :mod:`quarkci.sync.registry`.
"""

from __future__ import annotations

import logging
import os
from urllib.parse import urlsplit

# Where docs/rules.md is published: SARIF ``helpUri`` needs an absolute URL. A fork points it at its own
# copy with the environment variable QUARKCI_DOCS_URL (e.g. https://github.com/ORG/quarkci/blob/main/docs/rules.md).
DEFAULT_DOCS_URL = "https://github.com/amd/quarkci/blob/main/docs/rules.md"
DOCS_URL_ENV = "QUARKCI_DOCS_URL"
_log = logging.getLogger(__name__)


def docs_base() -> str:
    """The absolute URL of docs/rules.md: ``$QUARKCI_DOCS_URL`` when it is an absolute http(s) URL
    without a fragment (anything else is logged and ignored), else :data:`DEFAULT_DOCS_URL`."""
    value = os.environ.get(DOCS_URL_ENV, "").strip()
    if value:
        parts = urlsplit(value)
        if parts.scheme in ("https", "http") and parts.netloc and not parts.fragment and len(value) <= 2048:
            return value
        _log.warning(
            "%s is not an absolute http(s) URL without a #fragment; using %s", DOCS_URL_ENV, DEFAULT_DOCS_URL
        )
    return DEFAULT_DOCS_URL


def docs_url(rule_id: str) -> str:
    """Absolute URL of a rule's section in docs/rules.md, derived from its id so the id and the docs
    never drift apart (the section heading is the id: GitHub's anchor of ``## <id>`` is ``#<id>``)."""
    return f"{docs_base()}#{rule_id}"
