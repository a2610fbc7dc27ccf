"""verify-harness-hash-moved: a frozen harness file changed in a way no other rule explains."""

from __future__ import annotations

import quarkci.verify.rules.entry_point_changed as entry_point_changed
import quarkci.verify.rules.tolerance_changed as tolerance_changed
from quarkci.core.findings import Finding
from quarkci.verify.rules._common import MaintainState, entries, finding

ID = "verify-harness-hash-moved"
DESC = "A harness file's sha256 moved with no flag, shape or tolerance change to explain it"
CATEGORY = "verify"


def check(state: MaintainState) -> list[Finding]:
    """One finding per changed harness whose change no specific rule reports (mechanical; a proof
    recorded against the old hash no longer holds)."""
    explained = {
        f.extra.get("target") for rule in (entry_point_changed, tolerance_changed) for f in rule.check(state)
    }
    out = []
    for old, new in state.shared():
        now = entries(new)
        for target, entry in entries(old).items():
            if target in now and target not in explained and entry["sha256"] != now[target]["sha256"]:
                out.append(
                    finding(
                        ID,
                        "changed",
                        state,
                        f"{old['name']} {target} sha256",
                        f"sha256 {(entry['sha256'] or '')[:12]}",
                        f"sha256 {(now[target]['sha256'] or '')[:12]}",
                        "the harness is no longer the one the proof ran",
                        target,
                        family=old["name"],
                        target=target,
                    )
                )
    return out
