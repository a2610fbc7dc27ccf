"""Static reading helpers shared by the extractors: parse Python, read METADATA, locate lines.

Nothing here imports or executes upstream code: Python is parsed with :mod:`ast`, values are read
with :func:`ast.literal_eval` and kept as unparsed source text when they are not literals.
"""

from __future__ import annotations

import ast
import logging
import re
from email.parser import HeaderParser
from typing import Any

from quarkci.core.documents import parse_toml
from quarkci.core.errors import BadInputError
from quarkci.upstream.base import METADATA_PATH, Snapshot

log = logging.getLogger(__name__)

# ``ast.parse`` holds about 400-800 bytes per source token (a dense 1 MiB module: 524k tokens, 426 MB
# peak RSS). The largest module of any real amd-quark wheel (0.6.0 to 0.13) is
# ``quark/torch/algorithm/rotation/hadamard.py``: 429 KB, 291k tokens, 147 MB to parse. A module over
# either bound is not parsed (its facts are unverifiable): at most ~500 MB, whatever the wheel holds.
MAX_PARSE_BYTES = 2 * 1024 * 1024
MAX_PARSE_TOKENS = 600_000
# METADATA of a real amd-quark wheel: 16 KB at most (0.13); the header block is all that is read.
MAX_METADATA_CHARS = 1024 * 1024
_TOKEN = re.compile(r"[A-Za-z_0-9.]+|[^\sA-Za-z_0-9.]")  # names/numbers and single punctuation: a cheap count


def read(snapshot: Snapshot, path: str) -> str | None:
    """Text of ``path`` or None when absent or not UTF-8 (logged)."""
    try:
        return snapshot.read_text(path)
    except FileNotFoundError:
        return None
    except UnicodeDecodeError:
        log.warning("%s: not UTF-8 in %s; skipped", path, snapshot.label)
        return None


def parse(snapshot: Snapshot, path: str) -> ast.Module | None:
    """The AST of the Python file ``path``; None when absent, unreadable or not valid Python (logged)."""
    text = read(snapshot, path)
    return parse_text(text, path) if text is not None else None


def too_large_to_parse(text: str) -> str | None:
    """Why ``text`` is not parsed (over :data:`MAX_PARSE_BYTES` characters or :data:`MAX_PARSE_TOKENS`
    tokens, counted without building anything), or None when it may be."""
    if len(text) > MAX_PARSE_BYTES:
        return f"{len(text)} characters, over the {MAX_PARSE_BYTES} limit for parsing"
    if len(text) <= MAX_PARSE_TOKENS:  # a token takes at least one character: nothing to count
        return None
    for tokens, _ in enumerate(_TOKEN.finditer(text), start=1):
        if tokens > MAX_PARSE_TOKENS:
            return f"over {MAX_PARSE_TOKENS} tokens, the limit for parsing"
    return None


def parse_text(text: str, path: str) -> ast.Module | None:
    """``ast.parse(text)``, or None (logged) on a syntax error, nesting too deep for the parser, or a
    module too large to parse in bounded memory (:func:`too_large_to_parse`). An extractor that needs
    the module lists ``path`` as unavailable when this returns None for a file that exists."""
    reason = too_large_to_parse(text)
    if reason is not None:
        log.warning("%s: not parsed (%s); its facts are unverifiable", path, reason)
        return None
    try:
        return ast.parse(text, filename=path)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        log.warning("%s: cannot parse (%s); skipped", path, type(exc).__name__ if not str(exc) else exc)
        return None


def value_of(node: ast.AST | None) -> Any:
    """A literal's Python value (lists, strings, numbers, None...) or, for anything else (a call, a
    name, a lambda), its unparsed source text. ``None`` node -> None."""
    if node is None:
        return None
    try:
        value = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return ast.unparse(node)
    if isinstance(value, tuple | set | frozenset):
        value = list(value)
    if isinstance(value, list | dict | str | int | float | bool) or value is None:
        return value
    return ast.unparse(node)  # bytes, complex...: keep the source text


def text_of(node: ast.AST | None) -> str:
    """Best-effort text of a string expression (constant, implicit or ``+`` concatenation, f-string)."""
    if node is None:
        return ""
    value = value_of(node)
    return value if isinstance(value, str) else ast.unparse(node)


def str_const(node: ast.AST | None) -> str | None:
    """The value of a string constant node, else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def assigned_name(node: ast.AST) -> tuple[str, ast.AST] | None:
    """``(name, value)`` for a module-level ``NAME = value`` / ``NAME: T = value``, else None."""
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
        return node.targets[0].id, node.value
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
        return node.target.id, node.value
    return None


def metadata(snapshot: Snapshot) -> tuple[list[tuple[str, str, int]], str] | None:
    """Headers of ``METADATA`` as ``[(name, value, line)]`` in file order, plus the text; None if absent.

    Parsed with :mod:`email.parser`; the line of each header is found by scanning the header block.
    """
    text = read(snapshot, METADATA_PATH)
    if text is None:
        return None
    if len(text) > MAX_METADATA_CHARS:  # the snapshot caps the member; this caps what is parsed here
        log.warning(
            "METADATA: %d characters, over the %d limit; headers not read", len(text), MAX_METADATA_CHARS
        )
        return None
    message = HeaderParser().parsestr(text)
    lines = text.splitlines()
    starts: dict[str, list[int]] = {}
    for number, line in enumerate(lines, start=1):
        if line == "":
            break  # end of headers; the long description follows (a blank *continuation* line is indented)
        if line[:1] not in " \t" and ":" in line:
            starts.setdefault(line.split(":", 1)[0].lower(), []).append(number)
    seen: dict[str, int] = {}
    out: list[tuple[str, str, int]] = []
    for name, value in message.items():
        key = name.lower()
        index = seen.get(key, 0)
        seen[key] = index + 1
        numbers = starts.get(key, [])
        out.append((name, " ".join(str(value).split()), numbers[index] if index < len(numbers) else 0))
    return out, text


def project_table(text: str) -> dict[str, Any] | None:
    """The ``[project]`` table of a ``pyproject.toml`` text (PEP 621), ``{}`` when it has none or it is
    not a table, ``None`` when the text is not TOML. Parsed by the one TOML reader
    (:func:`quarkci.core.documents.parse_toml`): an integer of over 4,300 digits (``ValueError`` in
    :mod:`tomllib`) or arrays nested past the recursion limit are "not TOML", never a traceback."""
    try:
        document = parse_toml(text, "pyproject.toml")
    except BadInputError:
        return None
    project = document.get("project")
    return project if isinstance(project, dict) else {}


def line_of(text: str, needle: str, default: int = 0) -> int:
    """1-based line of the first line containing ``needle`` (``default`` when absent)."""
    for number, line in enumerate(text.splitlines(), start=1):
        if needle in line:
            return number
    return default
