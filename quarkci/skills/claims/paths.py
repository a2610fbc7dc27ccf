"""``path`` claims: upstream repository paths a skill depends on.

* every ``source_knowledge`` entry of the frontmatter (``context["field"] = "source_knowledge"``);
* code spans, and scripts run in shell blocks (``python examples/.../quantize_quark.py``), naming a
  path under a Quark repository tree (``quark/``, ``examples/``,
  ``docs/``, ``tools/``, ``tutorials/``) or a root file (``pyproject.toml``, ``requirements*.txt``,
  ``setup.py``). Skill-local paths (``references/...``, ``scripts/...``) are not upstream claims.

A code span that *labels a file the reader is told to write* (``**ONNX skeleton**
(`quark/.../onnx_drop_identity.py`):`` before the file's content) names a file to create, not an
upstream file, so it is no claim; a later ``See `quark/...`.`` in the same paragraph still is.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from quarkci.skills.claims.unit import Found, Unit
from quarkci.skills.claims.walk import heading_path
from quarkci.skills.frontmatter import path_problem
from quarkci.skills.model import Skill

# "skeleton", "scaffold", "boilerplate" or "template" directly before the span, at most a few
# markup characters away: the span names the file being authored.
_AUTHORED_LABEL = r"\b(?:skeleton|scaffold|boilerplate|template)\W{0,6}`"

UPSTREAM_PATH = re.compile(
    r"^(?:(?:quark|examples|docs|tools|tutorials)/[A-Za-z0-9_.\-/]*[A-Za-z0-9_/]"
    r"|pyproject\.toml|setup\.py|requirements(?:-[a-z0-9]+)?\.txt)$"
)


def from_frontmatter(skill: Skill) -> Iterator[Found]:
    """``source_knowledge`` entries with their SKILL.md lines."""
    for index, (entry, line) in enumerate(
        zip(skill.source_knowledge, skill.source_knowledge_lines, strict=True)
    ):
        yield Found(
            "path",
            entry,
            line,
            {"field": "source_knowledge", "index": index, "directory": entry.endswith("/")},
        )


def extract(unit: Unit) -> Iterator[Found]:
    """Inline and script ``path`` claims of ``unit`` (see the module docstring)."""
    for text in unit.texts():
        for span, line in text.code_spans():
            candidate = span.strip()
            if _is_upstream(candidate) and not _labels_authored_file(text.text, span):
                yield Found(
                    "path",
                    candidate,
                    line,
                    {
                        "where": "inline",
                        "section": heading_path(text.headings),
                        "directory": candidate.endswith("/"),
                    },
                )
    for located in unit.commands:
        if located.where != "code":
            continue
        command = located.command  # only the script a command runs: its arguments are often examples
        for word in (command.program,) if command.program else ():
            if _is_upstream(word.text):
                yield Found(
                    "path",
                    word.text,
                    word.line,
                    {
                        "where": "code",
                        "command": command.name,
                        "section": heading_path(located.headings),
                        "directory": word.text.endswith("/"),
                    },
                )


def _labels_authored_file(paragraph: str, span: str) -> bool:
    return re.search(_AUTHORED_LABEL + re.escape(span) + "`", paragraph, re.IGNORECASE) is not None


def _is_upstream(candidate: str) -> bool:
    return bool(UPSTREAM_PATH.match(candidate)) and path_problem(candidate) is None and "//" not in candidate
