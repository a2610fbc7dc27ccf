"""quarkci.router: a user goal -> the smallest Quark skill that fits -> ``session_context.json``.

``route(goal, ...)`` builds the document (schema-valid, see quarkci/contracts); ``write`` writes it
atomically. The router is the one producer of session_context.
"""

from quarkci.router.session import RouteResult, route, write

__all__ = ["RouteResult", "route", "write"]
