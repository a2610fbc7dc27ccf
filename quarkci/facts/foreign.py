"""Names other libraries define that skills about Quark name beside Quark's own: transformers' classes
(``QuarkConfig``, ``HqqConfig``), ``torch.nn`` and ``torch.ao.quantization`` names, ONNX operators
(``QuantizeLinear``), onnxruntime's quantization names with their enums' members (``QUInt8``), and the
top-level names of accelerate, datasets, safetensors and lm-eval.

A CamelCase name one or two edits from a Quark class is a misspelling only when it is nobody else's name:
``QuarkConfig`` is transformers' configuration for Quark checkpoints, not a misspelt ``QuantConfig``. The
set is recorded once from the installed packages (``python -m quarkci.facts.foreign --record``; onnxruntime
is not a test dependency: put it on ``PYTHONPATH`` for the recording, e.g. ``pip install --target``) into
``foreign_names.json`` beside this module, so an audit never imports them.
"""

from __future__ import annotations

import argparse
import enum
import importlib
import json
from functools import cache
from pathlib import Path

SHIPPED = Path(__file__).with_name("foreign_names.json")
FORMAT = "quarkci-foreign-names/1"
# module -> the names it offers: ``dir()`` of the module (lazy modules list what they can import)
_MODULES = (
    "transformers",
    "torch",
    "torch.nn",
    "torch.ao.quantization",
    "accelerate",
    "datasets",
    "safetensors",
    "lm_eval",
    "onnxruntime",
    "onnxruntime.quantization",
)


@cache
def names() -> frozenset[str]:
    """Every recorded foreign name (public names only: no leading underscore). Raises ``OSError`` or
    ``ValueError`` when the shipped file is missing or not of :data:`FORMAT` (a packaging fault)."""
    data = json.loads(SHIPPED.read_text(encoding="utf-8"))
    if data.get("format") != FORMAT:
        raise ValueError(f"{SHIPPED}: not {FORMAT}")
    return frozenset(n for group in data["names"].values() for n in group)


def record() -> dict[str, list[str]]:
    """``{source: sorted public names}`` read from the installed packages: each module of
    :data:`_MODULES` that imports, and the ONNX operator names of ``onnx.defs`` (every opset). A package
    that is not installed is left out (its key is absent)."""
    out: dict[str, list[str]] = {}
    for module in _MODULES:
        try:
            loaded = importlib.import_module(module)
        except ImportError:
            continue
        public = {n for n in dir(loaded) if not n.startswith("_") and n.isidentifier()}
        for name in list(public):  # an enum's members too (onnxruntime's `QuantType.QUInt8`)
            value = getattr(loaded, name, None) if module != "transformers" else None
            if isinstance(value, type) and issubclass(value, enum.Enum):
                public |= {m for m in value.__members__ if m.isidentifier()}
        out[module] = sorted(public)
    try:
        import onnx.defs
    except ImportError:
        return out
    out["onnx.ops"] = sorted({schema.name for schema in onnx.defs.get_all_schemas_with_history()})
    return out


def main() -> int:
    """``--record``: write :data:`SHIPPED` from the installed packages; else print the count."""
    parser = argparse.ArgumentParser(description="names other libraries define (recorded once)")
    parser.add_argument("--record", action="store_true", help=f"rewrite {SHIPPED.name}")
    args = parser.parse_args()
    if args.record:
        recorded = record()
        text = json.dumps({"format": FORMAT, "names": recorded}, indent=0, sort_keys=True)
        SHIPPED.write_text(text + "\n", encoding="utf-8")
        print(f"{SHIPPED}: {sum(len(v) for v in recorded.values())} names from {len(recorded)} sources")
        return 0
    print(len(names()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
