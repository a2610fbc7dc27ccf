"""Goal text -> intents: normalisation (case, accents, a small multilingual lexicon, typo repair)
and keyword rules. Pure and deterministic; no model, no network.
"""

from __future__ import annotations

import difflib
import re
import unicodedata

# Non-English and variant spellings -> canonical English keyword (substring match on the goal).
LEXICON: dict[str, str] = {
    # quantize
    "量化": " quantize ", "cuantiz": " quantize ", "quantizar": " quantize ", "quantis": " quantize ",
    "quantifi": " quantize ", "kvantiz": " quantize ", "cuantific": " quantize ",
    # install / set up
    "安装": " install ", "instala": " install ", "installier": " install ", "einricht": " setup ",
    "configurar": " setup ", "配置": " setup ",
    # inspect / analyse
    "分析": " analyze ", "analiz": " analyze ", "analysier": " analyze ", "analys": " analyze ",
    "inspeccion": " inspect ", "untersuch": " inspect ",
    # evaluate
    "评估": " evaluate ", "evalua": " evaluate ", "evaluier": " evaluate ", "bewert": " evaluate ",
    "precision": " accuracy ", "genauigkeit": " accuracy ", "精度": " accuracy ",
    # model / environment
    "模型": " model ", "modelo": " model ", "modell": " model ", "modele": " model ",
    "环境": " environment ", "entorno": " environment ", "umgebung": " environment ",
}

# Words typos are repaired towards (length >= 5, close match only).
VOCAB = ("quantize", "quantization", "install", "pytorch", "evaluate", "analyze", "inspect", "environment",
         "benchmark", "validate", "accuracy", "architecture", "onnxruntime", "perplexity", "preflight")

_SCHEMES = r"\b(fp8|int4|int8|mxfp4|mxfp6|mxint8|w4a16|w8a8|w4a8|a8w8|xint8|bfp16|uint4|fp4|nvfp4|awq|gptq|smoothquant|ptpc)\b"

PATTERNS: dict[str, str] = {
    # quantize: any mention (verb, "quantized", a scheme name) vs. an explicit request to quantize
    "quantize": r"\bquantiz\w*|\bptq\b|post-training quantization|" + _SCHEMES,
    "quantize_verb": r"\bquantize\b|\bquantizing\b|\bptq\b|\brun (post-training )?quantization\b"
                     r"|\bquantization (of|for|on|to|with)\b|^\W*quantization\b",
    "supported": r"can quark quantize|\bsupported\b|how many\b.{0,30}\blayers|\blayer count"
                 r"|\b(quantizable|linear) layers\b|\barchitecture\b",
    "smaller": r"\b(smaller|compress)\b",
    "onnx": r"\.onnx\b|\bonnx\b(?!runtime)",
    "onnxruntime": r"\bonnxruntime\b|\bonnx runtime\b|\bort\b",
    "install": r"\b(install\w*|reinstall|pip install)\b",
    "setup": r"\b(set ?up|setup)\b",
    "torch": r"\b(pytorch|torch)\b",
    "torch_broken": r"torch\.cuda\.is_available|cpu-only build|torch version mismatch",
    "quark": r"\b(quark|amd-quark)\b",
    "import_error": r"modulenotfounderror|importerror|no module named|\bimport(ing)? (fails|failed|error)"
                    r"|\b(cannot|can'?t) import|\bimport quark\b",
    "inspect": r"\b(analy[sz]e|inspect|architecture|check this model|count the linear)\b",
    "plan": r"\bplan\b|\b(which|what|best|recommend\w*)\b.{0,30}\b(scheme|config\w*|format|precision)\b"
            r"|\bchoose quantization\b|\bquantization config\b|" + _SCHEMES + r" or " + _SCHEMES,
    "plan_only": r"\b(don'?t run|do not run|plan only|without running|just recommend)\b",
    "env": r"\b(environment|setup ready|my setup|preflight)\b"
           r"|\b(what|which|detect|check)\b[^.?]{0,25}\b(gpu|rocm|cuda|driver|hardware|accelerator)\b",
    "workspace": r"\bmodel path\b|where should i put|\bpath (right|correct|valid)\b"
                 r"|\b(validate|check)\b.{0,20}\b(paths?|output dir\w*)\b|\b(exists?|writable)\b",
    "validate_out": r"\b(validate|verify|check)\b.*\b(result|output|exported|weights|checkpoint)\b"
                    r"|byte-identical|\bmd5\b|\bchecksums?\b",
    "debug": r"\b(failed|error|crash\w*|traceback|not available|exception)\b",
    "eval": r"\b(evaluate|evaluation|benchmark|accuracy|perplexity|lm-eval|lighteval|evalscope|lose accuracy)\b"
            r"|\b(gsm8k|mmlu|hellaswag|arc|aime|gpqa|wikitext|lambada|winogrande)(_\w+)?\b",
    "compare": r"\bcompare\b",
    "serve": r"\b(serve|serving|deploy|host|api|endpoint)\b",
    "shrink": r"\bshrink|\b(1|one|single)[- ]layer\b|\btiny model\b|\bminimal model\b",
    "file2file": r"\bfile2file\b|without loading",
    "perf": r"\b(mixed-precision search|throughput|quant-perf)\b",
    "export": r"\bexport\b|\bhf_format\b",
    "hardware_stated": r"(?<![.\w])(rocm|cuda|cu1\d\d|mi\d{3}x?|nvidia|radeon)\b",
    "offline": r"\b(offline|no internet|air-?gapped)\b",
}
_COMPILED = {k: re.compile(v) for k, v in PATTERNS.items()}


def normalise(goal: str) -> str:
    """Lower-case, strip accents, map the lexicon to English, repair close typos of :data:`VOCAB`."""
    text = unicodedata.normalize("NFKC", goal).lower()
    text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    for word, canon in LEXICON.items():
        text = text.replace(word, canon)
    words = re.findall(r"[\w.'/-]+|\S", text)
    fixed = []
    for w in words:
        inflected = any(w.startswith(v) for v in VOCAB)  # "quantized", "installed": not typos
        if len(w) >= 5 and w.isalpha() and not inflected:
            close = difflib.get_close_matches(w, VOCAB, n=1, cutoff=0.8)
            w = close[0] if close else w
        fixed.append(w)
    return " ".join(fixed)


def signals(goal: str) -> frozenset[str]:
    """The set of :data:`PATTERNS` keys that match the normalised goal."""
    text = normalise(goal)
    return frozenset(k for k, rx in _COMPILED.items() if rx.search(text))
