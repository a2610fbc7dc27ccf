"""Generated correctness test: the TQT (trained quantization thresholds) backward op from the compiled
``hw_emulation`` extension (torch cpp_extension, CPU path) against a pure-torch reference.

Usage: python check_tqt.py [--negative-control]
Reference (TQT, Jain et al. 2020): q = round(x / s) with ties to even, except negative exact halves
which round up; inside [quant_min, quant_max] grad_x = grad and grad_log2t = grad * s * ln 2 * (q - x/s);
below quant_min grad_x = 0 and grad_log2t = grad * s * ln 2 * quant_min; above quant_max likewise with
quant_max; grad_log2t is summed over all elements. Shapes cover one element, odd sizes and values
outside the range; rtol=1e-5, atol=1e-6. Prints one ``ROW`` line per case and ``VERDICT: pass|fail``.
``--negative-control`` moves grad_log2t by one part in 100: the gate must then fail.
"""

import argparse
import math
import sys

import torch

SHAPES = [(1,), (7,), (33,), (5, 97), (2, 3, 100)]
RANGES = [(-128.0, 127.0), (0.0, 255.0), (-8.0, 7.0)]


def reference(
    x: torch.Tensor, scale: torch.Tensor, qmax: torch.Tensor, qmin: torch.Tensor, grad: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor]:
    scaled = x / scale
    halves = (scaled < 0) & (scaled - torch.floor(scaled) == 0.5)
    q = torch.where(halves, torch.ceil(scaled), torch.round(scaled))
    below, above = q < qmin, q > qmax
    inside = ~below & ~above
    base = grad * scale * math.log(2.0)
    g_logt = torch.where(inside, base * (q - scaled), torch.where(below, base * qmin, base * qmax))
    return torch.where(inside, grad, torch.zeros_like(grad)), g_logt.sum().reshape(1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--negative-control", action="store_true")
    args = parser.parse_args()
    from quark.torch.kernel.hw_emulation.extensions import kernel_ext

    torch.manual_seed(0)
    results = []
    for qmin_v, qmax_v in RANGES:
        for shape in SHAPES:
            scale = torch.tensor(
                [0.0625]
            )  # a power of two: x / s is exact, so the halves below are exact ties
            x = torch.randn(*shape) * (qmax_v - qmin_v) * 0.0625 / 2
            flat = x.view(-1)
            if flat.numel() > 2:
                flat[0], flat[1] = (
                    -1.5 * 0.0625,
                    2.5 * 0.0625,
                )  # exact ties: -1.5 rounds up to -1, 2.5 to even 2
            grad = torch.randn(*shape)
            qmax, qmin, logt = torch.tensor([qmax_v]), torch.tensor([qmin_v]), torch.log2(scale)
            got_x, got_t = kernel_ext.tqt_backward(x, scale, qmax, qmin, logt, grad.clone())
            if args.negative_control:
                got_t = got_t * 1.01
            want_x, want_t = reference(x, scale, qmax, qmin, grad)
            ok_x = bool(torch.allclose(got_x, want_x, rtol=1e-5, atol=1e-6))
            ok_t = bool(torch.allclose(got_t.reshape(1), want_t, rtol=1e-5, atol=1e-6))
            err = max((got_x - want_x).abs().max().item(), (got_t.reshape(1) - want_t).abs().max().item())
            print(
                f"ROW range={qmin_v:g}..{qmax_v:g} shape={'x'.join(map(str, shape))} dtype=float32 device=cpu "
                f"max_abs_err={err:.3e} rtol=1e-05 atol=1e-06 grad_x_ok={ok_x} grad_logt_ok={ok_t} ok={ok_x and ok_t}"
            )
            results.append(ok_x and ok_t)
    failed = results.count(False)
    print(f"VERDICT: {'fail' if failed else 'pass'} ({len(results) - failed}/{len(results)} cases)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
