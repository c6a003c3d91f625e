"""Waiting in tests without betting on timing: a condition polled until it holds, bounded by a
generous wall-clock guard that only a hang reaches (a loaded machine is slow, never wrong)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

T = TypeVar("T")

HANG_GUARD_SECONDS = 60.0


async def until(
    condition: Callable[[], Any],
    what: str,
    *,
    poll: float = 0.002,
    guard: float = HANG_GUARD_SECONDS,
) -> Any:
    """``condition()``'s first truthy value; AssertionError if ``guard`` seconds pass first."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + guard
    while not (value := condition()):
        if loop.time() > give_up:
            raise AssertionError(f"never happened within {guard:.0f} s: {what}")
        await asyncio.sleep(poll)
    return value


async def within_guard(awaitable: Awaitable[T], guard: float = HANG_GUARD_SECONDS) -> T:
    """``awaitable``'s result, bounded against a hang only."""
    return await asyncio.wait_for(awaitable, guard)


async def computer_idle(service: Any, table_id: int) -> None:
    """Until the table's computer-turn loop has ended (``bot/service/cpu.py``: one task per
    table, named ``cpu-<table id>``), including a loop it started again before ending."""
    name = f"cpu-{table_id}"
    while service.cpu.tasks_running(table_id):
        [task] = [t for t in service.cpu.tasks() if t.get_name() == name]
        await asyncio.wait({task})
