"""Every upload of a directory that holds staged changed files keeps hidden files.

upload-artifact (v4.4 and later) drops dot-files and dot-directories unless ``include-hidden-files`` is
true; a skills root such as ``.cursor/skills`` is one, so its staged fixes would vanish from the artifact
and the delivery job would stop on a missing changed file.
"""

from __future__ import annotations


def _uploads(workflow: dict) -> list[tuple[str, dict]]:
    return [
        (job, step)
        for job, spec in workflow.get("jobs", {}).items()
        for step in spec.get("steps", [])
        if "upload-artifact" in str(step.get("uses", ""))
    ]


def test_uploads_of_staged_changed_files_keep_hidden_files(workflows) -> None:
    checked = 0
    for name, workflow in workflows.items():
        staging = [
            step
            for _, spec in workflow.get("jobs", {}).items()
            for step in spec.get("steps", [])
            if "stage-changed" in str(step.get("with", {})) + str(step.get("run", ""))
        ]
        if not staging:
            continue
        for job, step in _uploads(workflow):
            if job in {
                j for j, spec in workflow["jobs"].items() if any(s in spec.get("steps", []) for s in staging)
            }:
                assert step.get("with", {}).get("include-hidden-files") is True, f"{name}: job {job}"
                checked += 1
    assert checked >= 2  # skill-sync.yml's audit and verify.yml's verify job
