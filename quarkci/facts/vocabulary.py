"""The release vocabulary: every name amd-quark's releases define, with the releases that define it.

One symbol table per release, from the facts already extracted (:class:`~quarkci.facts.base.FactSet`),
merged into one :class:`Vocabulary` over the whole release history:

=================  ==========================================================================================
kind               names
=================  ==========================================================================================
``scheme``         every scheme the config API registers (``schemes`` facts) **and** every value a CLI's
                   scheme flag accepts (0.10's ``--quant_scheme`` took ``w_*`` names from its own list)
``module``         every module under ``quark/`` (``public_api`` facts)
``command``        every console script and ``quark-cli`` subcommand (``cli_flags`` facts' ``script``)
``model_template`` every model template / type (``model_templates`` facts)
``dependency``     every package a ``Requires-Dist`` names, any extra (``dependencies`` facts, canonical)
``extra``          every extra a ``Requires-Dist`` marker names (``dependencies`` facts' ``extra``: ``cli``)
``onnx_config``    every ONNX configuration name (``public_api``: ``DefaultConfigMapping`` keys, ``XINT8``)
``name``           every public class and function a module under ``quark/`` defines (``public_api``
                   facts' ``signatures`` and ``classes``: ``ModelQuantizer``, ``export_safetensors``)
``member``         every public method of those classes and every name their bodies assign, class-qualified
                   (``ModelQuantizer.quantize_model``, ``Dtype.int3``)
``attribute``      every name a public class body assigns, bare (enum members ``QInt32``, constants)
``export``         every public name a framework package exports (``quark``, ``quark.torch``, ``quark.onnx``,
                   ...: an ``__init__`` at most two packages deep): what users import, ``export_safetensors``
``flag``           every option string of every CLI parser (``cli_flags`` facts: ``--num_calib_data``)
``literal``        every string value a public callable closes a parameter to, as ``callable(param=value)``
                   (``public_api`` facts' ``literals``: ``export_safetensors(custom_mode=awq)``)
``parameter``      every parameter of a public callable and every field of a public dataclass, as
                   ``callable(param)`` (``signatures``, ``classes``' ``fields``: ``GPTQConfig(block_size)``)
=================  ==========================================================================================

A release that cannot show a kind (0.6.0 and 0.9 have no CLI) simply adds no names of that kind. The
union says what a Quark name *looks like* and when each existed: a skill token that some release defines
but the audited one does not is drift (with the releases it existed in); one within a small edit distance
of a known name, but defined by no release, is a misspelt name. The vocabulary of the 12 releases on PyPI
that hold ``quark/`` (0.6.0 … 0.13; 0.1.0 is a placeholder) ships with quarkci as ``vocabulary.json``
(recorded by ``python -m quarkci.facts.vocabulary --record``); the audited release and the baseline are
merged in at run time, so a release newer than the recording is covered too.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from importlib import resources
from typing import Any

from packaging.utils import canonicalize_name
from packaging.version import Version

from quarkci.facts.base import FactSet
from quarkci.facts.cli_flags import command_labels, option_names, scheme_choices
from quarkci.facts.public_api import onnx_configs

FORMAT = "quarkci-vocabulary/1"
KINDS: tuple[str, ...] = (
    "scheme",
    "module",
    "command",
    "model_template",
    "dependency",
    "extra",
    "onnx_config",
    "name",
    "member",
    "attribute",
    "export",
    "flag",
    "positional",
    "literal",
    "parameter",
)
# The releases on PyPI whose wheel holds quark/ (0.1.0 is a placeholder), oldest first.
RELEASES: tuple[str, ...] = (
    "0.6.0",
    "0.7",
    "0.8",
    "0.8.1",
    "0.8.2",
    "0.9",
    "0.10",
    "0.11",
    "0.11.1",
    "0.11.2",
    "0.12.post1",
    "0.13",
)


def _order(version: str) -> tuple[int, Version | str]:
    try:
        return (0, Version(version))
    except ValueError:  # InvalidVersion, or an integer of over 4,300 digits (int() limit)
        return (1, version)


# How many answers of Vocabulary.nearest are remembered (then forgotten at once).
_NEAREST_MEMO = 1 << 16


@dataclass(frozen=True)
class Vocabulary:
    """``symbols[kind][name]`` = the releases (sorted oldest first) that define ``name`` as a ``kind``."""

    releases: tuple[str, ...]
    symbols: Mapping[str, Mapping[str, tuple[str, ...]]]

    def releases_of(self, kind: str, name: str) -> tuple[str, ...]:
        """The releases defining ``name`` as a ``kind`` (empty when none does)."""
        return self.symbols.get(kind, {}).get(name, ())

    def names(self, kind: str) -> frozenset[str]:
        """Every name of ``kind`` any release defines (built once per kind: claim extraction asks per code
        span)."""
        found = self._names.get(kind)
        if found is None:
            found = self._names[kind] = frozenset(self.symbols.get(kind, {}))
        return found

    @cached_property
    def _names(self) -> dict[str, frozenset[str]]:
        return {}

    def nearest(self, kind: str, name: str, max_distance: int = 2) -> str | None:
        """The known ``kind`` name closest to ``name`` within ``max_distance`` edits (Levenshtein), the
        lexically first on a tie; None when ``name`` is known or none is that close. Names shorter than
        6 characters never match (``int4`` vs ``int8`` is no misspelling)."""
        if len(name) < 6 or name in self.symbols.get(kind, {}):
            return None
        key = (kind, name, max_distance)
        if key in self._nearest:
            return self._nearest[key]
        letters = frozenset(name)
        best: tuple[int, str] | None = None
        by_length = self._letters(kind)
        lengths = range(len(name) - max_distance, len(name) + max_distance + 1)
        for known, known_letters in (entry for length in lengths for entry in by_length.get(length, ())):
            # each character of one that the other lacks costs an edit: a cheap lower bound of the distance
            if len(letters - known_letters) > max_distance or len(known_letters - letters) > max_distance:
                continue
            distance = _levenshtein(name, known, max_distance)
            if distance <= max_distance and (best is None or (distance, known) < best):
                best = (distance, known)
        if len(self._nearest) >= _NEAREST_MEMO:
            self._nearest.clear()  # bounded memory in a long-lived process
        self._nearest[key] = None if best is None else best[1]
        return self._nearest[key]

    @cached_property
    def _nearest(self) -> dict[tuple[str, str, int], str | None]:
        """Answers of :meth:`nearest` already given (a skill repeats its tokens)."""
        return {}

    def _letters(self, kind: str) -> dict[int, list[tuple[str, frozenset[str]]]]:
        """The ``kind`` names of 6 characters or more by length, each with the set of its characters
        (built once a kind)."""
        if kind not in self._letter_sets:
            by_length: dict[int, list[tuple[str, frozenset[str]]]] = {}
            for known in self.symbols.get(kind, {}):
                if len(known) >= 6:
                    by_length.setdefault(len(known), []).append((known, frozenset(known)))
            self._letter_sets[kind] = by_length
        return self._letter_sets[kind]

    @cached_property
    def _letter_sets(self) -> dict[str, dict[int, list[tuple[str, frozenset[str]]]]]:
        return {}

    def merged(self, facts: Iterable[FactSet]) -> Vocabulary:
        """This vocabulary with the symbols of ``facts`` (each one release) added."""
        table: dict[str, dict[str, set[str]]] = {
            k: {n: set(r) for n, r in v.items()} for k, v in self.symbols.items()
        }
        releases = set(self.releases)
        for factset in facts:
            releases.add(factset.version)
            for kind, names in symbols_of(factset).items():
                for name in names:
                    table.setdefault(kind, {}).setdefault(name, set()).add(factset.version)
        return Vocabulary(
            tuple(sorted(releases, key=_order)),
            {
                k: {n: tuple(sorted(r, key=_order)) for n, r in sorted(v.items())}
                for k, v in sorted(table.items())
            },
        )

    def to_json(self) -> dict[str, Any]:
        """``{"format", "releases", "symbols": {kind: {name: [release index, ...]}}}`` (compact)."""
        index = {r: i for i, r in enumerate(self.releases)}
        return {
            "format": FORMAT,
            "releases": list(self.releases),
            "symbols": {
                kind: {name: [index[r] for r in rs] for name, rs in sorted(names.items())}
                for kind, names in sorted(self.symbols.items())
            },
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Vocabulary:
        """Inverse of :meth:`to_json`. Raises ValueError on another format, KeyError/TypeError/IndexError
        on a malformed document."""
        if data.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} document")
        releases = tuple(str(r) for r in data["releases"])
        symbols = {
            str(kind): {str(name): tuple(releases[int(i)] for i in rs) for name, rs in names.items()}
            for kind, names in data["symbols"].items()
        }
        return cls(releases, symbols)


def symbols_of(facts: FactSet) -> dict[str, set[str]]:
    """The symbol table of one release: ``{kind: names}`` for the kinds of :data:`KINDS`."""
    flags = facts.kinds.get("cli_flags", [])
    schemes = facts.names("schemes") | scheme_choices(flags)
    names, members = api_names(facts)
    return {
        "scheme": schemes,
        "module": facts.names("public_api"),
        "command": set(command_labels(flags)),
        "model_template": facts.names("model_templates"),
        "dependency": {canonicalize_name(n) for n in facts.names("dependencies")},
        "extra": {str(i.attrs["extra"]) for i in facts.kinds.get("dependencies", []) if i.attrs.get("extra")},
        "onnx_config": set(onnx_configs(facts.kinds.get("public_api", []))),
        "name": names,
        "member": members,
        # what a public class body assigns (enum members, constants), by its bare name
        "attribute": {
            str(a)
            for item in facts.kinds.get("public_api", [])
            for c, info in (item.attrs.get("classes") or {}).items()
            if not str(c).startswith("_") and isinstance(info, dict)
            for a in info.get("attributes") or ()
        },
        "export": {
            str(name)
            for item in facts.kinds.get("public_api", [])
            if item.file.endswith("/__init__.py") and item.name.count(".") <= 1
            for name in item.attrs.get("public", [])
        },
        "flag": {str(o) for item in flags for o in option_names(item) if str(o).startswith("--")},
        # a positional argument with literal choices, as ``command name`` ("quark-cli torch-mixed-precision
        # stage": its values are words a skill lists, and the first bare word after the command)
        "positional": {
            f"{item.attrs.get('script')} {item.name}"
            for item in flags
            if item.attrs.get("script")
            and isinstance(item.attrs.get("choices"), list)
            and not any(str(o).startswith("-") for o in option_names(item))
        },
        # every parameter of a public callable, as ``callable(parameter)`` (what a prose span may name as
        # that callable's keyword)
        "parameter": {
            parameter_key(str(key), str(p))
            for item in facts.kinds.get("public_api", [])
            for key, params in (item.attrs.get("signatures") or {}).items()
            for p in params
            if str(p).isidentifier() and not str(p).startswith("_") and p not in ("self", "cls")
        }
        # a dataclass's fields are its generated __init__'s parameters
        | {
            parameter_key(str(c), str(f))
            for item in facts.kinds.get("public_api", [])
            for c, info in (item.attrs.get("classes") or {}).items()
            if not str(c).startswith("_") and isinstance(info, dict)
            for f in info.get("fields") or ()
        },
        "literal": {
            literal_key(str(key), str(param), str(value))
            for item in facts.kinds.get("public_api", [])
            for key, params in (item.attrs.get("literals") or {}).items()
            for param, values in params.items()
            for value in values
        },
    }


def parameter_key(callable_key: str, param: str) -> str:
    """The ``parameter`` symbol of a callable's parameter: ``export_safetensors(weight_format)``
    (``callable_key`` as in the ``signatures`` facts: a function, a class, or ``Class.method``)."""
    return f"{callable_key}({param})"


def literal_key(callable_key: str, param: str, value: str) -> str:
    """The ``literal`` symbol of a value a callable accepts: ``export_safetensors(custom_mode=awq)``
    (``callable_key`` as in the ``signatures`` facts: a function, a class, or ``Class.method``)."""
    return f"{callable_key}({param}={value})"


def api_names(facts: FactSet) -> tuple[set[str], set[str]]:
    """``(names, members)`` of one release: the public classes and functions its modules define, and
    their public methods and class-body names as ``Class.member`` (``public_api`` facts; a name starting
    with ``_`` is private)."""
    names: set[str] = set()
    members: set[str] = set()
    for item in facts.kinds.get("public_api", []):
        for key in item.attrs.get("signatures") or {}:
            (members if "." in key else names).add(str(key))
        for c, info in (item.attrs.get("classes") or {}).items():
            if str(c).startswith("_"):
                continue
            names.add(str(c))
            if isinstance(info, dict):  # what the class body assigns: `Dtype.int3`, `QuantFlow.disk_offload`
                members.update(f"{c}.{a}" for a in info.get("attributes") or () if not str(a).startswith("_"))
    return names, members


EMPTY = Vocabulary((), {})


@cache
def shipped() -> Vocabulary:
    """The vocabulary recorded from the releases of :data:`RELEASES` (``quarkci/facts/vocabulary.json``)."""
    text = resources.files("quarkci.facts").joinpath("vocabulary.json").read_text(encoding="utf-8")
    return Vocabulary.from_json(json.loads(text))


def _levenshtein(a: str, b: str, bound: int) -> int:
    """Edit distance of ``a`` and ``b``, or ``bound + 1`` as soon as it must exceed ``bound``."""
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        current = [i]
        for j, cb in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        if min(current) > bound:
            return bound + 1
        previous = current
    return previous[-1]


def record() -> Vocabulary:
    """The vocabulary of every release of :data:`RELEASES`, from their real wheels (fetched into the wheel
    cache when missing; facts from the facts cache). Raises what fetching raises."""
    from quarkci.facts.cache import facts_of
    from quarkci.upstream.fetch import fetch_wheel
    from quarkci.upstream.wheel import WheelSnapshot

    sets = [facts_of(WheelSnapshot(fetch_wheel(v), label=f"amd-quark=={v} (PyPI wheel)")) for v in RELEASES]
    return EMPTY.merged(sets)


def main() -> int:
    """``python -m quarkci.facts.vocabulary --record`` rewrites the shipped vocabulary.json."""
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--record", action="store_true", help="rebuild vocabulary.json from the real wheels")
    args = parser.parse_args()
    if not args.record:
        parser.error("nothing to do: pass --record")
    target = resources.files("quarkci.facts").joinpath("vocabulary.json")
    text = json.dumps(record().to_json(), sort_keys=True, separators=(",", ":")) + "\n"
    with resources.as_file(target) as path:
        path.write_text(text, encoding="utf-8")
    print(f"wrote {path} ({len(text)} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
