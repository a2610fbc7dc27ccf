"""Resolve a CLI-flag claim against the flags of the script its context names.

A flag inside a ``quark-cli torch-llm-ptq`` block is checked against the packaged CLI
(``quark/experimental/cli/torch_llm_ptq.py``); one inside a ``python quantize_quark.py`` block
against the example script, which a wheel does not carry (so: unverifiable there). A flag in
prose (no command context) is checked against every script the snapshot shows.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePosixPath

from quarkci.facts.base import FactItem
from quarkci.skills.model import Claim
from quarkci.sync.state import UpstreamView

# quark-cli subcommand -> the module (basename) that registers its flags, where the two differ.
_SUBCOMMAND_MODULE = {"onnx-autosearch": "onnx_ptq_autosearch.py"}


@dataclass(frozen=True)
class Target:
    """The script a flag claim belongs to: a label for humans and the basename of its file."""

    label: str
    basename: str | None  # the defining module; None with any_script False: a command we have no facts for
    any_script: bool = False  # a flag in prose: checked against every script


def target_of(claim: Claim) -> Target:
    """Which script's flags a claim is checked against, from ``claim.context['command']``."""
    command = str(claim.context.get("command") or "").strip()
    if not command:
        return Target("any Quark CLI", None, any_script=True)
    words = command.split()
    if words[0] in ("quark-cli", "quark_cli") and len(words) > 1:
        sub = words[1]
        return Target(f"quark-cli {sub}", _SUBCOMMAND_MODULE.get(sub, sub.replace("-", "_") + ".py"))
    for word in words:
        if word.endswith(".py"):
            return Target(PurePosixPath(word).name, PurePosixPath(word).name)
    return Target(words[0], None)


def option_strings(item: FactItem) -> set[str]:
    """Every option string of a flag fact (its name plus aliases recorded in attrs)."""
    key = id(item)
    hit = _OPTIONS.get(key)
    if hit is None or hit[0] is not item:
        if len(_OPTIONS) > 100_000:
            _OPTIONS.clear()
        hit = (item, frozenset(_option_strings(item)))
        _OPTIONS[key] = hit
    return set(hit[1])


_OPTIONS: dict[int, tuple[FactItem, frozenset[str]]] = {}


def _option_strings(item: FactItem) -> set[str]:
    names = {item.name}
    for key in ("option_strings", "options", "aliases"):
        value = item.attrs.get(key)
        if isinstance(value, list | tuple):
            names.update(str(v) for v in value)
    return names


def script_of(item: FactItem) -> str:
    """Basename of the script that defines a flag fact."""
    script = item.attrs.get("script")
    if isinstance(script, str) and script.endswith(".py"):
        return PurePosixPath(script).name
    return PurePosixPath(item.file).name


def flags_for(view: UpstreamView, target: Target) -> list[FactItem]:
    """The flag facts of ``target``'s command: the items whose ``script`` is the command label
    (``quark-cli onnx-ptq``, ``quark-quant-perf``: every CLI the release holds), else those of the
    script file of that basename; all flags when the target is any script."""
    items = view.items("cli_flags")
    if target.any_script:
        return list(items)
    by_label, by_basename = _index(view)
    labelled = by_label.get(target.label, [])
    if labelled or target.basename is None:
        return list(labelled)
    return list(by_basename.get(target.basename, []))


_INDEXES: dict[int, tuple[UpstreamView, dict[str, list[FactItem]], dict[str, list[FactItem]]]] = {}


def _index(view: UpstreamView) -> tuple[dict[str, list[FactItem]], dict[str, list[FactItem]]]:
    """Flag facts of ``view`` by command label and by script basename (built once per view object)."""
    hit = _INDEXES.get(id(view))
    if hit is None or hit[0] is not view:
        if len(_INDEXES) > 32:
            _INDEXES.clear()
        by_label: dict[str, list[FactItem]] = {}
        by_basename: dict[str, list[FactItem]] = {}
        for item in view.items("cli_flags"):
            by_label.setdefault(str(item.attrs.get("script")), []).append(item)
            by_basename.setdefault(script_of(item), []).append(item)
        hit = (view, by_label, by_basename)
        _INDEXES[id(view)] = hit
    return hit[1], hit[2]


def find_flag(items: list[FactItem], flag: str) -> FactItem | None:
    for item in items:
        if flag in option_strings(item):
            return item
    return None


def script_paths(view: UpstreamView, basename: str) -> list[str]:
    return view.by_basename.get(basename, [])


def script_known_uncovered(view: UpstreamView, target: Target) -> bool:
    """True when the target script lives in a tree the snapshot does not hold.

    Known homes: ``quantize_quark.py`` lives under ``examples/`` in amd/Quark.
    """
    if target.basename is None:
        return not target.any_script
    if script_paths(view, target.basename):
        return False
    if target.basename == "quantize_quark.py":
        return not view.covers("examples/torch/language_modeling/llm_ptq/quantize_quark.py")
    return not view.complete


def normalise(flag: str) -> str:
    """``--Num-Calib_Data`` -> ``num_calib_data``: the spelling-insensitive key of a flag."""
    return flag.lstrip("-").replace("-", "_").lower()


def successor(claimed: str, items: list[FactItem], baseline_items: list[FactItem] | None) -> FactItem | None:
    """A flag that replaced ``claimed``, when one is known.

    Known means: the same flag spelled differently (dashes vs underscores, case), or, with a
    baseline, a flag new in this release with the same argparse ``dest`` as the removed one.
    """
    key = normalise(claimed)
    for item in items:
        if any(normalise(o) == key for o in option_strings(item) if o.startswith("-")):
            return item
    if baseline_items:
        old = find_flag(baseline_items, claimed)
        dest = old.attrs.get("dest") if old is not None else None
        if dest:
            before = {o for i in baseline_items for o in option_strings(i)}
            for item in items:
                if item.attrs.get("dest") == dest and not option_strings(item) & before:
                    return item
    return None


def is_deprecated(item: FactItem) -> bool:
    return bool(item.attrs.get("deprecated"))


@dataclass(frozen=True)
class Resolution:
    """Outcome of checking one flag claim.

    ``status``: ``present`` | ``deprecated`` | ``renamed`` | ``removed`` | ``not_shown``.
    ``item`` is the matching (or successor) fact; ``was`` the baseline fact when there was one.
    """

    status: str
    target: Target
    item: FactItem | None = None
    was: FactItem | None = None
    reason: str = ""


def resolve(claim: Claim, view: UpstreamView, baseline: UpstreamView | None) -> Resolution:
    """Check the flag ``claim.value`` against the script its context names (see module doc)."""
    target = target_of(claim)
    flag = claim.value
    items = flags_for(view, target)
    base_items = flags_for(baseline, target) if baseline is not None else None
    was = find_flag(base_items, flag) if base_items else None
    found = find_flag(items, flag)
    if found is not None:
        return Resolution("deprecated" if is_deprecated(found) else "present", target, found, was)
    if not items:
        if target.any_script:
            return Resolution("not_shown", target, reason="the snapshot shows no CLI flag definitions")
        if target.basename is None:
            return Resolution("not_shown", target, reason=f"quarkci extracts no flags of {target.label}")
        if script_known_uncovered(view, target):
            return Resolution(
                "not_shown",
                target,
                reason=f"{target.basename} is not in this snapshot "
                f"({view.kind} holds {', '.join(sorted(view.facts.coverage)) or 'nothing'})",
            )
        if script_paths(view, target.basename):
            return Resolution(
                "not_shown", target, reason=f"flags of {target.label} are not extracted from this snapshot"
            )
        return Resolution("removed", target, was=was, reason=f"{target.label} no longer exists")
    new = successor(flag, items, base_items)
    if new is not None:
        return Resolution("renamed", target, new, was)
    sub = claim.context.get("subcommand")
    if sub and target.basename is None and not target.any_script:
        # `quark-quant-perf eval --x`: a subcommand the program dispatches itself, with its own parser
        return Resolution(
            "not_shown",
            target,
            reason=f"`{target.label} {sub}` is dispatched at run time; "
            "its parser's flags are not read statically",
        )
    if target.any_script and script_known_uncovered(view, Target("quantize_quark.py", "quantize_quark.py")):
        # A flag in prose may belong to the example script this snapshot does not hold.
        return Resolution(
            "not_shown",
            target,
            reason="not defined by any CLI this snapshot holds, and "
            "quantize_quark.py (examples/) is not in it",
        )
    return Resolution("removed", target, was=was)
