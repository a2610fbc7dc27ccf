"""The shape of ``verify_proof`` (:mod:`quarkci.verify.prove`). Conventions: :mod:`quarkci.core.shapes`."""

from collections.abc import Mapping
from typing import NotRequired, TypedDict


class ProofStep(TypedDict):
    """One item of ``verify_proof.steps``."""

    step: str  # lock | instructions | doctor | harness | drive | negative-control | cleanup | confirm
    status: str  # ok | failed | inconclusive
    detail: str


class VerifyProof(TypedDict):
    """``verify_proof`` (closed object). ``rows``: the ``ROW key=value`` lines of the drive's output;
    ``harness``: file -> sha256; ``doctor``: the skill's doctor output (an open object); ``at``: UTC
    time, ``%Y-%m-%dT%H:%M:%SZ``."""

    result: str  # PROVED | FAILED | INCONCLUSIVE
    feature: str
    family: str
    skill: str
    library: str
    version: NotRequired[str]
    sha: NotRequired[str]
    failed_step: str
    reason: str
    steps: list[ProofStep]
    rows: list[dict[str, str]]
    unverified: list[str]
    doctor: NotRequired[Mapping[str, object]]
    draft: bool
    harness: dict[str, str]
    evidence: list[str]
    at: str
