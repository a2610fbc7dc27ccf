"""schemes: literal-key ``_schemes[...]`` assignments with aliases; never docstrings, reads or variable keys."""

from __future__ import annotations

from quarkci.facts import schemes
from tests.facts.conftest import by_name


def test_assignments_and_alias(checkout):
    items, unavailable = schemes.extract(checkout)
    assert unavailable == []
    assert [i.name for i in items] == ["fp8", "fp8_legacy", "int4_wo_64", "int8", "mx9"]
    found = by_name(items)
    assert found["fp8_legacy"][0].attrs["alias_of"] == "fp8"
    assert found["int4_wo_64"][0].attrs == {
        "alias_of": None,
        "scheme_class": "Int4Scheme",
        "args": "group_size=64",
    }
    assert found["int8"][0].file == schemes.TEMPLATE_PATH
    assert found["int8"][0].line == 25  # the assignment's own line


def test_negative_controls_docstrings_reads_and_variable_keys(checkout):
    names = {i.name for i in schemes.extract(checkout)[0]}
    # docstring mentions, a dict literal with "_schemes" as a key, the variable-key registration API
    assert not names & {"ghost_scheme_doc", "docstring_only", "ghost_dict_scheme", "scheme_name", "name"}
    # int8 is read and deleted elsewhere but assigned once: exactly one item
    assert sum(1 for i in schemes.extract(checkout)[0] if i.name == "int8") == 1


def test_wheel_gives_the_same_schemes(checkout, wheel):
    assert [i.name for i in schemes.extract(wheel)[0]] == [i.name for i in schemes.extract(checkout)[0]]


class _Empty:
    coverage = frozenset({"metadata"})

    def exists(self, path):
        return False

    def covers(self, path):
        return path == "METADATA"


def test_absent_template_is_unavailable_only_when_not_covered(checkout):
    assert schemes.extract(_Empty()) == ([], [schemes.TEMPLATE_PATH])
