"""claims/shellwords.py splits command lines exactly as shlex does (same words, same errors), in linear
time."""

from __future__ import annotations

import shlex

from hypothesis import given, settings
from hypothesis import strategies as st

from quarkci.skills.claims.shellwords import QuoteState, split

# every character shlex treats specially here, and a few it does not
ALPHABET = st.sampled_from(
    list("ab-=./") + ["'", '"', "\\", "#", ";", "&", "|", " ", "\t", "\n", "\r", "é", "\u00a0", "$", "(", "*"]
)


def _shlex(text: str) -> list[str] | str:
    lexer = shlex.shlex(text, posix=True, punctuation_chars=";&|")
    lexer.whitespace_split = True
    lexer.commenters = "#"
    try:
        return list(lexer)
    except ValueError as error:
        return str(error)


def _split(text: str) -> list[str] | str:
    try:
        return split(text)
    except ValueError as error:
        return str(error)


@settings(max_examples=3000, deadline=None)
@given(st.lists(ALPHABET, max_size=24).map("".join))
def test_split_gives_shlex_s_words_and_errors(text: str) -> None:
    assert _split(text) == _shlex(text)


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.lists(ALPHABET, max_size=8).map("".join), min_size=1, max_size=5))
def test_quote_state_fed_line_by_line_is_open_exactly_when_shlex_fails(pieces: list[str]) -> None:
    state = QuoteState()
    for number, piece in enumerate(pieces):
        state.feed((" " if number else "") + piece)
    assert state.open == isinstance(_shlex(" ".join(pieces)), str)


def test_known_lines() -> None:
    assert split("quark-cli torch-llm-ptq --model_dir \"<M>\" --x='a b' 2>&1|tee log # done") == [
        "quark-cli",
        "torch-llm-ptq",
        "--model_dir",
        "<M>",
        "--x=a b",
        "2>",
        "&",
        "1",
        "|",
        "tee",
        "log",
    ]
    assert split(r'a\ b "c\"d\e"') == ["a b", 'c"d\\e']
    assert _split('python -c "x') == "No closing quotation"
    assert _split("a \\") == "No escaped character"


def test_a_long_quoted_word_is_one_word() -> None:
    word = "x" * 200_000
    assert split(f'python -c "{word}"') == ["python", "-c", word]
