"""The typed JSON form of a family is the value ``dataclasses.asdict`` gives: same keys in the same
order, tuples kept (the feature files render them), so features/map.json keeps its bytes."""

from __future__ import annotations

import json
from dataclasses import asdict, replace

from quarkci.verify.family_json import family_dict
from quarkci.verify.inventory import locate, scan
from quarkci.verify.model import Gate


def _keys(value: object) -> object:
    """The key order of every object in ``value``, recursively."""
    if isinstance(value, dict):
        return [(k, _keys(v)) for k, v in value.items()]
    if isinstance(value, list | tuple):
        return [_keys(v) for v in value]
    return None


def test_family_dict_is_asdict_for_every_minikern_family(minikern):
    families = scan(locate(str(minikern))).families
    assert len(families) == 4 and any(f.entry_points and f.perf for f in families)
    for family in families:
        typed, plain = family_dict(family), asdict(family)
        assert typed == plain and _keys(typed) == _keys(plain), family.name
        assert json.dumps(typed) == json.dumps(plain)
        assert repr(typed) == repr(plain)  # tuples stay tuples (a gate's shapes render as they did)


def test_a_field_family_dict_missed_would_be_caught():
    """Negative control: the comparison sees one changed gate value inside an entry point."""
    family = next(f for f in scan(locate("tests/fixtures/verify/minikern")).families if f.entry_points)
    entry = family.entry_points[0]
    moved = replace(family, entry_points=(replace(entry, gate=Gate(rtol=0.5)), *family.entry_points[1:]))
    assert family_dict(moved) != asdict(family)
    assert family_dict(moved)["entry_points"][0]["gate"]["rtol"] == 0.5
