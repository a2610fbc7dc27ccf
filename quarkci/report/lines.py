"""Terminal renderers: the canonical one-line form and GitHub workflow-command annotations."""

from __future__ import annotations

from quarkci.sync.finding import Finding

_LEVEL = {"breaking": "error", "semantic": "warning", "mechanical": "warning", "unverifiable": "notice"}


def canonical(findings: list[Finding] | tuple[Finding, ...]) -> str:
    """One ``path:line:col: message [rule-id]`` line per finding, in report order."""
    return "".join(f.one_line() + "\n" for f in findings)


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github_annotations(findings: list[Finding] | tuple[Finding, ...], prefix: str = "") -> str:
    """``::error file=...,line=...,title=rule::message`` lines (primary location only).

    ``prefix`` is prepended to skill-relative paths so they resolve from the repository root.
    Untrusted text is escaped per the workflow-command rules, so it cannot inject another command.
    """
    out = []
    for f in findings:
        loc = f.skill_location
        props = [f"title={_escape_property(f'{f.rule} ({f.kind})')}"]
        if loc is not None:
            props.insert(0, f"file={_escape_property(prefix + loc.file)}")
            if loc.line:
                props.insert(1, f"line={loc.line}")
        message = f"{f.skill_says} -> {f.source_says}"
        out.append(f"::{_LEVEL.get(f.kind, 'notice')} {','.join(props)}::{_escape_data(message)}\n")
    return "".join(out)
