"""A thread's archive after the rematch window survives a restart (issue 28): its due time is
stored with the ended table before it is armed, a restart re-arms it (archiving at once what
fell due while the bot was down), and it is cleared once done."""

from __future__ import annotations

import asyncio
import time

from tests.e2e.test_threads_e2e import allow_threads, start_in_thread
from tests.waiting import HANG_GUARD_SECONDS


async def _due(mesa) -> dict[int, float]:
    return {t: at for t, _, at in await mesa.bot.threads.homes.archives_due()}


async def _eventually_due(mesa, tables: set[int]) -> bool:
    """The stored archives come to be ``tables`` (the clearing follows the archive's answer);
    the bound is generous wall time: only a real failure reaches it."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + HANG_GUARD_SECONDS
    while loop.time() < give_up:
        if set(await _due(mesa)) == tables:
            return True
        await asyncio.sleep(0.02)
    return False


async def test_a_pending_thread_archive_is_rearmed_after_a_restart(fake_discord, mesa):
    fake = fake_discord
    allow_threads(fake)
    mesa.bot.threads.lines.rematch_window = 3600.0  # far longer than the test
    first = await start_in_thread(fake, fake.user("alice"), fake.user("bob"))
    second = await start_in_thread(fake, fake.user("carol"), fake.user("dave"))
    ending = time.time()  # each archive falls due a window after its game's end, from now on
    for table in (first, second):
        await table.play_to_the_end()
    await fake.wait_until(
        lambda: len(mesa.bot.threads.lines.pending()) == 2, what="both archives armed"
    )
    due = await _due(mesa)
    assert set(due) == {first.table_id, second.table_id}
    ended = time.time()
    # stored, not archived: due a window after the game's end (± 1 s of stored rounding)
    assert all(ending + 3600 - 1 <= at <= ended + 3600 + 1 for at in due.values())
    assert not fake.channels[first.channel.id].archived

    # The first one's window ends while the bot is down; the second's is still running.
    await mesa.bot.threads.homes.archive_at(first.table_id, time.time() - 1)
    await mesa.restart()
    await fake.wait_until(
        lambda: fake.channels[first.channel.id].archived, what="the overdue archive done"
    )
    await fake.wait_until(
        lambda: mesa.bot.threads.lines.pending() == {str(second.channel.id): second.table_id},
        what="the running archive re-armed",
    )
    assert not fake.channels[second.channel.id].archived
    assert await _eventually_due(mesa, {second.table_id})  # the done one is forgotten

    # The second's window ends too (its stored due time passes): re-armed, as start-up does,
    # it is archived at once, and its stored due is cleared.
    await mesa.bot.threads.homes.archive_at(second.table_id, time.time() - 1)
    await mesa.bot.threads.lines.rearm()
    await fake.wait_until(
        lambda: fake.channels[second.channel.id].archived, what="the second archive done"
    )
    assert await _eventually_due(mesa, set())
    await fake.wait_until(lambda: not mesa.bot.threads.lines.pending(), what="none waits")
    assert fake.take_violations() == []


async def test_a_rematch_keeps_the_thread_open_and_clears_the_stored_archive(fake_discord, mesa):
    fake = fake_discord
    allow_threads(fake)
    mesa.bot.threads.lines.rematch_window = 3600.0
    alice, bob = fake.user("alice"), fake.user("bob")
    table = await start_in_thread(fake, alice, bob)
    await table.play_to_the_end()
    await fake.wait_until(lambda: bool(mesa.bot.threads.lines.pending()), what="archive armed")
    assert set(await _due(mesa)) == {table.table_id}
    await (await alice.click(table.public(), "Revancha")).acknowledged()
    await fake.wait_until(lambda: not mesa.bot.threads.lines.pending(), what="archive disarmed")
    assert await _due(mesa) == {}
    assert not fake.channels[table.channel.id].archived
