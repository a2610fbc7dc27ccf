"""Release gates: pure functions from a JSON summary to ``{pass, failure_class, detail, checks}``.

One module per gate (``ptq``); the closed set of failure classes and its triage table live in
:mod:`quarkci.gates.failure_class`. CLI wrappers only read input and map the verdict to an exit
code (0 pass, 1 gate failed, 2 unreadable input).
"""
