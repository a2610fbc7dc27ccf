"""The embedded demo model: a tiny Llama that has learned single-digit addition.

It is the default input of the PTQ workflow: built fully offline in seconds, with its own
tokenizer trained locally (``tokenizers`` WordLevel), so that PTQ, export and reload can be
exercised for real without any hub download, and so that accuracy after quantization means
something (the task has an exact answer).

Task: the prompt ``"<s> a + b ="`` (``a, b`` in 0..9) is continued with the digits of ``a + b``
and ``</s>``, e.g. ``"<s> 7 + 8 = 1 5 </s>"``. All 100 problems are the training set and the
test set (the point is a model with a measurable, non-trivial behaviour, not generalisation).

Needs the ML extra (torch, transformers, tokenizers, safetensors); imported lazily by the
``demo-model`` command.
"""

from __future__ import annotations

import json
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from quarkci.core.atomic import atomic_write_text

BOS, EOS, PAD, UNK = "<s>", "</s>", "<pad>", "<unk>"
SPECIAL_TOKENS = [PAD, BOS, EOS, UNK]
TASK_FILE = "quarkci_task.json"
CALIBRATION_FILE = "calibration.txt"


@dataclass(frozen=True)
class DemoConfig:
    """Shape and training budget of the demo model (defaults: 2 layers, hidden 128)."""

    hidden_size: int = 128
    intermediate_size: int = 256
    num_hidden_layers: int = 2
    num_attention_heads: int = 4
    num_key_value_heads: int = 4
    max_position_embeddings: int = 16
    max_steps: int = 600
    learning_rate: float = 3e-3
    seed: int = 0


@dataclass(frozen=True)
class DemoResult:
    """What ``build_demo_model`` produced: directory, accuracy in [0, 1], steps, seconds."""

    out_dir: Path
    accuracy: float
    steps: int
    train_seconds: float
    parameters: int


def problems() -> list[tuple[int, int]]:
    """All 100 single-digit addition problems ``(a, b)``, in a fixed order."""
    return [(a, b) for a in range(10) for b in range(10)]


def prompt_text(a: int, b: int) -> str:
    """The prompt for ``a + b`` without BOS (the tokenizer's post-processor adds it)."""
    return f"{a} + {b} ="


def answer_text(a: int, b: int) -> str:
    """The expected continuation: the digits of ``a + b`` separated by spaces."""
    return " ".join(str(a + b))


def corpus() -> list[str]:
    """The synthetic training corpus: one full example (prompt, answer) per line."""
    return [f"{prompt_text(a, b)} {answer_text(a, b)}" for a, b in problems()]


def train_tokenizer() -> Any:
    """Train a WordLevel tokenizer on :func:`corpus`; return a ``PreTrainedTokenizerFast``.

    Vocabulary: the 4 special tokens, the digits, ``+`` and ``=`` (16 tokens). The
    post-processor prepends ``<s>``; padding side is left so batched prompts end together.
    """
    from tokenizers import Tokenizer, models, pre_tokenizers, processors, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.WordLevel(unk_token=UNK))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tok.train_from_iterator(corpus(), trainers.WordLevelTrainer(special_tokens=SPECIAL_TOKENS))
    tok.post_processor = processors.TemplateProcessing(
        single=f"{BOS} $A", special_tokens=[(BOS, tok.token_to_id(BOS))]
    )
    return PreTrainedTokenizerFast(
        tokenizer_object=tok,
        bos_token=BOS,
        eos_token=EOS,
        pad_token=PAD,
        unk_token=UNK,
        padding_side="left",
        model_max_length=16,
        model_input_names=["input_ids", "attention_mask"],
    )


def _encode_examples(tokenizer: Any) -> tuple[Any, Any, Any]:
    """Left-padded full examples + EOS: (input_ids, attention_mask, labels with -100 off-answer)."""
    import torch

    rows, labels = [], []
    for a, b in problems():
        prompt = tokenizer(prompt_text(a, b))["input_ids"]
        answer = tokenizer(answer_text(a, b), add_special_tokens=False)["input_ids"] + [
            tokenizer.eos_token_id
        ]
        rows.append(prompt + answer)
        labels.append([-100] * len(prompt) + answer)
    width = max(len(r) for r in rows)
    pad = tokenizer.pad_token_id
    ids = torch.tensor([[pad] * (width - len(r)) + r for r in rows])
    mask = torch.tensor([[0] * (width - len(r)) + [1] * len(r) for r in rows])
    lab = torch.tensor([[-100] * (width - len(r)) + r for r in labels])
    return ids, mask, lab


def addition_accuracy(model: Any, tokenizer: Any, max_new_tokens: int = 3) -> float:
    """Greedy-decode every problem and return the fraction answered exactly (0.0–1.0).

    Works on any causal LM with ``generate`` (the fp32 source or a reloaded quantized export).
    """
    import torch

    pairs = problems()
    batch = tokenizer([prompt_text(a, b) for a, b in pairs], return_tensors="pt", padding=True)
    with torch.no_grad():
        out = model.generate(
            **batch,
            max_new_tokens=max_new_tokens,
            do_sample=False,
            pad_token_id=tokenizer.pad_token_id,
            eos_token_id=tokenizer.eos_token_id,
        )
    new = out[:, batch["input_ids"].shape[1] :]
    correct = 0
    for (a, b), row in zip(pairs, new.tolist(), strict=True):
        text = tokenizer.decode(row, skip_special_tokens=True).split()
        correct += "".join(text) == str(a + b)
    return correct / len(pairs)


def build_demo_model(
    out_dir: str | os.PathLike[str],
    config: DemoConfig | None = None,
    progress: Callable[[str], object] | None = None,
) -> DemoResult:
    """Train the demo model and save it in Hugging Face format (safetensors) under ``out_dir``.

    Deterministic for a given ``config.seed`` on one machine (seeded torch/python RNGs, one
    thread-independent full-batch loop). Stops early once greedy accuracy reaches 100 %
    (checked every 25 steps). Writes ``config.json``, ``generation_config.json``,
    ``model.safetensors``, the tokenizer files, ``calibration.txt`` (the prompts, one per line,
    used as offline calibration data) and ``quarkci_task.json`` (task id and measured accuracy).
    ``progress`` is a callable taking one message (default: print to stderr).
    The files are written to a temporary sibling directory that is renamed onto ``out_dir`` at the
    end, so ``out_dir`` is never half-written. Raises ``FileExistsError`` if ``out_dir`` exists
    and is not an empty directory, ``OSError`` if it cannot be written.
    """
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    cfg = config or DemoConfig()
    out = Path(out_dir)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise FileExistsError(f"{out} exists and is not an empty directory")
    out.parent.mkdir(parents=True, exist_ok=True)
    say = progress or (lambda msg: print(f"quarkci: {msg}", file=sys.stderr))
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    random.seed(cfg.seed)
    torch.manual_seed(cfg.seed)

    tokenizer = train_tokenizer()
    model_cfg = LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=cfg.hidden_size,
        intermediate_size=cfg.intermediate_size,
        num_hidden_layers=cfg.num_hidden_layers,
        num_attention_heads=cfg.num_attention_heads,
        num_key_value_heads=cfg.num_key_value_heads,
        max_position_embeddings=cfg.max_position_embeddings,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
        tie_word_embeddings=False,
        torch_dtype="float32",
    )
    model = LlamaForCausalLM(model_cfg)
    ids, mask, labels = _encode_examples(tokenizer)
    optim = torch.optim.AdamW(model.parameters(), lr=cfg.learning_rate, weight_decay=0.0)

    start = time.perf_counter()
    accuracy, step = 0.0, 0
    for step in range(1, cfg.max_steps + 1):
        model.train()
        loss = model(input_ids=ids, attention_mask=mask, labels=labels).loss
        optim.zero_grad()
        loss.backward()
        optim.step()
        if step % 25 == 0:
            model.eval()
            accuracy = addition_accuracy(model, tokenizer)
            say(f"demo-model: step {step} loss {loss.item():.4f} accuracy {accuracy:.0%}")
            if accuracy == 1.0:
                break
    seconds = time.perf_counter() - start
    model.eval()

    out = Path(out_dir)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    model.generation_config.pad_token_id = tokenizer.pad_token_id
    model.save_pretrained(tmp, safe_serialization=True)
    tokenizer.save_pretrained(tmp)
    atomic_write_text(tmp / CALIBRATION_FILE, "".join(prompt_text(a, b) + "\n" for a, b in problems()))
    n_params = sum(p.numel() for p in model.parameters())
    task = {
        "task": "single-digit-addition",
        "accuracy": accuracy,
        "steps": step,
        "seed": cfg.seed,
        "parameters": n_params,
    }
    atomic_write_text(tmp / TASK_FILE, json.dumps(task, indent=2, sort_keys=True) + "\n")
    if out.exists():
        out.rmdir()  # checked empty up front; a directory appearing meanwhile fails loudly here
    os.replace(tmp, out)
    return DemoResult(out, accuracy, step, seconds, n_params)
