"""Where a file's content is now: found by what the file defined, never by its name.

Shared by ``source-path-missing`` (a cited file is gone: where did it go?) and ``upstream-fact-moved``
(a cited file still exists, but the facts the skill reads from it are elsewhere).

* :func:`content_home`: the file of a release that now defines most of the names another release's
  file defined (``public_api`` ``defines``: classes, functions, assignments, imports excluded), plus
  facts of the other kinds that kept their name and changed file. 0.11 moved
  ``quark/experimental/cli/torch_llm/llm_utils/model_preparation.py`` to
  ``quark/torch/utils/llm/model_preparation.py``: 6 of the 12 names the 0.10 file defined are defined
  there (``quark/torch/utils/llm/__init__.py`` re-exports some of them: imports, not definitions).
  The first release at hand that holds the cited file says what it defined: the baseline, else the
  release whose bundled skills are audited (``AuditState.releases``).
* :func:`stated_kinds`: the fact kinds the text around a path says it holds ("check `X` for the model
  template list" -> model templates), and :func:`kind_home`: the file a release reads a kind from.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from quarkci.facts.base import FactItem
from quarkci.skills.model import Claim
from quarkci.sync.state import UpstreamView

API = "public_api"
# Names so common that sharing them says nothing about where a file went.
_GENERIC = frozenset({"logger", "log", "LOGGER", "LOG", "main", "T", "K", "V", "version"})
_SHOWN = 3  # names quoted in a finding


@dataclass(frozen=True)
class Home:
    """Where content went: ``path``; ``names`` it defines of the ``total`` the old file defined;
    ``facts``: how many same-name facts of other kinds moved there."""

    path: str
    names: tuple[str, ...]
    total: int
    facts: int

    def how(self, version: str) -> str:
        """``by content: it defines 6 of the 12 names the file defined in amd-quark 0.10 (`a`, `b`, `c`,
        …)``, and/or ``holds 1 fact amd-quark 0.10 read from the file``."""
        parts = []
        if self.names:
            shown = ", ".join(f"`{n}`" for n in self.names[:_SHOWN]) + (
                ", …" if len(self.names) > _SHOWN else ""
            )
            parts.append(
                f"it defines {len(self.names)} of the {self.total} names the file defined in amd-quark {version}"
                f" ({shown})"
            )
        if self.facts:
            plural = "s" if self.facts != 1 else ""
            parts.append(f"holds {self.facts} fact{plural} amd-quark {version} read from the file")
        return "by content: " + " and ".join(parts)


def defined(item: FactItem) -> set[str]:
    """The names a ``public_api`` item's module defines (``defines``; ``public`` for facts recorded
    before that attribute existed), generic names left out."""
    names = item.attrs.get("defines")
    if names is None:
        names = item.attrs.get("public", [])
    return {str(n) for n in names} - _GENERIC


def content_home(
    path: str, view: UpstreamView, releases: Sequence[UpstreamView | None]
) -> tuple[Home, str] | None:
    """(the file of ``view`` other than ``path`` holding most of what ``path`` held, the version it was
    read from), from the first of ``releases`` that knows ``path`` (a ``public_api`` module or facts
    read from it); None when none does or no file holds enough of it: at least 2 of its defined names
    (its only one when it defined one), or one fact of another kind."""
    for release in releases:
        if release is None or release is view:
            continue
        home = _home(path, view, release)
        if home is not None:
            return home, release.version
    return None


def _home(path: str, view: UpstreamView, baseline: UpstreamView) -> Home | None:
    old = next((i for i in baseline.items(API) if i.file == path), None)
    old_names = defined(old) if old is not None else set()
    shared: dict[str, set[str]] = {}
    if old_names:
        for item in view.items(API):
            if item.file != path:
                common = old_names & defined(item)
                if common:
                    shared[item.file] = common
    facts: Counter[str] = Counter()
    for kind, items in baseline.facts.kinds.items():
        if kind == API:
            continue
        moved = {i.name for i in items if i.file == path}
        if moved:
            facts.update(i.file for i in view.items(kind) if i.name in moved and i.file != path)
    candidates = set(shared) | set(facts)
    if not candidates:
        return None

    def score(file: str) -> tuple[int, int, str]:
        return (-(len(shared.get(file, ())) + facts[file]), -_shared_dirs(file, path), file)

    best = min(candidates, key=score)
    names = shared.get(best, set())
    if len(names) < min(2, len(old_names)) and not facts[best]:
        return None
    return Home(best, tuple(sorted(names)), len(old_names), facts[best])


def _shared_dirs(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a.split("/")[:-1], b.split("/")[:-1], strict=False):
        if x != y:
            break
        n += 1
    return n


# What a sentence says a file holds: phrase -> the fact kinds that hold it (0.10 kept a model list in
# its CLI, cli_models; every release keeps model templates and schemes in config/template.py).
_KIND_PHRASES: tuple[tuple[re.Pattern[str], tuple[str, ...], str], ...] = (
    (
        re.compile(
            r"\bmodel[ -](?:templates?|types|architectures|famil(?:y|ies)|list|registry|table)\b"
            r"|\bsupported (?:models|architectures|model architectures)\b"
            r"|\b(?:list|set|registry|table) of (?:supported )?(?:models|model templates|architectures)\b",
            re.IGNORECASE,
        ),
        ("model_templates", "cli_models"),
        "model templates",
    ),
    (
        re.compile(
            r"\bscheme (?:list|names|registry|table)\b"
            r"|\b(?:list|set|registry|table) of (?:\w+ )?schemes\b"
            r"|\b(?:available|supported|registered|quantization|quant) schemes\b",
            re.IGNORECASE,
        ),
        ("schemes",),
        "schemes",
    ),
)
_SPAN = re.compile(r"`([^`]+)`")
_CLAUSE = re.compile(r"[,;:](?=\s)|\s(?:and|but|while|whereas)(?=\s)")
_SENTENCE = re.compile(r"(?<=[.;!?])\s+(?=[A-Z`*(])|\s+[—–]\s+(?=\S)|\s+\|\s+")


def stated_kinds(claim: Claim) -> tuple[tuple[str, ...], str] | None:
    """(fact kinds, noun) the sentence around a ``path`` claim says the path holds, or None.

    Read from ``context["around"]`` (the sentence, list item or table row of the claim): a phrase of
    :data:`_KIND_PHRASES` in the same sentence, nearer to this path's code span than to any other
    code span naming a path. A claim marked negative or historical says nothing.
    """
    around = str(claim.context.get("around", ""))
    if not around or claim.context.get("negative") or claim.context.get("historical"):
        return None
    for sentence in _sentences(around):
        spans = _path_spans(sentence)
        if not any(text == claim.value for _, _, text in spans):
            continue
        for pattern, kinds, noun in _KIND_PHRASES:
            for match in pattern.finditer(sentence):
                if _holder(sentence, spans, match.start(), match.end()) == claim.value:
                    return kinds, noun
    return None


def _path_spans(text: str) -> list[tuple[int, int, str]]:
    """(start, end, content) of the code spans of ``text`` naming a path (holding a ``/``)."""
    return [(m.start(), m.end(), m.group(1).strip()) for m in _SPAN.finditer(text) if "/" in m.group(1)]


def _holder(sentence: str, spans: list[tuple[int, int, str]], start: int, end: int) -> str:
    """The path a phrase at ``[start, end)`` of ``sentence`` is said of: the nearest path span of its
    clause ("`A` holds the model template list and `B` the loaders": A), else the last one before the
    clause ("`A`, which holds the model template list, and `B`": A), else the first after it."""
    cuts = [0, *(m.end() for m in _CLAUSE.finditer(sentence)), len(sentence) + 1]
    low = max(c for c in cuts if c <= start)
    high = min(c for c in cuts if c > start)
    inside = [s for s in spans if s[0] >= low and s[1] <= high]
    if inside:
        return min(inside, key=lambda s: max(s[0] - end, start - s[1], 0))[2]
    before = [s for s in spans if s[1] <= low]
    return before[-1][2] if before else spans[0][2]


def _sentences(text: str) -> list[str]:
    """``text`` cut at sentence ends, dashes before a new clause and table cell bars."""
    parts = _SENTENCE.split(text)
    return [p for p in parts if p.strip()]


def kind_home(view: UpstreamView, kinds: tuple[str, ...]) -> tuple[str, int, int] | None:
    """(file, items there, items of ``kinds`` in all) of the file ``view`` reads most items of
    ``kinds`` from, or None when the release shows none."""
    counter: Counter[str] = Counter(i.file for kind in kinds for i in view.items(kind))
    if not counter:
        return None
    (file, count), *_ = sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))
    return file, count, sum(counter.values())
