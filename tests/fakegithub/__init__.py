"""A stateful fake of the GitHub REST API for testing ``quarkci gh``, on 127.0.0.1 only.

It serves exactly the endpoints PyGithub calls for ``quarkci gh pr|issues|comment|dispatch``
(the list is ``OPERATIONS`` in ``scripts/trim_openapi.py``), with GitHub's semantics (see
:mod:`tests.fakegithub.server`), and validates every request and response against GitHub's
official OpenAPI description (:mod:`tests.fakegithub.openapi`, subset ``openapi_subset.json`` of
``@octokit/openapi`` 23.0.2). Mismatches are collected in ``FakeGitHub.violations``.

In-process use (tests)::

    from tests.fakegithub import FakeGitHub, seeded
    with FakeGitHub(seeded(token="t")) as gh:
        ...  # GITHUB_API_URL=gh.url GITHUB_TOKEN=t GITHUB_REPOSITORY=octo/skills quarkci gh ...
        gh.sequence(), gh.writes(), gh.violations, gh.state

Standalone process (e.g. for ``act`` end-to-end runs)::

    python -m tests.fakegithub --port 0 --state FILE --print-url [--token TOKEN] [--repo owner/name]
                               [--faults FAULTS.json]

* ``--port``    TCP port on 127.0.0.1 (0 = any free port; default 0).
* ``--state``   JSON state file: loaded at start if it exists (else a seeded repository is written
  to it), rewritten atomically after every successful write request, so a test can read the
  final state after the server exits.
* ``--print-url`` print the base URL (``http://127.0.0.1:PORT``) as the first stdout line, flushed,
  once the server accepts connections; use it as ``GITHUB_API_URL``.
* ``--token``   the token accepted (default ``fake-token``; seeded state only). Any other -> 401.
* ``--repo``    ``owner/name`` of the seeded repository (default ``octo/skills``).
* ``--faults``  a JSON list of faults (``{"kind": "502", "method": "POST", "path": "/pulls$",
  "times": 1, "skip": 0, "delay": 1.0}``; kinds in ``server.FAULT_KINDS``).

Control endpoints (not GitHub's, never validated): ``GET /_fake/state``, ``GET /_fake/calls``,
``GET /_fake/violations``, ``POST /_fake/faults`` (JSON list, replaces the faults),
``POST /_fake/clear-calls``. The process stops on SIGTERM or SIGINT, exit code 0.
"""

from tests.fakegithub.server import Call, FakeGitHub, Fault
from tests.fakegithub.state import RepoState, seeded

__all__ = ["Call", "FakeGitHub", "Fault", "RepoState", "seeded"]
