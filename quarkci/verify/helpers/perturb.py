"""Negative control: run a harness with library ops perturbed; the harness's gate must then fail.

Usage: python perturb.py MODULE:FUNC[,MODULE:FUNC...] -- -m pytest ARGS...
       python perturb.py MODULE:FUNC[,...] -- path/to/script.py ARGS...
Each named function's tensor output is scaled by 1.05 and shifted by 0.01 before the caller sees it.
Prints ``PERTURBED calls=N`` on stderr at the end (N == 0 means the op was never reached: a broken
control, not a failing gate) and exits with the harness's exit code.
"""

import functools
import importlib
import os
import runpy
import sys
from typing import Any

CALLS = [0]


def perturbed(fn: Any) -> Any:
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        out = fn(*args, **kwargs)
        CALLS[0] += 1
        try:
            return out * 1.05 + 0.01
        except TypeError:
            return out

    return wrapper


def main(argv: list[str]) -> int:
    if "--" not in argv or argv.index("--") != 1:
        print("usage: perturb.py MODULE:FUNC[,...] -- HARNESS ARGS...", file=sys.stderr)
        return 2
    sys.path.insert(0, os.getcwd())
    for spec in argv[0].split(","):
        module_name, _, name = spec.partition(":")
        module = importlib.import_module(module_name)
        setattr(module, name, perturbed(getattr(module, name)))
    harness = argv[2:]
    code: Any = 0
    try:
        if harness[:2] == ["-m", "pytest"]:
            import pytest

            code = pytest.main(harness[2:])
        else:
            sys.argv = harness
            runpy.run_path(harness[0], run_name="__main__")
    except SystemExit as exc:
        code = exc.code
    finally:
        print(f"PERTURBED calls={CALLS[0]}", file=sys.stderr)
    return int(code) if isinstance(code, int) else (0 if code is None else 1)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
