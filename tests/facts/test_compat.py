"""compat: DEPRECATED_API_MAX_VERSION, is_transformers_version_* call sites, dependency pins."""

from __future__ import annotations

from quarkci.facts import compat
from tests.facts.conftest import by_name


def test_deprecated_table_and_version_checks(checkout):
    items, unavailable = compat.extract(checkout)
    assert unavailable == []
    found = by_name(items)
    assert found["old_cache_api"][0].attrs["max_version"] == "4.50.0"
    assert found["older_api"][0].line == 7
    check = found["transformers>=4.55.0"][0]
    assert check.attrs["function"] == "is_transformers_version_higher_or_equal"
    assert check.line == 10
    assert found["transformers<5.0"][0].attrs["specifier"] == "<5.0"
    # negative control: the bare reference on the last line is not a call site
    assert len([i for i in items if i.attrs["source"] == "version-check"]) == 2


def test_pyproject_pins_in_checkout(checkout):
    pins = {
        (i.name, i.attrs["specifier"], i.attrs["extra"])
        for i in compat.extract(checkout)[0]
        if i.attrs["source"] == "requires-dist"
    }
    assert pins == {
        ("numpy", ">=2.0", None),
        ("transformers", "<5,>=4.50", "cli"),
    }  # tqdm/accelerate unpinned


def test_metadata_pins_in_wheel(wheel):
    pins = {
        (i.name, i.attrs["specifier"], i.attrs["extra"], i.file)
        for i in compat.extract(wheel)[0]
        if i.attrs["source"] == "requires-dist"
    }
    assert pins == {
        ("numpy", ">=2.0", None, "METADATA"),
        ("torch", "==2.9.0", "ml", "METADATA"),
        ("transformers", "<5,>=4.50", "cli", "METADATA"),
    }


def test_metadata_lines_survive_a_multiline_license_header():
    """A License header continued over whitespace-only lines must not end the header block."""
    from quarkci.facts.source import metadata

    text = (
        "Metadata-Version: 2.4\nName: amd-quark\nLicense: MIT License\n        \n        Permission...\n"
        'Requires-Python: >=3.11\nRequires-Dist: transformers<5.17,>5; extra == "cli"\n\nlong description\n'
    )

    class _Snap:
        def exists(self, path):
            return True

        def read_text(self, path):
            return text

        def covers(self, path):
            return True

    headers, _ = metadata(_Snap())
    lines = {name: line for name, _value, line in headers}
    assert lines == {"Metadata-Version": 1, "Name": 2, "License": 3, "Requires-Python": 6, "Requires-Dist": 7}
