"""A miniature amd-quark release for offline tests: an installable wheel that holds only its metadata
(``import quark`` keeps resolving to whatever quark is installed; ``importlib.metadata`` reports the new
version), and the PyPI JSON project document that lists it with its sha256."""

from __future__ import annotations

import base64
import hashlib
import zipfile
from pathlib import Path
from typing import Any


def metadata_wheel(dest: Path, version: str, name: str = "amd-quark") -> Path:
    """Write ``amd_quark-<version>-py3-none-any.whl`` (METADATA, WHEEL, RECORD) into ``dest``; return it."""
    dist = f"{name.replace('-', '_')}-{version}.dist-info"
    files = {
        f"{dist}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
        f"{dist}/WHEEL": (
            "Wheel-Version: 1.0\nGenerator: quarkci-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
        ),
    }
    record = []
    for path, text in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(text.encode())}")
    files[f"{dist}/RECORD"] = "\n".join([*record, f"{dist}/RECORD,,"]) + "\n"
    dest.mkdir(parents=True, exist_ok=True)
    wheel = dest / f"{name.replace('-', '_')}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for path, text in files.items():
            archive.writestr(path, text)
    return wheel


def sha256_of(path: Path) -> str:
    """The file's sha256 as PyPI lists it (64 lowercase hex digits)."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def index_document(releases: dict[str, list[Path]], sdists: dict[str, str] | None = None) -> dict[str, Any]:
    """A PyPI JSON project document listing each release's wheels (with sha256) and, optionally, an sdist."""
    out: dict[str, list[dict[str, Any]]] = {}
    for version, wheels in releases.items():
        out[version] = [
            {
                "filename": w.name,
                "packagetype": "bdist_wheel",
                "yanked": False,
                "digests": {"sha256": sha256_of(w)},
            }
            for w in wheels
        ]
    for version, digest in (sdists or {}).items():
        entry = {"filename": f"amd_quark-{version}.tar.gz", "packagetype": "sdist", "yanked": False}
        out.setdefault(version, []).append({**entry, "digests": {"sha256": digest}})
    return {"info": {"name": "amd-quark"}, "releases": out}
