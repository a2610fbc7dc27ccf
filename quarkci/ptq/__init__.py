"""The PTQ workflow on real amd-quark: intake -> plan -> manifest -> confirmed run -> validate -> gate.

Modules, in the order data flows: :mod:`~quarkci.ptq.demo` (the embedded demo model),
:mod:`~quarkci.ptq.headers` (static checkpoint view), :mod:`~quarkci.ptq.quark_api` (the one import
of ``quark.torch``), :mod:`~quarkci.ptq.intake`, :mod:`~quarkci.ptq.plan`,
:mod:`~quarkci.ptq.manifest`, :mod:`~quarkci.ptq.runner`, :mod:`~quarkci.ptq.validate`. The gate is
:mod:`quarkci.gates.ptq`.
"""
