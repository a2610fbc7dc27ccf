"""Goal text -> what is asked: signals found per clause, with negation and "already done" scope.

A *signal* is a named pattern (:data:`PATTERNS`) matched on the normalised goal
(:func:`quarkci.router.text.normalise`). Each clause is read on its own:

* a request verb (:data:`VERBS`) after a negation cue in its clause ("don't quantize", "do NOT
  export"), or before one when none follows (Japanese/German order: "量子化はしないで"), is *negated*;
* a clause that states a fact ("torch is already there", "I've already quantized it") holds *state*,
  not requests: "quantized" there means the model is quantized, "torch" is not an install target;
  a clause about a later step ("before I quantize it", "I'll quantize next week") is context too;
* everything else is *active*. Error signals are never negated ("X not available" is still an error).

Pure and deterministic; no model, no network.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from quarkci.router.text import clauses, normalise

_SCHEMES = (
    r"\b(fp8|int4|int8|mxfp4|mxfp6|mxint8|w4a16|w8a8|w4a8|a8w8|a16w8|xint8|bfp16|uint4|fp4|nvfp4|awq|gptq"
    r"|smoothquant|ptpc|ptpc-fp8)\b"
)
_BITS = r"\b(2|3|4|6|8)[- ]?bits?\b"

PATTERNS: dict[str, str] = {
    # quantize: any mention (verb, a scheme, N bits) vs. an explicit request to quantize
    "quantize": r"\bquantiz\w*|\bptq\b|post-training quantization|" + _SCHEMES + "|" + _BITS,
    "quantize_verb": r"\bquantize\b|\bquantizing\b|\bptq\b|\brun (post-training )?quantization\b"
    r"|\bquantization (of|for|on|to|with)\b|^\W*quantization\b|" + _BITS,
    "quantized": r"\bquantized\b|\bint4 model\b|\bfp8 (model|version|checkpoint)\b",
    "supported": r"can quark quantize|\bsupported\b|how many\b.{0,30}\blayers|\blayer count|\bwhich layers\b"
    r"|\b(quantizable|linear) layers\b|\barchitecture\b",
    "smaller": r"\b(smaller|compress|squeeze)\b",
    "onnx": r"\.onnx\b|\bonnx\b(?!runtime)",
    "onnx_target": r"\b(to|into|as|for) (an? )?(\.?onnx)\b",
    "onnxruntime": r"\bonnxruntime\b|\bonnx runtime\b|\bort\b",
    "install": r"\b(install\w*|reinstall|pip install)\b|\b(need|want)( the| a| an)? (amd-quark|quark|pytorch|torch|onnxruntime)\b",
    "setup": r"\b(set ?up|setup)\b",
    "torch": r"\b(pytorch|torch)\b",
    "torch_broken": r"torch\.cuda\.is_available|cpu-only|\bcpu only\b|torch version mismatch",
    "quark": r"\b(quark|amd-quark)\b",
    "import_error": r"modulenotfounderror|importerror|no module named|\bimport(ing)? (fails|failed|error)"
    r"|\b(cannot|can'?t) import|\bimport quark\b",
    "inspect": r"\b(analy[sz]e|inspect|architecture|check this model|count the linear)\b",
    "search": r"\b(search\w*|sweep|auto-?tun\w*|tune|tuning)\b",
    "plan": r"\bplan\b|\b(which|what|best|recommend\w*|pick)\b.{0,30}\b(scheme|config\w*|format|precision)\b"
    r"|\bchoose quantization\b|\bquantization config\b|" + _SCHEMES + r" or " + _SCHEMES,
    "plan_only": r"\b(don'?t run|do not run|plan only|without running|just recommend|don'?t run it)\b",
    "env": r"\b(environment|setup ready|my setup|preflight)\b"
    r"|\b(what|which|detect|check|tell me|show me|list)\b[^.?]{0,25}\b(gpus?|rocm|cuda|drivers?|hardware|accelerators?)\b",
    "workspace": r"\bmodel path\b|where should i put|\bpath (right|correct|valid)\b"
    r"|\b(validate|check)\b.{0,20}\b(paths?|output dir\w*)\b|\b(exists?|writable)\b",
    "validate_out": r"\b(validate|verify|check)\b.*\b(result|output|exported|weights|checkpoint|safetensors)\b"
    r"|byte-identical|\bmd5\b|\bchecksums?\b",
    "error": r"\w+errors?\b|\berrors?\b|\bexception\b|traceback|\bout of (gpu |device |host |cpu |cuda |hip )?memory\b"
    r"|\bmemory overflow\b|\braise[sd]?\b|\bthrows?\b|\bfails? to load\b|out of memory|\boom\b|\bcrash\w*|\bdied\b|\bfail\w*"
    r"|\b(repeats?|repeating|keeps? (generating|repeating|saying|producing))\b.{0,30}\b(same|token|word)s?\b"
    r"|\bgarbage\b|\bgibberish\b|\bgarbled\b|\bnonsense\b|\bnan\b|\bwrong (output|result|answer)s?\b|illegal memory|segfault|\bbroken\b"
    r"|\bnot available\b|\bmemory\b.{0,20}\b(error|crashed)\b",
    "eval": r"\b(evaluate|evaluation|benchmark|accuracy|perplexity|lm-eval|lighteval|evalscope|lose accuracy)\b"
    r"|\b(gsm8k|mmlu|hellaswag|arc|aime|gpqa|wikitext|lambada|winogrande)(_\w+)?\b",
    "compare": r"\bcompare\w*\b|\bvs\.?\b|\bversus\b",
    "serve": r"\b(serve|serving|deploy\w*|host|api|endpoint)\b",
    "export": r"\bexport\b|\bhf_format\b|\bgguf\b|\b(package|bundle) (it|them|the|my|this|that|for)\b"
    r"|\b(convert|turn)\b.{0,40}\b(to|into|as)\b.{0,12}\b(onnx|gguf|hf_format|safetensors)\b",
    "shrink": r"\bshrink|\b(1|one|single)[- ]layer\b|\btiny model\b|\bminimal model\b",
    "file2file": r"\bfile2file\b|without loading",
    "perf": r"\b(mixed-precision search|throughput|quant-perf)\b",
    "hardware_stated": r"(?<![.\w])(rocm|cuda|cu1\d\d|mi\d{3}x?|nvidia|radeon)\b",
    "offline": r"\b(offline|no internet|air-?gapped)\b",
    "authoring": r"\b(create|write|author|add|build|make|new)\b.{0,30}\bskills?\b",
    "authoring_code": r"\b(create|write|author|add|implement|new)\b.{0,40}\b(pass|passes|plugin|op|transform)\b",
}
_COMPILED = {k: re.compile(v) for k, v in PATTERNS.items()}

# Request verbs a negation cue can cancel; everything else (errors, schemes, products) is a fact.
VERBS = frozenset(
    {
        "quantize_verb",
        "quantize",
        "export",
        "eval",
        "install",
        "setup",
        "inspect",
        "plan",
        "serve",
        "compare",
        "validate_out",
        "shrink",
        "file2file",
        "perf",
    }
)
# What "already ..." describes: a quantized model, an installed product. Other verbs in the clause stay requests.
STATEFUL = frozenset(
    {"quantize", "quantize_verb", "quantized", "install", "setup", "torch", "quark", "onnxruntime"}
)
_NEGATION = re.compile(
    r"\b(don'?t|do not|does not|not|nai|never|without|skip|instead of|rather than|nothing to)\b"
    r"|\bno\b(?! (module|internet|such))"
)
_STATE = re.compile(
    r"\balready\b|\bis (there|installed|fine|ok|working)\b|\bworks( fine)?\b|\b(comes?|later) later\b"
    r"|\bcomes later\b|\bi'?ve (just )?quantized\b|\bi have (a|an) quantized\b|\bis quantized\b"
)
# A clause about a later step ("before I quantize it", "I'll quantize next week"): context, not a request.
_LATER = re.compile(
    r"^(after|before|once)\b|\b(i'?ll|i will|we will|we'?ll) (quantiz|install|export)\w*"
    r"|\b(quantiz|install|export)\w* (it |them )?(later|next (week|month|time))\b"
)
# "make sure Quark is installed", "check whether torch is installed": a request to verify, not a stated fact.
_VERIFY = re.compile(r"\b(make sure|verify|check|confirm|whether|ensure)\b")
_WINDOW = 6  # a negation cue reaches this many words ahead


@dataclass(frozen=True)
class Goal:
    """What the goal asks: ``active`` signals -> the goal text that matched them; ``negated`` request
    verbs cancelled by a negation cue; ``state`` signals of clauses that state a fact."""

    text: str
    active: dict[str, str] = field(default_factory=dict)
    negated: dict[str, str] = field(default_factory=dict)
    state: dict[str, str] = field(default_factory=dict)
    clauses: tuple[str, ...] = ()

    def has(self, *keys: str) -> bool:
        """True when every key is an active signal."""
        return all(k in self.active for k in keys)

    def mentions(self, key: str) -> bool:
        """True when ``key`` matched anywhere (active, negated or state)."""
        return key in self.active or key in self.negated or key in self.state


def understand(goal: str) -> Goal:
    """Read ``goal`` (raw text) into a :class:`Goal`. Deterministic."""
    text = normalise(goal)
    active: dict[str, str] = {}
    negated: dict[str, str] = {}
    state: dict[str, str] = {}
    parts = clauses(text) or [text]
    for clause in parts:
        found = {k: m for k, rx in _COMPILED.items() if (m := rx.search(clause))}
        cues = list(_NEGATION.finditer(clause))
        cancelled: set[str] = set()
        for cue in cues:
            ahead = clause[cue.end() :]
            reach = len(" ".join(ahead.split()[:_WINDOW])) + (len(ahead) - len(ahead.lstrip()))
            after = {
                k for k, m in found.items() if k in VERBS and cue.end() <= m.start() <= cue.end() + reach
            }
            if after:
                cancelled |= after
            elif cue.group(0) in ("not", "nai"):  # verb-final order ("quantize は nai", "quantisiere nicht")
                before = [(m.start(), k) for k, m in found.items() if k in VERBS and m.end() <= cue.start()]
                if before:
                    cancelled.add(max(before)[1])
        if "quantize_verb" in cancelled:
            cancelled.add("quantize")
        is_state = bool(_STATE.search(clause)) and not _VERIFY.search(clause)
        is_later = bool(_LATER.search(clause))
        for key, m in found.items():
            as_fact = is_later and key != "error" or is_state and key in STATEFUL
            target = negated if key in cancelled else state if as_fact else active
            target.setdefault(key, m.group(0))
    return Goal(text, active, negated, state, tuple(parts))


def signals(goal: str) -> frozenset[str]:
    """The active signal names of ``goal`` (see :func:`understand`)."""
    return frozenset(understand(goal).active)
