"""python: Requires-Python and classifiers from METADATA or pyproject, plus install.rst statements."""

from __future__ import annotations

from quarkci.facts import python
from tests.facts.conftest import by_name


def test_wheel_metadata(wheel):
    items, unavailable = python.extract(wheel)
    found = by_name(items)
    spec = found["requires-python"][0]
    assert spec.attrs["specifier"] == ">=3.11,<3.14"
    assert (spec.file, spec.line) == ("METADATA", 10)  # the header, not the body's look-alike line
    assert len(found["requires-python"]) == 1
    assert sorted(n for n in found if n != "requires-python") == ["3.11", "3.12"]
    assert found["3.11"][0].attrs["source"] == "classifier"
    assert unavailable == [python.INSTALL_RST]


def test_checkout_pyproject_and_install_rst(checkout):
    items, unavailable = python.extract(checkout)
    assert unavailable == []
    found = by_name(items)
    spec = found["requires-python"][0]
    assert spec.attrs["specifier"] == ">=3.11,<3.14" and spec.attrs["raw"] == "<3.14, >=3.11"
    assert (spec.file, spec.line) == ("pyproject.toml", 4)
    # "Programming Language :: Python :: 3" (no minor) is not a version item
    assert sorted(i.file for i in found["3.11"]) == ["docs/source/install.rst", "pyproject.toml"]
    assert [i.attrs["source"] for i in found["3.13"]] == ["install.rst"]
    # negative control: "PyTorch 2.9" / "Version 2.10" lines give no python versions
    assert not {"2.9", "2.10", "3"} & set(found)
