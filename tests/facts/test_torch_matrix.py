"""torch_matrix: index-url tags, torch pins and version variables; unverifiable in a wheel."""

from __future__ import annotations

from quarkci.facts import torch_matrix
from tests.facts.conftest import by_name


def test_checkout_script_and_install_rst(checkout):
    items, unavailable = torch_matrix.extract(checkout)
    assert unavailable == []
    found = by_name(items)
    assert {i.attrs["accelerator"] for n in ("rocm6.4", "cu128", "cpu") for i in found[n]} == {
        "rocm",
        "cuda",
        "cpu",
    }
    assert sorted(i.file for i in found["rocm6.4"]) == [
        "docs/source/install.rst",
        "tools/ci/install_torch.sh",
    ]
    assert [i.attrs["specifier"] for i in found["torch"]] == ["==2.9.0"]
    assert found["TORCH_VERSION"][0].attrs["value"] == "2.9.0"
    assert found["ROCM_VERSION"][0].attrs["value"] == "6.4"
    assert "torchvision" not in found  # named without a version: not a pin


def test_wheel_reports_unavailable_and_metadata_pins(wheel):
    items, unavailable = torch_matrix.extract(wheel)
    assert unavailable == ["docs/source/install.rst", "tools/ci/install_torch.sh"]
    assert [(i.name, i.attrs["specifier"], i.file) for i in items] == [("torch", "==2.9.0", "METADATA")]


def test_accelerator_of():
    assert [torch_matrix.accelerator_of(t) for t in ("rocm7.0", "cu126", "cpu", "xpu", "nightly")] == [
        "rocm",
        "cuda",
        "cpu",
        "xpu",
        "other",
    ]
