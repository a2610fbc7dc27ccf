"""Generated correctness test: a library op against its pure-torch reference over shapes.

Usage: python check_ref.py --op MODULE:FUNC --ref MODULE:FUNC [--device cpu|cuda]
       [--rtol R] [--atol A] [--negative-control]
Shapes cover small M (1), odd sizes and partial 32-blocks; NaN inputs must stay NaN at the same
positions. Prints one ``ROW`` line per shape and ``VERDICT: pass|fail``; exit 0 on pass, 1 on fail.
``--negative-control`` perturbs the op's output by one part in 100: the gate must then fail.
"""

import argparse
import importlib
import os
import sys
from typing import Any

import torch

SHAPES = [(1,), (7,), (33,), (3, 65), (2, 17, 31), (128, 32)]


def load(spec: str) -> Any:
    module_name, _, name = spec.partition(":")
    return getattr(importlib.import_module(module_name), name)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--op", required=True)
    parser.add_argument("--ref", required=True)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--rtol", type=float, default=1e-5)
    parser.add_argument("--atol", type=float, default=1e-6)
    parser.add_argument("--negative-control", action="store_true")
    args = parser.parse_args()
    sys.path.insert(0, os.getcwd())
    op, ref = load(args.op), load(args.ref)
    torch.manual_seed(0)
    failed = 0
    for shape in SHAPES:
        x = torch.randn(*shape) * 4
        x.view(-1)[0] = float("nan")
        want = ref(x.clone())
        got = op(x.clone().to(args.device)).cpu()
        if args.negative_control:
            got = got * 1.01
        nan_ok = bool(torch.equal(torch.isnan(got), torch.isnan(want)))
        diff = (got - want).abs().nan_to_num(0.0)
        ok = nan_ok and bool(torch.allclose(got, want, rtol=args.rtol, atol=args.atol, equal_nan=True))
        print(
            f"ROW shape={'x'.join(map(str, shape))} dtype=float32 device={args.device} "
            f"max_abs_err={diff.max().item():.3e} rtol={args.rtol} atol={args.atol} nan_ok={nan_ok} ok={ok}"
        )
        failed += not ok
    print(f"VERDICT: {'fail' if failed else 'pass'} ({len(SHAPES) - failed}/{len(SHAPES)} shapes)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
