"""The context that decides whether (and how) a claim is checked against a release.

:func:`markers` reads the words around a claim (its own sentence or cell, the paragraph that
introduces its block, table or list, and its heading path) and returns the markers a claim's
``context`` carries:

* ``historical``: the text presents it as past ("this no longer works:", "removed in 0.11",
  "previously", "old API", "replaced by", "instead of `X`"), or a migration note naming two releases
  ("fails to import on 0.12.post1; it is back in 0.13") — not checked against the release (it says it is
  gone; in "use X instead of Y" both are left unchecked: precision over recall);
* ``negative``: the text says not to use it or that it is not supported ("do not use", "not supported");
* ``non_exhaustive``: a list or table said to be partial ("not exhaustive", "for example", "e.g.",
  "see ... for all") — never taken as a complete enumeration;
* ``releases``: a :class:`~packaging.specifiers.SpecifierSet` string when the statement is scoped to
  some releases (``for `amd-quark>=0.11,<0.12` ...``, "in amd-quark 0.10", "Quark 0.11 and earlier");
  it is checked only against a release inside that scope and never rewritten to another release.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

_HISTORICAL = re.compile(
    r"\b(?:no longer (?:works?|exists?|supported|available|valid|accepted|recogni[sz]ed|allowed|parsed)|(?:was|were|has been|have been) removed"
    r"|removed (?:in|since|from)(?! this\b| the current\b)|previously|used to\b|old(?:er)? (?:api|releases?|versions?|spelling)"
    # "If an older notebook still does the following", "Newer wheels moved them to ...": another time's text
    r"|old(?:er)? (?:notebooks?|examples?|snippets?|tutorials?|guides?)"
    r"|(?:newer|later|future|upcoming|earlier|prior) (?:wheels?|releases?|versions?|builds?)"
    r"|does not work any ?more|doesn't work any ?more|was renamed|were renamed|replaced (?:by|with)|instead of(?=\s+(?:the\s+|an?\s+)?(?:`|--|quark\b|amd-quark\b)))\b",
    re.IGNORECASE,
)
# Read in a claim's own sentence only (an introducing paragraph saying where a file moved from does not
# make the list after it history): "`A` became `B`", "moved there in 0.11 from `X`", "replace the older `Y`".
_HISTORICAL_OWN = re.compile(
    r"\b(?:became|moved (?:[\w.]+ ){0,3}from|replaces? the (?:older|old|former|legacy|previous)"
    r"|the (?:older|former|legacy|previous) (?:spelling|name|class|function|flag|api)|supersedes?"
    r"|no longer (?:re-?)?(?:in|part of|exported|exports?|ships?|shipped|present|included|there|listed|has|have|offers?"
    r"|defines?|provides?|contains?|accepts?|takes?)"
    r"|(?:is|are) gone|(?<![\w-])(?:gone|removed|dropped|deleted|retired)(?=(?:\s+(?:in|since)\s+0\.\d+[\w.]*)?\s*:\s*`)|\bleaves (?:them|it|the (?:top-level |public )?(?:exports?|package|module|api|namespace))(?!\s+(?:unset|as|at|alone|empty|untouched|unchanged|in place|on|off|to)\b)\b|\bleft(?= `[\w.]+`\s+(?:in|on|with)\b)|\bthe 0\.\d+(?:\.\d+)?(?:\.post\d+)?(?:-era)? (?:function|class|"
    r"method|flag|name|module|api|spelling|names)\b|\blost\b|\bloses\b|becomes|will become|(?:is|are|was|were) renamed to"
    r"|(?:came|comes|arrived|arrives|was added|were added|is added|are added) later|\breplaces(?=\s+`)"
    # ("still handy for old scripts" keeps the name for them: a use now)
    r"|(?<!for )old(?:er)? (?:clis?|builds?|scripts?|wheels?|code|notes)"
    # "the `quark.onnx_adapter` package of 0.11.x is now `quark.shapeshifter`": the old name of a rename
    r"|(?:package|module|class|function|flag|subcommand|command|option|api|name)s? (?:of|in|from) "
    r"(?:amd-quark |quark )?0\.\d+(?:\.(?:\d+|x))*(?:\.post\d+)? (?:is|are|was|were) now"
    r"|(?:is|are|was|were|been) dropped)\b",
    re.IGNORECASE,
)
_NEGATIVE = re.compile(
    r"\b(?:not (?:(?:currently|yet|officially|presently)\s+)?supported|unsupported|do not use|don't use|never use|must not|avoid using"
    r"|not compatible|incompatible|not available|unavailable|not accepted|rejects?|rejected|refuses?"
    r"|isn't available|aren't available"
    r"|does not exist|doesn't exist|do not exist|don't exist"
    r"|not (?:yet )?(?:present|included|shipped|covered|registered|part of)|\bthe one to avoid|\bto be avoided"
    # "`gemma4` and `hunyuan_v1_dense` have no template", "`X` has no CLI support"
    r"|(?:has|have|had) no (?:\w+ )?(?:templates?|support|registration|entry|entries)"
    r"|fails? (?:to import )?(?:on|in|with|under) (?:amd-quark |quark )?0\.\d+|fails to import"
    r"|fails? (?:on|in|under) (?:this|the current) (?:release|version)"
    # "`ModelExporter.export_quark_model` has already been removed in this release"
    r"|(?:been|is|are|was|were)\s+(?:already\s+)?removed\s+(?:in|from)\s+(?:this|the current)\b"
    r"|raises? (?:an? )?(?:ImportError|ModuleNotFoundError|AttributeError)|cannot be imported|can't be imported"
    r"|fails? with (?:an? )?`?(?:ImportError|ModuleNotFoundError|AttributeError)"
    r"|(?:does|do) not import|doesn't import|won't import)\b"
    # a question asking why something fails presupposes it does ("Why does `from x import Config` fail?")
    r"|\b(?:fail|fails|break|breaks)\s*\?",
    re.IGNORECASE,
)


# after the stop, closing emphasis may come first: "**Q: Is there a plain `X`?**" then "A: No."
# a code span or parenthesis, then a capitalised word (not a proper noun), starts a sentence: a line break
# the paragraph's text no longer shows ("`llama`, `gpt_oss`\nNot supported on this release: `glm5_next`.")
_SENTENCE_BREAK = re.compile(
    r"(?:(?<=[.;!?])|(?<=[.;!?]\*\*)|(?<=[.;!?]__))\s+(?=[A-Z`(*])"
    r"|(?<=[`)])\s+(?=(?!(?:Quark|Python|PyTorch|Hugging|Transformers|CPython|Linux|Windows)\b)[A-Z][a-z]+\b)"
)


def sentences_of(text: str) -> list[str]:
    """``text`` split after ``.``, ``;``, ``!`` or ``?`` where the next word starts a sentence (a capital,
    a code span, a parenthesis): "… not available before 0.11. There are 25 …" is two sentences; so is a code span or
    parenthesis then a capitalised word that is not a proper noun (a line break the text no longer shows)."""
    return _SENTENCE_BREAK.split(text)


# a word, dotted names whole ("quark.torch"), a sentence's closing stop left out ("... and gpt_oss.")
_WORD = re.compile(r"[\w\-/]+(?:\.[\w\-/]+)*")


@dataclass(frozen=True)
class Negations:
    """Which words of a paragraph stand in a negative sentence or ``;`` clause (:func:`is_negative`, or a
    question answered "No"), read once per paragraph: ``negated`` those words, ``seen`` every word,
    ``whole`` whether the paragraph as a whole is negative; ``instructed`` the words of its sentences that
    tell the reader what to do now ("For perplexity on another corpus add `--evaluation_dataset`.") without
    any word of history."""

    negated: frozenset[str]
    seen: frozenset[str]
    whole: bool
    instructed: frozenset[str] = frozenset()
    absent: frozenset[str] = frozenset()  # the words of its sentences saying something is not there
    undated: frozenset[str] = frozenset()  # the words standing only in clauses naming no release nor history

    def current(self, names: tuple[str, ...]) -> bool:
        """True when the words of ``names`` stand only in clauses without a word of history: "`GPTQConfig`'s
        `block_size` defaults to 64 in this release; `true_sequential` is gone since 0.9" dates
        `true_sequential`, not the default before it."""
        # any one spelling of the claim whose words all stand there (a count "20" is written "twenty")
        spelled = [_WORD.findall(n) for n in names if n]
        return any(words and all(w in self.undated for w in words) for words in spelled)

    def absent_of(self, names: tuple[str, ...]) -> bool:
        """True when a sentence holding one of ``names`` says something does not exist or is not
        available (:data:`_UNAVAILABLE`), not merely that it is refused or not to be used."""
        words = [w for n in names if n for w in _WORD.findall(n)]
        return any(w in self.absent for w in words)

    @property
    def dated(self) -> bool:
        """True when an instruction names an amd-quark release itself ("on 0.11 add `--x`")."""
        return any(_RELEASE.fullmatch(w) for w in self.instructed)

    def instructs(self, names: tuple[str, ...]) -> bool:
        """True when the words of ``names`` stand only in instructions (see above): the paragraph's
        history is about its other names."""
        words = [w for n in names if n for w in _WORD.findall(n)]
        return bool(words) and all(w in self.instructed for w in words)

    def of(self, names: tuple[str, ...]) -> bool:
        """True when a sentence holding one of ``names`` is negative, or none holds one and the paragraph
        is: a negation in one sentence says nothing of the names of the next ("`ptpc_fp8` is not available
        before 0.11. There are 25 model types, from `llama` …"). A name of several words counts by its
        words."""
        words = [w for n in names if n for w in _WORD.findall(n)]
        if not any(w in self.seen for w in words):
            return self.whole
        return any(w in self.negated for w in words)


_IMPORTED_FROM = re.compile(
    r"\b(?:fails? to (?:be )?import(?:ed)?|cannot be imported|can't be imported|(?:is|are) not importable"
    r"|(?:does|do) not import|doesn't import|won't import)\s+from\s+(`[^`\n]+`)",
    re.IGNORECASE,
)
# "rejects a `custom_mode` other than `quark`, `awq` or `fp8`": the names excepted from a negation
_EXCEPTED = re.compile(
    r"\b(?:other than|except(?: for)?|besides|apart from|but not)\s+((?:`[^`\n]+`(?:\s*(?:,|or|and|nor)\s*)*)+)",
    re.IGNORECASE,
)
# "... on 0.12.post1 — use `QConfig`": advice after a dash too
_ADVICE_BREAK = re.compile(
    r"; |,\s+(?:so|but|then|instead)\s+(?=\w)"
    r"|\s+[—–]\s+(?=(?:use|try|pass|switch|build|call|prefer|choose|pick|run|install|import|set)\b)",
    re.IGNORECASE,
)


def negations(text: str) -> Negations:
    """The :class:`Negations` of ``text`` (time linear in its length)."""
    # "...; use `fp8`", "... is not available, so fall back to plain `fp8`": the advice is a clause of its own
    parts = [c for s in sentences_of(text) for c in _ADVICE_BREAK.split(s)]
    negated: set[str] = set()
    seen: set[str] = set()
    absent: set[str] = set()
    instructed: set[str] = set()
    other: set[str] = set()  # the words of every other sentence
    undated: set[str] = set()  # the words of clauses without a word of history, and of those with one
    dated_words: set[str] = set()
    for i, part in enumerate(parts):
        words = _WORD.findall(part)
        seen.update(words)
        if is_negative(part) or (i + 1 < len(parts) and answered_no(part, parts[i + 1])):
            # "`Config` fails to import from `quark.x.config`": the module is where, not what, is missing
            place = {w for m in _IMPORTED_FROM.finditer(part) for w in _WORD.findall(m.group(1))}
            # "rejects a `custom_mode` other than `quark`, `awq` or `fp8`": the excepted are the accepted
            place |= {w for m in _EXCEPTED.finditer(part) for w in _WORD.findall(m.group(1))}
            negated.update(w for w in words if w not in place)
            if _UNAVAILABLE.search(_unconditional(part)) or (
                i + 1 < len(parts) and answered_no(part, parts[i + 1])
            ):
                absent.update(w for w in words if w not in place)
        past = bool(_HISTORICAL.search(part) or _HISTORICAL_OWN.search(part) or _names_two_releases(part))
        # a clause naming a release is dated by it ("; in 0.10 it was under `X`", "0.7 required `<3.12`")
        (dated_words if past or _RELEASE.search(_BOUND.sub(" ", part)) else undated).update(words)
        if _INSTRUCTION.search(part) and not past:
            instructed.update(words)
        else:
            other.update(words)
    return Negations(
        frozenset(negated),
        frozenset(seen),
        is_negative(text),
        frozenset(instructed - other),
        frozenset(absent),
        frozenset(undated - dated_words),
    )


# What says a name is not there (a stricter reading than :func:`is_negative`: "`register_scheme` refuses a
# name" and "avoid `X`" say nothing of whether the release has them)
_UNAVAILABLE = re.compile(
    r"\b(?:not (?:(?:currently|yet)\s+)?available|unavailable|isn't available|aren't available|does not exist"
    r"|doesn't exist|do not exist|don't exist|not (?:yet )?(?:present|included|shipped|exported)|removed"
    r"|no longer|fails to import|cannot be imported|can't be imported|(?:does|do) not import|doesn't import"
    r"|won't import|raises? (?:an? )?(?:ImportError|ModuleNotFoundError|AttributeError)|(?:is|are) gone)\b",
    re.IGNORECASE,
)


# a sentence telling the reader what to do now ("For perplexity on a different corpus add
# `--evaluation_dataset wikitext`.")
_INSTRUCTION = re.compile(
    r"\b(?:add|use|pass|run|set|call|append|supply|invoke|try)\s+(?=`|--)", re.IGNORECASE
)


# "**Q: Is `quark-skills` installed?** A: No." / "### Is `x` in 0.12.post1?" then "No, ...": the names the
# question asks about are said absent
_ANSWER_NO = re.compile(
    r"^\W*(?:A\s*[:.]\s*)?\W*No\b(?![-\w]|\s+(?:need|problem|change|longer|more)\b)", re.I
)


def answered_no(question: str, answer: str) -> bool:
    """True when ``question`` ends with a question mark (emphasis aside) and ``answer`` begins with "No"."""
    return question.rstrip("*_ \n").endswith("?") and bool(_ANSWER_NO.match(answer))


def is_negative(text: str) -> bool:
    """True when ``text`` says something is not supported, not available or not to be used, in its own
    words: a quoted error message (```ValueError: Unsupported format```, ``"Unsupported KV cache
    scheme"``) says nothing of the kind, nor does a failure only when a dependency is missing
    (:data:`_CONDITIONAL_FAILURE`), and emphasis (``is **not** a``) is read as plain words."""
    return bool(_NEGATIVE.search(_unconditional(text)))


# "`quark.onnx` ... raises `ImportError` (...) when it is missing", "fails if `onnxruntime` is not
# installed": the failure depends on the reader's environment, not on the release
_CONDITIONAL_FAILURE = re.compile(
    r"\b(?:raises?|raising|fails?|failing|errors?(?: out)?|breaks?)\b[^.;]{0,120}?\b(?:when|if|unless|without)\b"
    r"[^.;]{0,80}?\b(?:missing|not installed|absent|isn't installed|aren't installed|not present|not found"
    r"|cannot be found|can't be found|uninstalled)\b",
    re.IGNORECASE,
)


def _unconditional(text: str) -> str:
    """:func:`unquoted` ``text`` less its conditional failures (:data:`_CONDITIONAL_FAILURE`)."""
    return _CONDITIONAL_FAILURE.sub(" ", unquoted(text))


# the names a negation governs directly: "has no `quark-cli` and no `LLMTemplate`", "`mx9` is **not** a
# template scheme"; a paragraph saying so elsewhere leaves its other names alone
_HAS_NO = re.compile(
    r"\b(?:has|have|had|ships?|shipped|registers?|defines?|provides?|offers?|includes?|contains?"
    r"|there (?:is|are|was|were))\s+no\s+"
    r"((?:`[^`\n]+`(?:\s*(?:,|and|or|nor)\s*(?:no\s+)?)?)+)",
    re.IGNORECASE,
)
# "... console script (it arrives in 0.10), and no `LLMTemplate` either": a further "and no `X`"
# "(no `ptpc_fp8`, no `int4_wo_per_channel` yet)": an aside opening with "no `X`" too
_AND_NO = re.compile(
    r"(?:(?:,|;|\band\b|\bor\b|\bnor\b|\bbut\b)\s+|\(\s*)(?:also\s+)?no\s+`([^`\n]+)`", re.IGNORECASE
)
# "The synopsis mentions `quark-cli torch-ptq`, but no such subcommand exists": the span before it is absent
_NO_SUCH = re.compile(
    r"`([^`\n]+)`[^`.]{0,40}?\b(?:no such|(?:that|this) (?:one|named)?\s*)\s*(?:sub-?command|command|flag|option"
    r"|class|function|module|scheme|template|package|name)\s+(?:exists?|is registered|is defined|ships"
    r"|does not exist|doesn't exist|is not registered)\b",
    re.IGNORECASE,
)
# "Neither `torch-ptq` nor `register-template` is registered as a subcommand": both said absent
_NEITHER = re.compile(
    r"\bNeither\s+(`[^`\n]+`|[\w.-]+)\s+nor\s+(`[^`\n]+`|[\w.-]+)\s+(?:is|are|was|were|exists?|ships?)\b",
    re.IGNORECASE,
)
# "(`import_model_info` out, `ModelImporter` in)": a name said out of the release
_OUT = re.compile(r"`([^`\n]+)`\s+out(?=\s*[,;)])")
# "`mx9` is **not** a template scheme", "`FP16` and `A8W8` are not among them", "`X` is not part of
# `quark.torch` yet", "`kimi_k2` and `qwen3_5_moe` have no built-in template here", "`ModelImporter` is no
# longer importable": the negation right after a span; the subject's spans are read back from it
_IS_NOT_A = re.compile(
    r"`\s+(?:(?:is|are)\s+(?:\*\*)?(?:not|no longer)(?:\*\*)?\s+(?:yet\s+)?"
    # ("is not one of the names `get_config` accepts" restricts a role: the name may well exist)
    r"(?:an?|among|part of|one of(?!\s+the\s+(?:[\w`]+\s+){1,3}(?:accepts?|takes?|allows?)\b)|in|listed"
    r"|exported|defined|shipped|included|presets?|importable|available"
    r"|registered|built[- ]in|templates?|schemes?)\b|(?:has|have)\s+(?:\*\*)?no(?:\*\*)?\s+(?:built[- ]in\s+)?"
    r"(?:templates?|entry|entries|registration|support)\b)",
    re.IGNORECASE,
)
# "`ptpc_fp8` is one of the 18 schemes; `amdfp4` is not.": a bare "is not" closing a clause;
# "the `quark/torch/quantization/config/template.py` module does not exist yet": a span, maybe its noun,
# then "does not exist"
_IS_NOT_END = re.compile(
    r"`(?:\s+(?:module|file|package|folder|directory|class|function|subcommand|command|script))?\s+"
    r"(?:(?:is|are)\s+(?:\*\*)?not(?:\*\*)?(?=\s*[.;)]|\s*$)|(?:does|do)\s+not\s+exist|doesn't exist|don't exist)",
    re.IGNORECASE,
)
# "`fp8_e4m3` and `fp6_e2m3` are `Dtype` members, not schemes": the subject before "is/are" is said not to
# be a thing of that kind
_NOT_KIND = re.compile(
    r"\s+(?:is|are)\s+[^.;:\n]{1,80}?,\s+(?:\*\*)?not(?:\*\*)?\s+(?:an?\s+)?(?:quark\s+)?"
    r"(?:schemes?|templates?|model (?:types?|templates?)|flags?|options?|subcommands?|commands?|presets?"
    r"|configs?|modules?|classes|class)\b",
    re.IGNORECASE,
)
# the spans of a subject ending right before a negation ("`FP16` and `A8W8`", "`X` (without `_Y`) and `Z`"),
# read in a bounded window
_SUBJECT = re.compile(r"(?:`[^`\n]+`\s*(?:\([^()\n]{0,60}\)\s*)?(?:,|and|or|nor|/)\s*)*`[^`\n]+`$")
_SUBJECT_WINDOW = 400  # characters before the negation: bounded work per negation
# "No `QronosConfig` and no `GPTAQConfig`.": a sentence opening with "No `X`"
_OPENS_NO = re.compile(r"(?:^|[.;:!?]\s+|\n)\s*No\s+(?:[a-z]+\s+){0,2}`([^`\n]+)`")


def _subject(text: str, end: int) -> str:
    """The run of code spans (joined by commas, "and", "or") ending at ``text[end - 1]``; "" when none."""
    start = max(0, end - _SUBJECT_WINDOW)
    match = _SUBJECT.search(text[start:end])
    return match.group(0) if match else ""


def said_absent(text: str) -> frozenset[str]:
    """The code spans ``text`` says are absent by a negation right next to them (:data:`_HAS_NO`,
    :data:`_IS_NOT_A`), their last dotted part too (``quark.x.Y`` -> ``Y``); empty when none."""
    if "no" not in text.lower() and " out" not in text:
        return frozenset()
    names = {m.group(1) for m in _OUT.finditer(text)}
    for match in _HAS_NO.finditer(text):
        names.update(re.findall(r"`([^`\n]+)`", match.group(1)))
    for match in (*_IS_NOT_A.finditer(text), *_IS_NOT_END.finditer(text)):
        subject = re.sub(r"\s\([^()\n]*\)", " ", _subject(text, match.start() + 1))  # not an aside's spans
        names.update(re.findall(r"`([^`\n]+)`", subject))
    for match in _NOT_KIND.finditer(text):
        names.update(re.findall(r"`([^`\n]+)`", _subject(text, match.start())))
    names.update(m.group(1) for m in _AND_NO.finditer(text))
    for match in _NO_SUCH.finditer(text):  # "mentions `quark-cli torch-ptq`, but no such subcommand exists"
        names.add(match.group(1))
        names.add(match.group(1).rsplit(" ", 1)[-1])
    for match in _NEITHER.finditer(text):  # "Neither torch-ptq nor register-template is registered"
        names.update(n.strip("`") for n in (match.group(1), match.group(2)))
    names.update(m.group(1) for m in _OPENS_NO.finditer(text))
    # "There is no `LLMTemplate.get_supported_schemes()` classmethod": a call's name without its parentheses
    names = {n.removesuffix("()") for n in names}
    return frozenset(names | {n.rsplit(".", 1)[-1] for n in names if "/" not in n})


# "the older `MXSpec`", "not the old `w_fp8_a_fp8`-style names": the span after the word is the old name
_OLD_NAME = re.compile(r"\bthe (?:old|older|former|legacy|previous|deprecated)\s+`([^`\n]+)`", re.IGNORECASE)
_RATHER_THAN = re.compile(
    r"\brather than\s+(?:under\s+|in\s+|at\s+|from\s+|the\s+)?`([^`\n]+)`", re.IGNORECASE
)
_NEW_NAME = re.compile(
    r"\b(?:replaced|superseded|succeeded) (?:by|with)\s+(?:the\s+(?:new|newer)\s+)?`([^`\n]+)`"
    r"|\bin favou?r of\s+`([^`\n]+)`",
    re.IGNORECASE,
)
# "(0.8.2 only had the older `MXSpec`)", "(0.10 used `--model_export`)": an aside saying what one release had
_DATED_ASIDE = re.compile(
    r"\((?P<body>[^()]*?(?P<v>(?<![\w.])0\.\d{1,2}(?:\.\d+)?(?:\.post\d+)?)(?![\w]|\.\d)[^()]*?"
    r"\b(?:had|used|shipped|offered|accepted|took|exported|pinned|capped|required|allowed|called it|named it"
    r"|turns? it into|turned it into"
    r"|makes? it|made it|adds?|added|introduces?|introduced|renames? it|renamed it|moves? it|moved it"
    r"|appears?|appeared|arrives?|arrived|(?:and|or) (?:later|newer|above|earlier|older)|onwards?)\b[^()]*)\)",
    re.IGNORECASE,
)

# "(0.11.x: `onnx>=1.16.0,<=1.19.0`)", "(on 0.10: `--model_export`)": an aside labelled with one release
_LABELLED_ASIDE = re.compile(
    r"\(\s*(?:(?:on|in|for|with|under|was|were)\s+)?(?:amd-quark\s+|quark\s+)?"
    r"(?P<v>(?<![\w.])0\.\d{1,2}(?:\.\d+)?(?:\.post\d+)?)(?:\.x)?\s*:(?P<body>[^()]*)\)",
    re.IGNORECASE,
)


def dated(text: str) -> dict[str, str]:
    """The code spans ``text`` dates to another time, by words right next to them: ``{span: "historical"}``
    after "the old(er)/former/legacy/previous" (:data:`_OLD_NAME`), ``{span: "current"}`` after "replaced by"
    (:data:`_NEW_NAME`: the sentence's history is the replaced name's), ``{span: "==0.8.2"}`` inside an aside
    saying what one release had (:data:`_DATED_ASIDE`); the last dotted part of each span too. The other
    names of the sentence keep its markers."""
    if "`" not in text:
        return {}
    out: dict[str, str] = {}
    for match in (*_DATED_ASIDE.finditer(text), *_LABELLED_ASIDE.finditer(text)):
        if match.re is _DATED_ASIDE and len(_RELEASE.findall(match.group("body"))) != 1:
            continue
        version = match.group("v")
        scope = f"=={version}.*" if version.count(".") == 1 else f"=={version}"
        if side := re.search(
            rf"{re.escape(version)}\s+(?:and|or)\s+(later|newer|above|earlier|older)", match.group(0)
        ):
            scope = f">={version}" if side.group(1) in ("later", "newer", "above") else f"<={version}"
        spans = re.findall(r"`([^`\n]+)`", match.group("body"))
        if not spans:  # "`QConfig` / `QLayerConfig` (0.11 and later)": the aside dates the spans before it
            before = text[: match.start()].rstrip()
            spans = re.findall(r"`([^`\n]+)`", _subject(before, len(before)))
        for span in spans:
            out[span] = scope
            if _DOTTED.fullmatch(
                span
            ):  # `quark.torch.LLMTemplate` is also `LLMTemplate`; `onnx>=1.16.0` is not
                out[span.rsplit(".", 1)[-1]] = scope
    for match in _RATHER_THAN.finditer(text):
        # "now lives in `quark/torch/utils/llm/` rather than under `quark/experimental/...`": not where it is
        out.setdefault(match.group(1), "historical")
    for match in _OLD_NAME.finditer(text):
        span = match.group(1)
        out.setdefault(span, "historical")
        out.setdefault(span.rsplit(".", 1)[-1], "historical")
    # "`onnxsim==0.4.36` was replaced by `onnxslim>=0.1.84`": what replaced the old is what is there now,
    # unless the text names when ("In 0.12.post1 `quark/onnx_adapter/` is replaced by ..."): that release's
    for match in _NEW_NAME.finditer(text) if not _RELEASE.search(_BOUND.sub(" ", text)) else ():
        out.setdefault(match.group(1) or match.group(2), "current")
    if mapping := _MAPPING.fullmatch(text.strip()):
        # "`QuantizationConfig` -> `QLayerConfig`" alone on its line or item: the old name, then the new
        old = mapping.group(1)
        out.setdefault(old, "historical")
        if "/" not in old:  # a path's last dotted part is its suffix (`py`), which the new path shares
            out.setdefault(old.rsplit(".", 1)[-1], "historical")
    return out


_DOTTED = re.compile(r"[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*")
_MAPPING = re.compile(r"`([^`\n]+)`\s*(?:->|→|=>|⇒)\s*`[^`\n]+`\s*(?:\([^()\n]{0,60}\))?\.?")


_QUOTED = re.compile(r"`[^`\n]*`|\"[^\"\n]*\"|“[^”\n]*”")


def unquoted(text: str) -> str:
    """``text`` with code spans and quoted strings blanked and Markdown emphasis marks dropped; a span that
    is just an import error's class name (`` `ImportError` ``) stays, as a word."""
    return re.sub(r"\*\*|__", "", _QUOTED.sub(_blank, text))


_ERROR_SPAN = re.compile(r"`(ImportError|ModuleNotFoundError|AttributeError)`")


def _blank(match: re.Match[str]) -> str:
    error = _ERROR_SPAN.fullmatch(match.group(0))
    return error.group(1) if error else " "


_NON_EXHAUSTIVE = re.compile(
    r"\b(?:not exhaustive|non-exhaustive|incomplete list|partial list|for example"
    r"|e\.g\.|such as|among others|some of|a few|see [^.]{0,80}\bfor (?:all|the full|"
    r"a complete|the complete|more))",
    re.IGNORECASE,
)
# A list or table said to be partial: decides "enumerates" (stricter than ``_NON_EXHAUSTIVE``,
# whose "e.g." often introduces one example inside a complete list's prose).
PARTIAL_LIST = re.compile(
    r"\b(?:not exhaustive|non-exhaustive|incomplete list|partial list|not a complete"
    r"|see [^.]{0,80}\bfor (?:all|the full|a complete|the complete)|a selection\b"
    r"|not (?:the |a )?(?:full|complete|whole|entire) (?:list|set|table)"
    r"|some examples|among (?:others|them)|\bincluding\b|\bsuch as\b|\bgained\b"
    # a list of what changed ("The additions:", "New in 0.11.2", "What's new") lists a difference, not all
    r"|(?:the\s+)?additions\b|\bnew (?:in|since|ones|entries|templates|models|schemes)\b|newly added"
    r"|\badded (?:in|since)\b|what(?:'s| is) new|\b(?:changes|differences) (?:in|since|from)\b)",
    re.IGNORECASE,
)


# A migration note: one sentence naming two releases ("`Config` fails to import on 0.12.post1; it is back in
# 0.13") states what each release does, not how to use the audited one: it is not checked as usage.
_RELEASE = re.compile(r"(?<![\w.])0\.\d{1,2}(?:\.\d+)?(?:\.post\d+)?(?![\w]|\.\d)")
# A requirement's bounds (``flydsl<0.3,>=0.2.4``) are versions of that package, not amd-quark releases.
_BOUND = re.compile(r"(?:===|==|>=|<=|!=|~=|<|>)\s*\d[\w.*]*")


def migration_note(own: str) -> bool:
    """True when ``own`` names two or more different amd-quark releases (0.x version numbers outside
    requirement bounds such as ``<0.3``) and is not a release scope (``for `amd-quark>=0.11,<0.12` ...``,
    which is checked inside its scope)."""
    return _names_two_releases(own) and release_scope(own) is None


def _names_two_releases(text: str) -> bool:
    return len(set(_RELEASE.findall(_BOUND.sub(" ", text)))) >= 2


# A list or table presented as a selection of what the release has ("Models we have run", "tested with"):
# not a complete list, so never completed row by row (see ``selection``).
SELECTION = re.compile(
    r"\b(?:we(?:'ve| have)?\s+(?:run|tested|validated|verified|tried|used)|(?:tested|validated|verified)"
    r"\s+(?:with|on|models?|schemes?)|known to work|example (?:models?|schemes?)|examples? of|popular"
    r"|commonly used|a few|highlights)\b",
    re.IGNORECASE,
)


def selection(*texts: str) -> str | None:
    """The words of the first of ``texts`` (heading, introducing paragraph) that present a list as a
    selection ("we have run", "tested with", "known to work"), or None."""
    for text in texts:
        if text and (match := SELECTION.search(text)):
            return match.group(0)
    return None


def partial_list(*texts: str) -> bool:
    """True when any of ``texts`` (heading, introducing paragraph) says the list is partial."""
    return any(PARTIAL_LIST.search(t) for t in texts if t)


_SCOPE_SPEC = re.compile(
    r"amd-quark\s*(?P<spec>(?:[<>=!~]=?\s*\d+(?:\.\d+)*(?:\.post\d+)?\s*,?\s*)+)", re.IGNORECASE
)
_SCOPE_WORDS = re.compile(
    r"\b(?:in|for|with|on|from)\s+(?:amd-)?quark\s+(?:v(?:ersion)?\s*)?(?P<v>\d+\.\d+(?:\.\d+)?(?:\.post\d+)?)"
    r"(?:\s+(?P<dir>and|or)\s+(?P<rel>earlier|older|before|later|newer|above))?",
    re.IGNORECASE,
)
# A bare release number after "on"/"in"/"for"/"until" ("on 0.10 they were under ...", "in 0.11.2"): the
# shape of an amd-quark release (0.x), never a bound (``<0.3``) nor a quantity ("0.5 s", "alpha 0.5").
_SCOPE_BARE = re.compile(
    # ("compared with 0.11.2", "unlike in 0.10": a comparison names the other release, not the sentence's own)
    r"(?<!compared )(?<!comparison )(?<!unlike )\b(?P<word>in|on|for|with|until|till|up to|through|since|from)"
    r"\s+(?:the\s+(?=0\.\d+(?:\.\w+)*\s+"
    r"(?:series|line|releases?|wheels?)\b))?(?:release\s+|v)?"
    r"(?P<v>0\.\d{1,2}(?:\.\d+)?(?:\.post\d+)?)"
    r"(?![\w%]|\.\d|\s*(?:s|ms|seconds?|%|x|times)\b)(?:\s+(?P<dir>and|or)\s+"
    r"(?P<rel>earlier|older|before|later|newer|above))?",
    re.IGNORECASE,
)
# A sentence labelled with one release: "**0.9**: Python range ...", "0.11 - renamed config classes".
_SCOPE_LABEL = re.compile(
    r"^\W*(?:amd-quark\s+|quark\s+|v)?(?P<v>0\.\d{1,2}(?:\.\d+)?(?:\.post\d+)?)(?:\*\*|__)?\s*(?::|—|–|-\s)",
    re.IGNORECASE,
)
# A release as the subject of what changes ("0.10 adds `joblib`"), or the release one upgrades to.
_SCOPE_SUBJECT = re.compile(
    r"(?:(?<![\w.<>=~!])(?P<v>0\.\d{1,2}(?:\.\d+)?(?:\.post\d+)?)\s+(?:then\s+|also\s+|now\s+|later\s+)?"
    r"(?:keeps|adds|drops|caps|pins|requires|removes|introduces|raises|lowers|moves|renames|deprecates|bumps"
    r"|added|dropped|capped|pinned|removed|introduced|raised|lowered|moved|renamed|deprecated|bumped"
    r"|gains|gained|loses|lost|offered|shipped|provided|exported|had)\b)"
    # "0.10's `--quant_scheme` took `w_*` names": what that release's thing did
    r"|(?<![\w.<>=~!])(?P<w>0\.\d{1,2}(?:\.\d+)?(?:\.post\d+)?)['’]s\s"
    r"|\b(?:upgrad(?:e|es|ed|ing)|mov(?:e|es|ed|ing)|switch(?:es|ed|ing)?|migrat(?:e|es|ed|ing))\s+to\s+"
    r"(?:amd-quark\s+|quark\s+)?(?P<u>0\.\d{1,2}(?:\.\d+)?(?:\.post\d+)?)",
    re.IGNORECASE,
)
_FROM_TO = re.compile(
    r"\bfrom\s+(?:amd-quark\s+|quark\s+)?v?0\.\d{1,2}(?:\.\d+)?(?:\.post\d+)?\s+(?:to|->|→)\s+"
    r"(?:amd-quark\s+|quark\s+)?v?(?P<to>0\.\d{1,2}(?:\.\d+)?(?:\.post\d+)?)(?![\w.])",
    re.IGNORECASE,
)
# The bare words that bound a scope on one side: "until 0.11" (and older), "since 0.11" (and newer).
_UP_TO = frozenset({"until", "till", "up to", "through"})
_FROM = frozenset({"since", "from"})


def release_scope(text: str, bare: bool = False) -> str | None:
    """The releases a statement is scoped to, as a specifier string; None when it names none. With
    ``bare`` (a claim's own sentence, never the paragraph introducing a block) a release number alone
    counts too ("on 0.10 they were under ...")."""
    if m := _FROM_TO.search(text):
        # "Moving from Quark 0.10 to 0.11": a migration guide speaks of the release it moves to
        version = m.group("to")
        return f"=={version}.*" if version.count(".") == 1 else f"=={version}"
    if m := _SCOPE_SPEC.search(text):
        try:
            return str(SpecifierSet(re.sub(r"\s+", "", m.group("spec")).rstrip(",")))
        except InvalidSpecifier:
            return None
    if bare and (m := _SCOPE_LABEL.match(text)):
        version = m.group("v")  # "**0.9**: Python range ...": a list item labelled with its release
        return f"=={version}.*" if version.count(".") == 1 else f"=={version}"
    if bare and (m := _SCOPE_SUBJECT.search(text)):
        # "0.10 keeps the range but caps `onnx<=1.19.0`", "after upgrading to 0.12.post1, ...": that release
        version = m.group("v") or m.group("w") or m.group("u")
        return f"=={version}.*" if version.count(".") == 1 else f"=={version}"
    if (m := _SCOPE_WORDS.search(text)) or (bare and (m := _SCOPE_BARE.search(text))):
        version = m.group("v")
        word = (m.groupdict().get("word") or "").lower()
        try:
            Version(version)
        except ValueError:  # InvalidVersion, or an integer of over 4,300 digits (int() limit)
            return None
        rel = (m.group("rel") or "").lower()
        if rel in ("earlier", "older", "before") or word in _UP_TO:
            return f"<={version}"
        if rel in ("later", "newer", "above") or word in _FROM:
            return f">={version}"
        return f"=={version}.*" if version.count(".") == 1 else f"=={version}"
    return None


# A code comment that only labels the lines after it with one release: "# 0.10", "# Quark 0.13 (this
# release)", "// before (0.11.2):", "# amd-quark>=0.12 only". Words beyond these make it a remark
# ("# --model_export was removed in 0.12" says nothing of the command under it).
_COMMENT = re.compile(r"^\s*(?:#(?!!)|//|--\s|rem\s)\s*(?P<body>.*)$", re.IGNORECASE)
_LABEL_WORDS = frozenset(
    {
        "old",
        "new",
        "older",
        "newer",
        "before",
        "after",
        "on",
        "for",
        "with",
        "in",
        "quark",
        "amd",
        "release",
        "version",
        "v",
        "up",
        "to",
        "until",
        "since",
        "from",
        "and",
        "or",
        "later",
        "earlier",
        "this",
        "current",
        "legacy",
        "only",
        "previously",
        "now",
        "the",
        "equivalent",
        "command",
        "way",
        "style",
        "syntax",
        "cli",
        "api",
        "example",
        "same",
        "run",
        "it",
        "works",
        "is",
        "was",
    }
)


def comment_label(line: str) -> str | None:
    """The release a code comment line labels the lines after it with, as a specifier (``# 0.10`` ->
    ``==0.10.*``, ``# 0.11.2 and later`` -> ``>=0.11.2``); None when ``line`` is no comment, names no
    release or two, or says more than a label (:data:`_LABEL_WORDS`)."""
    if len(line) > 120 or (m := _COMMENT.match(line)) is None:
        return None
    body = m.group("body")
    releases = _RELEASE.findall(body)
    if len(set(releases)) != 1:
        return None
    rest = re.sub(r"[<>=~!]=?|[()\[\]:,.\-—–*_`]", " ", _RELEASE.sub(" ", body.replace("amd-quark", "quark")))
    if any(word.lower() not in _LABEL_WORDS for word in rest.split()):
        return None
    if re.search(r"[<>=~!]=?\s*0\.", body):
        return release_scope(body)  # "# amd-quark>=0.12 only"
    version, words = releases[0], {w.lower() for w in rest.split()}
    if words & {"later", "newer", "since", "from"}:
        return f">={version}"
    if words & {"earlier", "older", "until", "up"}:
        return f"<={version}"
    return f"=={version}.*" if version.count(".") == 1 else f"=={version}"


# "Coming from old notes that use `--quant_scheme w_fp8_a_fp8`? Those notes still work unchanged here.": the
# old text is said to hold now, so its names are usage of this release, not history
_STILL_NOW = re.compile(
    r"\b(?:still|continues? to|keeps? (?:on )?)\s*(?:works?|working|accepted|valid|supported|runs?|exists?|"
    r"available|importable)\b|\bworks? (?:unchanged|as before|the same)\b",
    re.IGNORECASE,
)


def markers(own: str, lead: str = "", section: str = "", read: Surrounding | None = None) -> dict[str, Any]:
    """Markers of a claim whose own sentence/cell/line is ``own``, introduced by ``lead`` (the
    paragraph before its block/list/table) under the heading path ``section`` (``read``: their
    :func:`surrounding`, when the caller has it already).

    ``historical`` reads ``own`` and ``lead``; ``non_exhaustive`` all three; ``negative`` ``own``
    (and ``section``, e.g. a "Not supported" heading); ``releases`` ``own``, then ``lead``, then ``section``.
    """
    out: dict[str, Any] = {}
    around = surrounding(lead, section) if read is None else read
    two_releases = _names_two_releases(own)
    # a bare release number scopes a sentence naming one release; naming two, it is a migration note
    own_scope = release_scope(own, bare=not two_releases)
    if (
        (
            (_HISTORICAL.search(own) or _HISTORICAL_OWN.search(own))
            and not (_STILL_NOW.search(own) and not is_negative(own))
        )
        or around.historical
        or (own_scope is None and two_releases)
    ):  # the last: migration_note(own)
        out["historical"] = True
    if is_negative(own) or around.negative:
        out["negative"] = True
    if _NON_EXHAUSTIVE.search(own) or around.non_exhaustive:
        out["non_exhaustive"] = True
    scope = own_scope or around.scope
    if scope:
        out["releases"] = scope
    return out


@dataclass(frozen=True)
class Surrounding:
    """What the introducing paragraph and the heading path of a claim say (see :func:`markers`)."""

    historical: bool
    negative: bool
    non_exhaustive: bool
    scope: str | None


# A lead labelled with one release ("Before (0.10):", "0.11.2:", "Old way (Quark 0.10):"): its block shows
# that release.
_LEAD_LABEL = re.compile(
    r"^\s*(?:[A-Za-z]+\s+){0,2}\(?(?:amd-quark\s+|quark\s+|v)?"
    r"(?P<v>0\.\d{1,2}(?:\.\d+)?(?:\.post\d+)?)\)?\s*:",
    re.IGNORECASE,
)


def _lead_label(lead: str) -> str | None:
    if (m := _LEAD_LABEL.match(lead)) is None:
        return None
    version = m.group("v")
    return f"=={version}.*" if version.count(".") == 1 else f"=={version}"


# A parenthesised aside ("0.10 adds `export_onnx` (previously a method of `ModelExporter`)"): its words frame
# the aside, not the block or paragraph the lead introduces.
_ASIDE = re.compile(r"\([^()]{0,400}\)")


# A heading naming a task ("Registering a template for an unsupported architecture", "How to handle
# unsupported models"): its negative word speaks of the reader's model, not of the names below it
_TASK_HEADING = re.compile(
    # a troubleshooting question ("Q: My scheme name is rejected", "Why is `x` refused?") states the
    # reader's symptom, not what the release lacks
    r"^\W*(?:[A-Za-z]{3,}ing\b|how to\b|when to\b|Q\s*[:.]|why\b|my\b|i\b|i'm\b|what if\b)|\?\W*$"
    r"|\b(?:for|with|on|to|from|about)\s+(?:an?\s+|the\s+|your\s+)?(?:\w+\s+)?(?:unsupported|not supported)\b",
    re.IGNORECASE,
)


_NOW = re.compile(
    r"\b(?:is|are) now\b|\bnow (?:lives?|sits?|ships?|comes?|belongs?)\b|\b(?:is|are)\b[^.;:]{0,40}\bnow\b",
    re.IGNORECASE,
)


def surrounding(lead: str, section: str) -> Surrounding:
    """The markers ``lead`` and ``section`` give (read once for the claims of one table or list). History
    named only inside a parenthesised aside of ``lead`` does not make what it introduces historical."""
    return Surrounding(
        # "These helpers used to live under `llm_utils/`; they are now a public module." introduces what
        # holds now: history the lead itself brings up to date does not make its block historical
        bool(_HISTORICAL.search(_ASIDE.sub(" ", lead))) and not _NOW.search(lead),
        # "## Not supported" frames the list below it; "### The CLI rejects `--quant_scheme w_int4_...`" speaks
        # of the names it quotes (read on the heading's own line), not of the advice below
        any(is_negative(h) and not _TASK_HEADING.search(h) for h in section.split(" > ") if "`" not in h),
        bool(_NON_EXHAUSTIVE.search(lead) or _NON_EXHAUSTIVE.search(section)),
        _lead_label(lead) or release_scope(lead) or release_scope(section),
    )


# a table header or row label naming one release and little else: "0.10 CLI", "**0.12.post1** (this one)",
# "Quark 0.11", "amd-quark 0.13"
_CELL_LABEL = re.compile(
    r"^[\s*_`]*(?:amd-quark\s+|quark\s+|v)?(?P<v>0\.\d{1,2}(?:\.\d+)?(?:\.post\d+)?)(?:\.x)?(?![\w.])[\s*_`]*"
    r"(?:\([^()]{0,24}\)|[A-Za-z ]{0,12})?[\s*_`]*$",
    re.IGNORECASE,
)


# a label naming a release in parentheses after a few words: "Old name (0.11.x)", "Before (0.10)"
_CELL_LABEL_AFTER = re.compile(
    r"^[\s*_`]*[A-Za-z][A-Za-z ]{0,20}\(\s*(?:amd-quark\s+|quark\s+|v)?"
    r"(?P<v>0\.\d{1,2}(?:\.\d+)?(?:\.post\d+)?)(?:\.x)?\s*\)[\s*_`]*$",
    re.IGNORECASE,
)


def cell_release(cell: Any) -> str | None:
    """The release (a specifier, ``==0.10.*`` or ``==0.12.post1``) a table cell speaks of when its column
    header or, for a cell after the first, its row's first cell is a label naming one release
    (:data:`_CELL_LABEL`); None otherwise, and for a header cell or the label itself. ``cell`` is a
    :class:`~quarkci.skills.claims.walk.Cell`."""
    if cell.is_header:
        return None
    if (scope := _label(cell.header, cell.headers)) is not None:
        return scope
    if cell.column > 0 and cell.row:
        return _label(cell.row[0], cell.labels)  # rows labelled by release: siblings are the other rows
    return None


def release_matrix(headers: tuple[str, ...]) -> bool:
    """True when two or more column headers each name one release ("| model_type | 0.10 | 0.11 |"): the
    table compares releases for the rows it picked, it lists no release's names completely."""
    return sum(1 for h in headers if _CELL_LABEL.match(h)) >= 2


def _label(text: str, siblings: tuple[str, ...] = ()) -> str | None:
    """The release a label names: ``==0.10.*`` for "0.10", exactly ``==0.11`` when a sibling label (another
    column's header, or another row's first cell) names a release of that series ("| 0.11 | 0.11.1 |": the
    0.11 column is not 0.11.1's)."""
    if (m := _CELL_LABEL.match(text) or _CELL_LABEL_AFTER.match(text)) is None:
        return None
    version = m.group("v")
    if version.count(".") != 1:
        return f"=={version}"
    series = any(
        (o := _CELL_LABEL.match(h)) is not None and o.group("v").startswith(version + ".") for h in siblings
    )
    return f"=={version}" if series else f"=={version}.*"


def release_readings(cell: Any) -> list[tuple[str, str]]:
    """``[(text, release specifier)]`` for the first cell of a data row of a release matrix: with columns
    labelled by release ("| | 0.11.2 | 0.12.post1 |"), each such cell read after the row's label
    (``"Python 3.9 – 3.12"``, scoped to ``==0.11.2``); with rows labelled by release ("| Release | Python |
    onnx |"), each later cell read after its column's header (``"onnx 1.21.0 – 1.23.0"``, scoped to that
    row's release). Empty for any other cell or table. ``cell`` is a :class:`~quarkci.skills.claims.walk.
    Cell`."""
    if cell.is_header or cell.column != 0 or not cell.row:
        return []
    columns = [
        (c, scope)
        for c, h in enumerate(cell.headers)
        if c > 0 and (scope := _label(h, cell.headers)) is not None
    ]
    if columns:
        return [(f"{cell.row[0]} {cell.row[c]}", scope) for c, scope in columns if c < len(cell.row)]
    if (row := _label(cell.row[0], cell.labels)) is not None:
        return [
            (f"{cell.headers[c]} {cell.row[c]}", row) for c in range(1, min(len(cell.row), len(cell.headers)))
        ]
    return []


def in_scope(context: dict[str, Any], version: str) -> bool:
    """True when a claim with ``context`` speaks about release ``version`` (no scope: every release)."""
    scope = context.get("releases")
    if not scope:
        return True
    try:
        return SpecifierSet(str(scope)).contains(Version(version), prereleases=True)
    except (InvalidSpecifier, InvalidVersion):
        return True
