"""Ctrl-C: every command stops with one line in the reader's language and exit status 130
(128 + SIGINT, what a shell reports for a program the signal stopped), never a traceback.

Nothing is left half written: every file goes through :func:`companion.files.write_atomic`
(a temporary file renamed over the name, removed when interrupted) and every game into the
journal in one transaction. A terminal's Ctrl-C reaches the whole process group, so the
worker processes of a pool ignore it (:func:`worker_pool`): their parent stops them.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from multiprocessing.pool import Pool

from .i18n import _

EXIT_INTERRUPTED = 130  # 128 + SIGINT


def stopped() -> int:
    """Say that Ctrl-C stopped the command (on standard error), and its exit status."""
    # Standard error closed: the status says it all the same.
    with contextlib.suppress(OSError, ValueError):
        print(_("Stopped (Ctrl-C): nothing was left half written."), file=sys.stderr, flush=True)
    return EXIT_INTERRUPTED


def _ignore_interrupt() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def worker_pool(workers: int) -> Iterator[Pool]:
    """A pool of ``workers`` processes deaf to Ctrl-C, ended at once (``terminate``) when
    the block is left, whether it finished or was interrupted."""
    pool = multiprocessing.Pool(workers, initializer=_ignore_interrupt)
    try:
        yield pool
    finally:
        pool.terminate()
        pool.join()
