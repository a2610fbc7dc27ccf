"""Session fixtures for the ML tests (PTQ, day-0, the day-0 workflow under act): one demo model, one
Quark import, memoised PTQ runs. Loaded for every test directory by the root conftest.

Everything goes through ``quarkci.cli.main`` in this process, so ``quark.torch`` is imported once for
the whole session and every scheme reuses the same demo model, model analysis and PTQ export.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from quarkci.cli import main


@dataclass
class Pipeline:
    """Paths and exit codes of one scheme's plan -> manifest -> run -> validate -> gate."""

    scheme: str
    root: Path
    run_code: int
    validate_code: int
    gate_code: int
    gate: dict

    @property
    def manifest(self) -> Path:
        return self.root / "run_manifest.yaml"

    @property
    def output(self) -> Path:
        return self.root / "model"

    @property
    def run_result(self) -> dict:
        return json.loads((self.root / "run_result.json").read_text())

    @property
    def summary(self) -> dict:
        return json.loads((self.root / "validation_summary.json").read_text())


@pytest.fixture(scope="session")
def demo_model(tmp_path_factory) -> Path:
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    pytest.importorskip("quark")
    import os

    os.environ["HF_HUB_OFFLINE"] = "1"
    out = tmp_path_factory.mktemp("demo") / "demo"
    assert main(["demo-model", "--out", str(out)]) == 0  # 0 means 100 % accuracy was reached
    return out


@pytest.fixture(scope="session")
def analysis(demo_model, tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("intake") / "model_analysis.json"
    assert main(["ptq", "intake", "--model", str(demo_model), "--out", str(path)]) == 0
    return path


@pytest.fixture(scope="session")
def pipeline(demo_model, analysis, tmp_path_factory):
    """``pipeline(scheme, kv_cache=None, exclude=())`` runs (once per argument set per session) the whole
    workflow via the CLI (``exclude``: extra ``ptq plan --exclude`` patterns)."""
    done: dict[str, Pipeline] = {}

    def run(scheme: str, kv_cache: str | None = None, exclude: tuple[str, ...] = ()) -> Pipeline:
        key = f"{scheme}-kv{kv_cache}" if kv_cache else scheme
        if exclude:
            key += "-ex" + hashlib.sha256("\0".join(exclude).encode()).hexdigest()[:8]
        if key in done:
            return done[key]
        root = tmp_path_factory.mktemp(f"ptq-{key}")
        plan = root / "quant_plan.json"
        kv = ["--kv-cache", kv_cache] if kv_cache else []
        kv += ["--exclude", *exclude] if exclude else []
        assert (
            main(["ptq", "plan", "--analysis", str(analysis), "--scheme", scheme, *kv, "--out", str(plan)])
            == 0
        )
        assert main(["ptq", "manifest", "--plan", str(plan), "--out", str(root)]) == 0
        run_code = main(["ptq", "run", "--manifest", str(root / "run_manifest.yaml"), "--yes"])
        validate_code = main(
            [
                "ptq",
                "validate",
                "--source",
                str(demo_model),
                "--checkpoint",
                str(root / "model"),
                "--run-result",
                str(root / "run_result.json"),
                "--out",
                str(root / "validation_summary.json"),
            ]
        )
        gate_out = root / "gate.json"
        from quarkci.gates.ptq import evaluate

        gate = evaluate(json.loads((root / "validation_summary.json").read_text()))
        gate_out.write_text(json.dumps(gate))
        gate_code = main(["ptq", "gate", "--summary", str(root / "validation_summary.json")])
        done[key] = Pipeline(scheme, root, run_code, validate_code, gate_code, gate)
        return done[key]

    return run
