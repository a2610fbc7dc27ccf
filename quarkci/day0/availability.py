"""Are the suite's datasets there? The day-0 setup gate's dataset check (SYSTEMIC before any stage runs).

The evals run offline (:data:`quarkci.day0.evaluate.OFFLINE_ENV` is set unless the runner set those
variables itself), so a task whose dataset is neither local nor in the Hugging Face datasets cache cannot
run: without this check the chain found out after PTQ and the canary, minutes later, and retried the
offline error as if it were transient.

For each task of the suite, :func:`quarkci.day0.lm_eval_tasks.task_datasets` finds the dataset it loads
(statically, from the task files); each distinct dataset is then resolved the way lm-eval loads it,
with ``datasets.load_dataset_builder(path, name, data_files=..., data_dir=..., revision=...)`` under the
eval's offline settings: that finds local files, a local directory or a cached Hub dataset (the
datasets library falls back to its cache when the Hub is offline) and raises otherwise. Nothing is
downloaded offline; nothing is prepared (no Arrow files are written). A task whose dataset cannot be
read from its task files (a Python task class) is reported as not checked, not as missing.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from quarkci.day0.lm_eval_tasks import DatasetRef, task_datasets
from quarkci.day0.shapes import DatasetCheck, UnavailableDataset
from quarkci.day0.suite import Suite


@dataclass(frozen=True)
class Availability:
    """The outcome: datasets ``checked``, those ``unavailable`` (``(ref, reason)``), tasks ``not_checked``."""

    checked: int
    unavailable: list[tuple[DatasetRef, str]] = field(default_factory=list)
    not_checked: list[str] = field(default_factory=list)

    def to_json(self) -> DatasetCheck:
        """The setup stage's ``datasets`` output."""
        return {
            "checked": self.checked,
            "unavailable": [
                UnavailableDataset(task=r.task, dataset=str(r), reason=why) for r, why in self.unavailable
            ],
            "not_checked": self.not_checked,
        }


def _reason(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return f"{type(exc).__name__}: {text[:300]}"


def check_suite(suite: Suite) -> Availability:
    """Check every dataset the suite's tasks load (see the module docstring). Needs the ``datasets``
    library (lm-eval's dependency); sets the eval's offline variables where the runner has not."""
    from quarkci.day0.evaluate import OFFLINE_ENV

    for key, value in OFFLINE_ENV.items():
        os.environ.setdefault(key, value)
    refs, not_checked = task_datasets(suite.tasks, suite.include_path)
    import datasets
    from datasets.utils import logging as ds_logging

    verbosity = ds_logging.get_verbosity()
    ds_logging.set_verbosity_error()  # "using the cached version" warnings are not findings
    unavailable: list[tuple[DatasetRef, str]] = []
    try:
        for ref in refs:
            try:
                datasets.load_dataset_builder(
                    ref.path,
                    ref.name,
                    data_files=ref.data_files,
                    data_dir=ref.data_dir,
                    revision=ref.revision,
                )
            except Exception as exc:  # not there (offline, no cache, missing file): a value, not a crash
                unavailable.append((ref, _reason(exc)))
    finally:
        ds_logging.set_verbosity(verbosity)
    return Availability(len(refs), unavailable, not_checked)
