"""One bot-token budget for every shard process (``storage/token_budget.py``) on a real
PostgreSQL: two processes' budgets share one bucket, so one flooded with calls (shard 0, which
receives every DM click) cannot starve the other, and together they never take more than the
bucket gives."""

from __future__ import annotations

import asyncio

import asyncpg

from bot.ui.pacer import Priority, RequestPacer
from storage.token_budget import TABLE, PgTokenBudget

RATE = 20


async def test_a_flooded_process_does_not_starve_the_other(pg_url):
    flooded, quiet = PgTokenBudget(pg_url, RATE, burst=2), PgTokenBudget(pg_url, RATE, burst=2)
    await flooded.start()
    await quiet.start()  # the second start finds the row: one bucket
    order: list[str] = []
    try:

        async def take(budget: PgTokenBudget, name: str, times: int) -> None:
            for _ in range(times):
                await budget.take()
                order.append(name)

        await asyncio.gather(take(flooded, "flooded", 40), take(quiet, "quiet", 5))
    finally:
        await flooded.close()
        await quiet.close()
    # the quiet process got all its calls while the flooded one was still far from done
    assert order.count("quiet") == 5
    assert max(i for i, who in enumerate(order) if who == "quiet") < 30, order
    conn = await asyncpg.connect(pg_url)
    try:
        tokens = await conn.fetchval(f"SELECT tokens FROM {TABLE} WHERE id = 1")
    finally:
        await conn.close()
    assert 0 <= tokens <= 2  # never more than the burst left over


async def test_the_pacer_takes_the_shared_budget_before_each_call(pg_url):
    budget = PgTokenBudget(pg_url, RATE, burst=3, lease=1)
    await budget.start()
    pacer = RequestPacer(RATE, shared=budget)
    try:
        for _ in range(6):
            await pacer.acquire(Priority.PUBLIC)
    finally:
        await budget.close()
    assert budget.leases == 6  # one lease (one token) per call: every call came from the bucket


async def test_a_lease_that_ran_short_marks_the_budget_strained_for_a_second(pg_url):
    """The processes' calls together near the limit: a lease gets fewer tokens than it asked
    for, and every process's pacer treats the budget as contested for the next second
    (``RequestPacer.strained``: played tables' bot-token edits coalesce then)."""
    now = [0.0]
    # Refills one token per 100 s: the bucket's 5 tokens are all this test gets.
    budget = PgTokenBudget(pg_url, 0.01, burst=5, lease=3, clock=lambda: now[0])
    await budget.start()
    try:
        for _ in range(3):  # one full lease of 3 (of 5)
            await budget.take()
        assert not budget.strained()
        await budget.take()  # the next lease finds 2 of the 3 it asks for
        assert budget.strained()
        now[0] = 0.9
        assert budget.strained()
        now[0] = 1.1
        assert not budget.strained()
    finally:
        await budget.close()
