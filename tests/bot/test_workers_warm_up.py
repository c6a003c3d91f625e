"""The search pool's workers warm up the games' computer players when they start
(``bot.workers.warm_up_games``): Triple Triad's compiled search is ready before any move."""

from __future__ import annotations

from bot.pipe_workers import PipeWorkers, create_workers
from bot.workers import InlineWorkers, Workers, warm_up_games


def compiled_search_is_ready() -> bool:
    from games.triad import kernel

    return bool(kernel.root_pass.signatures)


async def test_a_worker_runs_the_warm_up_before_its_first_task():
    workers = create_workers(1, warm_up_games)  # the bot's search pool
    assert isinstance(workers, PipeWorkers)
    workers.start()
    try:
        assert await workers.run(compiled_search_is_ready)
    finally:
        workers.shutdown()


async def test_a_worker_without_initializer_does_not_compile():
    workers = Workers(1)
    try:
        assert not await workers.run(compiled_search_is_ready)
    finally:
        workers.shutdown()


def test_inline_workers_have_nothing_to_start():
    workers = create_workers(0, warm_up_games)
    assert isinstance(workers, InlineWorkers)
    workers.start()
    assert workers._pool is None
