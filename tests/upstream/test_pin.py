"""quarkci.upstream.pin and ``quarkci upstream wheel-sha256``: the hashed amd-quark requirement, read from
the lock or a (fake, local) index, and accepted by pip's hash-checking mode only for the right wheel."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from quarkci import cli
from quarkci.core.errors import BadInputError, UpstreamUnreachableError
from quarkci.upstream import pin
from tests.upstream.fake_index import index_document, metadata_wheel, sha256_of

LOCK = Path(__file__).resolve().parents[2] / "requirements" / "ml.lock"
A, B = "a" * 64, "b" * 64
MINI_LOCK = f"""\
aiosignal==1.4.0 \\
    --hash=sha256:{B}
    # via aiohttp
amd-quark==0.13 \\
    --hash=sha256:{B} \\
    --hash=sha256:{A}
    # via -r ml.in
"""


def test_the_lock_pin_is_read_with_every_hash() -> None:
    locked = pin.locked(MINI_LOCK)
    assert locked == pin.Pin("amd-quark", "0.13", (A, B))
    assert locked.requirement() == f"amd-quark==0.13 --hash=sha256:{A} --hash=sha256:{B}"
    assert pin.locked(MINI_LOCK, "torch") is None
    # the repository's own lock pins the release setup-quarkci installs
    assert pin.read_lock(LOCK).version == "0.13"


def test_resolve_prefers_the_lock_and_needs_a_hash_for_anything_else() -> None:
    locked = pin.locked(MINI_LOCK)
    assert pin.resolve("0.13", [], locked).sha256 == (A, B)
    assert pin.resolve("0.13.0", [A], locked).sha256 == (A, B)  # the same release, spelt differently
    assert (
        pin.resolve("0.14", ["c" * 64], locked).requirement() == f"amd-quark==0.14 --hash=sha256:{'c' * 64}"
    )
    with pytest.raises(BadInputError, match=r"not a wheel the lock pins for amd-quark 0\.13"):
        pin.resolve("0.13", ["c" * 64], locked)
    with pytest.raises(BadInputError, match=r"--quark-sha256: amd-quark 0\.14 is not the locked release"):
        pin.resolve("0.14", [], locked)


@pytest.mark.parametrize("text", ["xyz", A.upper(), A[:-1], f"{A};rm -rf /"])
def test_a_digest_is_64_lowercase_hex(text: str) -> None:
    with pytest.raises(BadInputError, match="not a sha256"):
        pin.parse_sha256s(text)


def test_the_index_gives_the_wheels_hashes_never_the_sdists(tmp_path) -> None:
    wheel = metadata_wheel(tmp_path / "wheels", "0.99")
    document = index_document({"0.99": [wheel]}, sdists={"0.99": "e" * 64})
    assert pin.wheel_sha256s(document, "0.99") == (sha256_of(wheel),)
    with pytest.raises(UpstreamUnreachableError, match="lists no amd-quark 1.0"):
        pin.wheel_sha256s(document, "1.0")
    sdist_only = index_document({}, sdists={"0.99": "e" * 64})
    with pytest.raises(UpstreamUnreachableError, match="no wheel with a sha256"):
        pin.wheel_sha256s(sdist_only, "0.99")


def _cli(argv: list[str], capsys) -> tuple[int, str, str]:
    code = cli.main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_the_command_reads_a_local_index_and_writes_its_step_output(tmp_path, capsys, monkeypatch) -> None:
    wheel = metadata_wheel(tmp_path / "wheels", "0.99")
    index = tmp_path / "pypi.json"
    index.write_text(json.dumps(index_document({"0.99": [wheel]})))
    monkeypatch.setenv("QUARKCI_PYPI_JSON_URL", index.as_uri())
    output = tmp_path / "github_output"
    monkeypatch.setenv("GITHUB_OUTPUT", str(output))
    code, out, err = _cli(["upstream", "wheel-sha256", "--version", "0.99", "--github-output"], capsys)
    assert (code, out) == (0, sha256_of(wheel) + "\n"), err
    assert f"\n{sha256_of(wheel)}\n" in output.read_text()
    code, out, err = _cli(["upstream", "wheel-sha256", "--version", "0.98"], capsys)
    assert code == 3 and "lists no amd-quark 0.98" in err
    code, out, err = _cli(["upstream", "wheel-sha256", "--version", "0.99; id"], capsys)
    assert code == 2 and err.startswith("quarkci: error: --version")


def _pip_dry_run(requirement: str, wheels: Path, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    req = tmp_path / "amd-quark.txt"
    req.write_text(requirement + "\n")
    argv = [sys.executable, "-m", "pip", "install", "--dry-run", "--disable-pip-version-check", "--no-index"]
    argv += ["--find-links", str(wheels), "--no-deps", "--only-binary", ":all:", "--require-hashes"]
    argv += ["--target", str(tmp_path / "target"), "-r", str(req)]
    return subprocess.run(argv, capture_output=True, text=True, timeout=120)


def test_pip_accepts_the_pinned_wheel_and_refuses_another(tmp_path) -> None:
    wheels = tmp_path / "wheels"
    wheel = metadata_wheel(wheels, "0.99")
    good = pin.resolve("0.99", pin.wheel_sha256s(index_document({"0.99": [wheel]}), "0.99"), None)
    done = _pip_dry_run(good.requirement(), wheels, tmp_path)
    assert done.returncode == 0 and "amd-quark-0.99" in done.stdout.replace("_", "-"), done.stderr
    # negative control: the index served another file than the one whose hash was recorded
    bad = pin.Pin("amd-quark", "0.99", ("0" * 64,))
    done = _pip_dry_run(bad.requirement(), wheels, tmp_path)
    assert done.returncode != 0 and "DO NOT MATCH THE HASHES" in done.stderr
