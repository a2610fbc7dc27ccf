"""quarkci.sync: audit skills' claims against an upstream release's facts.

Data flows one way, one module per step:

* :mod:`~quarkci.sync.state`     ``AuditState`` / ``UpstreamView``: what every rule reads;
* :mod:`~quarkci.sync.rules`     one module per drift rule (``ID``, ``DESC``, ``CATEGORY``, ``check``);
* :mod:`~quarkci.sync.registry`  the explicit, ordered rule list;
* :mod:`~quarkci.sync.audit`     run the rules (a crash is a ``RuleError`` tagged with the rule id);
* :mod:`~quarkci.sync.policy`    classify (change -> kind), config overrides, ignores, exit threshold;
* :mod:`~quarkci.sync.baseline`  calibration files and the release diff mapped to skills;
* :mod:`~quarkci.sync.fixer`     apply mechanical fixes atomically and idempotently;
* :mod:`~quarkci.sync.outcome`   the finished result the ``quarkci.report`` renderers take;
* :mod:`~quarkci.sync.run`       the use case: ``run_sync(SyncRequest) -> SyncResult`` (checks, then all the above).
"""
