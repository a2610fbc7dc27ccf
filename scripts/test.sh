#!/usr/bin/env bash
# The one test command (README, .ci/run): install everything the tests need into .venv, then run
# the linters and the whole test suite. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
# shellcheck disable=SC1091
. .venv/bin/activate
# torch first and pinned: a CPU build lies on disk; anything unpinned would pull a CUDA build.
python -m pip install -q --disable-pip-version-check torch==2.13.0
python -m pip install -q --disable-pip-version-check -e '.[ml,test]'

echo "== ruff"
ruff check quarkci tests benchmarks actions

echo "== mypy --strict (config: pyproject.toml [tool.mypy])"
mypy --strict quarkci

echo "== workflows (actionlint + shellcheck + pyflakes, zizmor --offline, check-jsonschema)"
bash scripts/lint_workflows.sh

echo "== pytest"
set +e
python -m pytest "$@"
rc=$?
set -e
if [ "$rc" -eq 5 ]; then
  echo "pytest collected no tests: failing on purpose" >&2
  exit 1
fi
exit "$rc"
