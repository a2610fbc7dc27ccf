"""The flag resolver (quarkci/sync/rules/_flags.py): linear in claims + upstream flags (issue 24), and
answering exactly what a scan of the upstream flags in order answers."""

from __future__ import annotations

import random

import pytest

from quarkci.facts.base import FactItem, FactSet
from quarkci.skills.model import Claim
from quarkci.sync.rules import _flags
from quarkci.sync.state import UpstreamView

CLI = "quark/experimental/cli/torch_llm_ptq.py"
COMMAND = "quark-cli torch-llm-ptq --model_dir m"


def _view(version: str, flags: list[FactItem]) -> UpstreamView:
    facts = FactSet(
        version=version,
        label=f"amd-quark=={version}",
        coverage=frozenset({"quark", "metadata"}),
        kinds={"cli_flags": flags},
    )
    return UpstreamView(spec=f"amd-quark=={version}", kind="wheel", facts=facts, files=frozenset({CLI}))


def _flag(name: str, dest: str, line: int, **attrs: object) -> FactItem:
    return FactItem(name, CLI, line, {"script": "quark-cli torch-llm-ptq", "dest": dest, **attrs})


def _claim(value: str, line: int = 3, command: str = COMMAND) -> Claim:
    return Claim(
        kind="cli_flag", value=value, skill="s", file="s/SKILL.md", line=line, context={"command": command}
    )


def _resolve_counting(monkeypatch: pytest.MonkeyPatch, n: int) -> tuple[int, int, list[str]]:
    """Resolve ``n`` claims of a release with ``n`` flags against a baseline of ``n`` flags; return the
    calls to ``normalise`` and ``option_strings`` and the statuses. A third of the claims are present, a
    third renamed by spelling, a third renamed by ``dest`` (the baseline's ``--old_i`` is ``--new_i``)."""
    upstream = _view(
        "2.0",
        [_flag(f"--keep_{i}", f"keep_{i}", i) for i in range(n)]
        + [_flag(f"--new_{i}", f"moved_{i}", n + i) for i in range(n)],
    )
    baseline = _view(
        "1.0",
        [_flag(f"--keep_{i}", f"keep_{i}", i) for i in range(n)]
        + [_flag(f"--old_{i}", f"moved_{i}", n + i) for i in range(n)],
    )
    calls = {"normalise": 0, "option_strings": 0}
    real_normalise, real_options = _flags.normalise, _flags.option_strings
    # fresh per-view caches: what earlier tests of this worker left (ids of freed views reused, an eviction
    # at 32 views) must not count here
    for cache in ("_OPTIONS", "_GROUPS", "_INDEXES"):
        monkeypatch.setattr(_flags, cache, {})

    def normalise(flag: str) -> str:
        calls["normalise"] += 1
        return real_normalise(flag)

    def option_strings(item: FactItem) -> set[str]:
        calls["option_strings"] += 1
        return real_options(item)

    monkeypatch.setattr(_flags, "normalise", normalise)
    monkeypatch.setattr(_flags, "option_strings", option_strings)
    claims = [_claim(f"--keep_{i}") for i in range(0, n, 3)]
    claims += [_claim(f"--Keep-{i}") for i in range(1, n, 3)]
    claims += [_claim(f"--old_{i}") for i in range(2, n, 3)]
    statuses = [_flags.resolve(c, upstream, baseline).status for c in claims]
    return calls["normalise"], calls["option_strings"], statuses


def test_lookups_per_claim_are_bounded_by_a_constant(monkeypatch):
    # the old resolver normalised every upstream option for each claim it could not find (2N * N calls)
    small_norm, small_opts, small_status = _resolve_counting(monkeypatch, 300)
    big_norm, big_opts, big_status = _resolve_counting(monkeypatch, 600)
    assert small_status.count("present") == 100 and small_status.count("renamed") == 200
    assert big_status.count("present") == 200 and big_status.count("renamed") == 400
    # index building: one normalise per upstream option (2N, both views), one per claim not found
    assert small_norm <= 3 * 2 * 300 and big_norm <= 3 * 2 * 600
    assert big_norm <= 2 * small_norm + 10 and big_opts <= 2 * small_opts + 10
    assert small_opts <= 4 * 2 * 300  # each fact's options read a bounded number of times


def _scan_resolution(claimed: str, items: list[FactItem], baseline: list[FactItem] | None) -> FactItem | None:
    """The resolver before issue 24, kept as the oracle: scans in order."""
    found = next((i for i in items if claimed in _flags.option_strings(i)), None)
    if found is not None:
        return found
    key = _flags.normalise(claimed)
    for item in items:
        if any(_flags.normalise(o) == key for o in _flags.option_strings(item) if o.startswith("-")):
            return item
    if baseline:
        old = next((i for i in baseline if claimed in _flags.option_strings(i)), None)
        dest = old.attrs.get("dest") if old is not None else None
        if dest:
            before = {o for i in baseline for o in _flags.option_strings(i)}
            for item in items:
                if item.attrs.get("dest") == dest and not _flags.option_strings(item) & before:
                    return item
    return None


def test_indexed_answers_equal_the_ordered_scan_on_random_releases():
    rng = random.Random(24)
    names = ["--a", "--A", "--a-b", "--a_b", "--A_B", "-a", "--c", "--d-e", "--d_e", "--f", "a"]
    dests = ["a", "a_b", "c", "d", None, ""]
    checked = renamed = 0
    for case in range(300):

        def flags(version: str, count: int) -> list[FactItem]:
            out = []
            for line in range(count):
                aliases = rng.sample(names, rng.randint(0, 2))
                out.append(_flag(rng.choice(names), rng.choice(dests), line, option_strings=aliases))
            return out

        up_items, base_items = flags("2", rng.randint(0, 6)), flags("1", rng.randint(0, 6))
        upstream, baseline = _view(f"2.{case}", up_items), _view(f"1.{case}", base_items)
        for claimed in names + ["--zz"]:
            res = _flags.resolve(_claim(claimed), upstream, baseline)
            expected = _scan_resolution(claimed, up_items, base_items)
            got = res.item if res.status in ("present", "deprecated", "renamed") else None
            assert got is expected, (case, claimed, res)
            checked += 1
            renamed += res.status == "renamed"
    assert checked == 300 * 12 and renamed > 100  # the rename paths were exercised, not only exact hits


def test_renames_by_spelling_and_by_dest_and_a_removed_flag():
    upstream = _view(
        "2.0", [_flag("--num_calib_data", "num_calib_data", 1), _flag("--seq_len2", "seq_len", 2)]
    )
    baseline = _view(
        "1.0", [_flag("--num_calib_data", "num_calib_data", 1), _flag("--seq_len", "seq_len", 2)]
    )
    spelled = _flags.resolve(_claim("--Num-Calib-Data"), upstream, baseline)
    assert (spelled.status, spelled.item and spelled.item.name) == ("renamed", "--num_calib_data")
    by_dest = _flags.resolve(_claim("--seq_len"), upstream, baseline)
    assert (by_dest.status, by_dest.item and by_dest.item.name) == ("renamed", "--seq_len2")
    assert by_dest.was is not None and by_dest.was.name == "--seq_len"
    # negative controls: without a baseline the dest rename is unknown; a flag nobody defined is removed
    assert _flags.resolve(_claim("--seq_len"), upstream, None).status == "removed"
    assert _flags.resolve(_claim("--nope"), upstream, baseline).status == "removed"
    assert _flags.resolve(_claim("--seq_len2"), upstream, baseline).status == "present"
