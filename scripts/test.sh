#!/usr/bin/env bash
# The one test command (README, .ci/run): install everything the tests need into .venv, then run
# the linters and the whole test suite. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
# shellcheck disable=SC1091
. .venv/bin/activate
# torch first and pinned to its CPU build (the +cpu local version): from a local index or wheel directory
# when the machine has one, else from PyTorch's CPU index, tried once with a short timeout so an
# unreachable index costs seconds, not minutes. A plain `torch==2.13.0` from PyPI is the CUDA build
# (several GB of NVIDIA packages). GPU runner: TORCH_SPEC=torch==2.13.0 and
# TORCH_INDEX_URL=https://download.pytorch.org/whl/rocm6.4 (or .../whl/cu128); see README "Set-up".
TORCH_SPEC=${TORCH_SPEC:-torch==2.13.0+cpu}
TORCH_INDEX_URL=${TORCH_INDEX_URL:-https://download.pytorch.org/whl/cpu}
PIP=(python -m pip install --disable-pip-version-check --progress-bar off)
echo "== installing $TORCH_SPEC (pip output follows; a download is several hundred MB)"
SECONDS=0
"${PIP[@]}" --extra-index-url "$TORCH_INDEX_URL" --timeout 10 --retries 0 "$TORCH_SPEC"
echo "== installing quarkci with the ml and test extras (after ${SECONDS}s)"
"${PIP[@]}" -e '.[ml,test]'
echo "== set-up done in ${SECONDS}s"
# the vLLM tier's serving environment (tests/day0/test_vllm_ml.py): its own venv, the same torch spec first;
# skipped in a second when its stamp matches. A runner that has one already sets QUARKCI_VLLM_PYTHON.
if [ -z "${QUARKCI_VLLM_PYTHON:-}" ]; then
  echo "== vLLM environment (scripts/vllm_env.sh)"
  QUARKCI_VLLM_PYTHON=$(TORCH_SPEC="$TORCH_SPEC" TORCH_INDEX_URL="$TORCH_INDEX_URL" bash scripts/vllm_env.sh)
  QUARKCI_VLLM_PYTHON=$(cd "$(dirname "$QUARKCI_VLLM_PYTHON")" && pwd)/$(basename "$QUARKCI_VLLM_PYTHON")
  echo "== vLLM environment ready after ${SECONDS}s: $QUARKCI_VLLM_PYTHON"
fi
export QUARKCI_VLLM_PYTHON

echo "== ruff"
ruff format --check quarkci tests benchmarks actions
ruff check quarkci tests benchmarks actions

echo "== mypy --strict (config: pyproject.toml [tool.mypy])"
mypy --strict quarkci

echo "== workflows (actionlint + shellcheck + pyflakes, zizmor --offline, check-jsonschema)"
bash scripts/lint_workflows.sh

# Several pytest-xdist workers: much of the suite waits on a clock (the delivery fault matrix's timeouts
# and rate-limit waits) or on a subprocess (act, a JIT build), and that overlaps with the ML tests.
# Tests that share a costly fixture stay on one worker (xdist groups, tests/conftest.py).
# QUARKCI_TEST_WORKERS=0 runs serially; a later -n in the arguments wins.
WORKERS=${QUARKCI_TEST_WORKERS:-3}
echo "== pytest ($WORKERS workers)"
set +e
python -m pytest -n "$WORKERS" --dist loadgroup "$@"
rc=$?
set -e
if [ "$rc" -eq 5 ]; then
  echo "pytest collected no tests: failing on purpose" >&2
  exit 1
fi
exit "$rc"
