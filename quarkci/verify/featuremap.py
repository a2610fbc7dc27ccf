"""The feature map (``features/map.json`` in a generated skill): the inventory plus one feature per
family and kind, each with the exact commands that drive it.

A correctness feature's ``drive`` is chosen in this order: the library's pytest target, its op-test
script, a generated helper (``check_lowfp.py`` for the low-precision-float fake-quantize op,
``check_ref.py`` for an op with a pure-torch reference beside it); none -> ``drive`` is null and
the reason is kept. ``negative`` is the negative control that must fail. Paths inside commands are
relative to ``workdir`` (itself relative to the skill directory).
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import TypedDict, cast

from quarkci.core.documents import dump_json, json_path, load_document
from quarkci.core.errors import BadInputError
from quarkci.verify.family_json import FamilyDoc, ProofRecord, family_dict
from quarkci.verify.inventory import op_key
from quarkci.verify.model import CPU, Family, Inventory

MAP_VERSION = 1
MAP_FILE = "features/map.json"
LOWFP_OP = "fake_quantize_to_low_precision_fp"
# native op -> the generated helper that tests it against a pure-torch reference (quarkci's templates)
TEMPLATES = {LOWFP_OP: "check_lowfp.py", "tqt_backward": "check_tqt.py"}
PYTEST = "python -m pytest -q -p no:cacheprovider"


class Feature(TypedDict, total=False):
    """One feature of ``features/map.json``: what drives it and what must fail (``negative``).

    ``kind``: correctness | perf | isa; ``drive``/``negative``: shell commands run in the workdir (None:
    not drivable, ``reason`` says why); ``parse``: how a run's outcome is read (pytest | exit |
    verdict); ``harness``: file -> sha256 of the files that decide the verdict; ``regime`` and
    ``reference`` for a perf feature only."""

    id: str
    family: str
    kind: str
    arch: list[str]
    needs: list[str]
    drive: str | None
    negative: str | None
    parse: str
    harness: dict[str, str]
    reason: str
    regime: str
    reference: str


class FeatureMap(TypedDict, total=False):
    """The ``features/map.json`` document (version :data:`MAP_VERSION`). ``families`` holds each
    :class:`~quarkci.verify.model.Family` in its JSON form
    (:func:`quarkci.verify.family_json.family_dict`); ``proofs`` the records :mod:`quarkci.verify.prove`
    appended; ``repo``, when present, the library spec to re-scan."""

    map_version: int
    library: str
    source: str
    package: str
    dist: str
    version: str
    sha: str
    workdir: str
    helpers: str
    families: list[FamilyDoc]
    features: list[Feature]
    gaps: list[list[str]]
    skipped: list[str]
    proofs: list[ProofRecord]
    repo: str


def _q(text: str) -> str:
    return shlex.quote(text)


def _correctness(fam: Family, helpers: str, package: str, dist: str) -> list[Feature]:
    features: list[Feature] = []
    base: Feature = {"family": fam.name, "kind": "correctness", "arch": list(fam.arch), "needs": []}
    pytests = [e for e in fam.entry_points if e.kind == "pytest"]
    scripts = [e for e in fam.entry_points if e.kind == "script"]
    if pytests or scripts:
        entry = (pytests or scripts)[0]
        ops = ",".join(entry.ops)
        if entry.kind == "pytest":
            drive, harness, parse = (
                f"{PYTEST} {_q(entry.target)}",
                f"-m pytest -q -p no:cacheprovider {_q(entry.target)}",
                "pytest",
            )
        else:
            drive, harness, parse = f"PYTHONPATH=. python {_q(entry.target)}", _q(entry.target), "exit"
        features.append(
            {
                **base,
                "id": f"{fam.name}-correctness",
                "drive": drive,
                "negative": f"python {helpers}/perturb.py {ops} -- {harness}",
                "parse": parse,
                "harness": {entry.file: entry.sha256},
                "reason": "",
            }
        )
    for sub in fam.subfeatures:
        template = next((TEMPLATES[op] for op in sub.ops if op in TEMPLATES), None)
        if template and CPU in sub.arch:
            # arch keeps the GPU side of the op: a CPU proof lists it as unverified (a stand-in)
            features.append(
                {
                    **base,
                    "id": f"{fam.name}-{sub.name}-correctness",
                    "arch": list(sub.arch),
                    "needs": ["g++", "ninja"],
                    "drive": f"python {helpers}/{template}",
                    "negative": f"python {helpers}/{template} --negative-control",
                    "parse": "verdict",
                    "harness": {},
                    "reason": "",
                }
            )
        elif CPU in sub.arch and CPU in fam.arch:
            features.append(
                {
                    **base,
                    "id": f"{fam.name}-{sub.name}-correctness",
                    "arch": [CPU],
                    "drive": None,
                    "negative": None,
                    "parse": "verdict",
                    "harness": {},
                    "reason": f"no pure-torch reference for {', '.join(sub.ops)} (library or quarkci template)",
                }
            )
        elif CPU not in sub.arch and CPU in fam.arch:
            features.append(
                {
                    **base,
                    "id": f"{fam.name}-{sub.name}-correctness",
                    "arch": list(sub.arch),
                    "drive": None,
                    "negative": None,
                    "parse": "verdict",
                    "harness": {},
                    "reason": f"GPU-only ops {', '.join(sub.ops)}: no pure-torch reference in the library",
                }
            )
    if not features:
        refs = {op_key(r.split(":")[1]): r for r in fam.references}
        pairs = [(f, refs[op_key(f.split(":")[1])]) for f in fam.functions if op_key(f.split(":")[1]) in refs]
        if pairs:
            op, ref = pairs[0]
            device = "" if fam.cpu else " --device cuda"
            cmd = f"python {helpers}/check_ref.py --op {op} --ref {ref}{device}"
            features.append(
                {
                    **base,
                    "id": f"{fam.name}-correctness",
                    "drive": cmd,
                    "negative": f"{cmd} --negative-control",
                    "parse": "verdict",
                    "harness": {},
                    "reason": "",
                }
            )
        else:
            features.append(
                {
                    **base,
                    "id": f"{fam.name}-correctness",
                    "drive": None,
                    "negative": None,
                    "parse": "verdict",
                    "harness": {},
                    "reason": "no test and no pure-torch reference in the library",
                }
            )
    return features


def _perf(fam: Family) -> list[Feature]:
    out: list[Feature] = []
    for perf in fam.perf:
        flags = " ".join(f"{f.split('=')[0]} {f.split('=', 1)[1]}" for f in perf.flags if "=" in f)
        out.append(
            {
                "id": f"{fam.name}-perf",
                "family": fam.name,
                "kind": "perf",
                "arch": list(fam.arch),
                "needs": [],
                "drive": f"PYTHONPATH=. python {_q(perf.target)} {flags}".strip(),
                "negative": None,
                "parse": "exit",
                "harness": {perf.file: perf.sha256},
                "regime": perf.regime,
                "reference": perf.reference,
                "reason": "",
            }
        )
    return out


def _isa(fam: Family, helpers: str, extension: str) -> list[Feature]:
    if fam.isa:
        drive = fam.isa
    elif fam.build == "torch cpp_extension JIT" and extension:
        module, name = extension.split(":")
        drive = f"python {helpers}/isa_extension.py --module {module} --name {name}"
    else:
        return [
            {
                "id": f"{fam.name}-isa",
                "family": fam.name,
                "kind": "isa",
                "arch": list(fam.arch),
                "needs": [],
                "drive": None,
                "negative": None,
                "parse": "exit",
                "harness": {},
                "reason": f"no object dump command known for {fam.build or 'pure-Python'} code",
            }
        ]
    needs = ["g++", "ninja", "objdump"] if "isa_extension" in drive else ["g++"]
    return [
        {
            "id": f"{fam.name}-isa",
            "family": fam.name,
            "kind": "isa",
            "arch": [CPU] if fam.cpu else list(fam.arch),
            "needs": needs,
            "drive": drive,
            "negative": None,
            "parse": "exit",
            "harness": {},
            "reason": "",
        }
    ]


def build(inv: Inventory, helpers: str, workdir: str, extensions: dict[str, str], dist: str) -> FeatureMap:
    """The feature map document for ``inv``. ``helpers``: the helpers directory as written in
    commands (relative to the workdir); ``extensions``: family -> ``module:extension_name``."""
    features: list[Feature] = []
    for fam in inv.families:
        features += _correctness(fam, helpers, inv.package, dist)
    for fam in inv.families:
        features += _perf(fam)
    for fam in inv.families:
        features += _isa(fam, helpers, extensions.get(fam.name, ""))
    return {
        "map_version": MAP_VERSION,
        "library": inv.library,
        "source": inv.source,
        "package": inv.package,
        "dist": dist,
        "version": inv.version,
        "sha": inv.sha,
        "workdir": workdir,
        "helpers": helpers,
        "families": [family_dict(f) for f in inv.families],
        "features": features,
        "gaps": [list(g) for g in inv.gaps],
        "skipped": list(inv.skipped),
        "proofs": [],
    }


def load(skill: Path) -> FeatureMap:
    """Read ``skill/features/map.json``. Raises :class:`BadInputError` (``--skill``) when absent or malformed."""
    path = skill / MAP_FILE
    if not path.is_file():
        raise BadInputError(f"--skill {skill}: no {MAP_FILE} (generate the skill with `quarkci verify init`)")
    data = load_document(path)
    if (
        not isinstance(data, dict)
        or data.get("map_version") != MAP_VERSION
        or not isinstance(data.get("features"), list)
    ):
        raise BadInputError(f"--skill {skill}: {MAP_FILE} is not a version-{MAP_VERSION} feature map")
    for i, feature in enumerate(
        data["features"]
    ):  # a hand-edited map is user input: its shape is checked once
        if not (
            isinstance(feature, dict)
            and isinstance(feature.get("id"), str)
            and isinstance(feature.get("kind"), str)
            and isinstance(feature.get("arch", []), list)
            and (feature["kind"] != "correctness" or {"drive", "negative"} <= set(feature))
        ):
            raise BadInputError(
                f"--skill {skill}: {MAP_FILE} {json_path(['features', i])} needs a string 'id' and 'kind', a list 'arch' "
                "and, for a correctness feature, 'drive' and 'negative'"
            )
    return cast(FeatureMap, data)


def dump(data: FeatureMap) -> str:
    """The map's one text form."""
    return dump_json(data)


def resolve_features(data: FeatureMap, given: str) -> list[str]:
    """The feature ids ``--feature given`` names: ``[given]`` for a feature id of the map ``data``; for
    the stem of a feature file (``features/<family>-<kind>.md``, e.g. ``hw_emulation-correctness``,
    which holds ``hw_emulation-mx-correctness``, ``hw_emulation-tqt-correctness``, ...), the ids of the
    features that file lists (its family's features of its kind), in map order.

    Raises :class:`BadInputError` naming ``--feature`` when ``given`` is neither (the message lists
    the feature ids and the file stems).
    """
    ids = [f["id"] for f in data["features"]]
    if given in ids:
        return [given]
    files = {
        f"{fam['name']}-{kind}": [
            f["id"] for f in data["features"] if f["family"] == fam["name"] and f["kind"] == kind
        ]
        for fam in data["families"]
        for kind in ("correctness", "perf", "isa")
    }
    listed = files.get(given)
    if listed:
        return listed
    raise BadInputError(
        f"--feature {given}: not in {MAP_FILE} as a feature id (one of: {', '.join(sorted(ids))}) "
        f"nor a feature file stem (one of: {', '.join(sorted(k for k, v in files.items() if v))})"
    )
