"""Moved files and moved facts on hand-built releases: where the content went is found by what the file
defined, never by its name; a sentence saying which facts a file holds is checked against the release."""

from __future__ import annotations

from quarkci.facts.base import FactItem, FactSet
from quarkci.skills.model import Claim
from quarkci.sync.rules import source_path_missing, upstream_fact_moved
from quarkci.sync.rules._content import stated_kinds
from quarkci.sync.state import AuditState, UpstreamView

OLD = "quark/a/helpers.py"
NEW = "quark/b/llm_tools.py"
DECOY = "quark/c/helpers.py"  # same name as the old file, unrelated content
TEMPLATE = "quark/t/template.py"


def _api(path: str, defines: list[str], public: list[str] | None = None) -> FactItem:
    module = path[:-3].removesuffix("/__init__").replace("/", ".")
    return FactItem(module, path, 1, {"names": defines, "defines": defines, "public": public or defines})


def _view(version: str, kinds: dict[str, list[FactItem]], unavailable=None) -> UpstreamView:
    files = {i.file for items in kinds.values() for i in items}
    facts = FactSet(
        version, f"amd-quark=={version}", frozenset({"quark", "metadata"}), kinds, unavailable or {}
    )
    return UpstreamView(f"amd-quark=={version}", "wheel", facts, frozenset(files))


BEFORE = _view("1.0", {"public_api": [_api(OLD, ["get_model", "save_model", "set_seed", "logger"])]})
AFTER = _view(
    "2.0",
    {
        "public_api": [
            _api(NEW, ["get_model", "save_model", "set_seed", "revert_patching"]),
            _api("quark/b/__init__.py", [], ["get_model", "save_model", "set_seed"]),  # re-exports only
            _api(DECOY, ["parse_args", "logger"]),
        ],
        "model_templates": [FactItem("llama", TEMPLATE, 10), FactItem("qwen3", TEMPLATE, 20)],
    },
)


def _claim(value: str, line: int, around: str = "", **context) -> Claim:
    return Claim("path", value, "s", "s/SKILL.md", line, {"around": around, **context} if around else context)


def _state(claims, upstream, baseline=None, releases=()) -> AuditState:
    return AuditState([], claims, upstream, baseline, lambda _f: "", None, releases)


def test_a_gone_file_is_found_by_the_names_it_defined_not_by_its_name():
    (found,) = source_path_missing.check(_state([_claim(OLD, 5, field="source_knowledge")], AFTER, BEFORE))
    assert found.source_location is not None and found.source_location.file == NEW
    assert (
        f"most likely now `{NEW}` (by content: it defines 3 of the 3 names the file defined in amd-quark 1.0 "
        "(`get_model`, `save_model`, `set_seed`))"
    ) in found.source_says
    # control: with no release holding the old file, only the name is left, and it says so
    (guess,) = source_path_missing.check(_state([_claim(OLD, 5)], AFTER))
    assert f"most likely now `{DECOY}` (same file name)" in guess.source_says


def test_the_skills_release_says_what_a_file_defined_when_the_baseline_lacks_it():
    skills_release = _view("3.0", {"public_api": [_api(OLD, ["get_model", "save_model"])]})
    empty = _view("1.5", {"public_api": [_api("quark/__init__.py", [])]})
    (found,) = source_path_missing.check(_state([_claim(OLD, 5)], AFTER, empty, (skills_release,)))
    assert (
        f"most likely now `{NEW}` (by content: it defines 2 of the 2 names the file defined in amd-quark 3.0"
        in (found.source_says)
    )


def test_one_shared_generic_name_is_no_evidence():
    before = _view("1.0", {"public_api": [_api(OLD, ["logger", "main", "special_loader"])]})
    after = _view("2.0", {"public_api": [_api("quark/z/other.py", ["logger", "main"])]})
    (found,) = source_path_missing.check(_state([_claim(OLD, 5)], after, before))
    assert found.source_location is None and "no file of that name remains" in found.source_says


def test_a_sentence_naming_the_facts_a_file_holds_is_checked():
    says = f"Supported model architectures — check `{NEW}` for the model template list"
    (moved,) = upstream_fact_moved.check(_state([_claim(NEW, 12, says)], AFTER))
    assert moved.change == "moved" and moved.subject == f"{NEW} -> {TEMPLATE}"
    assert moved.source_says == (
        f"amd-quark 2.0 defines none of its 2 model templates in `{NEW}`; 2 are defined in `{TEMPLATE}`"
    )
    # controls: the file that holds them, a negative sentence, a phrase nearer another path, no phrase,
    # and a kind the snapshot cannot show completely
    assert (
        upstream_fact_moved.check(
            _state([_claim(TEMPLATE, 3, f"`{TEMPLATE}` lists the model templates")], AFTER)
        )
        == []
    )
    negative = _claim(NEW, 4, says, negative=True)
    assert upstream_fact_moved.check(_state([negative], AFTER)) == []
    both = f"`{TEMPLATE}` holds the model template list and `{NEW}` the loaders"
    assert upstream_fact_moved.check(_state([_claim(NEW, 5, both)], AFTER)) == []
    assert upstream_fact_moved.check(_state([_claim(NEW, 6, f"Load models with `{NEW}`.")], AFTER)) == []
    blind = _view("2.0", AFTER.facts.kinds, {"model_templates": ["quark/t/elsewhere.py"]})
    assert upstream_fact_moved.check(_state([_claim(NEW, 12, says)], blind)) == []


def test_a_gone_file_also_names_where_the_facts_it_was_cited_for_are():
    claims = [
        _claim(OLD, 5, field="source_knowledge"),
        _claim(OLD, 20, f"Check `{OLD}` for the supported models."),
    ]
    found = source_path_missing.check(_state(claims, AFTER, BEFORE))
    assert len(found) == 2  # one per line; the policy keeps the first of one fingerprint
    assert all(
        f"the model templates it reads there are defined in `{TEMPLATE}` (2 of 2)" in f.source_says
        for f in found
    )


def test_stated_kinds_vocabulary():
    def kinds(text: str, value: str = NEW):
        said = stated_kinds(_claim(value, 1, text))
        return said[1] if said else None

    assert kinds(f"Check `{NEW}` for the scheme list.") == "schemes"
    assert kinds(f"`{NEW}` registers the available schemes") == "schemes"
    assert kinds(f"The list of supported models is in `{NEW}`") == "model templates"
    assert kinds(f"`{NEW}` defines the model types") == "model templates"
    assert kinds(f"Use `{NEW}` with a skill template.") is None  # "template" alone is no model template
    assert kinds(f"`{NEW}` configures the scheme.") is None
    assert kinds("the model template list", value=NEW) is None  # the path is not in the sentence
    # which path of a sentence a phrase is said of: its clause's, else the nearest in the sentence
    assert (
        kinds(f"`{TEMPLATE}`, which holds the model template list, and `{NEW}`", TEMPLATE)
        == "model templates"
    )
    assert kinds(f"`{TEMPLATE}`, which holds the model template list, and `{NEW}`", NEW) is None
    assert kinds(f"Loaders are in `{NEW}`; the scheme list is in `{TEMPLATE}`.", NEW) is None
