"""How a database outage reads in the operator's log: one warning line when the database goes
away, one line when it is back (how long, how many writes failed meanwhile), and the details
(each further failure, tracebacks) at DEBUG only.

The writer reports each write's fate here (``failed`` / ``succeeded``); asyncpg's pool logs a
traceback at WARNING each time it cannot restore its connection floor during an outage: that
record is logged again at DEBUG instead (``quiet_asyncpg_pool``).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

log = logging.getLogger(__name__)

POOL_LOGGER = "asyncpg.pool"


class OutageLog:
    """Whether the database is known away, and the lines saying so (thread-safe: the writer
    thread reports here)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._down_since: float | None = None
        self._failures = 0

    @property
    def down(self) -> bool:
        return self._down_since is not None

    def failed(self, what: str, cause: BaseException) -> None:
        """``what`` failed because the database is unavailable (``cause``)."""
        with self._lock:
            first = self._down_since is None
            if first:
                self._down_since, self._failures = self._clock(), 0
            self._failures += 1
        if first:
            log.warning("database unavailable (%s): %s", what, _one_line(cause))
        log.debug("database unavailable (%s)", what, exc_info=cause)

    def succeeded(self) -> None:
        """The database answered: if it was away, say it is back."""
        if self._down_since is None:  # (the common case, without the lock)
            return
        with self._lock:
            since, failures = self._down_since, self._failures
            self._down_since, self._failures = None, 0
        if since is not None:
            log.warning(
                "database available again after %.1f s (%d writes failed meanwhile)",
                self._clock() - since,
                failures,
            )


def _one_line(cause: BaseException) -> str:
    text = " ".join(str(cause).split()) or type(cause).__name__
    return text if len(text) <= 200 else text[:199] + "…"


class _PoolTracebacksToDebug(logging.Filter):
    """asyncpg's pool warns with a traceback when it cannot reconnect: logged at DEBUG."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno != logging.WARNING or not record.exc_info:
            return True
        log.debug("asyncpg pool: %s", record.getMessage(), exc_info=record.exc_info)
        return False


def quiet_asyncpg_pool() -> None:
    """Install the filter on asyncpg's pool logger (once)."""
    pool_log = logging.getLogger(POOL_LOGGER)
    if not any(isinstance(f, _PoolTracebacksToDebug) for f in pool_log.filters):
        pool_log.addFilter(_PoolTracebacksToDebug())
