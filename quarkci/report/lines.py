"""Terminal renderers: the canonical one-line form and GitHub workflow-command annotations."""

from __future__ import annotations

from quarkci.core.escape import escape_data, escape_property
from quarkci.core.findings import Finding
from quarkci.core.levels import annotation_level


def canonical(findings: list[Finding] | tuple[Finding, ...]) -> str:
    """One ``path:line:col: message [rule-id]`` line per finding, in report order."""
    return "".join(f.one_line() + "\n" for f in findings)


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
