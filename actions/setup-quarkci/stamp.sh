#!/usr/bin/env bash
# The two fingerprints setup-quarkci's install.sh trusts a reused environment by, in one place (install.sh
# calls this; an admin pre-building a persistent QUARKCI_VENV on a self-hosted runner can too):
#   stamp.sh                 the stamp: sha256 over quarkci's sources, pyproject.toml, the lock files in
#                            requirements/ and the inputs (environment: EXTRAS, TORCH, PRE_INSTALL, SYSTEM_SITE)
#   stamp.sh --lock-hash V   the lock hash of everything installed in the environment V
#                            (pip freeze --all, sorted bytewise, sha256)
set -euo pipefail
if [ "${1:-}" = "--lock-hash" ]; then
  "$2/bin/python" -m pip freeze --all --disable-pip-version-check 2>/dev/null | LC_ALL=C sort \
    | sha256sum | cut -d' ' -f1
  exit 0
fi
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
{ find "$src/quarkci" "$src/pyproject.toml" "$src/requirements" -type f ! -name '*.pyc' -print0 | sort -z \
    | xargs -0 sha256sum | sed "s|$src/||"
  echo "extras=${EXTRAS:-} torch=${TORCH:-none} pre=${PRE_INSTALL:-} site=${SYSTEM_SITE:-false}"; } \
  | sha256sum | cut -d' ' -f1
