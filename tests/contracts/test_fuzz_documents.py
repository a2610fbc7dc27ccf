"""Fuzz: 10,000 generated YAML/JSON documents through the CLI's main function, in-process (issue 11).

5,000 to ``contracts validate`` and 5,000 to ``route --env-context``: JSON and YAML renderings of random
values (odd keys: null, booleans, numbers, nested), env_context-shaped documents with random field
values, YAML with anchors/aliases/merge keys/tags, and raw text. Every run must end with exit 0, 1 or 2 and
never print a traceback or "internal error" (exit 4). Derandomized: the same documents every run.
Cost: about 45 s of CPU for both tests (document generation ~2 ms, a CLI run ~1.5 ms each); wall time
grows with machine load. The first run found a crash (a control character in YAML: the reader's
error escaped the loader) that is now a one-line exit 2.
"""

from __future__ import annotations

import contextlib
import io
import json
import tempfile
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from quarkci import cli

EXAMPLES = 5_000
SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)
WORK = Path(tempfile.mkdtemp(prefix="quarkci-fuzz-"))

scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=True)
    | st.text(max_size=12)
)
keys = (
    st.text(max_size=8)
    | st.none()
    | st.booleans()
    | st.integers(-5, 5)
    | st.floats(allow_nan=False, width=16)
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
    max_leaves=8,
)
env_shaped = st.fixed_dictionaries(
    {
        "environment": st.dictionaries(
            st.sampled_from(["os", "python", "containerized", "x"]), scalars, max_size=4
        ),
        "hardware": st.dictionaries(
            st.sampled_from(["accelerator", "gpu_count", "gpus", "rocm_version"]),
            scalars | st.sampled_from(["rocm", "cuda", "cpu", "unknown"]),
            max_size=4,
        ),
    },
    optional={"extra": values},
)
yaml_fragments = st.lists(
    st.sampled_from(
        [
            "a: &a [1, 2]\n",
            "b: *a\n",
            "c: [*a, *a, *a]\n",
            "d: {<<: *a}\n",
            "e: &e {k: v}\n",
            "f: {<<: *e, k2: 1}\n",
            "? [x]\n: 1\n",
            "!!python/object:os.system {}\n",
            "g: !!binary aGk=\n",
            "h: 2001-12-14t21:59:43.10-05:00\n",
            "- x\n",
            "{",
            "]",
            ": :",
            "&x\n",
            "*missing\n",
            "i: !!str 1\n",
            "j: .nan\n",
            "k: ~\n",
            "'\n",
            "\t\n",
            "l: &l [*l]\n",
            "m: 0o17\n",
            "n: 1e400\n",
            "%YAML 1.1\n---\n",
            "...\n",
            "--- \n",
        ]
    ),
    max_size=8,
).map("".join)


def documents() -> st.SearchStrategy[tuple[str, str]]:
    """(suffix, text) pairs: JSON, YAML, hand-made YAML and raw text."""
    as_json = (values | env_shaped).map(lambda v: (".json", json.dumps(v, allow_nan=True, default=str)))
    as_yaml = (values | env_shaped).map(lambda v: (".yaml", yaml.safe_dump(v, allow_unicode=True)))
    return (
        as_json
        | as_yaml
        | yaml_fragments.map(lambda t: (".yaml", t))
        | st.text(max_size=60).map(lambda t: (".json", t))
        | st.text(max_size=60).map(lambda t: (".yaml", t))
    )


def _run(argv: list[str]) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(argv)
    return code, err.getvalue()


def _check(code: int, err: str) -> None:
    assert code in (0, 1, 2), (code, err)
    assert "Traceback" not in err and "internal error" not in err, err


@SETTINGS
@given(documents())
def test_contracts_validate_never_crashes(doc):
    suffix, text = doc
    path = WORK / f"doc{suffix}"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    _check(*_run(["contracts", "validate", str(path), "--artifact", "env_context"]))


@SETTINGS
@given(documents())
def test_route_env_context_never_crashes(doc):
    suffix, text = doc
    path = WORK / f"env{suffix}"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    code, err = _run(
        ["route", "quantize llama to fp8", "--env-context", str(path), "--output", str(WORK / "s.json")]
    )
    _check(code, err)
