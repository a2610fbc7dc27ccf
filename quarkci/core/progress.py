"""Progress while one long step runs: :func:`heartbeat` says ``<what>: still running (Ns)`` every
:data:`EVERY` seconds until the step ends, so no step of a command is silent for more than ~10 s
(the Quark import, an export's reload and behaviour probe, a ``verify prove`` drive, ...).

Lines go to the caller's ``say`` (the day-0 conductor's progress printer, or :func:`stderr`), from a
daemon thread that only sleeps and prints; the step itself runs undisturbed in the calling thread.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

EVERY = 10.0  # seconds between two progress lines of one step

Say = Callable[[str], None]


def stderr(prefix: str = "quarkci") -> Say:
    """A ``say`` that prints ``<prefix>: <message>`` to stderr, flushed."""
    return lambda message: print(f"{prefix}: {message}", file=sys.stderr, flush=True)


@contextmanager
def heartbeat(say: Say | None, what: str, every: float | None = None) -> Iterator[None]:
    """Run the ``with`` body; while it runs, ``say(f"{what}: still running ({elapsed:.0f}s)")`` every
    ``every`` seconds (default :data:`EVERY`, read at each call); none for a body that ends sooner.
    ``say=None`` prints nothing. The thread is stopped, and joined, when the body ends or raises."""
    period = EVERY if every is None else every
    if say is None:
        yield
        return
    stop = threading.Event()
    started = time.perf_counter()

    def beat() -> None:
        while not stop.wait(period):
            say(f"{what}: still running ({time.perf_counter() - started:.0f}s)")

    thread = threading.Thread(target=beat, name=f"quarkci-heartbeat-{what}"[:60], daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()
