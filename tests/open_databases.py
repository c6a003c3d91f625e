"""A red test run ends promptly: a pytest hook that stops the database threads a failed test
left running.

A test that fails before it closes its database leaves the read connection's thread alive
(aiosqlite's worker thread is not a daemon: the interpreter waits for it at exit, and it waits
forever for work that never comes), so pytest would print its report and then hang until the CI
limit. At the end of the session this finds every aiosqlite connection still open and stops its
thread (``Connection.stop``: closes the sqlite3 connection and ends the thread, no event loop
needed). It runs after every test has finished, so it never closes anything a test still uses;
nothing here touches the bot's own shutdown, whose writer commits before it answers (crash
safety does not depend on threads outliving the interpreter).
"""

from __future__ import annotations

import gc
import warnings

import aiosqlite
import pytest

from tests.waiting import HANG_GUARD_SECONDS


def stop_open_sqlite_connections() -> int:
    """Stop the thread of every aiosqlite connection still open; how many there were."""
    stopped = 0
    for obj in gc.get_objects():
        if isinstance(obj, aiosqlite.Connection) and obj._thread.is_alive():
            with warnings.catch_warnings():  # stop() looks for an event loop; there is none
                warnings.simplefilter("ignore")
                obj.stop()
            obj._thread.join(timeout=HANG_GUARD_SECONDS)
            stopped += 1
    return stopped


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    stop_open_sqlite_connections()
