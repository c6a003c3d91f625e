"""A database outage reads as one warning line and one line when it ends; every further
failure, and any traceback, only at DEBUG (storage/outage.py)."""

from __future__ import annotations

import logging

import pytest

from storage.outage import POOL_LOGGER, OutageLog, quiet_asyncpg_pool


def _lines(caplog: pytest.LogCaptureFixture, level: int) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno == level]


def test_an_outage_is_one_warning_and_one_line_when_it_ends(caplog):
    caplog.set_level(logging.DEBUG, logger="storage.outage")
    now = [100.0]
    outage = OutageLog(clock=lambda: now[0])
    outage.succeeded()  # nothing was away: nothing to say
    for n in range(3):
        try:
            raise ConnectionResetError(f"connection reset\nby peer {n}")
        except ConnectionResetError as exc:
            outage.failed("write not saved", exc)
        now[0] += 2.5
    assert outage.down
    outage.succeeded()
    outage.succeeded()
    assert not outage.down

    warnings = _lines(caplog, logging.WARNING)
    assert [r.getMessage() for r in warnings] == [
        "database unavailable (write not saved): connection reset by peer 0",
        "database available again after 7.5 s (3 writes failed meanwhile)",
    ]
    assert not any(r.exc_info for r in warnings)  # no traceback above DEBUG
    debug = _lines(caplog, logging.DEBUG)
    assert len(debug) == 3 and all(r.exc_info for r in debug)  # each failure, in full


def test_a_second_outage_is_told_again(caplog):
    caplog.set_level(logging.WARNING, logger="storage.outage")
    outage = OutageLog(clock=lambda: 0.0)
    for _ in range(2):
        outage.failed("write not saved", OSError("gone"))
        outage.succeeded()
    assert len(_lines(caplog, logging.WARNING)) == 4


def test_asyncpg_pool_reconnect_tracebacks_go_to_debug(caplog):
    caplog.set_level(logging.DEBUG)
    quiet_asyncpg_pool()
    quiet_asyncpg_pool()  # once is enough
    pool_log = logging.getLogger(POOL_LOGGER)
    try:
        raise ConnectionResetError("reset")
    except ConnectionResetError:
        pool_log.warning("Failed to restore the pool connection floor; retrying", exc_info=True)
    pool_log.warning("a warning without a traceback")
    warnings = _lines(caplog, logging.WARNING)
    assert [r.getMessage() for r in warnings] == ["a warning without a traceback"]
    [moved] = [r for r in _lines(caplog, logging.DEBUG) if "connection floor" in r.getMessage()]
    assert moved.exc_info is not None
