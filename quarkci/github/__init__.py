"""Deliver findings on GitHub with PyGithub, idempotently.

Modules, in the order data flows through them:

* :mod:`~quarkci.github.report_input`  read ``validation_report.json`` and the files ``--fix`` changed;
* :mod:`~quarkci.github.client`        token/API/repo resolution, retry policy, error mapping;
* :mod:`~quarkci.github.markers`      the hidden markers (untrusted text is escaped by the one
  Markdown escaper, :mod:`quarkci.core.escape`); :mod:`~quarkci.github.fit` the 65,536-character limit;
* :mod:`~quarkci.github.pr`, :mod:`~quarkci.github.issues`, :mod:`~quarkci.github.comment`,
  :mod:`~quarkci.github.dispatch`      one module per delivery: a pure ``decide_*`` function and the
  API helpers that read state and perform the writes;
* :mod:`~quarkci.github.result`        the ``created | updated | unchanged | closed | commented`` result.
"""
