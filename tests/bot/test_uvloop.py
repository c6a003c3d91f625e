"""``python -m bot`` runs on uvloop (``bot.__main__.loop_factory``): what the bot does with the
event loop works there as on asyncio's. uvloop's ``add_reader`` turns the file descriptor
non-blocking (libuv's poll), so the render pool's pipes are made blocking again: a reply larger
than the pipe's buffer is read whole, not taken for a dead worker."""

from __future__ import annotations

import asyncio
import os

from bot.__main__ import loop_factory
from bot.pipe_workers import PipeWorkers


def _big(size: int) -> bytes:
    return bytes(range(256)) * (size // 256)


def test_the_render_pools_replies_larger_than_a_pipes_buffer_arrive_whole_on_uvloop():
    async def run() -> list[bytes]:
        workers = PipeWorkers(2)
        try:
            return await asyncio.gather(*(workers.run(_big, 1 << 20) for _ in range(4)))
        finally:
            workers.shutdown()

    factory = loop_factory()
    assert factory is not None  # uvloop is a dependency
    with asyncio.Runner(loop_factory=factory) as runner:
        replies = runner.run(run())
    assert replies == [_big(1 << 20)] * 4


def test_a_pools_pipe_stays_blocking_once_the_loop_watches_it():
    async def run() -> bool:
        workers = PipeWorkers(1)
        try:
            await workers.run(os.getpid)
            state = workers._state
            assert state is not None
            return all(os.get_blocking(w.conn.fileno()) for w in state.workers)
        finally:
            workers.shutdown()

    with asyncio.Runner(loop_factory=loop_factory()) as runner:
        assert runner.run(run())
