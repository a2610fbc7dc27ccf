"""PTQ wall time through ``quarkci ptq run`` vs calling amd-quark's API directly, side by side.

Both paths run in this one process on the same model and plan, after one untimed warm-up each
(``import quark.torch`` and Quark's first-use kernel compilation are paid before timing), in
alternating order, ``--rounds`` times. The direct path is Quark's own sequence
(``quark-cli torch-llm-ptq``): from_pretrained -> calibration dataloader -> LLMTemplate config ->
ModelQuantizer.quantize_model -> freeze -> export_safetensors (hf_format) -> tokenizer. The quarkci
path is ``quarkci.cli.main(["ptq", "run", "--manifest", M, "--yes"])``, i.e. the command including
manifest checks, progress, the atomic export directory, run_result.json and the manifest update.

Prints one line per round and the ratio of medians (quarkci / direct); target <= 1.05.
Exit 0 when the ratio meets ``--max-ratio``, 1 otherwise.

    python benchmarks/bench_ptq.py [--schemes fp8,int4_wo_128] [--rounds 5] [--layers 4] [--hidden 1024]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")


def build_model(out: Path, layers: int, hidden: int) -> Path:
    """A random-weight Llama (fp32) with the demo tokenizer and calibration file: size, not skill."""
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    from quarkci.ptq.demo import CALIBRATION_FILE, problems, prompt_text, train_tokenizer

    torch.manual_seed(0)
    tokenizer = train_tokenizer()
    config = LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=hidden,
        intermediate_size=hidden * 3,
        num_hidden_layers=layers,
        num_attention_heads=8,
        num_key_value_heads=8,
        max_position_embeddings=64,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
        tie_word_embeddings=False,
    )
    LlamaForCausalLM(config).save_pretrained(out)
    tokenizer.save_pretrained(out)
    (out / CALIBRATION_FILE).write_text("".join(prompt_text(a, b) + "\n" for a, b in problems()))
    return out


def direct(plan: dict, out: Path) -> None:
    """amd-quark's API called directly, as quark-cli torch-llm-ptq does (CPU)."""
    import torch
    from quark.torch import LLMTemplate, ModelQuantizer, export_safetensors
    from transformers import AutoModelForCausalLM, AutoTokenizer

    src = plan["model"]["model_path"]
    model = AutoModelForCausalLM.from_pretrained(src, dtype="auto").eval()
    tokenizer = AutoTokenizer.from_pretrained(src)
    calib = plan["calibration"]
    lines = Path(calib["dataset"]).read_text().splitlines()[: calib["num_calib_data"]]
    ids = tokenizer(lines, return_tensors="pt", padding=True, truncation=True, max_length=calib["seq_len"])
    loader = torch.utils.data.DataLoader(ids["input_ids"], batch_size=calib["batch_size"])
    config = LLMTemplate.get(plan["model"]["model_type"]).get_config(
        scheme=plan["global_scheme"], exclude_layers=plan["exclude_layers"]
    )
    quantizer = ModelQuantizer(config)
    model = quantizer.quantize_model(model, loader)
    model = quantizer.freeze(model)
    with torch.no_grad():
        export_safetensors(
            model=model,
            output_dir=str(out),
            custom_mode="quark",
            weight_format="real_quantized",
            pack_method="reorder",
        )
    tokenizer.save_pretrained(str(out))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--schemes", default="fp8,int4_wo_128")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--layers", type=int, default=4)
    parser.add_argument("--hidden", type=int, default=1024)
    parser.add_argument("--max-ratio", type=float, default=1.05)
    args = parser.parse_args()

    import contextlib
    import json

    from quarkci.cli import main as quarkci

    work = Path(tempfile.mkdtemp(prefix="bench-ptq-"))
    model = build_model(work / "model", args.layers, args.hidden)
    analysis = work / "model_analysis.json"
    with contextlib.redirect_stdout(sys.stderr):
        assert quarkci(["ptq", "intake", "--model", str(model), "--out", str(analysis)]) == 0
    counter = iter(range(10**6))

    def quarkci_run(scheme: str) -> float:
        root = work / f"q-{scheme}-{next(counter)}"
        plan = root / "quant_plan.json"
        assert (
            quarkci(["ptq", "plan", "--analysis", str(analysis), "--scheme", scheme, "--out", str(plan)]) == 0
        )
        assert quarkci(["ptq", "manifest", "--plan", str(plan), "--out", str(root)]) == 0
        start = time.perf_counter()
        code = quarkci(["ptq", "run", "--manifest", str(root / "run_manifest.yaml"), "--yes"])
        elapsed = time.perf_counter() - start
        assert code == 0, f"ptq run {scheme} exited {code}"
        return elapsed

    def direct_run(scheme: str) -> float:
        plan = json.loads(next(work.glob(f"q-{scheme}-*/quant_plan.json")).read_text())
        out = work / f"d-{scheme}-{next(counter)}"
        start = time.perf_counter()
        with contextlib.redirect_stdout(sys.stderr):
            direct(plan, out)
        return time.perf_counter() - start

    worst = 0.0
    report = []
    for scheme in args.schemes.split(","):
        with contextlib.redirect_stdout(sys.stderr):
            quarkci_run(scheme)  # warm-up (untimed): first-use kernel compilation, caches
            direct_run(scheme)
        q_times, d_times = [], []
        for i in range(args.rounds):
            order = (
                (("quarkci", quarkci_run), ("direct", direct_run))
                if i % 2 == 0
                else (("direct", direct_run), ("quarkci", quarkci_run))
            )
            for name, fn in order:
                with contextlib.redirect_stdout(sys.stderr):
                    t = fn(scheme)
                (q_times if name == "quarkci" else d_times).append(t)
            report.append(f"{scheme} round {i + 1}: quarkci {q_times[-1]:.3f}s direct {d_times[-1]:.3f}s")
            print(report[-1], flush=True)
        ratio = statistics.median(q_times) / statistics.median(d_times)
        worst = max(worst, ratio)
        print(
            f"{scheme}: median quarkci {statistics.median(q_times):.3f}s, direct {statistics.median(d_times):.3f}s, "
            f"ratio {ratio:.3f}",
            flush=True,
        )
    size = sum(f.stat().st_size for f in model.glob("*.safetensors"))
    print(
        f"model: {args.layers} layers, hidden {args.hidden}, {size / 1e6:.1f} MB fp32; worst ratio {worst:.3f} "
        f"(target <= {args.max_ratio})"
    )
    return 0 if worst <= args.max_ratio else 1


if __name__ == "__main__":
    raise SystemExit(main())
