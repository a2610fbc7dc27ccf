"""quarkci.core: the types and I/O every feature package shares. It imports no feature package.

* :mod:`~quarkci.core.errors`     the exit-code contract and the expected-failure exceptions;
* :mod:`~quarkci.core.atomic`     atomic file writes (temp file, fsync, rename);
* :mod:`~quarkci.core.findings`   ``Finding``, ``Location``, ``Fix`` and the kinds/changes vocabulary;
* :mod:`~quarkci.core.artifacts`  the artifact registry: each artifact's one producer, schema, fallback;
* :mod:`~quarkci.core.documents`  the one bounded document loader, the one JSON serialisation and the
  one artifact writer (``write_artifact(contract, path, document)``) / reader (``read_artifact``).

Feature packages (``upstream``, ``facts``, ``skills``, ``sync``, ``report``, ``github``, ``contracts``,
``router``, ``ptq``, ``gates``, ...) depend on the core, never the other way round.
"""
