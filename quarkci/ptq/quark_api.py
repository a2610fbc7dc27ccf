"""The one place quarkci imports amd-quark's Python API (``quark.torch``).

``import quark.torch`` costs 7–19 s (it JIT-loads C++ kernels), so it happens at most once per
process, lazily, only where PTQ runs or an export is reloaded (``run``, ``validate``): the facts intake
and plan need are read statically (:mod:`quarkci.ptq.quark_static`). It also holds
:class:`QuarkInfo`, the shape of those static facts.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from quarkci.core.errors import BadInputError
from quarkci.core.progress import heartbeat, stderr


@dataclass(frozen=True)
class QuarkInfo:
    """What the installed Quark supports: version, model templates, schemes, algorithms, KV-cache schemes."""

    version: str
    templates: tuple[str, ...]
    schemes: tuple[str, ...]
    algorithms: tuple[str, ...]
    kv_cache_schemes: tuple[str, ...]
    import_seconds: float
    template_excludes: dict[str, list[str]] = field(default_factory=dict)  # model_type -> exclude patterns
    group_sizes: dict[str, int | None] = field(default_factory=dict)  # scheme -> weight group size
    template_kv_layers: dict[str, list[str]] = field(default_factory=dict)  # model_type -> kv_layers_name


class QuarkUnavailable(BadInputError):
    """amd-quark (or torch) cannot be imported; the message says why. Bad input (exit 2): the command
    needs the ML extra, which the user installs."""


@cache
def quark_torch() -> Any:
    """Import and return the ``quark.torch`` module once per process (progress line on stderr).

    Raises :class:`QuarkUnavailable` when the import fails (ML extra not installed).
    """
    print("quarkci: importing quark.torch (once per process) ...", file=sys.stderr, flush=True)
    try:
        with heartbeat(stderr(), "importing quark.torch"):
            import quark.torch as qt
    except Exception as exc:  # ImportError, or a broken torch/quark install raising anything
        raise QuarkUnavailable(f"cannot import quark.torch: {type(exc).__name__}: {exc}") from None
    return qt
