"""The EXTRACTORS registry, extract_all and the FactSet wire form."""

from __future__ import annotations

import json

from quarkci.facts import EXTRACTORS, extract_all
from quarkci.facts.base import FACT_KINDS


def test_registry_is_explicit_ordered_and_complete():
    assert tuple(EXTRACTORS) == FACT_KINDS
    for kind, module in EXTRACTORS.items():
        assert kind == module.KIND
        assert callable(module.extract)


def test_extract_all_wire_form(wheel):
    payload = extract_all(wheel).to_json()
    assert list(payload) == ["version", "source", "coverage", *FACT_KINDS]
    assert payload["version"] == "0.99" and payload["coverage"] == ["metadata", "quark"]
    for kind in FACT_KINDS:
        for item in payload[kind]["items"]:
            assert {"name", "file", "line"} <= set(item)
            assert isinstance(item["line"], int) and item["line"] >= 1
    assert all(item["script"] for item in payload["cli_flags"]["items"])
    assert payload["torch_matrix"]["unavailable"] == ["docs/source/install.rst", "tools/ci/install_torch.sh"]
    json.dumps(payload)  # serialisable


def test_extract_all_subset(checkout):
    facts = extract_all(checkout, ["schemes"])
    assert list(facts.kinds) == ["schemes"]
    assert facts.names("schemes") == {"fp8", "fp8_legacy", "int4_wo_64", "int8", "mx9"}
