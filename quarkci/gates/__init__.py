"""Release gates: pure functions from a stage's evidence (JSON) to one verdict
(:class:`~quarkci.gates.verdict.Verdict`).

One module per gate, each with ``ID``, its defaults (``DEFAULT_*``, which the commands import) and
``evaluate(...) -> Verdict`` that never raises: ``ptq`` (a validation summary), ``compare`` (two evals'
records, :mod:`quarkci.gates.records`), ``verbosity`` (two evals' completion-token counts) and ``run``
(one eval's completeness). The closed set of failure classes, their priority and triage actions live in
:mod:`quarkci.gates.failure_class`. Commands only read input and map the verdict to an exit code (0 pass,
1 gate failed, 2 unreadable input).
"""
