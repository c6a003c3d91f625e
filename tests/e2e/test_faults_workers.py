"""Workers die with the bot (issue 27), for real: ``python -m bot`` with a search pool and a
render pool, killed with SIGKILL, leaves none of its processes alive 3 s later (a supervisor
that restarts only the main process would otherwise leak them at every crash)."""

from __future__ import annotations

import asyncio
import time

from bench.crash_soak import BotProcess, SoakResult
from bench.processes import descendants


async def test_kill_9_of_the_bot_leaves_no_worker_alive(fake_discord, tmp_path):
    fake = fake_discord
    bot = BotProcess(fake, tmp_path, turn_seconds=60, workers=2, renders=1)
    await bot.start()
    try:
        await fake.wait_until(lambda: fake.commands.get(None), timeout=120, what="command sync")
        await fake.wait_until_connected(timeout=60)
        assert bot.process is not None
        # python -m bot spawns its search workers at start-up (they warm up meanwhile).
        deadline = time.monotonic() + 60
        while len(descendants(bot.process.pid)) < 2 and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert len(descendants(bot.process.pid)) >= 2
        result = SoakResult()
        bot.kill()
        await bot.wait_dead()
        await bot.count_orphans(result)
        assert result.children_at_kill >= 2, result.counts()
        assert result.orphans == 0, result.details
    finally:
        bot.kill()
        await bot.wait_dead()
