"""The inventory of the miniature library: families, entry points, gates, arch gates, gaps."""

from __future__ import annotations

import pytest

from quarkci.core.errors import BadInputError
from quarkci.verify.inventory import locate, op_key, scan


def test_minikern_families_entry_points_and_gates(minikern):
    inv = scan(locate(str(minikern)))
    assert [f.name for f in inv.families] == ["gemm", "norm", "act", "flash"]
    gemm, norm, act, flash = inv.families
    assert (gemm.category, norm.category, act.category, flash.category) == (
        "GEMM",
        "norm",
        "activation",
        "attention",
    )
    assert gemm.arch == ("cpu",) and flash.arch == ("gfx942", "gfx950")
    pytest_gemm = gemm.entry_points[0]
    assert (pytest_gemm.kind, pytest_gemm.target, pytest_gemm.ops) == (
        "pytest",
        "tests/test_gemm.py",
        ("minikern.gemm:gemm",),
    )
    assert (pytest_gemm.gate.rtol, pytest_gemm.gate.atol) == (1e-4, 1e-4)
    assert pytest_gemm.gate.shapes == ((1, 64, 64), (17, 33, 65), (64, 64, 64), (5, 128, 31))
    assert set(pytest_gemm.gate.edge_cases) == {
        "small M (1)",
        "odd size",
        "partial tile (not a multiple of 32)",
    }
    script = next(e for e in norm.entry_points if e.kind == "script")
    assert script.flags == ("--dtype=float32", "--eps=1e-06", "--seed=0")
    assert script.gate.shapes == ((1, 8), (7, 33), (128, 1024)) and script.gate.dtypes == (
        "float32",
        "bfloat16",
    )
    assert next(e for e in norm.entry_points if e.kind == "pytest").gate.nan == "propagates (tested)"
    assert gemm.perf[0].regime == "cpu-fp32" and gemm.perf[0].runs == "5"
    assert gemm.isa == "g++ -O2 -S -o - minikern/csrc/gemm_tile.cpp"
    assert act.references == ("minikern.reference:reference_silu",) and not act.tested
    assert ("act", "no test in the library") in inv.gaps
    assert ("flash", "no test and no pure-torch reference in the library") in inv.gaps
    assert inv.version == "0.3.1"


def test_op_key_matches_references():
    assert op_key("reference_silu") == op_key("silu") == op_key("silu_ref") == op_key("silu_func") == "silu"


def test_bad_repo_is_one_line_bad_input(tmp_path):
    with pytest.raises(BadInputError, match="--repo .*not a directory"):
        locate(str(tmp_path / "nope"))
    with pytest.raises(BadInputError, match="no Python package"):
        locate(str(tmp_path))
    with pytest.raises(BadInputError, match="not installed"):
        locate("installed:no-such-dist-xyz")


def test_installed_defaults_to_amd_quark_and_finds_its_kernel_package():
    pytest.importorskip("quark")  # only to know it is installed; locate() itself imports nothing
    lib = locate("installed")
    assert lib.package == "quark.torch.kernel" and lib.installed and lib.version.startswith("0.13")


@pytest.mark.parametrize(
    "argv, message",
    [
        (["verify", "init", "--repo", "{lib}", "--skills", "{file}"], "--skills"),
        (["verify", "init", "--repo", "{lib}", "--lib", "bad name!"], "--lib bad name!"),
        (["verify", "prove", "--skill", "{tmp}", "--feature", "x"], "--skill"),
        (["verify", "maintain", "--skill", "{tmp}"], "--skill"),
    ],
)
def test_verify_bad_input_is_one_line_exit_2(minikern, tmp_path, capsys, argv, message):
    from quarkci import cli

    (tmp_path / "a-file").write_text("x")
    values = {"lib": str(minikern), "file": str(tmp_path / "a-file"), "tmp": str(tmp_path)}
    assert cli.main([a.format(**values) for a in argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]
    assert not (minikern / ".cursor").exists()
