"""The GPU workflows' preflight: which events may start them, where they run, and the runner's name in
records. One table and one set of input rules for ``ptq.yml``, ``day0-release.yml`` and ``verify.yml``
(through ``actions/gpu-preflight`` and ``quarkci preflight``).

* **Events**: a called workflow runs with its caller's event, so a workflow that a pull request
  triggered (a fork PR can edit a workflow that calls these) must never reach a self-hosted GPU runner:
  :data:`REFUSED_EVENTS` are refused whatever the runner.
* **Runner**: a kind of :data:`RUNNER_KINDS` (``cpu``, ``mi300x``, ``mi355x``, ``h100``, ``h200``), or the
  consumer's own labels as a comma list (``self-hosted,gpu-pool-a``) or a JSON array
  (``["self-hosted", "gpu-pool-a"]``): 1 to 10 labels of ``[A-Za-z0-9_.-]`` (1-64 characters each).
  One word that is no kind is refused (a misspelt kind would otherwise wait in the queue for a day); a
  single own label is spelt as a one-element JSON array.
* **Slug**: the runner's name in concurrency groups, artifact and sticky-comment names: the kind itself,
  or ``labels-`` and the first 8 hex digits of the sha256 of the labels' compact JSON array, so two
  spellings of the same labels share one slug; always ``[a-z0-9-]``.
* **Inputs** shared by the three workflows: scheme, pull-request number, correlation id and the
  amd-quark version, each with one rule here.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass

from quarkci.core.errors import BadInputError

#: Events a GPU workflow never runs for (GitHub's pull-request event family).
REFUSED_EVENTS = frozenset(
    {"pull_request", "pull_request_target", "pull_request_review", "pull_request_review_comment"}
)

#: Runner kind -> runs-on labels. The GPU kinds' labels are declared in .github/actionlint.yaml.
RUNNER_KINDS: dict[str, tuple[str, ...]] = {
    "cpu": ("ubuntu-latest",),
    "mi300x": ("self-hosted", "rocm", "mi300x"),
    "mi355x": ("self-hosted", "rocm", "mi355x"),
    "h100": ("self-hosted", "cuda", "h100"),
    "h200": ("self-hosted", "cuda", "h200"),
}

MAX_LABELS = 10
MAX_RUNNER_TEXT = 1000
_LABEL = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")
SCHEME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_]{0,63}$")
PR_NUMBER = re.compile(r"^[1-9][0-9]{0,9}$")
#: What every quarkci workflow accepts as a correlation id (``quarkci gh dispatch`` derives ids of it).
CORRELATION_ID = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")
QUARK_VERSION = re.compile(r"^[0-9]+(\.[0-9]+){1,3}((a|b|rc)[0-9]+)?(\.post[0-9]+)?$")


@dataclass(frozen=True)
class Runner:
    """Where a GPU workflow's job runs: ``labels`` (runs-on), ``gpu`` (a self-hosted runner) and ``slug``."""

    labels: tuple[str, ...]
    gpu: bool
    slug: str

    def labels_json(self) -> str:
        """The labels as a compact JSON array (what ``fromJSON`` turns into ``runs-on``)."""
        return json.dumps(list(self.labels), separators=(",", ":"))


def check_event(event: str) -> None:
    """Raise :class:`BadInputError` for an event of :data:`REFUSED_EVENTS` (one line naming it)."""
    if event in REFUSED_EVENTS:
        raise BadInputError(
            f"--event {event}: the GPU workflows never run for {event} events (a pull request could "
            "otherwise reach a self-hosted runner); dispatch the workflow, or call it from a push or "
            "schedule workflow"
        )


def _own_labels(text: str) -> list[str]:
    stripped = text.strip()
    if stripped.startswith("["):
        try:
            value = json.loads(stripped)
        except ValueError:
            value = None
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise BadInputError(f"--runner {text!r}: not a JSON array of label strings")
        return list(value)
    if "," not in stripped:
        kinds = ", ".join(RUNNER_KINDS)
        raise BadInputError(
            f"--runner {text!r}: not a runner kind ({kinds}); give your own labels as a comma list "
            '(self-hosted,gpu-pool-a) or a JSON array (["self-hosted", "gpu-pool-a"])'
        )
    return [part.strip() for part in stripped.split(",")]


def parse_runner(text: str) -> Runner:
    """The :class:`Runner` for a ``runner`` input (a kind, a comma list or a JSON array of labels).

    Raises :class:`BadInputError` (one line naming ``--runner``) for anything else: an unknown single
    word, an empty or over-long list (more than :data:`MAX_LABELS`), a label outside
    ``[A-Za-z0-9_.-]{1,64}`` (a newline, a space, a quote), text over 1,000 characters.
    """
    if len(text) > MAX_RUNNER_TEXT:
        raise BadInputError(f"--runner: {len(text)} characters, over the {MAX_RUNNER_TEXT}-character limit")
    if text in RUNNER_KINDS:
        labels = RUNNER_KINDS[text]
        return Runner(labels, "self-hosted" in labels, text)
    own = _own_labels(text)
    if not 0 < len(own) <= MAX_LABELS:
        raise BadInputError(f"--runner {text!r}: give 1 to {MAX_LABELS} runner labels")
    bad = [label for label in own if not _LABEL.match(label)]
    if bad:
        raise BadInputError(f"--runner: label {bad[0]!r} is not 1-64 of [A-Za-z0-9_.-]")
    labels = tuple(own)
    compact = json.dumps(list(labels), separators=(",", ":"))
    slug = "labels-" + hashlib.sha256(compact.encode("utf-8")).hexdigest()[:8]
    return Runner(labels, "self-hosted" in labels, slug)


def check_input(flag: str, value: str, rule: re.Pattern[str], what: str) -> str:
    """``value`` when empty or matching ``rule``; else :class:`BadInputError` naming ``flag`` and ``what``."""
    if value and not rule.match(value):
        raise BadInputError(f"{flag} {value!r}: must be {what}")
    return value
