"""``quarkci demo-model --out DIR``: build the embedded demo model (tiny Llama, single-digit addition).

Fully offline (``HF_HUB_OFFLINE=1``; the tokenizer is trained locally), deterministic for a given
``--seed``, a few seconds on CPU. Exit 0 when the model reached 100 % accuracy, 1 when it did not
within the step budget (the model is still written), 2 when ``DIR`` exists and is not empty or the
ML extra is not installed.
"""

from __future__ import annotations

import argparse
import json
import os

from quarkci.commands import arguments as _args
from quarkci.core.errors import EXIT_FINDINGS, EXIT_OK, ML_EXTRA_HINT, BadInputError

ML_PACKAGES = frozenset({"torch", "transformers", "tokenizers", "safetensors", "accelerate"})


def add_parser(subparsers: _args.Subparsers) -> None:
    """Register ``demo-model`` on the top-level subparsers."""
    p = subparsers.add_parser(
        "demo-model",
        help="build the tiny offline demo model (HF format, safetensors)",
        description=__doc__.splitlines()[0],
    )
    p.add_argument(
        "--out",
        required=True,
        metavar="DIR",
        type=_args.output_dir,
        help="new or empty directory for the model, tokenizer and config files",
    )
    p.add_argument("--seed", type=int, default=0, metavar="N", help="random seed, an integer (default: 0)")
    p.add_argument(
        "--max-steps",
        type=_args.positive_int,
        default=600,
        metavar="N",
        help="training step budget in optimizer steps (default: 600)",
    )
    p.add_argument("--json", action="store_true", help="print the result as JSON on stdout")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Build the demo model; see the module docstring for exit codes."""
    from pathlib import Path

    from quarkci.core.paths import check_output_dir

    check_output_dir(args.out, "--out")  # before any import or training
    out = Path(args.out)
    if out.is_dir() and any(out.iterdir()):
        raise BadInputError(f"--out {out}: exists and is not an empty directory")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from quarkci.ptq.demo import DemoConfig, build_demo_model

    try:
        result = build_demo_model(args.out, DemoConfig(seed=args.seed, max_steps=args.max_steps))
    except FileExistsError as exc:
        raise BadInputError(str(exc)) from None
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] not in ML_PACKAGES:
            raise
        raise BadInputError(
            f"demo-model needs the ML extra ({exc.name} is not installed): {ML_EXTRA_HINT}"
        ) from None
    doc = {
        "out_dir": str(result.out_dir),
        "accuracy": result.accuracy,
        "steps": result.steps,
        "train_seconds": round(result.train_seconds, 3),
        "parameters": result.parameters,
    }
    print(json.dumps(doc, indent=2, sort_keys=True) if args.json else result.out_dir)
    return EXIT_OK if result.accuracy == 1.0 else EXIT_FINDINGS
