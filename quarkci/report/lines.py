"""Terminal renderers: the canonical one-line form, and the guard on output in GitHub Actions.

In GitHub Actions the runner executes a log line that starts with ``::`` after leading whitespace
(``::error``, ``::add-mask``, ``::stop-commands``...) or holds the older ``##[`` anywhere, and it ends
lines at CR as well as LF (the rules are in :mod:`quarkci.core.escape`, the one escaper). Untrusted
text (a skill folder name with a CR, an upstream string) printed as is could forge annotations, mask
words or stop command processing. So:

* deliberate commands (the job summary's annotations, :mod:`quarkci.report.github_actions`) escape
  their data with :func:`~quarkci.core.escape.escape_data` / :func:`~quarkci.core.escape.escape_property`
  and are written with :func:`emit_command`;
* the renderers here escape untrusted text where they print it (:func:`canonical`: one
  :func:`~quarkci.core.escape.log_line` per finding);
* every other line quarkci prints in Actions goes through :class:`CommandGuard` (installed by the
  CLI when ``GITHUB_ACTIONS=true``), which splits output where the runner does and passes each line
  through :func:`neutralise`.
"""

from __future__ import annotations

import io
import re
import sys
from typing import Protocol

from quarkci.core.escape import LINE_END, log_line
from quarkci.core.findings import Finding

_LINE_PIECES = re.compile(f"({LINE_END.pattern})")


def canonical(findings: list[Finding] | tuple[Finding, ...]) -> str:
    """One ``path:line:col: message [rule-id]`` line per finding, in report order; each line is escaped
    for the runner (:func:`~quarkci.core.escape.log_line`: a CR, LF or ``##[`` in a skill's path or text
    cannot start a workflow command)."""
    return "".join(log_line(f.one_line()) + "\n" for f in findings)


def neutralise(line: str) -> str:
    """One output line (no line end inside) that a runner cannot take for a workflow command:
    :func:`~quarkci.core.escape.log_line` (a leading ``::`` becomes ``%3A%3A``, every ``##[``
    becomes ``#\\u0023[``); other lines are returned unchanged."""
    return log_line(line)


class TextSink(Protocol):
    """What :class:`CommandGuard` needs of the stream it wraps (a ``TextIO`` or the CLI's closed-pipe wrapper)."""

    def write(self, text: str, /) -> int: ...

    def flush(self) -> None: ...


class CommandGuard(io.TextIOBase):
    """A text stream wrapper that passes every complete line through :func:`neutralise`.

    Lines end where the runner ends them: CR, LF or CRLF; each line end is written as it came (a CR
    and the LF of the next write make the same CRLF). ``raw`` is the wrapped stream;
    :func:`emit_command` writes a deliberate command to it directly. Partial lines are held until their
    line end (or :meth:`flush`).
    """

    def __init__(self, raw: TextSink) -> None:
        super().__init__()
        self.raw = raw
        self._pending = ""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self._pending += text
        *pieces, self._pending = _LINE_PIECES.split(self._pending)
        for line, end in zip(pieces[::2], pieces[1::2], strict=True):
            self.raw.write(neutralise(line) + end)
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
