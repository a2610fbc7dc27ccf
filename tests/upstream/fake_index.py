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


def repackaged_wheel(dest: Path, version: str, name: str = "amd-quark") -> Path:
    """The installed ``name`` repackaged as release ``version`` (its files, ``quark/version.py`` and the
    metadata saying ``version``): a new release that imports and quantizes exactly as the installed one,
    for a chain that must run end to end on it. Written uncompressed (fast); returns the wheel."""
    import importlib.metadata as md
    import re

    dist = md.distribution(name)
    old_info = f"{name.replace('-', '_')}-{dist.version}.dist-info/"
    new_info = f"{name.replace('-', '_')}-{version}.dist-info/"
    skip = {"RECORD", "INSTALLER", "REQUESTED", "direct_url.json"}
    members: dict[str, bytes] = {}
    for rel in dist.files or []:
        posix = rel.as_posix()
        if "__pycache__" in posix or posix.endswith(".pyc"):
            continue
        if posix.startswith(old_info):
            if posix[len(old_info) :] in skip:
                continue
            posix = new_info + posix[len(old_info) :]
        elif not posix.startswith("quark/"):
            continue
        data = Path(str(dist.locate_file(rel))).read_bytes()
        if posix == "quark/version.py":
            data = re.sub(rb"__version__ = '[^']*'", f"__version__ = '{version}'".encode(), data)
        if posix == new_info + "METADATA":
            data = re.sub(rb"(?m)^Version: .*$", f"Version: {version}".encode(), data)
        members[posix] = data
    record = []
    for path, data in members.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(data)}")
    members[new_info + "RECORD"] = ("\n".join([*record, f"{new_info}RECORD,,"]) + "\n").encode()
    dest.mkdir(parents=True, exist_ok=True)
    wheel = dest / f"{name.replace('-', '_')}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_STORED) as archive:
        for path, data in members.items():
            archive.writestr(path, data)
    return wheel
