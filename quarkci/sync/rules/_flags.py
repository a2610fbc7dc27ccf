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
from quarkci.facts.cli_flags import option_names
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
    prefix: str = ""  # with any_script: only the scripts whose label starts with it (`quark-cli `)


def target_of(claim: Claim) -> Target:
    """Which script's flags a claim is checked against, from ``claim.context['command']``."""
    command = str(claim.context.get("command") or "").strip()
    if not command:
        return Target("any Quark CLI", None, any_script=True)
    words = command.split()
    if words[0] in ("quark-cli", "quark_cli") and len(words) > 1:
        sub = words[1]
        return Target(f"quark-cli {sub}", _SUBCOMMAND_MODULE.get(sub, sub.replace("-", "_") + ".py"))
    if words[0] in ("quark-cli", "quark_cli"):
        # `quark-cli` without a subcommand (a flags table under "quark-cli"): its parser has none of its own,
        # so the flag is one of its subcommands'
        return Target("quark-cli (any subcommand)", None, any_script=True, prefix="quark-cli ")
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
        hit = (item, frozenset(option_names(item)))
        _OPTIONS[key] = hit
    return set(hit[1])


_OPTIONS: dict[int, tuple[FactItem, frozenset[str]]] = {}


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
    return list(flag_index(view, target).items)


class FlagIndex:
    """The flag facts of one command, indexed once so that each lookup costs O(1).

    ``items`` keeps the facts' order; every lookup answers what a scan of ``items`` in that order
    would: the first fact holding an option string (``find``), the first holding an option that
    maps to a key under :func:`normalise` (``by_key``), the first with an argparse ``dest`` whose option
    strings are all new against a baseline index (``fresh_with_dest``). Building costs
    O(option strings); a pair's ``dest`` table is built on first use and kept.
    """

    def __init__(self, items: list[FactItem]) -> None:
        self.items = items
        self.by_option: dict[str, FactItem] = {}
        self.by_key: dict[str, FactItem] = {}
        for item in items:
            for option in sorted(option_strings(item)):
                self.by_option.setdefault(option, item)
                if option.startswith("-"):
                    self.by_key.setdefault(normalise(option), item)
        self._fresh: dict[int, tuple[FlagIndex, dict[object, FactItem]]] = {}

    def find(self, flag: str) -> FactItem | None:
        """The first fact that has ``flag`` among its option strings."""
        return self.by_option.get(flag)

    def fresh_with_dest(self, dest: object, before: FlagIndex) -> FactItem | None:
        """The first fact whose ``dest`` is ``dest`` and none of whose option strings ``before`` holds."""
        hit = self._fresh.get(id(before))
        if hit is None or hit[0] is not before:
            table: dict[object, FactItem] = {}
            for item in self.items:
                value = item.attrs.get("dest")
                if _hashable(value) and not option_strings(item) & before.by_option.keys():
                    table.setdefault(value, item)
            if len(self._fresh) > 32:
                self._fresh.clear()
            hit = (before, table)
            self._fresh[id(before)] = hit
        if _hashable(dest):
            return hit[1].get(dest)
        return next(  # an unhashable dest (never seen in a release): the plain scan
            (
                i
                for i in self.items
                if i.attrs.get("dest") == dest and not option_strings(i) & before.by_option.keys()
            ),
            None,
        )


def _hashable(value: object) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def flag_index(view: UpstreamView, target: Target) -> FlagIndex:
    """The :class:`FlagIndex` of ``target``'s flags in ``view`` (see :func:`flags_for`), built once per
    view object and command."""
    if target.any_script:
        key = ("any", target.prefix)
    else:
        by_label, _ = _index(view)
        labelled = target.label in by_label
        key = ("label", target.label) if labelled or target.basename is None else ("file", target.basename)
    groups = _GROUPS.get(id(view))
    if groups is None or groups[0] is not view:
        if len(_GROUPS) > 32:
            _GROUPS.clear()
        groups = (view, {})
        _GROUPS[id(view)] = groups
    index = groups[1].get(key)
    if index is None:
        by_label, by_basename = _index(view)
        if key[0] == "any":
            items = [i for i in view.items("cli_flags") if str(i.attrs.get("script")).startswith(key[1])]
        elif key[0] == "label":
            items = list(by_label.get(key[1], []))
        else:
            items = list(by_basename.get(key[1], []))
        index = FlagIndex(items)
        groups[1][key] = index
    return index


_GROUPS: dict[int, tuple[UpstreamView, dict[tuple[str, str], FlagIndex]]] = {}
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


def same_named(view: UpstreamView, res: Resolution, flag: str) -> list[FactItem]:
    """The flag facts a resolved claim may mean: its one item for a named command; for a flag in prose
    (no command named), every command's flag of that name (a stated value agrees when one of them has it)."""
    if res.item is None:
        return []
    if not res.target.any_script:
        return [res.item]
    return [i for i in flag_index(view, res.target).items if flag in option_strings(i)]


def find_flag(items: list[FactItem], flag: str) -> FactItem | None:
    """The first of ``items`` that has ``flag`` among its option strings (a scan: for one-off
    lookups; rules use :meth:`FlagIndex.find`)."""
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


def successor(claimed: str, index: FlagIndex, baseline: FlagIndex | None) -> FactItem | None:
    """A flag that replaced ``claimed``, when one is known.

    Known means: the same flag spelled differently (dashes vs underscores, case), or, with a
    baseline, a flag new in this release with the same argparse ``dest`` as the removed one.
    O(1) per claim: one :func:`normalise` and dictionary lookups in the prebuilt indexes.
    """
    same = index.by_key.get(normalise(claimed))
    if same is not None:
        return same
    if baseline is not None and baseline.items:
        old = baseline.find(claimed)
        dest = old.attrs.get("dest") if old is not None else None
        if dest:
            return index.fresh_with_dest(dest, baseline)
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
    index = flag_index(view, target)
    items = index.items
    base = flag_index(baseline, target) if baseline is not None else None
    was = base.find(flag) if base is not None else None
    found = index.find(flag)
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
    new = successor(flag, index, base)
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
    if claim.context.get("inferred") and not target.any_script:
        elsewhere = flag_index(view, Target("any Quark CLI", None, any_script=True)).find(flag)
        if elsewhere is not None:
            # a flag in prose, its command inferred from the section: another command of this release
            # defines it, and the sentence may well mean that one (a table of another command's flags)
            return Resolution(
                "not_shown",
                target,
                reason=f"{target.label} (inferred from the {claim.context.get('inferred_from') or 'section'})"
                f" defines no `{flag}`, but {script_of(elsewhere)} does; which command is meant is not said",
            )
    candidates = [str(c) for c in claim.context.get("candidates") or []]
    among_cli = bool(candidates) and all(c.startswith("quark-cli ") for c in candidates)
    if (
        target.any_script
        and not target.prefix  # a quark-cli subcommand's flag: the example script is not meant
        and not among_cli  # the section names only quark-cli commands: the example script is not meant
        and script_known_uncovered(view, Target("quantize_quark.py", "quantize_quark.py"))
    ):
        # A flag in prose may belong to the example script this snapshot does not hold.
        return Resolution(
            "not_shown",
            target,
            reason="not defined by any CLI this snapshot holds, and "
            "quantize_quark.py (examples/) is not in it",
        )
    return Resolution("removed", target, was=was)
