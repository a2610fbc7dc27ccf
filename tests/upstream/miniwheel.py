"""Test helper: the miniature Quark checkout fixture and a builder that zips it into a wheel.

The fixture (``tests/fixtures/upstream/mini_checkout``) is quarkci's own miniature, shaped like a Quark
source tree; nothing in it is Quark code. A wheel holds only its ``quark/`` tree plus a dist-info.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

MINI_CHECKOUT = Path(__file__).resolve().parents[1] / "fixtures" / "upstream" / "mini_checkout"

MINI_METADATA = """\
Metadata-Version: 2.1
Name: amd-quark
Version: {version}
Summary: miniature test wheel
License: MIT License
        continuation line of a folded header
Classifier: Development Status :: 5 - Production/Stable
Classifier: Programming Language :: Python :: 3.11
Classifier: Programming Language :: Python :: 3.12
Requires-Python: >=3.11,<3.14
Requires-Dist: numpy>=2.0
Requires-Dist: tqdm
Requires-Dist: torch==2.9.0; extra == "ml"
Requires-Dist: transformers<5,>=4.50; extra == "cli"
Provides-Extra: cli

Long description mentioning Requires-Python: >=2.7 which is body text, not a header.
"""


def build_mini_wheel(
    directory: Path, version: str = "0.99", metadata: str | None = None, extra: dict[str, bytes] | None = None
) -> Path:
    """Zip the fixture's ``quark/`` tree and a dist-info into ``directory``; return the wheel path."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"amd_quark-{version}-py3-none-any.whl"
    dist_info = f"amd_quark-{version}.dist-info"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for file in sorted((MINI_CHECKOUT / "quark").rglob("*")):
            if file.is_file() and "__pycache__" not in file.parts:
                zf.write(file, file.relative_to(MINI_CHECKOUT).as_posix())
        zf.writestr(
            f"{dist_info}/METADATA",
            metadata if metadata is not None else MINI_METADATA.format(version=version),
        )
        zf.writestr(f"{dist_info}/WHEEL", "Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
        zf.writestr(f"{dist_info}/RECORD", "")
        for name, data in (extra or {}).items():
            zf.writestr(name, data)
    return path
