"""The PTQ workflow on real amd-quark: intake -> plan -> manifest -> confirmed run -> validate -> gate.

Modules, in the order data flows: :mod:`~quarkci.ptq.demo` (the embedded demo model),
:mod:`~quarkci.ptq.headers` (static checkpoint view), :mod:`~quarkci.ptq.quark_static` (the installed
Quark's schemes/templates/group sizes read with ``ast``: what intake and plan need, no ``import quark``),
:mod:`~quarkci.ptq.quark_api` (the one import of ``quark.torch``, for run and validate),
:mod:`~quarkci.ptq.intake`, :mod:`~quarkci.ptq.plan` (with :mod:`~quarkci.ptq.evidence`: schemes the
tests saw fail per device and release), :mod:`~quarkci.ptq.manifest` (also the data-safety checks),
:mod:`~quarkci.ptq.runner`, :mod:`~quarkci.ptq.validate` (with :mod:`~quarkci.ptq.export_checks`),
:mod:`~quarkci.ptq.markdown`; :mod:`~quarkci.ptq.chain` runs them all as one typed call. The gate is
:mod:`quarkci.gates.ptq`. The documents they hand on are typed dictionaries that follow their contracts:
:mod:`~quarkci.ptq.doc_types` (analysis, plan, manifest, run result) and
:mod:`~quarkci.ptq.summary_types` (the validation summary).
"""
