"""Expected failures and the exit-code contract.

Exit codes (see docs/architecture.md "Conventions"):

====  ==========================================================================
code  meaning
====  ==========================================================================
0     clean
1     findings at or above ``--fail-on``, or a failed gate
2     bad usage or bad input (one clear line on stderr)
3     upstream unreachable (a "blocked audit" report is still written)
4     internal error (a bug): one line plus where the traceback was logged
====  ==========================================================================

Commands raise a :class:`QuarkciError` subclass for every *expected* failure; the single
error boundary in :mod:`quarkci.cli` turns it into its exit code and one line on stderr.
"""

from __future__ import annotations

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_BAD_INPUT = 2
EXIT_UPSTREAM_UNREACHABLE = 3
EXIT_INTERNAL = 4


class QuarkciError(Exception):
    """Base of every expected failure. ``exit_code`` is what the CLI returns."""

    exit_code = EXIT_BAD_INPUT


class BadInputError(QuarkciError):
    """Malformed or missing user input (files, flags, specs). Exit 2."""

    exit_code = EXIT_BAD_INPUT


class UpstreamUnreachableError(QuarkciError):
    """The upstream (PyPI, a git checkout, the network) could not be reached. Exit 3."""

    exit_code = EXIT_UPSTREAM_UNREACHABLE


class GitHubError(QuarkciError):
    """A GitHub API call failed after retries (4xx validation, auth, exhausted retries). Exit 2."""

    exit_code = EXIT_BAD_INPUT


# How to install the ML extra, for every message that needs it: the torch build first (a plain
# torch==2.13.0 from PyPI is the CUDA build, several GB), then the extra (README, "Which torch").
ML_EXTRA_HINT = (
    "pip install --extra-index-url https://download.pytorch.org/whl/cpu 'torch==2.13.0+cpu' && "
    "pip install -e '.[ml]' (a GPU machine: its ROCm/CUDA torch instead; README 'Which torch')"
)
