"""``dependency`` claims: a version range a skill states for a package other than Python, PyTorch,
transformers and amd-quark itself (``onnxruntime>=1.20``, ``onnx<=1.19``, ``"numpy<2"``).

Only explicit requirement specifiers count, in prose, code spans and code blocks (any language);
the value is the normalised :class:`~packaging.specifiers.SpecifierSet` string and
``context["package"]`` the canonical package name. The release decides which of them it can check
(``dependency-range-mismatch`` compares only packages its ``Requires-Dist`` pins).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import canonicalize_name

from quarkci.skills.claims.unit import Found, Unit
from quarkci.skills.claims.walk import heading_path

_OP = r"(?:===|==|>=|<=|!=|~=|<|>)"
_VER = r"\d+(?:\.\d+)*(?:\.\*)?(?:(?:a|b|rc|\.post|\.dev)\d+)?"
_REQ = re.compile(
    rf"(?<![\w./-])(?P<pkg>[A-Za-z][A-Za-z0-9._-]*[A-Za-z0-9])(?:\[[\w,\s-]+\])?"
    rf"(?P<spec>{_OP}\s*{_VER}(?:\s*,\s*{_OP}\s*{_VER})*)(?![\w.]*\w)"
)
_OWN = frozenset({"python", "torch", "pytorch", "transformers", "amd-quark", "quark", "python3"})


def _found(text: str, offset: int, line: int, where: str, section: str) -> Iterator[Found]:
    for match in _REQ.finditer(text):
        package = canonicalize_name(match.group("pkg"))
        if package in _OWN or package.startswith(("cuda", "rocm", "cu1", "sm")):
            continue
        raw = re.sub(r"\s+", "", match.group("spec"))
        try:
            spec = str(SpecifierSet(raw))
        except InvalidSpecifier:
            continue
        yield Found(
            "dependency",
            spec,
            line,
            {"package": package, "text": match.group("spec").strip(), "where": where, "section": section},
        )


def extract(unit: Unit) -> Iterator[Found]:
    """``dependency`` claims of ``unit`` (see the module docstring)."""
    for block in unit.texts():
        section = heading_path(block.headings)
        for number, raw in enumerate(block.text.split("\n")):
            yield from _found(raw, 0, block.line + number, block.kind, section)
    for code in unit.codes():
        section = heading_path(code.headings)
        for number, raw in enumerate(code.text.split("\n")):
            yield from _found(raw, 0, code.first_line + number, "code", section)
