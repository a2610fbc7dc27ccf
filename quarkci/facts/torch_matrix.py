"""PyTorch / accelerator matrix: which torch builds (CUDA, ROCm, CPU, XPU) Quark installs and tests.

Sources: ``tools/ci/install_torch.sh`` (checkout only) and the install guide's ``--index-url``
lines (``docs/source/install.rst``), plus torch requirements in METADATA / pyproject when present.

Items:

* one per PyTorch wheel-index tag, named by the tag (``rocm6.4``, ``cu128``, ``cpu``), from any
  ``https://download.pytorch.org/whl/<tag>`` URL; attrs ``accelerator`` (rocm|cuda|cpu|xpu|other),
  ``url``, ``source``;
* one per torch-family pin (``torch==2.7.0``, ``torchvision>=...``), named by the package, attrs
  ``specifier`` and ``source``;
* one per shell assignment of a ``*TORCH*``/``*ROCM*``/``*CUDA*`` version variable, named by the
  variable, attr ``value``.
"""

from __future__ import annotations

import re

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name

from quarkci.facts.base import FactItem
from quarkci.facts.python import INSTALL_RST, install_guides
from quarkci.facts.source import metadata, read
from quarkci.upstream.base import METADATA_PATH, Snapshot

KIND = "torch_matrix"
INSTALL_TORCH_SH = "tools/ci/install_torch.sh"
TORCH_PACKAGES = {"torch", "torchvision", "torchaudio", "pytorch-triton-rocm"}
_INDEX_URL = re.compile(r"https?://download\.pytorch\.org/whl/(?:(?:nightly|test)/)?([A-Za-z0-9._]+)")
_PIN = re.compile(r"(?<![\w.-])(torch(?:vision|audio)?)\s*(==|>=|<=|~=|!=|>|<)\s*([0-9][0-9A-Za-z.+*]*)")
_VERSION_VAR = re.compile(r"^\s*(?:export\s+)?([A-Z0-9_]*(?:TORCH|ROCM|CUDA)[A-Z0-9_]*)=[\"']?([^\s\"'#;]+)")


def accelerator_of(tag: str) -> str:
    """``"rocm"`` for ``rocm6.4``, ``"cuda"`` for ``cu128``, ``"cpu"``, ``"xpu"``; else ``"other"``."""
    for prefix, name in (("rocm", "rocm"), ("cu", "cuda"), ("cpu", "cpu"), ("xpu", "xpu")):
        if tag.startswith(prefix):
            return name
    return "other"


def scan_text(text: str, path: str, shell: bool) -> list[FactItem]:
    """Index-url tags and torch pins (and, for shell scripts, version variables) in ``text``."""
    items: list[FactItem] = []
    for number, line in enumerate(text.splitlines(), start=1):
        for match in _INDEX_URL.finditer(line):
            tag = match.group(1).rstrip(".")
            items.append(
                FactItem(
                    tag,
                    path,
                    number,
                    {"accelerator": accelerator_of(tag), "url": match.group(0), "source": path},
                )
            )
        for match in _PIN.finditer(line):
            items.append(
                FactItem(
                    match.group(1),
                    path,
                    number,
                    {"specifier": f"{match.group(2)}{match.group(3)}", "source": path},
                )
            )
        if shell and (var := _VERSION_VAR.match(line)):
            items.append(FactItem(var.group(1), path, number, {"value": var.group(2), "source": path}))
    return items


def _requirements(snapshot: Snapshot) -> list[FactItem]:
    found = metadata(snapshot)
    if found is None:
        return []
    items = []
    for name, value, line in found[0]:
        if name.lower() != "requires-dist":
            continue
        try:
            req = Requirement(value)
        except InvalidRequirement:
            continue
        if canonicalize_name(req.name) in TORCH_PACKAGES:
            items.append(
                FactItem(
                    canonicalize_name(req.name),
                    METADATA_PATH,
                    line,
                    {
                        "specifier": str(req.specifier),
                        "marker": str(req.marker or ""),
                        "source": METADATA_PATH,
                    },
                )
            )
    return items


def extract(snapshot: Snapshot) -> tuple[list[FactItem], list[str]]:
    """Torch-matrix items and unavailable paths (install_torch.sh and the install guide in a wheel)."""
    items = _requirements(snapshot)
    unavailable: list[str] = []
    script = read(snapshot, INSTALL_TORCH_SH)
    if script is not None:
        items += scan_text(script, INSTALL_TORCH_SH, shell=True)
    elif not snapshot.covers(INSTALL_TORCH_SH):
        unavailable.append(INSTALL_TORCH_SH)
    guides = install_guides(snapshot)
    for guide in guides:
        items += scan_text(read(snapshot, guide) or "", guide, shell=False)
    if not guides and not snapshot.covers(INSTALL_RST):
        unavailable.append(INSTALL_RST)
    return sorted(items), sorted(unavailable)
