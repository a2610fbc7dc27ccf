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
"""

from __future__ import annotations

import functools
import importlib.metadata
import re
from pathlib import Path

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


@functools.cache
def known_tasks(root: Path | None = None) -> frozenset[str] | None:
    """Every task, group and tag name in the lm-eval task files under ``root`` (default:
    :func:`tasks_dir`); None when lm-eval is not installed. Files over 1 MiB or unreadable are skipped."""
    root = root or tasks_dir()
    if root is None:
        return None
    names: set[str] = set()
    for path in root.rglob("*"):
        if path.suffix not in _SUFFIXES or not path.is_file():
            continue
        try:
            if path.stat().st_size > _MAX_FILE:
                continue
            names |= _names_in(path.read_text(encoding="utf-8", errors="replace"))
        except OSError:
            continue
    return frozenset(names)
