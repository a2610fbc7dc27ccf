"""Apply mechanical fixes to skill files: in place, atomically, idempotently.

Only findings whose kind is ``mechanical`` and that carry a :class:`~quarkci.core.findings.Fix`
are applied; breaking, semantic and unverifiable findings are never touched. A fix whose anchor
line no longer reads as recorded is skipped (the file changed under us), never forced.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from quarkci.core.atomic import atomic_write_text
from quarkci.core.findings import Finding, Fix


class FixRefused(Exception):
    """``write`` will not rewrite this file (e.g. a hard link, which an atomic rename would split); the
    message is one line naming the file. :func:`apply_fixes` records it as skipped."""


@dataclass(frozen=True)
class FixOutcome:
    """``applied``: one line per applied fix (``file:line: description``); ``skipped``: same for
    fixes whose anchor did not match; ``changed_files``: the files rewritten (as passed to ``write``)."""

    applied: tuple[str, ...]
    skipped: tuple[str, ...]
    changed_files: tuple[str, ...]


def fixable(findings: list[Finding] | tuple[Finding, ...]) -> list[Finding]:
    """The findings ``--fix`` may apply: mechanical, with a fix."""
    return [f for f in findings if f.kind == "mechanical" and f.fix is not None]


def apply_to_text(text: str, fixes: list[Fix]) -> tuple[str, list[Fix], list[Fix]]:
    """Apply ``fixes`` (all for one file) to ``text``; return (new text, applied, skipped); see
    :func:`apply_with_origins`."""
    new, applied, skipped, _origins = apply_with_origins(text, fixes)
    return new, applied, skipped


def apply_with_origins(text: str, fixes: list[Fix]) -> tuple[str, list[Fix], list[Fix], list[int]]:
    """Apply ``fixes`` (all for one file) to ``text``; return (new text, applied, skipped, origins):
    ``origins[n]`` is the 1-based line of ``text`` that line ``n + 1`` of the new text comes from (an
    inserted line: its anchor).

    Replacements happen first, on the original line numbers; insertions then go after their anchor
    line in the order given. Several replacements of one line (three ranges on one line, each its own
    finding) are all applied when they edit disjoint parts of it (:func:`span_of`); one that overlaps an
    earlier one is skipped. Line endings and a missing final newline are preserved.
    """
    newline = "\r\n" if "\r\n" in text else "\n"
    lines = text.split(newline)
    original = list(lines)
    applied: list[Fix] = []
    skipped: list[Fix] = []
    inserts: dict[int, list[str]] = {}
    edits: dict[int, list[tuple[int, int, str]]] = {}  # line index -> edits of the original line
    for fix in fixes:
        index = fix.line - 1
        current = original[index] if 0 <= index < len(original) else None
        if fix.insert_after:
            if current is None or current != fix.old:
                skipped.append(fix)
                continue
            if fix.new in inserts.get(index, []) or fix.new in lines:
                continue  # already there (this run or an earlier one): never duplicate a line
            inserts.setdefault(index, []).append(fix.new)
            applied.append(fix)
        else:
            edit = span_of(fix.old, fix.new)
            taken = edits.setdefault(index, [])
            if current == fix.old and edit in taken:
                continue  # the same edit twice (two findings, one fix): made once
            if current != fix.old or any(_overlap(edit, other) for other in taken):
                skipped.append(fix)
                continue
            taken.append(edit)
            applied.append(fix)
    for index, taken in edits.items():
        line = original[index]
        for start, end, replacement in sorted(taken, reverse=True):
            line = line[:start] + replacement + line[end:]
        lines[index] = line
    out: list[str] = []
    origins: list[int] = []
    for index, line in enumerate(lines):
        added = inserts.get(index, [])
        out += [line, *added]
        origins += [index + 1] * (1 + len(added))
    return newline.join(out), applied, skipped, origins


def span_of(old: str, new: str) -> tuple[int, int, str]:
    """The one edit that turns line ``old`` into ``new``: ``(start, end, replacement)`` with
    ``old[start:end]`` replaced (the common prefix and suffix of the two lines are left out)."""
    start = 0
    limit = min(len(old), len(new))
    while start < limit and old[start] == new[start]:
        start += 1
    tail = 0
    while tail < limit - start and old[len(old) - 1 - tail] == new[len(new) - 1 - tail]:
        tail += 1
    return start, len(old) - tail, new[start : len(new) - tail]


def _overlap(a: tuple[int, int, str], b: tuple[int, int, str]) -> bool:
    """True when two edits of one line touch the same characters (or start at the same place)."""
    return a[0] == b[0] or (a[0] < b[1] and b[0] < a[1])


def apply_fixes(
    findings: list[Finding] | tuple[Finding, ...],
    read: Callable[[str], str],
    write: Callable[[str, str], str],
) -> FixOutcome:
    """Apply the fixable findings' fixes, grouped per file.

    ``read(file)`` returns a skill file's text (file relative to the skills root); ``write(file, text)``
    writes it atomically and returns the path to record in ``changed_files``, or raises
    :class:`FixRefused`: that file's fixes are then skipped (one line each, with the reason), none applied.
    """
    per_file: dict[str, list[Fix]] = {}
    for finding in fixable(findings):
        assert finding.fix is not None
        per_file.setdefault(finding.fix.file, []).append(finding.fix)
    applied: list[str] = []
    skipped: list[str] = []
    changed: list[str] = []
    for file in sorted(per_file):
        text = read(file)
        new, done, missed = apply_to_text(text, per_file[file])
        if new != text:
            try:
                written = write(file, new)
            except FixRefused as exc:
                skipped += [f"{f.file}:{f.line}: {f.description} (not applied: {exc})" for f in done]
                done = []
            else:
                if written not in changed:  # two links to one file: named once
                    changed.append(written)
        applied += [f"{f.file}:{f.line}: {f.description}" for f in done]
        skipped += [f"{f.file}:{f.line}: {f.description} (line changed; not applied)" for f in missed]
    return FixOutcome(tuple(applied), tuple(skipped), tuple(changed))


def directory_io(root: Path) -> tuple[Callable[[str], str], Callable[[str, str], str]]:
    """(read, write) over skill files under ``root``; ``write`` is atomic and returns the written path.

    A skill file that is a symbolic link to another file inside ``root`` is written through: the link's
    target is replaced (the link stays a link) and the target's path (``root / <target relative to
    root>``) is returned, so ``changed_files`` names the file that changed. ``write`` raises
    :class:`FixRefused` for a link that leaves ``root`` or loops, and for a hard link (a file with more
    than one name: replacing one name would split it from the others and leave them unfixed).
    """
    base = root.resolve()

    def read(file: str) -> str:
        return (root / file).read_text(encoding="utf-8")

    def target_of(file: str) -> Path:
        try:
            resolved = (root / file).resolve()
            links = resolved.stat().st_nlink
        except (OSError, RuntimeError) as exc:  # RuntimeError: Path.resolve() of a symlink loop
            raise FixRefused(f"{file}: cannot resolve ({exc})") from None
        if not resolved.is_relative_to(base):
            raise FixRefused(f"{file}: a symbolic link out of the skills directory")
        if links > 1:
            raise FixRefused(f"{file}: a hard link ({links} names); edit it by hand")
        return root / resolved.relative_to(base)

    def write(file: str, text: str) -> str:
        target = target_of(file)
        mode = stat.S_IMODE(target.stat().st_mode)  # atomic writes create 0600 temp files
        written = atomic_write_text(target, text)
        os.chmod(written, mode)
        return str(written)

    return read, write
