"""Extras and stated requirements of amd-quark on the real wheels (issue 21, round 5).

`dependency-extra-unknown` / `dependency-extra-misspelt` (claims/extras.py `extra`) and
`dependency-not-required` (`requirement`). Values read from each wheel's METADATA: 0.11 provides only the
`lint` extra (`Provides-Extra: lint`), `cli` arrives in 0.12.post1; 0.10 requires `onnxsim==0.4.36` and no
`onnxslim`, which 0.11 requires (`onnxslim>=0.1.77`).
"""

from __future__ import annotations

import pytest

from tests.sync.test_resolver import _audit

pytestmark = pytest.mark.real


def _by(findings, rule):
    return sorted((f.skill_location.line, f.subject, f.kind) for f in findings if f.rule == rule)


INSTALL = (
    "# Install\n\n"  # line 6
    'Run `pip install "amd-quark[cli]==0.11"` for the command-line tools.\n'  # 8
    "Add the `lint` extra for the checks.\n"  # 9
    "Or `pip install amd-quark[gpu]`.\n"  # 10
    'Pinned elsewhere: `pip install "amd-quark[cli]==0.13"`.\n'  # 11
    "0.11 has no `cli` extra; it is not available there.\n"  # 12
    "Add an extra step if the cli extra is missing.\n"  # 13
)


def test_an_extra_the_release_lacks_is_breaking_and_one_no_release_has_is_semantic(tmp_path):
    on_011 = _audit(tmp_path / "a", INSTALL, "0.11")
    assert _by(on_011, "dependency-extra-unknown") == [(8, "amd-quark[cli]", "breaking")]
    assert _by(on_011, "dependency-extra-misspelt") == [(10, "amd-quark[gpu]", "semantic")]
    # line 11 pins 0.13 (which has `cli`), line 12 says it is absent, line 13's "an extra step" is no extra
    (finding,) = [f for f in on_011 if f.rule == "dependency-extra-unknown"]
    assert "0.12.post1 … 0.13 (2 releases)" in finding.source_says and "extras: lint" in finding.source_says
    # negative control: 0.13 provides cli and lint; the pin to 0.11 on line 8 is checked on 0.11 still
    on_013 = _audit(tmp_path / "b", INSTALL, "0.13")
    assert _by(on_013, "dependency-extra-unknown") == [(8, "amd-quark[cli]", "breaking")]
    assert _by(on_013, "dependency-extra-misspelt") == [(10, "amd-quark[gpu]", "semantic")]


REQUIRES = (
    "# ONNX\n\n"
    "Model simplification is done by `onnxslim`, installed as a dependency.\n"  # 8
    "`onnxsim` is pinned by the release.\n"  # 9
    "Install `onnxruntime-gpu` yourself; it is not a dependency.\n"  # 10
)


def test_a_package_said_to_come_with_quark_that_the_release_does_not_require_is_breaking(tmp_path):
    on_010 = _audit(tmp_path / "a", REQUIRES, "0.10")
    assert _by(on_010, "dependency-not-required") == [(8, "requires onnxslim", "breaking")]
    # negative control: 0.11 requires onnxslim and no longer onnxsim (line 9 is then the drift)
    on_011 = _audit(tmp_path / "b", REQUIRES, "0.11")
    assert _by(on_011, "dependency-not-required") == [(9, "requires onnxsim", "breaking")]


def test_an_extras_table_row_pins_are_compared_with_that_extras_pins(tmp_path):
    # 0.13 METADATA: onnxruntime<=1.28.0,>=1.22.2; extra == "cli" (1.25.1 is 0.12.post1's cap)
    body = (
        "## Extras\n\n| Extra | Pins |\n|---|---|\n"
        "| `cli` | `onnxruntime >=1.22.2, <=1.25.1`, `pulp >=3.3, <4` |\n"  # line 10
        "| `flydsl` | `flydsl >=0.2.4, <0.3` |\n"
    )
    found = _audit(tmp_path, body, "0.13", name="tooling")  # not an install skill: the row names the extra
    subject = "onnxruntime <=1.25.1,>=1.22.2 in tooling/SKILL.md:10"
    assert _by(found, "dependency-range-mismatch") == [(10, subject, "mechanical")]
    # negative control: the same row without the extra's name in an "Extra" column is not compared
    plain = body.replace("| Extra | Pins |", "| Group | Pins |")
    assert _by(_audit(tmp_path / "p", plain, "0.13", name="tooling"), "dependency-range-mismatch") == []


def test_an_extra_said_to_be_absent_is_no_claim(tmp_path):
    body = (
        "# Setup\n\n* `amd-quark` 0.9 declares no extras, so `amd-quark[cli]` does not apply to it.\n"
        "* There is no `cli` extra before 0.12.post1.\n"
    )
    assert not [f for f in _audit(tmp_path / "a", body, "0.9") if f.rule.startswith("dependency-extra")]
    assert not [f for f in _audit(tmp_path / "b", body, "0.11.2") if f.rule.startswith("dependency-extra")]


def test_a_range_one_extras_transformers_pin_agrees_with_is_true(tmp_path):
    # 0.13 METADATA: transformers<5.17,>5 (extra cli) and transformers<5.14,>=5.5.3 (extra quant-perf)
    body = (
        "## The quant-perf extra\n\n| Package | Range |\n|---|---|\n| transformers | >=5.5.3, <5.14 |\n\n"
        "Installing both extras resolves to transformers 5.5.3 – 5.13.x.\n"
    )
    assert not [f for f in _audit(tmp_path / "a", body, "0.13") if f.rule == "transformers-version-mismatch"]
    wrong = body.replace(">=5.5.3, <5.14", ">5, <5.3")  # 0.12.post1's cli window: agrees with neither pin
    found = [f for f in _audit(tmp_path / "b", wrong, "0.13") if f.rule == "transformers-version-mismatch"]
    assert [(f.skill_location.line, f.kind) for f in found] == [(10, "mechanical")]
