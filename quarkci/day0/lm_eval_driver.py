"""One ``lm_eval.simple_evaluate`` call from a JSON request, its return value written as JSON.

Standard library and lm-eval only (it never imports quarkci), so that it runs in quarkci's environment
(imported by :mod:`quarkci.day0.evaluate`) and in the vLLM environment, which has ``lm-eval[api]`` for the
``local-completions`` model and none of quarkci's dependencies:

    PYTHON -I quarkci/day0/lm_eval_driver.py REQUEST.json RESULT.json

(``-I``: the script's directory is not put on ``sys.path``, so its sibling modules shadow nothing).
REQUEST: ``{"model", "model_args", "tasks", "num_fewshot", "batch_size", "include_path", "seed"}``.
RESULT: ``{"raw": <simple_evaluate's dict, samples included, JSON-safe>, "lm_eval_version",
"error": null | {"type", "message", "transient"}}``; exit 0 whenever RESULT was written.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any, TypedDict


class EvalRequest(TypedDict):
    """REQUEST: lm-eval's model name and ``model_args`` string, the tasks, ``num_fewshot`` (``None``:
    the task's), the batch size, the local task directory (``None``: none) and the seed."""

    model: str
    model_args: str
    tasks: list[str]
    num_fewshot: int | None
    batch_size: int
    include_path: str | None
    seed: int


class DriverError(TypedDict):
    """Why ``simple_evaluate`` raised: the exception's type, its message, whether it is transient."""

    type: str
    message: str
    transient: bool


class DriverResult(TypedDict):
    """RESULT: ``raw`` is ``simple_evaluate``'s own dict (open-shaped, as lm-eval returns it) or ``None``."""

    raw: dict[str, Any] | None
    lm_eval_version: str
    error: DriverError | None


OFFLINE_ENV = {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
_TRANSIENT_NAMES = ("Connect", "Timeout", "RetryError", "ServerDisconnected")


def evaluate(request: EvalRequest) -> dict[str, Any]:
    """Run ``simple_evaluate`` for ``request`` (offline, seeded with ``seed`` everywhere, bootstrap off,
    samples logged) and return its dict (lm-eval's, open-shaped). Raises what lm-eval raises."""
    for key, value in OFFLINE_ENV.items():
        os.environ.setdefault(key, value)
    from lm_eval import simple_evaluate
    from lm_eval.tasks import TaskManager

    include = request.get("include_path")
    manager = TaskManager(include_path=include) if include else TaskManager()
    seed = int(request.get("seed", 0))
    raw = simple_evaluate(
        model=request["model"],
        model_args=request["model_args"],
        tasks=list(request["tasks"]),
        num_fewshot=request.get("num_fewshot"),
        batch_size=request.get("batch_size"),
        task_manager=manager,
        log_samples=True,
        bootstrap_iters=0,
        random_seed=seed,
        numpy_random_seed=seed,
        torch_random_seed=seed,
        fewshot_random_seed=seed,
    )
    if raw is None:
        raise RuntimeError("lm-eval returned no results")
    return dict(raw)


def is_transient(exc: BaseException) -> bool:
    """True for a connection or timeout failure (the endpoint, not the model): worth one retry."""
    if isinstance(exc, ConnectionError | TimeoutError):
        return True
    chain = [exc, exc.__cause__, exc.__context__]
    return any(e is not None and any(n in type(e).__name__ for n in _TRANSIENT_NAMES) for e in chain)


def _plain(value: Any) -> Any:
    """A JSON form of what :func:`json.dump` cannot write: numpy scalars and arrays as numbers and
    lists, sets and tuples as lists, anything else (functions in task configs) as its ``str``."""
    for method in ("item", "tolist"):
        try:
            return getattr(value, method)()
        except (AttributeError, TypeError, ValueError):
            continue
    if isinstance(value, set | frozenset):
        return sorted(value, key=str)
    return str(value)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("lm_eval")
    except PackageNotFoundError:
        return "missing"


def main(argv: list[str]) -> int:
    """``REQUEST.json RESULT.json``: evaluate and write the result (exit 2 on bad arguments)."""
    if len(argv) != 2:
        print("usage: lm_eval_driver.py REQUEST.json RESULT.json", file=sys.stderr)
        return 2
    with open(argv[0], encoding="utf-8") as fh:
        request = json.load(fh)
    result: DriverResult = {"raw": None, "lm_eval_version": _version(), "error": None}
    try:
        result["raw"] = evaluate(request)
    except Exception as exc:  # reported in RESULT for the caller's run gate
        result["error"] = {
            "type": type(exc).__name__,
            "message": f"{type(exc).__name__}: {exc}"[:1000],
            "transient": is_transient(exc),
        }
    tmp = argv[1] + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(result, fh, default=_plain)
    os.replace(tmp, argv[1])
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
