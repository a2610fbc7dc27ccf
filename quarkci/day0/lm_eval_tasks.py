"""The task names the installed lm-eval knows, read statically from its task files (nothing imported).

lm-eval's registry (``lm_eval.tasks.TaskManager().all_tasks``) indexes every task, group and tag named by
the YAML task configs shipped under ``lm_eval/tasks/``. Building it imports ``lm_eval`` and ``datasets``
and parses about 14,000 YAML files: 1.5 s of imports and 13 s of indexing on the development machine
(lm-eval 0.4.13), too slow for a parse-time check. This module reads the same files as text instead
(0.5-1.2 s there), taking the top-level ``task:``, ``group:`` and ``tag:`` values -- a scalar, an inline
``[a, b]`` list or a block ``- name`` list, quoted or not. On lm-eval 0.4.13 it finds all 14,683 names
of ``all_tasks`` and 4 more (names used only as sub-group labels, which a run would then refuse at eval
time, as before). The installed distribution is located through :mod:`importlib.metadata`, so
``lm_eval`` itself is never imported.

:func:`task_datasets` reads the few files that define the requested names (YAML, ``include:`` chains
merged as lm-eval merges them) for the dataset each task loads (``dataset_path``, ``dataset_name``,
``dataset_kwargs``): the day-0 setup gate checks those are available before any stage runs
(:mod:`quarkci.day0.availability`). These are the installed lm-eval's own files (and the suite quarkci
writes), not user documents: they are read with a YAML loader that ignores lm-eval's ``!function`` tags.
"""

from __future__ import annotations

import functools
import importlib.metadata
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

_KEY = re.compile(r"""^["']?(task|group|tag)["']?:[ \t]*(.*?)[ \t]*(?:#.*)?$""")
_ITEM = re.compile(r"""^[ \t]*-[ \t]+["']?([A-Za-z0-9_.\-]+)["']?[ \t]*(?:#.*)?$""")
_SUFFIXES = (".yaml", ".yml", "")  # lm-eval also reads extension-less YAML files (e.g. afrobench)
_MAX_FILE = 1 << 20  # a task config is a few kB; anything bigger is not one


def tasks_dir() -> Path | None:
    """``lm_eval/tasks`` of the installed lm-eval distribution, or None when it is not installed."""
    for name in ("lm_eval", "lm-eval"):
        try:
            dist = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            continue
        path = Path(str(dist.locate_file("lm_eval/tasks")))
        if path.is_dir():
            return path
    return None


def _names_in(text: str) -> set[str]:
    found: set[str] = set()
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        match = _KEY.match(lines[i])
        i += 1
        if not match:
            continue
        value = match.group(2)
        if value.startswith("["):
            found.update(x.strip().strip("'\"") for x in value.strip("[]").split(",") if x.strip())
        elif value:
            if not value.startswith("!"):  # a YAML tag such as !function: not a name
                found.add(value.strip("'\""))
        else:
            while i < len(lines) and (item := _ITEM.match(lines[i])):
                found.add(item.group(1))
                i += 1
    found.discard("null")
    return found


def _scan(root: Path) -> dict[str, tuple[Path, ...]]:
    index: dict[str, list[Path]] = {}
    for path in sorted(root.rglob("*")):
        if path.suffix not in _SUFFIXES or not path.is_file():
            continue
        try:
            if path.stat().st_size > _MAX_FILE:
                continue
            for name in _names_in(path.read_text(encoding="utf-8", errors="replace")):
                index.setdefault(name, []).append(path)
        except OSError:
            continue
    return {name: tuple(paths) for name, paths in index.items()}


@functools.cache
def task_index(root: Path | None = None) -> dict[str, tuple[Path, ...]] | None:
    """Task, group and tag name -> the task files under ``root`` (default: :func:`tasks_dir`) that name it;
    None when lm-eval is not installed. Files over 1 MiB or unreadable are skipped. Read once per process."""
    root = root or tasks_dir()
    if root is None:
        return None
    return _scan(root)


def known_tasks(root: Path | None = None) -> frozenset[str] | None:
    """Every task, group and tag name in the lm-eval task files under ``root`` (default:
    :func:`tasks_dir`); None when lm-eval is not installed (see :func:`task_index`)."""
    index = task_index(root)
    return None if index is None else frozenset(index)


# --- the dataset a task loads ---------------------------------------------------------------------


@dataclass(frozen=True)
class DatasetRef:
    """The dataset one lm-eval task loads: ``datasets.load_dataset(path, name, data_files=...,
    data_dir=..., revision=...)`` (lm-eval 0.4 passes ``dataset_path``, ``dataset_name`` and
    ``dataset_kwargs``; only the keys that locate the data are kept)."""

    task: str
    path: str
    name: str | None = None
    data_files: Any = None
    data_dir: str | None = None
    revision: str | None = None

    @property
    def key(self) -> str:
        """A stable identity of the data (tasks sharing one dataset share it)."""
        return repr((self.path, self.name, self.data_files, self.data_dir, self.revision))

    def __str__(self) -> str:
        where = self.path + (f" ({self.name})" if self.name else "")
        if self.data_files is not None:
            where += f" data_files {self.data_files}"
        return where


class _TaskLoader(yaml.SafeLoader):
    """YAML as lm-eval's task files are written: ``!function module.attr`` values (and any other tag)
    are read as ``None``; the dataset keys never use them."""


def _ignore_tag(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> None:
    return None


_TaskLoader.add_multi_constructor("!", _ignore_tag)


def _read_yaml(path: Path) -> Mapping[str, object]:
    """A task file's top-level mapping (lm-eval's task YAML: open-shaped, narrowed where read), ``{}``
    when it is too large, unreadable, not YAML or not a mapping."""
    try:
        if path.stat().st_size > _MAX_FILE:
            return {}
        data = yaml.load(path.read_text(encoding="utf-8", errors="replace"), Loader=_TaskLoader)  # noqa: S506
    except (OSError, yaml.YAMLError):
        return {}
    return data if isinstance(data, dict) else {}


def _merged(config: Mapping[str, object], base_dir: Path, depth: int = 0) -> Mapping[str, object]:
    """``config`` over the file its ``include:`` names (relative to ``base_dir``), recursively, as
    lm-eval merges them (the including file's keys win)."""
    include = config.get("include")
    if not isinstance(include, str) or depth > 10:
        return config
    target = Path(include) if Path(include).is_absolute() else base_dir / include
    parent = _merged(_read_yaml(target), target.parent, depth + 1)
    return {**parent, **{k: v for k, v in config.items() if k != "include"}}


def _ref(task: str, config: Mapping[str, object]) -> DatasetRef | None:
    path = config.get("dataset_path")
    if not isinstance(path, str) or not path:
        return None
    given = config.get("dataset_kwargs")
    kwargs: Mapping[str, object] = given if isinstance(given, dict) else {}
    name = config.get("dataset_name")
    data_dir, revision = kwargs.get("data_dir"), kwargs.get("revision")
    return DatasetRef(
        task=task,
        path=path,
        name=str(name) if name is not None else None,
        data_files=kwargs.get("data_files"),
        data_dir=data_dir if isinstance(data_dir, str) else None,
        revision=revision if isinstance(revision, str) else None,
    )


_INCLUDE = re.compile(r"""^["']?include["']?:[ \t]*["']?([^"'#\s]+)""", re.MULTILINE)


def _includers(path: Path, depth: int = 0) -> list[Path]:
    """Task files beside ``path`` whose ``include:`` names it, and theirs, recursively (a task inherits
    the tags of the file it includes: lm-eval's ``arc_challenge`` is in tag ``ai2_arc`` that way)."""
    if depth > 5:
        return []
    out: list[Path] = []
    for sibling in sorted(path.parent.iterdir()):
        if sibling == path or sibling.suffix not in _SUFFIXES or not sibling.is_file():
            continue
        try:
            if sibling.stat().st_size > _MAX_FILE:
                continue
            match = _INCLUDE.search(sibling.read_text(encoding="utf-8", errors="replace"))
        except OSError:
            continue
        if match and (path.parent / match.group(1)).resolve() == path.resolve():
            out += [sibling, *_includers(sibling, depth + 1)]
    return out


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value] if value is not None else []


def task_datasets(
    names: tuple[str, ...] | list[str], include_path: Path | None = None, root: Path | None = None
) -> tuple[list[DatasetRef], list[str]]:
    """``(datasets, unresolved)``: the datasets the tasks, groups and tags ``names`` load, read statically
    from the task files under ``include_path`` (first) and the installed lm-eval's (``root``). A group's
    ``task:`` list and a tag's tasks are followed; ``include:`` chains are merged. A task whose files give
    no ``dataset_path`` (a Python task class, or a name found nowhere) is listed in ``unresolved``: its
    data cannot be checked here, which is not a failure."""
    indexes = [_scan(include_path) if include_path else {}, task_index(root) or {}]
    refs: dict[str, DatasetRef] = {}
    unresolved: list[str] = []
    seen: set[str] = set()

    def leaf(task: str, config: Mapping[str, object]) -> bool:
        ref = _ref(task, config)
        if ref is not None:
            refs.setdefault(ref.key, ref)
        return ref is not None

    def member(item: Any, base_dir: Path) -> bool:
        if isinstance(item, str):
            return visit(item)
        if not isinstance(item, dict):
            return False
        config = _merged(item, base_dir)
        task = config.get("task")
        if isinstance(config.get("group"), str) and isinstance(task, list):
            found = [member(sub, base_dir) for sub in task]
            return any(found)
        if isinstance(task, str):
            return leaf(task, config) or visit(task)
        return False

    def visit(name: str) -> bool:
        if name in seen or len(refs) > 5000:
            return True
        seen.add(name)
        found = False
        for index in indexes:
            for path in index.get(name, ()):
                config = _merged(_read_yaml(path), path.parent)
                group, task = config.get("group"), config.get("task")
                if group == name and isinstance(task, list):
                    found = any([member(item, path.parent) for item in task]) or found
                elif task == name or name in _as_list(config.get("tag")) or group == name:
                    found = (isinstance(task, str) and leaf(task, config)) or found
                    if task != name:  # a tag: the tasks that include this file carry it too
                        for other in _includers(path):
                            sub = _merged(_read_yaml(other), other.parent)
                            sub_task = sub.get("task")
                            if name in _as_list(sub.get("tag")) and isinstance(sub_task, str):
                                found = leaf(sub_task, sub) or found
            if found:
                break
        return found

    for name in names:
        if not visit(name):
            unresolved.append(name)
    return list(refs.values()), unresolved
