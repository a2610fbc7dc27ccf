"""Turn an ``--upstream`` spec into a :class:`~quarkci.upstream.base.Snapshot`.

Accepted specs:

=====================  ==========================================================
``amd-quark==X``        the PyPI wheel of release X (cached download, read from the zip)
``amd-quark``           the newest final release on PyPI
``path/to/x.whl``       a local wheel file
``path/to/checkout``    a directory holding a Quark source tree (``quark/`` package)
``installed``           the amd-quark installed in this interpreter (never imported)
=====================  ==========================================================
"""

from __future__ import annotations

from pathlib import Path

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name

from quarkci.core.errors import BadInputError
from quarkci.core.paths import check_path_name
from quarkci.upstream.base import Snapshot
from quarkci.upstream.checkout import CheckoutSnapshot, is_checkout
from quarkci.upstream.fetch import PROJECT, fetch_wheel
from quarkci.upstream.installed import InstalledSnapshot
from quarkci.upstream.pypi import PyPIIndex
from quarkci.upstream.wheel import WheelSnapshot

SPEC_HELP = "amd-quark==X | amd-quark | path/to/x.whl | path/to/quark-checkout | installed"


def pinned_version(spec: str, flag: str = "--upstream") -> str | None:
    """``"0.13"`` for ``"amd-quark==0.13"``, None for a bare ``"amd-quark"``.

    Raises :class:`BadInputError` naming ``flag`` for any other requirement (other names, ranges, wildcards).
    """
    try:
        req = Requirement(spec)
    except InvalidRequirement as exc:
        raise BadInputError(f"{flag} {spec!r}: not a valid requirement ({exc})") from None
    if canonicalize_name(req.name) != PROJECT:
        raise BadInputError(
            f"{flag} {spec!r}: only {PROJECT} is supported (e.g. {PROJECT}==0.13, {PROJECT}, "
            "path/to/x.whl, path/to/quark-checkout, installed)"
        )
    specs = list(req.specifier)
    if not specs:
        return None
    if len(specs) != 1 or specs[0].operator != "==" or "*" in specs[0].version or req.extras or req.marker:
        raise BadInputError(f"{flag} {spec!r}: pin one exact release, e.g. {PROJECT}==0.13")
    return specs[0].version


def _is_requirement(spec: str) -> bool:
    """True when ``spec`` reads as a requirement (``name[==X]``) rather than a path."""
    if "/" in spec or "\\" in spec or spec.endswith((".whl", ".zip")):
        return False
    try:
        Requirement(spec)
    except InvalidRequirement:
        return False
    return True


def check_spec(spec: str, flag: str = "--upstream") -> None:
    """Check ``spec`` (given with option ``flag``) without the network: its syntax, and for a path that
    it is a wheel or a Quark checkout. A pinned release's existence on PyPI is checked by :func:`resolve`.

    Raises :class:`BadInputError` with one line naming ``flag``.
    """
    spec = spec.strip()
    if not spec:
        raise BadInputError(f"{flag} is empty; expected {SPEC_HELP}")
    if spec == "installed":
        return
    path = check_path_name(Path(spec).expanduser(), flag)  # before any lookup: exists() could raise
    if not path.exists() and _is_requirement(spec):
        pinned_version(spec, flag)
    elif path.is_file():
        if path.suffix != ".whl":
            raise BadInputError(f"{flag} {spec}: a file that is not a .whl; expected {SPEC_HELP}")
    elif path.is_dir():
        if not is_checkout(path):
            raise BadInputError(f"{flag} {spec}: directory is not a Quark checkout (no quark/ package)")
    else:
        raise BadInputError(f"{flag} {spec!r}: no such file or directory; expected {SPEC_HELP}")


def resolve(spec: str, index: PyPIIndex | None = None, flag: str = "--upstream") -> Snapshot:
    """Return the snapshot named by ``spec`` (see the module docstring), given with option ``flag``.

    Raises :class:`BadInputError` naming ``flag`` for an unknown spec, a missing path, a non-wheel file,
    a non-checkout directory (see :func:`check_spec`) or a release that does not exist;
    :class:`UpstreamUnreachableError` when PyPI is needed and cannot be reached.
    """
    check_spec(spec, flag)
    spec = spec.strip()
    if spec == "installed":
        return InstalledSnapshot()
    path = Path(spec).expanduser()
    if not path.exists() and _is_requirement(spec):
        version = pinned_version(spec, flag) or str((index or PyPIIndex()).newest())
        try:
            snapshot = WheelSnapshot(fetch_wheel(version, index=index))
        except BadInputError as exc:  # e.g. a version PyPI does not have: name the option it came from
            raise BadInputError(f"{flag} {exc}") from None
        snapshot.label = f"{PROJECT}=={snapshot.version} (PyPI wheel)"  # the release's own spelling
        return snapshot
    if path.is_file():
        return WheelSnapshot(path)
    return CheckoutSnapshot(path)
