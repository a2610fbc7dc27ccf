"""Text handling for routing: normalisation, a small multilingual lexicon, clauses and tokens.

Nothing here depends on word boundaries around CJK text: Latin runs and CJK runs are separated by a
space before any pattern runs, and CJK runs are tokenised into character bigrams for lexical scoring.
Pure and deterministic; no model, no network.
"""

from __future__ import annotations

import difflib
import re
import unicodedata

# CJK ideographs, kana, Hangul and full-width forms: scripts written without spaces between words.
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uff66-\uff9f"
CJK_RUN = re.compile(f"[{_CJK}]+")

# Phrases of other languages -> the English word the rules know, applied in order to the lower-cased
# goal before accents are stripped (participles first, so "quantisiertes Modell" is a state, not a verb).
LEXICON: tuple[tuple[str, str], ...] = (
    # quantized (a state: the model already is)
    (r"quantifi[ée]e?s?\b", "quantized"),
    (r"cuanti[zc]ad[oa]s?\b", "quantized"),
    (r"cuantificad[oa]s?\b", "quantized"),
    (r"quantisiert\w*", "quantized"),
    (r"量化(后|後|好的|过的|過的|完)", "quantized"),
    (r"量子化(した|済み|後|された)", "quantized"),
    (r"(这个|這個|该|該|那个|此|的)量化(?=模型)", " this quantized "),
    # quantize
    (r"量子化", "quantize"),
    (r"量化", "quantize"),
    (r"quantisier\w*|quantisation\w*|quantisierung", "quantize"),
    (r"quantifi\w*", "quantize"),
    (r"cuanti[zc]\w*|cuantific\w*|quantizar\w*", "quantize"),
    (r"kvantiz\w*", "quantize"),
    (r"\bquantis(e|ing)\b", "quantize"),
    # install / set up
    (r"安装|安裝|インストール|導入", "install"),
    (r"\binstal(a|ar|o|e|en)\b|\binstall(ier|ation)\w*|\binstaller\b", "install"),
    (r"\beinricht\w*|configurar|配置|セットアップ", "setup"),
    # evaluate / accuracy
    (r"评估|評価|评测|評測", "evaluate"),
    (r"[ée]valu\w*|evaluier\w*|\bbewert\w*", "evaluate"),
    (r"精度|准确率|precisión|précision|genauigkeit", "accuracy"),  # not English "precision" (a plan word)
    # export
    (r"导出|導出|エクスポート", "export"),
    (r"\bexport(ier\w*|e|es|ez|a|ar|o)\b", "export"),
    # error / failure / memory
    (r"报错|錯誤|错误|エラー|\bfehler\w*|\berreur\w*", "error"),
    (r"\bplant(e|é)\b|\bfalla\b|bricht\b.{0,40}\bab\b|崩溃|クラッシュ", "crashed"),
    (r"显存不足|內存不足|内存不足|メモリ不足|m[ée]moire|memoria|speicher", "memory"),
    (r"乱码|亂碼|文字化け", "garbage"),
    # inspect / analyse
    (r"分析|解析", "analyze"),
    (r"\banaliz\w*|\banalysier\w*", "analyze"),
    (r"inspeccion\w*|\buntersuch\w*", "inspect"),
    # negation and scope words
    (r"\bnicht\b|\bkein\w*", "not"),
    (r"不要|别|別", "do not"),
    (r"しないで|しない|せずに|せず", "nai"),
    (r"\bne\b|\bpas\b", "not"),
    (r"\bohne\b|\bsans\b|\bsin\b", "without"),
    (r"\bnur\b|\bsolo\b|\bseulement\b|\bsolamente\b|只|仅|僅|だけ", "just"),
    (r"然后|然後|その後|それから|\bdanach\b|\bdann\b|\bpuis\b|\bluego\b|despu[ée]s", "then"),
    # model / environment
    (r"模型|モデル|\bmodel[oe]s?\b|\bmodell\w*|\bmod[èe]le\w*", "model"),
    (r"环境|環境|entorno|umgebung", "environment"),
)
_LEXICON = tuple((re.compile(p), f" {w} ") for p, w in LEXICON)

# Words typos are repaired towards (length >= 5, close match only).
VOCAB = (
    "quantize",
    "quantization",
    "install",
    "pytorch",
    "evaluate",
    "analyze",
    "inspect",
    "environment",
    "benchmark",
    "validate",
    "accuracy",
    "architecture",
    "onnxruntime",
    "perplexity",
    "preflight",
    "export",
)

_CLAUSE = re.compile(
    r"[,;:!?，。；：！？、\n]|[.](?=\s|$)"
    r"|\s(?=(?:but|just|only|then|instead|afterwards|so|before|after|once)\b)"
)

STOPWORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "and",
        "or",
        "of",
        "to",
        "in",
        "on",
        "for",
        "with",
        "my",
        "me",
        "i",
        "it",
        "is",
        "are",
        "be",
        "this",
        "that",
        "these",
        "those",
        "please",
        "can",
        "you",
        "do",
        "how",
        "what",
        "want",
        "need",
        "would",
        "like",
        "use",
        "using",
        "into",
        "from",
        "by",
        "at",
        "as",
        "so",
        "just",
        "now",
        "then",
    ]
)


def normalise(goal: str) -> str:
    """Lower-case, map :data:`LEXICON` to English, strip accents, space out CJK runs, repair close typos.

    Returns one line of space-separated words; CJK runs are kept (as their own words).
    """
    text = unicodedata.normalize("NFKC", goal).lower()
    for rx, canon in _LEXICON:
        text = rx.sub(canon, text)
    text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    text = CJK_RUN.sub(lambda m: f" {m.group(0)} ", text)
    words = re.findall(r"[\w.'/-]+|\S", text)
    fixed = []
    for w in words:
        inflected = any(w.startswith(v) for v in VOCAB)  # "quantized", "installed": not typos
        if len(w) >= 5 and w.isalpha() and w.isascii() and not inflected:
            close = difflib.get_close_matches(w, VOCAB, n=1, cutoff=0.8)
            w = close[0] if close else w
        fixed.append(w)
    return " ".join(fixed)


def clauses(text: str) -> list[str]:
    """Split normalised ``text`` into clauses: at punctuation (also CJK) and before but/just/only/then."""
    return [c.strip() for c in _CLAUSE.split(text) if c and c.strip()]


def tokens(text: str) -> list[str]:
    """Lexical tokens of ``text`` (raw or normalised): Latin words (stop words dropped, a plural/verb
    suffix trimmed) and, for CJK runs, character bigrams plus single characters."""
    text = normalise(text)
    out: list[str] = []
    for run in re.findall(f"[{_CJK}]+|[a-z0-9][a-z0-9_+.-]*", text):
        if CJK_RUN.fullmatch(run):
            out.extend(run)
            out.extend(run[i : i + 2] for i in range(len(run) - 1))
            continue
        word = run.strip(".-")
        if not word or word in STOPWORDS:
            continue
        out.append(_stem(word))
        parts = [p for p in re.split(r"[.-]", word) if len(p) >= 3 and p not in STOPWORDS]
        if len(parts) > 1:  # "constant-fold" also counts as "constant" and "fold"
            out.extend(_stem(p) for p in parts)
    return out


def _stem(word: str) -> str:
    for suffix in ("ations", "ation", "ing", "ers", "ed", "es", "er", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word
