"""The one home of every registered document's shape: a TypedDict per artifact of
:data:`quarkci.core.artifacts.ARTIFACTS` (named after the artifact in CamelCase: ``run_result`` ->
``RunResult``) and one per nested object, each following its contract in ``quarkci/core/schemas/``.

One module per document family (this ``__init__`` imports none of them):

* :mod:`~quarkci.core.shapes.session`: ``session_context``, ``env_context``, ``workspace_context``,
  ``pytorch_install_result``, ``quark_install_result``;
* :mod:`~quarkci.core.shapes.ptq`: ``model_analysis``, ``quant_plan``, ``run_manifest``, ``run_result``;
* :mod:`~quarkci.core.shapes.summary`: ``validation_summary``;
* :mod:`~quarkci.core.shapes.report`: ``validation_report`` (Quark's keys);
* :mod:`~quarkci.core.shapes.proof`: ``verify_proof``;
* :mod:`~quarkci.core.shapes.day0`: ``day0_result`` (with the PTQ gate's behaviour probe, which the
  gate's verdict also carries).

How a shape follows its contract (``tests/test_core_shapes.py`` checks the first three):

* a key the contract requires is a plain key, every other one ``NotRequired`` (a document read back
  through its contract is only guaranteed what the contract requires);
* every key is one the contract defines (``properties``, or ``required`` where it names a key without
  typing it), or a key quarkci writes into an object the contract leaves open, marked
  :data:`~quarkci.core.shapes.marks.Extension`;
* a closed object (``additionalProperties: false``) has every property typed;
* a value that is another registered document is that document's shape (``validation_summary.run``);
  a value whose shape is a feature package's own (``day0_result.canary``: the canary's verdict,
  ``verbosity``: a gate verdict) is ``Mapping[str, object]`` here, since core imports no feature package;
* enum-valued keys are ``str`` unless the producer's ``Literal`` is narrower; a JSON ``null`` is
  ``None``. What a TypedDict cannot say (patterns, lengths, ``if``/``then``) stays the contract's.

Shapes that are no registered document (a gate's verdict and its rows, the day-0 chain's state, an eval
result) stay in their feature package. No module here uses ``from __future__ import annotations``: a
class-based TypedDict reads ``NotRequired`` from its evaluated annotations, and under postponed
evaluation Python 3.11 counts every key as required (``__required_keys__``).
"""
