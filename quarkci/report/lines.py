"""Terminal renderers: the canonical one-line form and GitHub workflow-command annotations.

This module holds quarkci's one workflow-command escaper. In GitHub Actions a runner executes every
log line that starts with ``::`` (``::error``, ``::add-mask``, ``::stop-commands``...) or the older
``##[``: untrusted text (a skill folder name with a newline, an upstream string) printed as a line
of its own would be executed. So:

* deliberate commands (:func:`github_annotations`) escape their data with :func:`escape_data` /
  :func:`escape_property` and are written with :func:`emit_command`;
* every other line quarkci prints in Actions goes through :class:`CommandGuard` (installed by the
  CLI when ``GITHUB_ACTIONS=true``), which escapes a leading ``::`` or ``##[`` (:func:`neutralise`).
"""

from __future__ import annotations

import io
import re
import sys
from typing import Protocol

from quarkci.core.escape import escape_data, escape_property
from quarkci.core.findings import Finding
from quarkci.core.levels import annotation_level

_COMMAND_START = re.compile(r"^(\s*)(::|##\[)")


def canonical(findings: list[Finding] | tuple[Finding, ...]) -> str:
    """One ``path:line:col: message [rule-id]`` line per finding, in report order."""
    return "".join(f.one_line() + "\n" for f in findings)


def neutralise(line: str) -> str:
    """One output line that a runner cannot take for a workflow command: a leading ``::`` becomes
    ``%3A%3A`` and a leading ``##[`` becomes ``#%23[`` (the percent forms of the escaper); other
    lines are returned unchanged."""
    return _COMMAND_START.sub(
        lambda m: m.group(1) + ("%3A%3A" if m.group(2) == "::" else "#%23["), line, count=1
    )


class TextSink(Protocol):
    """What :class:`CommandGuard` needs of the stream it wraps (a ``TextIO`` or the CLI's closed-pipe wrapper)."""

    def write(self, text: str, /) -> int: ...

    def flush(self) -> None: ...


class CommandGuard(io.TextIOBase):
    """A text stream wrapper that passes every complete line through :func:`neutralise`.

    ``raw`` is the wrapped stream; :func:`emit_command` writes a deliberate command to it directly.
    Partial lines are held until their newline (or :meth:`flush`).
    """

    def __init__(self, raw: TextSink) -> None:
        super().__init__()
        self.raw = raw
        self._pending = ""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self._pending += text
        *lines, self._pending = self._pending.split("\n")
        for line in lines:
            self.raw.write(neutralise(line) + "\n")
        return len(text)

    def flush(self) -> None:
        if self._pending:
            self.raw.write(neutralise(self._pending))
            self._pending = ""
        self.raw.flush()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self.raw, "encoding", "utf-8")


def emit_command(line: str) -> None:
    """Print one deliberate workflow-command line (already escaped) past :class:`CommandGuard`."""
    out = sys.stdout
    if isinstance(out, CommandGuard):
        out.flush()
        out.raw.write(line.rstrip("\n") + "\n")
    else:
        print(line.rstrip("\n"), file=out)


def github_annotations(findings: list[Finding] | tuple[Finding, ...], prefix: str = "") -> str:
    """``::error file=...,line=...,title=rule::message`` lines (primary location only).

    ``prefix`` is prepended to skill-relative paths so they resolve from the repository root.
    Untrusted text is escaped per the workflow-command rules, so it cannot inject another command.
    """
    out = []
    for f in findings:
        loc = f.skill_location
        props = [f"title={escape_property(f'{f.rule} ({f.kind})')}"]
        if loc is not None:
            props.insert(0, f"file={escape_property(prefix + loc.file)}")
            if loc.line:
                props.insert(1, f"line={loc.line}")
        message = f"{f.skill_says} -> {f.source_says}"
        out.append(f"::{annotation_level(f.kind)} {','.join(props)}::{escape_data(message)}\n")
    return "".join(out)
