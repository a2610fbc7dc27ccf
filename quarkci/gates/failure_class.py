"""Moved to :mod:`quarkci.core.failure_class` (the shared core); kept as an alias for old imports."""

from quarkci.core.failure_class import ACTIONS, PRIORITY, FailureClass, most_actionable

__all__ = ["ACTIONS", "PRIORITY", "FailureClass", "most_actionable"]
