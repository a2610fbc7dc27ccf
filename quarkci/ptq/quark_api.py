"""The one place quarkci imports amd-quark's Python API (``quark.torch``).

``import quark.torch`` costs 7–19 s (it JIT-loads C++ kernels), so it happens at most once per
process, lazily, only where PTQ runs or an export is reloaded (``run``, ``validate``): the facts intake
and plan need are read statically (:mod:`quarkci.ptq.quark_static`). Facts come
from Quark's public API (source: ``quark/torch/quantization/config/template.py`` in amd-quark 0.13):
``LLMTemplate.list_available()``, ``LLMTemplate.get_supported_schemes()``, ``LLMTemplate.get(t)``
and ``get_supported_algorithm_types()``.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from quarkci.core.errors import BadInputError
from quarkci.core.progress import heartbeat, stderr

# KV-cache schemes LLMTemplate.get_config accepts (LLMTemplate docstring and its
# _SUPPORTED_KV_CACHE_SCHEMES in amd-quark 0.13; read from the class when present).
_DEFAULT_KV_CACHE_SCHEMES = ("fp8",)


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
    start = time.perf_counter()
    print("quarkci: importing quark.torch (once per process) ...", file=sys.stderr, flush=True)
    try:
        with heartbeat(stderr(), "importing quark.torch"):
            import quark.torch as qt
    except Exception as exc:  # ImportError, or a broken torch/quark install raising anything
        raise QuarkUnavailable(f"cannot import quark.torch: {type(exc).__name__}: {exc}") from None
    qt._quarkci_import_seconds = time.perf_counter() - start
    return qt


@cache
def runtime_quark() -> QuarkInfo:
    """Facts about the installed Quark from its imported API (see module docstring); slow (imports
    ``quark.torch``). intake/plan use the static twin :func:`quarkci.ptq.quark_static.installed_quark_static`;
    this one exists to check that twin. Raises :class:`QuarkUnavailable`."""
    qt = quark_torch()
    from quark.torch.quantization.config.algo_configs import get_supported_algorithm_types
    from quark.version import __version__ as version

    template = qt.LLMTemplate
    kv = tuple(getattr(template, "_SUPPORTED_KV_CACHE_SCHEMES", _DEFAULT_KV_CACHE_SCHEMES))
    templates = tuple(template.list_available())
    schemes = tuple(template.get_supported_schemes())
    probe = "llama" if "llama" in templates else (templates[0] if templates else None)
    return QuarkInfo(
        version=str(version),
        templates=templates,
        schemes=schemes,
        algorithms=tuple(get_supported_algorithm_types()),
        kv_cache_schemes=kv,
        import_seconds=round(qt._quarkci_import_seconds, 3),
        template_excludes={t: list(template.get(t).exclude_layers_name) for t in templates},
        template_kv_layers={t: list(template.get(t).kv_layers_name or []) for t in templates},
        group_sizes={s: _group_size(template.get(probe), s) for s in schemes} if probe else {},
    )


def _group_size(template: Any, scheme: str) -> int | None:
    """The largest weight group size (elements along ``in_features``) of ``scheme`` as ``template``
    configures it (``QConfig.global_quant_config.weight[*].group_size``); ``None`` for per-tensor or
    per-channel schemes, or when the config cannot be built."""
    try:
        weight = template.get_config(scheme=scheme).global_quant_config.weight
    except Exception:  # a scheme the probe template rejects: no group-size default for it
        return None
    specs = weight if isinstance(weight, list) else [weight]
    sizes = [s.group_size for s in specs if s is not None and getattr(s, "group_size", None)]
    return max(sizes) if sizes else None
