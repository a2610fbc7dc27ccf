"""Report renderers: JSON v1 (frozen DTOs), Markdown (Jinja2), canonical lines, SARIF, GitHub annotations.

Every renderer takes the same finished :class:`~quarkci.sync.outcome.SyncOutcome`.
"""
