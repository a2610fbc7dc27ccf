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


def _checkout_with_pyproject(tmp_path, text):
    import shutil

    from quarkci.upstream.checkout import CheckoutSnapshot
    from tests.facts.conftest import MINI_CHECKOUT

    root = tmp_path / "checkout"
    shutil.copytree(MINI_CHECKOUT, root)
    (root / "pyproject.toml").write_text(text, encoding="utf-8")
    return CheckoutSnapshot(root)


def test_a_pyproject_that_tomllib_cannot_read_gives_no_pyproject_facts_not_a_traceback(tmp_path):
    """A 5,000-digit integer is ``ValueError`` in tomllib, 20,000 nested arrays ``RecursionError``, and a
    ``project = 5`` is no table: each reads as no [project] facts (issue 24's kind)."""
    from quarkci.facts import compat, dependencies

    for text in (
        '[project]\nname = "amd-quark"\nversion = ' + "9" * 5000 + "\n",
        "x = " + "[" * 20000 + "]" * 20000 + "\n",
        "project = 5\n",
    ):
        snapshot = _checkout_with_pyproject(tmp_path / str(len(text)), text)
        items, _ = python.extract(snapshot)
        assert not [i for i in items if i.file == "pyproject.toml"]
        deps, _ = dependencies.extract(snapshot)
        assert not [i for i in deps if i.file == "pyproject.toml"]
        compat.extract(snapshot)  # returns without raising
