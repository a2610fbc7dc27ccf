"""Eval suites: the local demo suite (written by the package, fully offline) and standard task names.

The demo suite fits the embedded demo model (:mod:`quarkci.ptq.demo`: single-digit addition):

* ``quarkci_addition_mc`` (``output_type: multiple_choice``, loglikelihood): the prompt ``a + b =``
  with four candidate sums; :data:`MC_VARIANTS` distractor sets per problem, so
  ``100 * MC_VARIANTS`` items. Metric ``acc`` (0-1).
* ``quarkci_addition_gen`` (``output_type: generate_until``): greedy continuation of ``a + b =``,
  exact match on the digits (whitespace ignored). 100 items. Metric ``exact_match`` (0-1); its
  completions feed the verbosity gate.

Statistical power: lm-eval reports the standard error of a mean metric as ``sqrt(var / n)``. At an
accuracy of 100 % both are 0; one missed problem out of 100 costs the MC task ``MC_VARIANTS`` items
(0.99 accuracy, stderr ~0.003 at 1,000 items) and the generate task one item (0.99, stderr 0.0099,
not below 0.01: INDETERMINATE, the honest answer for 100 items). The MC variants reuse the same 100
problems with different distractors, so they are not independent draws: their stderr is a
lower bound on the problem-level uncertainty (said in every report through ``SUITE_NOTE``).

Files are plain YAML (``dataset_path: json`` + ``data_files``) over JSON-lines data the package
writes; lm-eval loads them with ``TaskManager(include_path=DIR)`` and no network.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass
from pathlib import Path

from quarkci.core.atomic import atomic_write_text
from quarkci.core.errors import BadInputError

DEMO_SUITE = "demo"
MC_TASK = "quarkci_addition_mc"
GEN_TASK = "quarkci_addition_gen"
MC_VARIANTS = 10
MAX_GEN_TOKENS = 4
SUITE_NOTE = (
    f"demo suite: {MC_TASK} = 100 addition problems x {MC_VARIANTS} distractor sets (items share "
    f"problems, so its stderr is a lower bound); {GEN_TASK} = the 100 problems, greedy"
)
# standard lm-eval task names accepted for GPU runners (any name lm-eval knows also works there)
STANDARD_SUITES: dict[str, tuple[str, ...]] = {
    "standard": ("gsm8k", "mmlu", "arc_challenge", "hellaswag"),
    "quick": ("arc_easy", "piqa"),
}


@dataclass(frozen=True)
class Suite:
    """A resolved eval suite: task names, the include path (local YAML) or ``None``, generate tasks,
    the primary metric per task, and a content hash of the task configuration."""

    name: str
    tasks: tuple[str, ...]
    include_path: Path | None
    generate_tasks: tuple[str, ...]
    metrics: dict[str, str]
    config_hash: str


def _problems() -> list[tuple[int, int]]:
    return [(a, b) for a in range(10) for b in range(10)]


def _digits(n: int) -> str:
    return " ".join(str(n))


def mc_items() -> list[dict[str, object]]:
    """The multiple-choice items: ``{"question", "choices" (4 strings), "label" (index)}``,
    deterministic (seeded), ``100 * MC_VARIANTS`` of them."""
    rng = random.Random(20261130)
    items: list[dict[str, object]] = []
    for variant in range(MC_VARIANTS):
        for a, b in _problems():
            answer = a + b
            # no distractor that is a prefix of the answer or has it as a prefix ("1" vs "1 5"): the
            # shorter string would win on summed loglikelihood whatever the model knows
            pool = [
                s for s in range(19) if not (str(s).startswith(str(answer)) or str(answer).startswith(str(s)))
            ]
            wrong = rng.sample(pool, 3)
            choices = [answer, *wrong]
            rng.shuffle(choices)
            items.append(
                {
                    "question": f"{a} + {b} =",
                    "choices": [_digits(c) for c in choices],
                    "label": choices.index(answer),
                    "variant": variant,
                }
            )
    return items


def gen_items() -> list[dict[str, object]]:
    """The generate items: ``{"question", "answer"}`` for the 100 problems."""
    return [{"question": f"{a} + {b} =", "answer": _digits(a + b)} for a, b in _problems()]


def _jsonl(rows: list[dict[str, object]]) -> str:
    return "".join(json.dumps(r, sort_keys=True) + "\n" for r in rows)


def _mc_yaml(data: Path) -> str:
    return f"""task: {MC_TASK}
dataset_path: json
dataset_kwargs:
  data_files:
    test: {json.dumps(str(data))}
test_split: test
output_type: multiple_choice
doc_to_text: "{{{{question}}}}"
doc_to_choice: "{{{{choices}}}}"
doc_to_target: label
target_delimiter: " "
metric_list:
  - metric: acc
    aggregation: mean
    higher_is_better: true
metadata:
  version: 1.0
"""


def _gen_yaml(data: Path) -> str:
    return f"""task: {GEN_TASK}
dataset_path: json
dataset_kwargs:
  data_files:
    test: {json.dumps(str(data))}
test_split: test
output_type: generate_until
doc_to_text: "{{{{question}}}}"
doc_to_target: answer
target_delimiter: " "
generation_kwargs:
  until: ["</s>", "\\n"]
  do_sample: false
  max_gen_toks: {MAX_GEN_TOKENS}
metric_list:
  - metric: exact_match
    aggregation: mean
    higher_is_better: true
    ignore_case: true
    regexes_to_ignore: [" "]
metadata:
  version: 1.0
"""


def write_demo_suite(directory: str | Path) -> Suite:
    """Write the demo suite's YAML tasks and JSON-lines data under ``directory`` (created; files
    rewritten atomically, identical bytes each time) and return the resolved :class:`Suite`."""
    root = Path(directory).resolve()
    mc_data, gen_data = root / f"{MC_TASK}.jsonl", root / f"{GEN_TASK}.jsonl"
    files = {
        mc_data: _jsonl(mc_items()),
        gen_data: _jsonl(gen_items()),
        root / f"{MC_TASK}.yaml": _mc_yaml(mc_data),
        root / f"{GEN_TASK}.yaml": _gen_yaml(gen_data),
    }
    for path, text in files.items():
        atomic_write_text(path, text)
    digest = hashlib.sha256()
    for path in sorted(files):  # content only: the directory the suite sits in does not change the hash
        digest.update(path.name.encode() + b"\0" + files[path].replace(str(root), "<suite>").encode() + b"\0")
    return Suite(
        DEMO_SUITE,
        (MC_TASK, GEN_TASK),
        root,
        (GEN_TASK,),
        {MC_TASK: "acc", GEN_TASK: "exact_match"},
        digest.hexdigest(),
    )


def check_tasks(spec: str, known: frozenset[str] | None | bool = True) -> tuple[str, ...]:
    """The task names ``spec`` (a ``--tasks`` value) stands for, checked without importing lm-eval.

    ``demo`` -> the local suite's tasks; a name of :data:`STANDARD_SUITES` -> its tasks; else a
    comma-separated list, each name checked against the installed lm-eval's task, group and tag names
    (:func:`quarkci.day0.lm_eval_tasks.known_tasks`, read statically from its task files; ``known``
    replaces that set, True reads it, None means "lm-eval not installed": then only the naming
    pattern is checked). Raises :class:`BadInputError` naming ``--tasks`` for an empty or malformed
    spec or a name lm-eval does not know (with the closest known names).
    """
    text = spec.strip()
    if text == DEMO_SUITE:
        return (MC_TASK, GEN_TASK)
    if text in STANDARD_SUITES:
        return STANDARD_SUITES[text]
    names = tuple(t.strip() for t in text.split(",") if t.strip())
    if (
        not names
        or len(names) > 100
        or any(
            not t.replace("_", "").replace("-", "").replace(".", "").isalnum() or len(t) > 100 for t in names
        )
    ):
        raise BadInputError(
            f"--tasks: {spec[:120]!r} is not 'demo', a suite name ({', '.join(STANDARD_SUITES)}) "
            "or a comma-separated list of lm-eval task names"
        )
    if known is True:
        from quarkci.day0.lm_eval_tasks import known_tasks

        known = known_tasks()
    if isinstance(known, frozenset):
        unknown = [t for t in names if t not in known]
        if unknown:
            import difflib

            near = difflib.get_close_matches(unknown[0], sorted(known), n=3, cutoff=0.75)
            hint = f" (closest: {', '.join(near)})" if near else ""
            raise BadInputError(
                f"--tasks: {', '.join(unknown[:5])}: not 'demo', a suite name "
                f"({', '.join(STANDARD_SUITES)}) or a task, group or tag the installed lm-eval "
                f"knows{hint}"
            )
    return names


def resolve_suite(spec: str, directory: str | Path, known: frozenset[str] | None | bool = True) -> Suite:
    """``demo`` -> the local suite written under ``directory``; a name of :data:`STANDARD_SUITES` or a
    comma-separated list of lm-eval task names -> those tasks (checked by :func:`check_tasks`; generate
    tasks unknown up front, metrics read from the results).

    Raises :class:`BadInputError` (``--tasks``) for an empty or malformed spec or an unknown task.
    """
    text = spec.strip()
    names = check_tasks(text, known)
    if text == DEMO_SUITE:
        return write_demo_suite(directory)
    digest = hashlib.sha256(",".join(sorted(names)).encode()).hexdigest()
    return Suite(text, tuple(names), None, (), {}, digest)
