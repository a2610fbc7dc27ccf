"""Bare prose words that name a Quark thing, read as if written in code spans.

A skill may write a Quark name without backticks ("QronosConfig for error-correcting rounding", "the
shapeshifter subcommand", "individual layers use --exclude_layers", "it is now in
quark/torch/utils/llm/model_preparation.py"). Before any extractor reads a prose block, :func:`lift` wraps
such a word in a code span, so every extractor reads it as it reads a span: one place decides which prose
words are names, and the extractors keep a single reading of spans.

A word is lifted only when its shape is that of a Quark name and the release vocabulary has it (any
release), so an ordinary English word never becomes a claim:

* ``QronosConfig``, ``ModelQuantizer``: CamelCase with two or more capitals, a public class or function
  (vocabulary ``name``);
* ``export_safetensors``: snake case with an underscore, a public function or a method (``name``, the
  method part of ``member``), not a scheme or template name (:mod:`.tokens` reads those in prose itself);
* ``VINT8``, ``A8W8_ADAQUANT``: upper case with a digit, an ONNX configuration (``onnx_config``);
* ``--exclude_layers``: an option string some Quark CLI defines (``flag``);
* ``torch-mixed-precision``, ``quark-quant-perf``: a ``quark-cli`` subcommand or console script
  (``command``) with a hyphen, or without one when "subcommand" or "command" follows (``shapeshifter
  subcommand``);
* ``quark/torch/utils/llm/model_preparation.py``: a path into the ``quark`` package;
* ``CalibMethod.MinMse``: a member of a class some release defines (the member itself is checked later);
* ``include_cle=True``: a parameter name some release's callable has, given a constant;
* ``block_size``: such a parameter name alone, when the same paragraph names a class or function having it
  ("GPTQConfig's block_size defaults to 64").

Never lifted: text in code spans, link destinations, URLs, HTML tags, headings. Offsets move within a
line, never across lines (a claim keeps its line).
"""

from __future__ import annotations

import re

from quarkci.skills.claims.lexicon import CLASS_NAME, SNAKE_NAME, Lexicon

_CONSTANT = r"(?:True|False|None|-?\d+(?:\.\d+)?|\"[^\"\s`]{0,40}\"|'[^'\s`]{0,40}')"
_CANDIDATE = re.compile(
    r"(?<![\w`./<>=-])(?:"
    # a member of a class: `CalibMethod.MinMSE`, `Dtype.fp8_e4m3`
    r"(?P<member>[A-Z][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*)(?![\w`(]|\.\w)"
    # a keyword given a constant: `include_cle=True`, `block_size=128`
    rf"|(?P<keyword>[a-z][a-z0-9]*(?:_[a-z0-9]+)+)={_CONSTANT}(?![\w`.])"
    r"|(?P<word>--[A-Za-z][\w-]*\w|quark/[\w./-]*[\w/]|[A-Za-z][A-Za-z0-9]*(?:[_-][A-Za-z0-9]+)*)"
    r"(?![\w`>]|-\w|\.\w|/\w|=))"
)
_WORDS = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# what is never read: code spans, link destinations, autolinks and URLs, HTML tags
_SKIP = re.compile(r"`+[^`]*`+|\]\([^)\n]*\)|<[^<>\n]*>|https?://\S+")
_CAMEL = re.compile(CLASS_NAME)
_SNAKE = re.compile(SNAKE_NAME)
_UPPER = re.compile(r"(?=[A-Z0-9_]*\d)[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*")
_HYPHENATED = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)+")
_COMMAND_NOUN = re.compile(r"\s+(?:sub-?)?commands?\b", re.IGNORECASE)


def lift(text: str, lexicon: Lexicon) -> str:
    """``text`` (inline Markdown) with each bare word that names a Quark thing (see the module docstring)
    wrapped in backticks; the same string when there is none. Time linear in ``len(text)``."""
    names = _Names.of(lexicon)
    out: list[str] = []
    cursor = 0
    words: set[str] | None = None  # the words of ``text``, read when a parameter name is met
    for gap_start, gap_end in _gaps(text):
        for match in _CANDIDATE.finditer(text, gap_start, gap_end):
            if match.group("member") is not None:
                lifted = names.is_member(match.group("member"))
            elif match.group("keyword") is not None:
                lifted = match.group("keyword") in names.parameters
            else:
                word = match.group("word")
                lifted = names.is_name(word, text[match.end() : match.end() + 16])
                if not lifted and word in names.parameters:
                    words = words if words is not None else set(_WORDS.findall(text))
                    lifted = bool(names.parameters[word] & words)  # "GPTQConfig's block_size defaults to 64"
            if lifted:
                out.append(text[cursor : match.start()])
                out.append(f"`{match.group(0)}`")
                cursor = match.end()
    if not out:
        return text
    out.append(text[cursor:])
    return "".join(out)


def _gaps(text: str) -> list[tuple[int, int]]:
    """The ``(start, end)`` runs of ``text`` outside code spans, link destinations, tags and URLs."""
    gaps = []
    at = 0
    for skipped in _SKIP.finditer(text):
        gaps.append((at, skipped.start()))
        at = skipped.end()
    gaps.append((at, len(text)))
    return gaps


class _Names:
    """The vocabulary's names by the shape a prose word must have, read once per vocabulary."""

    def __init__(self, lexicon: Lexicon) -> None:
        members = {m.rsplit(".", 1)[-1] for m in lexicon.names("member")}
        self.names = lexicon.names("name")
        self.snake = (self.names | members) - lexicon.names("scheme") - lexicon.names("model_template")
        self.onnx = lexicon.names("onnx_config")
        self.flags = lexicon.names("flag")
        commands = lexicon.names("command")
        self.subcommands = {c.split(" ", 1)[1] for c in commands if c.startswith("quark-cli ")}
        self.scripts = {c for c in commands if " " not in c}
        # parameter name (with an underscore) -> the classes and functions some release gives it
        self.parameters: dict[str, set[str]] = {}
        for entry in lexicon.names("parameter"):  # "GPTQConfig(block_size)", "LLMTemplate.get_config(scheme)"
            owner, _, rest = entry.partition("(")
            name = rest.rstrip(")")
            if _SNAKE.fullmatch(name):
                self.parameters.setdefault(name, set()).update({owner, owner.split(".", 1)[0]})

    def is_member(self, dotted: str) -> bool:
        """True when ``Class.member`` names a class some release defines (the member may be wrong: the
        checks say so)."""
        head = dotted.split(".", 1)[0]
        return bool(_CAMEL.fullmatch(head)) and head in self.names

    @staticmethod
    def of(lexicon: Lexicon) -> _Names:
        """The names of ``lexicon``, built once per vocabulary object."""
        hit = _BUILT.get(id(lexicon))
        if hit is None or hit[0] is not lexicon:
            if len(_BUILT) > 8:
                _BUILT.clear()
            hit = _BUILT[id(lexicon)] = (lexicon, _Names(lexicon))
        return hit[1]

    def is_name(self, word: str, after: str) -> bool:
        """True when prose ``word`` (``after``: the text right after it) is a Quark name to read as a span."""
        if word.startswith("--"):
            return word in self.flags
        if word.startswith("quark/"):
            return True
        if _CAMEL.fullmatch(word):
            return word in self.names
        if _UPPER.fullmatch(word):
            return word in self.onnx
        if _SNAKE.fullmatch(word):
            return word in self.snake
        if word in self.subcommands or word in self.scripts:
            return bool(_HYPHENATED.fullmatch(word)) or _COMMAND_NOUN.match(after) is not None
        return False


_BUILT: dict[int, tuple[Lexicon, _Names]] = {}
