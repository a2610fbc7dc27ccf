"""Fixtures for the sync tests: miniature wheels built from tests/fixtures/sync/rel_<v>/ at test time."""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "sync"


def build_wheel(tree: Path, version: str, directory: Path) -> Path:
    """Zip ``tree`` (``quark/`` + ``METADATA``) as ``amd_quark-<version>-py3-none-any.whl``."""
    wheel = directory / f"amd_quark-{version}-py3-none-any.whl"
    dist = f"amd_quark-{version}.dist-info"
    with zipfile.ZipFile(wheel, "w") as zf:
        for path in sorted(tree.rglob("*")):
            if path.is_file():
                rel = path.relative_to(tree).as_posix()
                arc = f"{dist}/METADATA" if rel == "METADATA" else rel
                info = zipfile.ZipInfo(arc, date_time=(2020, 1, 1, 0, 0, 0))
                zf.writestr(info, path.read_bytes())
        zf.writestr(
            zipfile.ZipInfo(f"{dist}/WHEEL", date_time=(2020, 1, 1, 0, 0, 0)),
            "Wheel-Version: 1.0\nGenerator: quarkci-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        )
        zf.writestr(zipfile.ZipInfo(f"{dist}/RECORD", date_time=(2020, 1, 1, 0, 0, 0)), "")
    return wheel


@pytest.fixture(scope="session")
def wheels(tmp_path_factory) -> dict[str, Path]:
    """``{"0.98": path, "0.99": path}``: the miniature baseline and current releases."""
    directory = tmp_path_factory.mktemp("wheels")
    return {v: build_wheel(FIXTURES / f"rel_{v.replace('.', '')}", v, directory) for v in ("0.98", "0.99")}


@pytest.fixture
def skills_copy(tmp_path) -> Path:
    """A writable copy of the fixture skills (positive + negative) for --fix tests."""
    target = tmp_path / "skills"
    shutil.copytree(FIXTURES / "skills", target)
    return target


@pytest.fixture(autouse=True)
def _no_network(monkeypatch):
    """Unit tests never reach PyPI: any index lookup raises UpstreamUnreachableError."""
    from quarkci.core.errors import UpstreamUnreachableError
    from quarkci.upstream import pypi

    def refuse(url):
        raise UpstreamUnreachableError(f"network disabled in tests ({url})")

    monkeypatch.setattr(pypi, "_http_json", refuse)
