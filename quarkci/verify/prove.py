"""``verify prove``: run a generated skill's own instructions for ONE correctness feature.

Steps, in order (each recorded in the proof): ``lock`` (a file lock per device: one proof at a time),
``instructions`` (the feature's commands must appear verbatim in SKILL.md), ``doctor`` (the skill's
Doctor command: library version / repo SHA, toolchain, devices vs the feature's arch gate),
``harness`` (sha256 of every frozen harness file), ``drive`` (stdout saved, rows parsed from the
saved file), ``negative-control`` (must fail, for the gate's reason), ``artifact`` (the proof JSON),
``cleanup`` (only this run's scratch and JIT build directory; a caller's TORCH_EXTENSIONS_DIR stays),
``confirm`` (the artifact still exists).

Result: ``PROVED`` (exit 0), ``FAILED`` naming the failing step (exit 1), ``INCONCLUSIVE`` (exit 3:
no device for a GPU-only feature, no build toolchain, unreadable output, device lock busy).
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO, cast

from quarkci.core.atomic import atomic_write_text
from quarkci.core.documents import write_artifact
from quarkci.core.errors import BadInputError
from quarkci.core.progress import Say, heartbeat
from quarkci.core.shapes.proof import ProofStep, VerifyProof
from quarkci.verify import featuremap
from quarkci.verify.inventory import sha256_file
from quarkci.verify.model import CPU, GPU_HINT

PROVED, FAILED, INCONCLUSIVE = "PROVED", "FAILED", "INCONCLUSIVE"
EXIT = {PROVED: 0, FAILED: 1, INCONCLUSIVE: 3}
PROOF_FILE = "verify_proof.json"
OUTPUT_CAP = 4_000_000  # bytes of a command's output kept


class Stop(Exception):
    """Ends the run at a step with a result (FAILED or INCONCLUSIVE) and a reason."""

    def __init__(self, result: str, step: str, reason: str) -> None:
        super().__init__(reason)
        self.result, self.step, self.reason = result, step, reason


@dataclass(frozen=True)
class Doctor:
    """The skill's doctor report (its ``DOCTOR {json}`` line, :mod:`quarkci.verify.helpers.doctor`):
    ``report`` as printed (recorded in the proof) and the values prove reads of it; a value of the
    wrong JSON type reads as absent."""

    report: Mapping[str, object] = field(default_factory=dict)
    library_error: str | None = None
    library_version: str | None = None
    repo_sha: str | None = None
    devices: tuple[str, ...] = ()
    toolchain_missing: tuple[str, ...] = ()

    @classmethod
    def parse(cls, text: str) -> Doctor:
        """The report of the JSON object ``text``. Raises :class:`Stop` (INCONCLUSIVE at ``doctor``)
        when it is not one."""
        report: object = json.loads(text)
        if not isinstance(report, dict):
            raise Stop(
                INCONCLUSIVE, "doctor", "unreadable doctor output (the DOCTOR line is not a JSON object)"
            )

        def text_of(key: str) -> str | None:
            value = report.get(key)
            return value if isinstance(value, str) else None

        def names(key: str) -> tuple[str, ...]:
            value = report.get(key)
            return tuple(v for v in value if isinstance(v, str)) if isinstance(value, list) else ()

        return cls(
            report,
            text_of("library_error"),
            text_of("library_version"),
            text_of("repo_sha"),
            names("devices"),
            names("toolchain_missing"),
        )


@dataclass
class Run:
    """The record of one proof run (becomes the proof document)."""

    skill: str
    feature: str
    steps: list[ProofStep] = field(default_factory=list)
    rows: list[dict[str, str]] = field(default_factory=list)
    unverified: list[str] = field(default_factory=list)
    created: list[str] = field(default_factory=list)
    doctor: Doctor = field(default_factory=Doctor)

    def step(self, name: str, status: str, detail: str) -> None:
        self.steps.append({"step": name, "status": status, "detail": detail})


def _skill_sections(skill: Path) -> str:
    try:
        return (skill / "SKILL.md").read_text(encoding="utf-8")
    except OSError:
        raise BadInputError(f"--skill {skill}: no readable SKILL.md") from None


def _doctor_command(text: str) -> str:
    match = re.search(r"^## Doctor\n.*?```bash\n(.+?)\n```", text, re.S | re.M)
    if not match:
        raise Stop(FAILED, "instructions", "SKILL.md has no Doctor command")
    return match.group(1).splitlines()[0]


def _argv(command: str) -> tuple[list[str], dict[str, str]]:
    """Split a skill command: leading ``VAR=value`` words become environment; ``python`` is this interpreter."""
    words = shlex.split(command)
    env: dict[str, str] = {}
    while words and re.fullmatch(r"[A-Z_][A-Z0-9_]*=.*", words[0]):
        key, _, value = words.pop(0).partition("=")
        env[key] = value
    if words and words[0] == "python":
        words[0] = sys.executable
    return words, env


def _execute(
    command: str,
    workdir: Path,
    env: dict[str, str],
    log: Path,
    timeout: float,
    say: Say | None = None,
    what: str = "run",
) -> tuple[int, str]:
    """Run one skill command in ``workdir``, its output saved to ``log``; ``say`` gets a start line and
    a progress line every ~10 s while it runs. Returns (exit code, the saved output)."""
    argv, extra = _argv(command)
    full = {
        **os.environ,
        **env,
        **{k: str((workdir / v).resolve()) if v in (".", "..") else v for k, v in extra.items()},
    }
    if say is not None:
        say(f"{what}: `{command}` ...")
    try:
        with heartbeat(say, what):
            done = subprocess.run(
                argv, cwd=workdir, env=full, capture_output=True, timeout=timeout, check=False
            )
    except FileNotFoundError as exc:
        raise Stop(INCONCLUSIVE, "drive", f"cannot run {argv[0]}: {exc.strerror}") from None
    except subprocess.TimeoutExpired:
        raise Stop(INCONCLUSIVE, "drive", f"`{command}` ran past {timeout:.0f} s") from None
    text = (done.stdout[:OUTPUT_CAP] + b"\n--- stderr ---\n" + done.stderr[-OUTPUT_CAP:]).decode(
        "utf-8", "replace"
    )
    atomic_write_text(log, text)
    return done.returncode, log.read_text(encoding="utf-8")  # numbers come from the saved file


def _verdict(parse: str, code: int, text: str) -> str | None:
    """'pass' | 'fail' | None (unreadable) for a drive or control run's saved output."""
    if parse == "pytest":
        summary = re.findall(r"=+ (.*?) in [\d.]+s", text) or re.findall(
            r"^(\d+ (?:passed|failed).*?) in [\d.]+s", text, re.M
        )
        if not summary:
            return None
        line = summary[-1]
        if re.search(r"\d+ (failed|error)", line):
            return "fail"
        return "pass" if re.search(r"\d+ passed", line) and code == 0 else None
    if parse == "verdict":
        found = re.findall(r"^VERDICT: (pass|fail)", text, re.M)
        if not found:
            return None
        return "pass" if found[-1] == "pass" and code == 0 else "fail"
    return "pass" if code == 0 else "fail"


def _rows(text: str) -> list[dict[str, str]]:
    rows = []
    for line in text.splitlines():
        if line.startswith("ROW "):
            rows.append(dict(re.findall(r"(\w+)=(\S+)", line)))
    return rows


def _gate(feature: featuremap.Feature, doctor: Doctor, run: Run) -> None:
    missing = [t for t in feature["needs"] if t in doctor.toolchain_missing]
    if missing:
        raise Stop(INCONCLUSIVE, "doctor", f"no build toolchain: {', '.join(missing)} not on PATH")
    arch = feature["arch"]
    devices = list(doctor.devices) or [CPU]
    if CPU not in arch:
        gpus = [d for d in devices if d != CPU]
        if not any(a in gpus or (a == GPU_HINT and gpus) for a in arch):
            raise Stop(
                INCONCLUSIVE,
                "doctor",
                f"no device for GPU-only feature (needs {', '.join(arch)}; "
                f"this runner has {', '.join(devices)})",
            )
    others = [a for a in arch if a != CPU]
    if CPU in arch and others and not [d for d in devices if d != CPU]:
        run.unverified.append(f"GPU path ({', '.join(others)}) not exercised: CPU stand-in")
    elif len(others) > 1:
        run.unverified.append(
            f"one device ({', '.join(d for d in devices if d != CPU) or 'cpu'}) stands in for "
            f"{', '.join(others)}"
        )


def _lock(path: Path, wait: float) -> TextIO:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle = open(path, "a+")  # noqa: SIM115 (held for the run)
    deadline = time.monotonic() + wait
    while True:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return handle
        except BlockingIOError:
            if time.monotonic() >= deadline:
                handle.close()
                raise Stop(
                    INCONCLUSIVE, "lock", f"device lock {path} held by another proof for {wait:.0f} s"
                ) from None
            time.sleep(0.5)


def prove(
    skill: Path,
    feature_id: str,
    out: Path,
    lock: Path | None = None,
    lock_wait: float = 600.0,
    timeout: float = 1800.0,
    say: Say | None = None,
) -> tuple[str, VerifyProof]:
    """Prove ``feature_id`` of the skill at ``skill``; write ``out/verify_proof.json`` and the saved
    outputs under ``out/<feature>/``; ``say`` gets a line per command run and progress every ~10 s
    while one runs (doctor, drive, negative control). Returns (result, proof document). Raises
    :class:`BadInputError` for an unknown feature or a non-correctness feature (before any work)."""
    data = featuremap.load(skill)
    features = {f["id"]: f for f in data["features"]}
    if feature_id not in features:
        raise BadInputError(
            f"--feature {feature_id}: not in {skill / featuremap.MAP_FILE} "
            f"(one of: {', '.join(sorted(features))})"
        )
    feature = features[feature_id]
    if feature["kind"] != "correctness":
        raise BadInputError(
            f"--feature {feature_id}: prove drives correctness features only "
            "(correctness before perf; ISA checks compile only)"
        )
    text = _skill_sections(skill)
    workdir = (skill / data["workdir"]).resolve()
    draft = not data.get("proofs")
    run = Run(skill=str(skill), feature=feature_id)
    evidence = out / feature_id
    evidence.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix="quarkci-verify-"))
    run.created.append(str(scratch))
    env: dict[str, str] = {}
    if not os.environ.get("TORCH_EXTENSIONS_DIR"):
        env["TORCH_EXTENSIONS_DIR"] = str(scratch / "torch_extensions")
    result, failed_step, reason = PROVED, "", ""
    handle = None
    device = "gpu" if CPU not in feature["arch"] else CPU
    try:
        handle = _lock(lock or Path(tempfile.gettempdir()) / f"quarkci-verify-{device}.lock", lock_wait)
        run.step("lock", "ok", f"{handle.name}")
        doctor_cmd = _doctor_command(text)
        for cmd in (feature["drive"], feature["negative"]):
            if cmd and cmd not in text:
                raise Stop(FAILED, "instructions", f"SKILL.md does not carry `{cmd}`: skill and map disagree")
        run.step("instructions", "ok", "drive and negative control found in SKILL.md")
        code, doc_text = _execute(
            doctor_cmd, workdir, env, evidence / "doctor.stdout.txt", timeout, say, f"{feature_id}: doctor"
        )
        line = next((ln for ln in doc_text.splitlines() if ln.startswith("DOCTOR ")), None)
        if line is None:
            raise Stop(INCONCLUSIVE, "doctor", "unreadable doctor output (no DOCTOR line)")
        run.doctor = doctor = Doctor.parse(line[len("DOCTOR ") :])
        if doctor.library_error:
            raise Stop(FAILED, "doctor", f"library does not import: {doctor.library_error}")
        _gate(feature, doctor, run)
        if data.get("version") and doctor.library_version and data["version"] != doctor.library_version:
            raise Stop(
                FAILED,
                "doctor",
                f"library {doctor.library_version} is not the mapped {data['version']} "
                "(run quarkci verify maintain)",
            )
        run.step(
            "doctor",
            "ok",
            f"library {doctor.library_version or doctor.repo_sha}; devices {', '.join(doctor.devices)}",
        )
        if not feature["drive"]:
            raise Stop(INCONCLUSIVE, "drive", f"no drive command: {feature['reason']}")
        for rel, digest in feature["harness"].items():
            if sha256_file(workdir / rel) != digest:
                raise Stop(
                    FAILED,
                    "harness",
                    f"{rel} changed since the skill was written (hash moved; run verify maintain)",
                )
        run.step("harness", "ok", f"{len(feature['harness'])} file(s) match their sha256")
        started = time.monotonic()
        code, drive_text = _execute(
            feature["drive"],
            workdir,
            env,
            evidence / "drive.stdout.txt",
            timeout,
            say,
            f"{feature_id}: drive",
        )
        verdict = _verdict(feature["parse"], code, drive_text)
        run.rows = _rows(drive_text)
        if verdict is None:
            raise Stop(
                INCONCLUSIVE, "drive", f"unreadable output (exit {code}); see {evidence / 'drive.stdout.txt'}"
            )
        if verdict == "fail":
            raise Stop(FAILED, "drive", f"the gate failed (exit {code}); see {evidence / 'drive.stdout.txt'}")
        run.step("drive", "ok", f"passed in {time.monotonic() - started:.1f} s (exit {code})")
        code, neg_text = _execute(
            # (a drivable feature's map entry carries its negative control: featuremap.load checks both keys)
            cast(str, feature["negative"]),
            workdir,
            env,
            evidence / "negative.stdout.txt",
            timeout,
            say,
            f"{feature_id}: negative control",
        )
        calls = re.findall(r"PERTURBED calls=(\d+)", neg_text)
        if calls and int(calls[-1]) == 0:
            raise Stop(
                FAILED, "negative-control", "the perturbed op was never called: the control proves nothing"
            )
        if _verdict(feature["parse"], code, neg_text) != "fail" or code == 0:
            raise Stop(FAILED, "negative-control", f"the gate accepted a perturbed output (exit {code})")
        run.step("negative-control", "ok", f"failed as it must (exit {code})")
    except Stop as stop:
        result, failed_step, reason = stop.result, stop.step, stop.reason
        run.step(stop.step, "failed" if stop.result == FAILED else "inconclusive", stop.reason)
    finally:
        if handle is not None:
            handle.close()
    artifact = out / PROOF_FILE
    document: VerifyProof = {
        "result": result,
        "feature": feature_id,
        "family": feature["family"],
        "skill": str(skill),
        "library": data["library"],
        "version": data.get("version", ""),
        "sha": data.get("sha", ""),
        "failed_step": failed_step,
        "reason": reason,
        "steps": run.steps,
        "rows": run.rows,
        "unverified": run.unverified,
        "doctor": run.doctor.report,
        "draft": draft and result != PROVED,
        "harness": feature["harness"],
        "evidence": sorted(p.name for p in evidence.iterdir()),
        "at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }
    write_artifact("verify_proof", artifact, document)
    removed = []
    for path in run.created:  # only what this run created
        shutil.rmtree(path, ignore_errors=True)
        removed.append(path)
    kept = os.environ.get("TORCH_EXTENSIONS_DIR")
    run.step(
        "cleanup",
        "ok",
        f"removed {', '.join(removed)}"
        + (f"; shared TORCH_EXTENSIONS_DIR {kept} left in place" if kept else ""),
    )
    if not artifact.is_file():
        result, failed_step, reason = FAILED, "confirm", f"{artifact} is gone after cleanup"
    run.step("confirm", "ok" if artifact.is_file() else "failed", f"{artifact} exists")
    document["result"], document["failed_step"], document["reason"] = result, failed_step, reason
    document["steps"] = run.steps
    write_artifact("verify_proof", artifact, document)
    if result == PROVED:
        data.setdefault("proofs", []).append(
            {
                "feature": feature_id,
                "at": document["at"],
                "harness": feature["harness"],
                "version": run.doctor.library_version or "",
                "sha": run.doctor.repo_sha or "",
            }
        )
        atomic_write_text(skill / featuremap.MAP_FILE, featuremap.dump(data))
    return result, document
