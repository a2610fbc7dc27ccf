"""What a delivery command did (or, with ``--dry-run``, would do), as text or JSON.

Every ``quarkci gh`` command ends with one :class:`Delivery`: the overall ``operation``
(``created | updated | unchanged | closed | commented``), one :class:`Item` per GitHub object it
touched or inspected, and the exact write requests (:class:`Step`: method, API path, what) it
performed -- or, in a dry run, planned and did not perform.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field

from quarkci.core.escape import LINE_END, log_line, log_text

OPERATIONS = ("created", "updated", "unchanged", "closed", "commented")
# When several objects changed, the overall operation is the first of these that occurred.
_PRECEDENCE = ("created", "closed", "updated", "commented", "unchanged")


@dataclass(frozen=True)
class Step:
    """One write request: ``method`` (POST/PATCH/PUT/DELETE), API ``path`` (``{new}`` where the
    number is only known after an earlier step), and a short human ``what``. ``title`` and ``body``:
    what the request writes that a human reads (an issue's or PR's title and body, a comment, a
    commit message, a dispatch's inputs), shown for a dry run's planned writes ("" when none)."""

    method: str
    path: str
    what: str
    title: str = field(default="", compare=False)
    body: str = field(default="", compare=False)

    def __str__(self) -> str:
        return f"{self.method} {self.path}  # {self.what}"

    def payload_lines(self) -> list[str]:
        """``title: ...`` then ``body:`` and each body line after ``| `` (a line of the body can
        never start a printed line, so never a workflow command; lines end as the runner ends them)."""
        lines = [f"title: {self.title}"] if self.title else []
        if self.body:
            lines.append("body:")
            lines += [f"| {part}" for part in LINE_END.split(self.body.removesuffix("\n"))]
        return lines

    def with_path(self, path: str) -> Step:
        """This step with another ``path`` (a number learnt after an earlier step), payload kept."""
        return Step(self.method, path, self.what, self.title, self.body)


@dataclass
class Item:
    """One GitHub object: ``kind`` (pull_request, issue, comment, branch, workflow_dispatch)."""

    kind: str
    operation: str
    number: int | None = None
    url: str | None = None
    key: str = ""
    note: str = ""

    def __post_init__(self) -> None:
        if self.operation not in OPERATIONS:
            raise ValueError(f"unknown operation {self.operation!r}")

    def line(self, dry_run: bool) -> str:
        ref = f" #{self.number}" if self.number is not None else ""
        key = f" [{self.key}]" if self.key else ""
        url = f" {self.url}" if self.url else ""
        note = f" ({self.note})" if self.note else ""
        verb = f"would be {self.operation}" if dry_run and self.operation != "unchanged" else self.operation
        return f"{verb} {self.kind.replace('_', ' ')}{ref}{key}{url}{note}"


@dataclass
class Delivery:
    """The result of one command. ``steps`` are performed writes, or planned ones when ``dry_run``."""

    command: str
    dry_run: bool
    items: list[Item] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)

    @property
    def operation(self) -> str:
        seen = {item.operation for item in self.items}
        return next((op for op in _PRECEDENCE if op in seen), "unchanged")

    def counts(self) -> dict[str, int]:
        return {op: sum(1 for i in self.items if i.operation == op) for op in OPERATIONS}

    def to_json(self) -> str:
        """Deterministic JSON (sorted keys) for ``--json`` (a dry run's steps with their ``title`` and
        ``body``), escaped for the Actions runner
        (:func:`~quarkci.core.escape.log_text`: the same JSON value, no workflow command in it)."""
        payload = {
            "command": self.command,
            "operation": self.operation,
            "dry_run": self.dry_run,
            "counts": self.counts(),
            "items": [asdict(i) for i in self.items],
            "steps": [
                asdict(s)
                if self.dry_run
                else {k: v for k, v in asdict(s).items() if k not in ("title", "body")}
                for s in self.steps
            ],
        }
        return log_text(json.dumps(payload, indent=2, sort_keys=True))

    def to_text(self) -> str:
        """One line with the overall operation, then one per item, then the writes (a dry run's with
        the title and body each would write); titles, keys, notes and bodies (untrusted) are escaped for
        the Actions runner (:func:`~quarkci.core.escape.log_line`)."""
        head = f"{self.command}: {self.operation}" + (
            " (dry run: no writes performed)" if self.dry_run else ""
        )
        lines = [head] + ["  " + i.line(self.dry_run) for i in self.items]
        if self.steps:
            lines.append("  planned writes:" if self.dry_run else "  writes:")
            for step in self.steps:
                lines.append(f"    {step}")
                if self.dry_run:  # what each write would say: titles and bodies in full
                    lines += [f"      {line}" for line in step.payload_lines()]
        return "\n".join(log_line(line) for line in lines)
