"""``link`` claims: relative Markdown links from a skill's files to other files.

One claim per inline link, reference-style link or image whose destination is a relative path. Its
value is the target resolved against the linking file and normalised, relative to the skills root
(``_legacy_impl/shared/contracts/quant_plan.schema.json``); a target outside the skills tree keeps its
leading ``../`` (``../docs/agent_skills/README.md`` from ``_legacy_impl/README.md``). Context:

* ``href``: the destination as written (percent-decoded, without its ``#anchor``);
* ``anchor``: the fragment ("" when none); ``directory``: the destination ends with ``/``;
* ``image``: an ``![...](...)`` image rather than a link.

Not links, so no claim: URLs (any scheme, ``//host``), anchor-only links (``#section``), absolute
paths, placeholders (``<primary_artifact>``, ``{name}``, ``$VAR``, ``path/to/...``, ``...``), anything
inside a code span or code block (Markdown makes no link there) and raw HTML. README and CONTRIBUTING
files describe the skills repository, they are not skills: their links are no claims.

:func:`links_in` reads one file's links; the ``skill-link-broken`` rule also uses it on a Markdown file
a skill links to outside its own directory.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from urllib.parse import unquote, urlsplit

from markdown_it.token import Token

from quarkci.skills import markdown
from quarkci.skills.claims.unit import Found, Unit

KIND = "link"
# Stems of the files that document the skills repository itself (any case, any extension).
NOT_SKILLS = frozenset({"readme", "contributing"})
_PLACEHOLDER = re.compile(r"[<>{}$]|\.\.\.|…|(?:^|/)path/to/")


def is_skill_file(path: str) -> bool:
    """False for README and CONTRIBUTING files (any case or extension), True for any other path."""
    stem = posixpath.basename(path).split(".", 1)[0].lower()
    return stem not in NOT_SKILLS


def resolve(file: str, path: str) -> str:
    """``path`` (a relative destination written in ``file``) as a normalised skills-root-relative path;
    a target above the root keeps its leading ``../`` segments."""
    return posixpath.normpath(posixpath.join(posixpath.dirname(file), path))


def destination(href: str) -> tuple[str, str] | None:
    """(decoded path, anchor) of a relative file destination, or None when ``href`` is no link to a file
    (a URL, an anchor, an absolute path, a placeholder or empty)."""
    try:
        parts = urlsplit(href)
    except ValueError:  # e.g. an unclosed IPv6 bracket: no file path either way
        return None
    if parts.scheme or parts.netloc or href.startswith("//"):
        return None
    path = unquote(parts.path)
    if not path or path.startswith("/") or _PLACEHOLDER.search(path):
        return None
    return path, unquote(parts.fragment)


def extract(unit: Unit) -> Iterator[Found]:
    """The ``link`` claims of ``unit`` (see the module docstring)."""
    return links_in(unit.file, unit.text, unit.first_line, unit.document)


def links_in(
    file: str, text: str, first_line: int = 1, doc: markdown.Document | None = None
) -> Iterator[Found]:
    """``link`` claims of the Markdown ``text`` of skills-root-relative ``file`` (whose first line is
    ``first_line``; ``doc``: ``text`` already parsed, else parsed here); nothing for a README or
    CONTRIBUTING file. ``line`` is the line holding the destination (a reference-style link: its
    definition line, where an edit would go)."""
    if not is_skill_file(file):
        return
    if doc is None:
        doc = markdown.parse(text, first_line)
    lines = text.split("\n")
    for token in doc.tokens:
        if token.type != "inline" or not token.children:
            continue
        start, end = (token.map[0], token.map[1]) if token.map else (0, len(lines))
        for child in token.children:
            href = _href(child)
            if href is None:
                continue
            found = destination(href)
            if found is None:
                continue
            path, anchor = found
            line = _line_of(lines, start, end, href, path)
            yield Found(
                KIND,
                resolve(file, path),
                first_line + line,
                {
                    "href": path,
                    "anchor": anchor,
                    "directory": path.endswith("/"),
                    "image": child.type == "image",
                },
            )


def _href(token: Token) -> str | None:
    value = token.attrGet("href") if token.type == "link_open" else None
    if token.type == "image":
        value = token.attrGet("src")
    return value if isinstance(value, str) else None


def _line_of(lines: list[str], start: int, end: int, href: str, path: str) -> int:
    """0-based line of the destination: the first line of the block ``[start, end)`` writing it, else a
    reference definition (``[x]: path``) anywhere, else the block's first line."""
    written = (f"({path}", f"(<{path}", f"({href}")
    for index in range(start, min(end, len(lines))):
        if any(w in lines[index] for w in written):
            return index
    definition = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(?:" + re.escape(path) + "|" + re.escape(href) + ")")
    for index, line in enumerate(lines):
        if definition.match(line):
            return index
    return start
