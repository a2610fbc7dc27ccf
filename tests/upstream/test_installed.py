"""InstalledSnapshot: located through importlib.metadata, never by importing quark."""

from __future__ import annotations

import importlib.metadata as md
import subprocess
import sys

import pytest

from quarkci.core.errors import BadInputError
from quarkci.upstream.installed import InstalledSnapshot


def _fake_site(tmp_path):
    site = tmp_path / "site"
    (site / "quark" / "torch").mkdir(parents=True)
    (site / "quark" / "__init__.py").write_text("raise RuntimeError('must never be imported')\n")
    (site / "quark" / "torch" / "template.py").write_text("X = 1\n")
    info = site / "amd_quark-0.77.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: amd-quark\nVersion: 0.77\nRequires-Python: >=3.11\n"
    )
    (info / "RECORD").write_text(
        "quark/__init__.py,,\nquark/torch/template.py,,\namd_quark-0.77.dist-info/METADATA,,\n"
        "quark/__pycache__/x.pyc,,\n"
    )
    return md.PathDistribution(info)


def test_reads_files_from_record_and_metadata(tmp_path):
    snap = InstalledSnapshot(_fake_site(tmp_path))
    assert snap.version == "0.77" and snap.kind == "installed"
    assert snap.files() == ["METADATA", "quark/__init__.py", "quark/torch/template.py"]
    assert snap.read_text("quark/torch/template.py") == "X = 1\n"
    assert "Requires-Python: >=3.11" in snap.read_text("METADATA")
    assert snap.coverage == frozenset({"quark", "metadata"})
    assert not snap.covers("docs/source/install.rst")


def test_not_installed_is_bad_input(monkeypatch):
    def missing(name):
        raise md.PackageNotFoundError(name)

    monkeypatch.setattr(md, "distribution", missing)
    with pytest.raises(BadInputError, match="not installed"):
        InstalledSnapshot()


def test_real_installed_dist_is_not_imported():
    try:
        md.distribution("amd-quark")
    except md.PackageNotFoundError:
        pytest.skip("amd-quark is not installed in this environment")
    code = (
        "import sys\n"
        "from quarkci.upstream.installed import InstalledSnapshot\n"
        "s = InstalledSnapshot()\n"
        "assert s.exists('quark/torch/quantization/config/template.py'), s\n"
        "assert 'quark' not in sys.modules and 'torch' not in sys.modules\n"
        "print(s.version)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == md.version("amd-quark")
