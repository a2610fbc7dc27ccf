"""Generated correctness test: MX / low-precision-float fake-quantize from the compiled
``hw_emulation`` extension (torch cpp_extension, CPU path) against a pure-torch reference.

Usage: python check_lowfp.py [--negative-control]
Two gates, exact (rtol=0, atol=0; both sides do the same float32 arithmetic):
* element: ``fake_quantize_to_low_precision_fp(x, ebits, mbits, max_norm, round_mode=8)`` for fp4
  (e2m1), fp6 (e2m3, e3m2) and fp8 (e4m3) against a nearest-value search on the format's grid with
  ties to even, saturation at max_norm, NaN/Inf passed through;
* MX block: ``fake_quantize_mx(x, -1, 32, "floor", mx_element_dtype="fp4")`` against a per-32-block
  power-of-two shared scale 2^(floor(log2(amax)) - emax) times the element reference, over shapes
  with a single row, odd sizes and partial blocks.
Prints one ``ROW`` line per case and ``VERDICT: pass|fail``; exit 0 on pass, 1 on fail.
``--negative-control`` moves one output element by one grid step: the gate must then fail.
"""

import argparse
import sys

import torch

# name -> (ebits, mbits, emax)
FORMATS = {"fp4": (2, 1, 2), "fp6_e2m3": (2, 3, 2), "fp6_e3m2": (3, 2, 4), "fp8_e4m3": (4, 3, 8)}
ELEMENT_SHAPES = [(1,), (7,), (33,), (5, 97)]
MX_SHAPES = [(1, 32), (1, 7), (3, 37), (5, 65), (2, 3, 100), (16, 256)]
ROUND_HALF_TO_EVEN = 8


def max_norm(ebits: int, mbits: int) -> float:
    """Largest finite value of the format (no Inf/NaN encodings): 2^(emax) * (2 - 2^-mbits)."""
    return float(2.0 ** (2**ebits - 1 - (2 ** (ebits - 1) - 1)) * (1 + (2**mbits - 1) / 2**mbits))


def grid(ebits: int, mbits: int, top: float) -> torch.Tensor:
    """Every non-negative code of the format in code order (subnormals, then normals) up to ``top``."""
    bias = 2 ** (ebits - 1) - 1
    values = [k * 2.0 ** (1 - bias - mbits) for k in range(2**mbits)]
    exponent = 1
    while values[-1] < top:
        values += [(1 + m / 2**mbits) * 2.0 ** (exponent - bias) for m in range(2**mbits)]
        exponent += 1
    return torch.tensor([v for v in values if v <= top], dtype=torch.float64)


def reference_element(x: torch.Tensor, ebits: int, mbits: int, top: float) -> torch.Tensor:
    """Round to the nearest grid value, ties to the even code; saturate; NaN/Inf unchanged."""
    g = grid(ebits, mbits, top)
    a = x.abs().double().clamp(max=top)
    hi = torch.searchsorted(g, a).clamp(max=len(g) - 1)
    lo = (hi - 1).clamp(min=0)
    d_lo, d_hi = a - g[lo], g[hi] - a
    pick = torch.where(d_lo < d_hi, lo, hi)
    pick = torch.where(d_lo == d_hi, torch.where(lo % 2 == 0, lo, hi), pick)
    out = (g[pick] * torch.sign(x.double())).float()
    return torch.where(torch.isfinite(x), out, x)


def reference_mx(x: torch.Tensor, element: str, block: int) -> torch.Tensor:
    """Per-block (last axis, zero-padded to ``block``) shared scale, floor mode, then the element grid."""
    ebits, mbits, emax = FORMATS[element]
    n = x.shape[-1]
    pad = (-n) % block
    xb = torch.nn.functional.pad(x.float(), (0, pad)).reshape(*x.shape[:-1], -1, block)
    amax = xb.abs().amax(dim=-1, keepdim=True)
    scale = torch.pow(2, torch.floor(torch.log2(amax)) - emax)
    scale = scale.masked_fill(scale == 0.0, torch.finfo(torch.float32).eps)
    q = reference_element(xb / scale, ebits, mbits, max_norm(ebits, mbits)) * scale
    return q.reshape(*x.shape[:-1], -1)[..., :n]


def compare(label: str, got: torch.Tensor, want: torch.Tensor) -> bool:
    nan_ok = bool(torch.equal(torch.isnan(got), torch.isnan(want)))
    diff = (got.double() - want.double()).abs().nan_to_num(0.0)
    ok = nan_ok and got.shape == want.shape and bool(torch.equal(got.nan_to_num(0.0), want.nan_to_num(0.0)))
    print(
        f"ROW {label} dtype=float32 device=cpu max_abs_err={diff.max().item():.3e} rtol=0 atol=0 "
        f"mismatches={int((diff > 0).sum())} nan_ok={nan_ok} ok={ok}"
    )
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--negative-control", action="store_true")
    args = parser.parse_args()
    from quark.torch.kernel.hw_emulation import hw_emulation_interface as hw
    from quark.torch.kernel.hw_emulation.extensions import kernel_ext

    torch.manual_seed(0)
    results = []
    for name, (ebits, mbits, _) in FORMATS.items():
        top = max_norm(ebits, mbits)
        for shape in ELEMENT_SHAPES:
            x = torch.randn(*shape) * top / 2
            flat = x.view(-1)
            flat[0] = float("nan")
            if flat.numel() > 3:
                flat[1], flat[2], flat[3] = top * 4, -top * 4, 2.0 ** (1 - (2 ** (ebits - 1) - 1) - mbits) / 2
            got = kernel_ext.fake_quantize_to_low_precision_fp(
                x.contiguous(), ebits, mbits, top, ROUND_HALF_TO_EVEN
            )
            if args.negative_control:
                got = got.clone()
                got.view(-1)[-1] += 2.0**-mbits
            want = reference_element(x, ebits, mbits, top)
            results.append(compare(f"element format={name} shape={'x'.join(map(str, shape))}", got, want))
    for shape in MX_SHAPES:
        x = torch.randn(*shape) * 3
        got = hw.fake_quantize_mx(x, -1, 32, "floor", mx_element_dtype="fp4")
        if args.negative_control:
            got = got.clone()
            got.view(-1)[0] += 0.5
        results.append(
            compare(
                f"mx format=fp4 block=32 shape={'x'.join(map(str, shape))}", got, reference_mx(x, "fp4", 32)
            )
        )
    failed = results.count(False)
    print(f"VERDICT: {'fail' if failed else 'pass'} ({len(results) - failed}/{len(results)} cases)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
