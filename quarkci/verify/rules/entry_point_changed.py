"""verify-entry-point-changed: an entry point's argparse flags or shape list changed."""

from __future__ import annotations

from quarkci.core.findings import Finding
from quarkci.verify.rules._common import MaintainState, entries, finding

ID = "verify-entry-point-changed"
DESC = "The flags or shapes of a mapped entry point changed"
CATEGORY = "verify"


def check(state: MaintainState) -> list[Finding]:
    """One finding per entry point whose flags or gate shapes differ (mechanical)."""
    out = []
    for old, new in state.shared():
        now = entries(new)
        for target, entry in entries(old).items():
            if target not in now:
                continue
            for key, label in (("flags", "flags"),):
                if list(entry.get(key, [])) != list(now[target].get(key, [])):
                    out.append(finding(ID, "changed", state, f"{old['name']} {target} {label}",
                                       f"{label} {', '.join(entry[key]) or 'none'}",
                                       f"{label} {', '.join(now[target][key]) or 'none'}",
                                       "commands in the skill pass stale flags", target, family=old["name"], target=target))
            shapes_old = entry.get("gate", {}).get("shapes", [])
            shapes_new = now[target].get("gate", {}).get("shapes", [])
            if [list(s) for s in shapes_old] != [list(s) for s in shapes_new]:
                out.append(finding(ID, "changed", state, f"{old['name']} {target} shapes", f"shapes {shapes_old}",
                                   f"shapes {shapes_new}", "the feature file lists stale shapes", target,
                                   family=old["name"], target=target))
    return out
