"""Issue 25: the bot's worker pools (images, computer searches) run below the bot's own OS
priority, so on a busy machine its event loop (acks, the mover's view) gets the CPU first."""

from __future__ import annotations

import os

import pytest

from bot.pipe_workers import PipeWorkers, create_workers
from bot.settings import WORKER_NICENESS, Settings
from bot.workers import Workers, lower_priority


def _niceness() -> int:
    return os.nice(0)


@pytest.mark.parametrize("kind", [PipeWorkers, Workers])
async def test_a_pools_workers_run_niceness_below_the_bot(kind):
    ours = os.nice(0)
    workers = kind(1, niceness=3)
    try:
        assert await workers.run(_niceness) == min(ours + 3, 19)
    finally:
        workers.shutdown()


@pytest.mark.parametrize("kind", [PipeWorkers, Workers])
async def test_a_pool_without_niceness_keeps_the_bots_priority(kind):
    workers = kind(1)
    try:
        assert await workers.run(_niceness) == os.nice(0)
    finally:
        workers.shutdown()


async def test_the_search_pool_is_built_with_the_settings_niceness():
    workers = create_workers(1, None, None, 4)
    try:
        assert workers.niceness == 4
        assert await workers.run(_niceness) == min(os.nice(0) + 4, 19)
    finally:
        workers.shutdown()


def test_the_default_niceness_is_set_and_zero_turns_it_off(monkeypatch):
    monkeypatch.delenv("WORKER_NICENESS", raising=False)
    assert Settings(_env_file=None).worker_niceness == WORKER_NICENESS > 0
    monkeypatch.setenv("WORKER_NICENESS", "0")
    assert Settings(_env_file=None).worker_niceness == 0
    assert lower_priority(0) == os.nice(0)  # nothing changes in this process
