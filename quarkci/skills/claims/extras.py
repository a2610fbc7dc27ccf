"""``extra`` and ``requirement`` claims: what a skill says installing amd-quark brings.

* ``extra``: an extra of amd-quark the skill installs or names, one claim per name (canonical):
  ``amd-quark[cli]`` / ``amd_quark[cli,lint]`` anywhere (prose, code spans, shell, requirements or TOML
  lines), and in prose "the `cli` extra", "extra `lint`", "the `[cli]` extra" (a word without backticks
  counts only when it is an extra of some release: "an extra step" is no claim). ``context["pin"]`` is the
  release an exact pin names (``amd-quark[cli]==0.11`` -> ``"0.11"``; the extra is checked against that
  release), else None.
* ``requirement``: a package some release requires (the vocabulary's ``dependency`` names, less Python,
  PyTorch and transformers, whose ranges have their own claims), named in a code span of a prose
  sentence that says amd-quark requires or installs it ("`onnxslim` is installed as a dependency",
  "0.11's requirements include `onnxscript`", "Quark pulls in `plotly`"). A sentence that says the
  package is not required ("install it yourself", "not a dependency") is left out: what it says is absent
  is no requirement to check. Context: ``package``, ``where``, ``section``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from packaging.utils import canonicalize_name

from quarkci.skills.claims.context import is_negative
from quarkci.skills.claims.defaults import sentences
from quarkci.skills.claims.dependencies import OWN_PACKAGES
from quarkci.skills.claims.unit import Found, Unit
from quarkci.skills.claims.walk import Text, heading_path

# ``amd-quark[cli,lint]==0.11``: the extras in brackets, then an exact pin (the release they are checked on)
_BRACKETED = re.compile(
    r"(?<![\w-])amd[-_]quark\[(?P<extras>[A-Za-z0-9_.\-,\s]{1,200})\]"
    r"(?:\s*(?:===?)\s*(?P<pin>\d+(?:\.\d+){1,2}(?:\.?post\d+)?))?",
    re.IGNORECASE,
)
# "the `cli` extra", "`[cli]` extra", "extra `lint`", "extras `cli` and `lint`" (the first name only)
_WORDED = re.compile(
    r"(?:(?<![\w-])`\[?(?P<a>[a-z][\w.-]{0,40})\]?`\s+extras?\b|\bextras?\s+`\[?(?P<b>[a-z][\w.-]{0,40})\]?`"
    r"|(?<![\w-])(?P<c>[a-z][\w-]{0,40})\s+extras?\b)"
    r"(?!\s*[-_]?(?:index|url|step|argument|flag|option|field|space|word|column))",
    re.IGNORECASE,
)
_SPAN = re.compile(r"`([^`\n]{1,120})`")
# A sentence saying amd-quark itself requires or installs a package (not "this GPU requires ...").
_REQUIRES = re.compile(
    r"\b(?:dependenc(?:y|ies)|requirements?|requires-dist|installed (?:as|with|by|alongside|automatically)"
    r"|pull(?:s|ed)? in|brings? in|brought in|comes? with|ships? with|is pinned|are pinned"
    # "onnxslim, which pip installs for you"
    r"|(?:installs?|installed) (?:it |them )?for you|gets? installed|(?:is|are) installed along)\b"
    r"|\b(?:amd-quark|quark)\b[^.;]{0,40}\brequires?\b",
    re.IGNORECASE,
)
# "install it yourself", "is not a dependency", "no longer lists": the package is said to be absent
_ABSENT = re.compile(
    r"\b(?:yourself|separately|manually"
    r"|not (?:a |an )?(?:[a-z]+ )?(?:dependency|requirement|required|installed|pulled)"
    r"|no longer|does not (?:require|install|pull|list|pin)|doesn't (?:require|install|pull|list|pin)"
    r"|dropped|without)\b",
    re.IGNORECASE,
)
# "there is no `cli` extra", "declares no extras", "does not apply", "has no extra"
_NO_EXTRA = re.compile(
    r"\b(?:there (?:is|are|was|were)|(?:declares?|provides?|has|have|had|ships?|offers?)) no\b"
    r"|\bno (?:`[^`]+` )?extras?\b|\bdoes(?: not|n't) (?:apply|exist|provide|offer|have)\b",
    re.IGNORECASE,
)


def extract(unit: Unit) -> Iterator[Found]:
    """``extra`` and ``requirement`` claims of ``unit`` (see the module docstring)."""
    known_extras = unit.lexicon.names("extra") if unit.lexicon is not None else frozenset()
    packages = unit.lexicon.names("dependency") - OWN_PACKAGES if unit.lexicon is not None else frozenset()
    for block in unit.texts():
        if block.kind == "heading":
            continue
        section = heading_path(block.headings)
        for number, raw in enumerate(block.text.split("\n")):
            if not _NO_EXTRA.search(raw):
                yield from _bracketed(raw, block.line + number, block.kind, section)
        for offset, sentence in sentences(block.text):
            if is_negative(sentence) or _NO_EXTRA.search(sentence):
                continue  # "0.9 declares no extras, so `amd-quark[cli]` does not apply": said absent
            for match in _WORDED.finditer(sentence):
                name = match.group("a") or match.group("b") or match.group("c")
                if match.group("c") and canonicalize_name(name) not in known_extras:
                    continue  # a bare word: only an extra some release has ("an extra step" is none)
                if "[" in sentence[max(0, match.start() - 12) : match.start()]:
                    continue  # `amd-quark[cli]` extra: read from the brackets already
                at = block.line_at(offset + match.start())
                yield Found("extra", canonicalize_name(name), at, _context(block.kind, section, None))
            if packages and block.kind != "table":
                # a list item under "Check what pip pulled in:" names what Quark installs, as its lead says
                # (or under a heading saying so: "## What each extra brings in")
                lead = block.lead or (block.headings[-1].text if block.headings else "")
                listed = block.in_list and bool(_REQUIRES.search(lead)) and not _ABSENT.search(lead)
                yield from _required(sentence, offset, block, packages, section, listed)
        if packages and block.kind == "table" and _lists_requirements(block):
            yield from _table_requirements(block, packages, section)
    for code in unit.codes():
        section = heading_path(code.headings)
        for number, raw in enumerate(code.text.split("\n")):
            yield from _bracketed(raw, code.first_line + number, "code", section)


def _table_requirements(block: Text, packages: frozenset[str], section: str) -> Iterator[Found]:
    """``requirement`` claims of the packages a requirements table's first cell names."""
    for match in _SPAN.finditer(block.text):
        name = canonicalize_name(re.split(r"[\s<>=!~;\[]", match.group(1).strip(), maxsplit=1)[0])
        if name in packages:
            at = block.line_at(match.start())
            yield Found("requirement", name, at, {"package": name, "where": "table", "section": section})


_PACKAGE_HEADER = re.compile(r"^(?:package|dependency|requirement|distribution)s?$", re.IGNORECASE)
_DECLARED = re.compile(r"\b(?:pins|declared?|declares)\b", re.IGNORECASE)


def _lists_requirements(block: Text) -> bool:
    """True for a cell of a table's first column headed "Package" (or "Dependency") under a heading or
    lead saying what the wheel requires ("## Runtime pins declared by the wheel"): its packages are said to
    be required."""
    cell = block.cell
    if cell is None or cell.is_header or cell.column != 0 or not cell.headers:
        return False
    if not _PACKAGE_HEADER.match(re.sub(r"[*`]", "", cell.headers[0]).strip()):
        return False
    about = block.lead or (block.headings[-1].text if block.headings else "")
    return bool(_REQUIRES.search(about) or _DECLARED.search(about)) and not _ABSENT.search(about)


_BARE_PACKAGE = re.compile(r"(?<![\w./`-])[a-z][a-z0-9]*(?:[_-][a-z0-9]+)*(?![\w`]|-\w)")
# dependency names that are English words too: in prose they name no package
_ENGLISH_NAMES = frozenset(
    {
        "accelerate",
        "datasets",
        "evaluate",
        "packaging",
        "pillow",
        "requests",
        "rich",
        "scipy",
        "tqdm",
        "psutil",
    }
)


def _context(where: str, section: str, pin: str | None) -> dict[str, object]:
    return {"where": where, "section": section, "pin": pin}


def _bracketed(text: str, line: int, where: str, section: str) -> Iterator[Found]:
    for match in _BRACKETED.finditer(text):
        for name in match.group("extras").split(","):
            if name.strip():
                yield Found(
                    "extra",
                    canonicalize_name(name.strip()),
                    line,
                    _context(where, section, match.group("pin")),
                )


def _required(
    sentence: str, offset: int, block: Text, packages: frozenset[str], section: str, listed: bool = False
) -> Iterator[Found]:
    if not (listed or _REQUIRES.search(sentence)) or _ABSENT.search(sentence):
        return
    for match in _SPAN.finditer(sentence):
        name = canonicalize_name(re.split(r"[\s<>=!~;\[]", match.group(1).strip(), maxsplit=1)[0])
        if name in packages:
            yield Found(
                "requirement",
                name,
                block.line_at(offset + match.start()),
                {"package": name, "where": block.kind, "section": section},
            )
    # "Graph slimming relies on onnxslim, which pip installs for you": a package's name as a bare word, when
    # it is no English word too
    for match in _BARE_PACKAGE.finditer(re.sub(r"`[^`\n]*`", lambda m: " " * len(m.group(0)), sentence)):
        name = canonicalize_name(match.group(0))
        if name in packages and name not in _ENGLISH_NAMES:
            yield Found(
                "requirement",
                name,
                block.line_at(offset + match.start()),
                {"package": name, "where": block.kind, "section": section},
            )
