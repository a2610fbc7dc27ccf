"""Text handling for routing: the canonical text of a goal, its clauses, and lexical tokens.

:func:`normalise` turns a goal in any of the lexicon's languages into *canonical text*: lower-case, the
lexicon's terms replaced by their canonical English words, its markers by marker tokens (``_neg_``,
``_later_``, ...) with a ``|`` wherever a marker ends a clause, Latin accents stripped, CJK runs spaced out
and close typos of canonical words repaired. :func:`clauses` splits canonical text at punctuation (also
CJK), at those ``|`` breaks, and says which clauses asked a question. :func:`tokens` are the lexical tokens
BM25 scores (Latin words stemmed, CJK character bigrams). Pure and deterministic; no model, no network.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache

from quarkci.router.lexicon import lexicon, marker_for

# CJK ideographs, kana, Hangul and full-width forms: scripts written without spaces between words.
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uff66-\uff9f"
CJK_RUN = re.compile(f"[{_CJK}]+")
MARKER_TOKEN = re.compile(r"(?<!\w)_[a-z]+_(?!\w)")
_BREAK = re.compile(r"([,;:!?，。；：！？、\n|()\[\]—–]|[.](?=\s|$)|\s-\s)")
_QUESTION_MARKS = frozenset("?？")
_TYPO_MIN = 6  # words this long or longer are repaired ...
_TYPO_CUTOFF = 0.85  # ... towards a canonical word this similar (difflib ratio) with the same first letter


def invisible_free(text: str) -> str:
    """``text`` without format characters (zero-width spaces and joiners, BOM, bidi marks: category Cf)."""
    return "".join(c for c in text if unicodedata.category(c) != "Cf")


def _strip_latin_accents(text: str) -> str:
    """Drop combining accents from Latin letters only (kana and Hangul must not be decomposed)."""
    out = []
    for c in text:
        if ord(c) < 0x250 or 0x1E00 <= ord(c) <= 0x1EFF:
            out.append("".join(d for d in unicodedata.normalize("NFKD", c) if not unicodedata.combining(d)))
        else:
            out.append(c)
    return "".join(out)


@cache
def _typo_targets() -> tuple[str, ...]:
    """Canonical words typos are repaired towards: the lexicon's single-word terms of 6+ letters."""
    words = {w for _rx, to in lexicon().terms for w in to.split() if len(w) >= _TYPO_MIN and w.isalpha()}
    return tuple(sorted(words))


def _mark(match: re.Match[str]) -> str:
    marker = marker_for(lexicon(), match)
    if marker.brk == "before":
        return f" | {marker.token} "
    if marker.brk == "after":
        return f" {marker.token} | "
    return f" {marker.token} "


@lru_cache(maxsize=1024)
def normalise(goal: str) -> str:
    """The canonical text of ``goal`` (see the module docstring): one line of space-separated words."""
    lex = lexicon()
    text = invisible_free(unicodedata.normalize("NFKC", goal)).lower().replace("|", ",")
    text = text.replace("\u2019", "'").replace("\u2018", "'")
    for rx, canon in lex.terms:
        text = rx.sub(canon, text)
    text = lex.markers.sub(_mark, " ".join(text.split()))
    text = _strip_latin_accents(text)
    text = CJK_RUN.sub(lambda m: f" {m.group(0)} ", text)
    targets = _typo_targets()
    fixed = []
    for w in re.findall(r"[\w.'/+-]+|\S", text):
        if len(w) >= _TYPO_MIN and w.isalpha() and w.isascii() and not any(w.startswith(t) for t in targets):
            close = difflib.get_close_matches(
                w, [t for t in targets if t[0] == w[0]], n=1, cutoff=_TYPO_CUTOFF
            )
            w = close[0] if close else w
        fixed.append(w)
    return " ".join(fixed)


@dataclass(frozen=True)
class Piece:
    """One clause of canonical text; ``asked`` when it ended with a question mark."""

    text: str
    asked: bool


def clauses(text: str) -> list[Piece]:
    """Split canonical ``text`` at punctuation (Latin and CJK), at marker breaks (``|``) and at " - "."""
    parts = _BREAK.split(text)
    out: list[Piece] = []
    for i in range(0, len(parts), 2):
        body = parts[i].strip()
        delimiter = parts[i + 1] if i + 1 < len(parts) else ""
        if body and MARKER_TOKEN.sub("", body).strip():
            out.append(Piece(body, delimiter in _QUESTION_MARKS))
        elif body and out:  # a clause of markers only ("not yet") colours the clause before it
            out[-1] = Piece(f"{out[-1].text} {body}", out[-1].asked or delimiter in _QUESTION_MARKS)
    return out


def tokens(text: str, canonical: bool = False) -> list[str]:
    """Lexical tokens of ``text`` (raw, or already ``canonical`` text: then not normalised again): Latin
    words (stop words and marker tokens dropped, a suffix trimmed) and, for CJK runs, single characters
    plus character bigrams."""
    text = MARKER_TOKEN.sub(" ", text if canonical else normalise(text))
    stop = lexicon().stopwords
    out: list[str] = []
    for run in re.findall(f"[{_CJK}]+|[a-z0-9][a-z0-9_+.-]*", text):
        if CJK_RUN.fullmatch(run):
            out.extend(run)
            out.extend(run[i : i + 2] for i in range(len(run) - 1))
            continue
        word = run.strip(".-_")
        if not word or word in stop:
            continue
        out.append(stem(word))
        parts = [p for p in re.split(r"[._/-]", word) if len(p) >= 3 and p not in stop]
        if len(parts) > 1:  # "constant-fold" also counts as "constant" and "fold"
            out.extend(stem(p) for p in parts)
    return out


def stem(word: str) -> str:
    """``word`` without one inflection suffix (quantized/quantize -> quantiz), when 4+ letters remain."""
    for suffix in ("ations", "ation", "ings", "ing", "ers", "ed", "es", "er", "e", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word
