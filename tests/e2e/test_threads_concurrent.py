"""Five tables in five threads of one channel, *played at the same time* to the end (issue 28):
every click answered within Discord's 3 seconds (the fake records any later answer as a
violation) while the other tables are busy, and the parent channel keeping at most two messages
per game. The rematch window is 3 s rather than 0.3 s: an archive must not overtake a loaded
machine's last edit of the table (an edit in an archived thread is refused, 50083)."""

from __future__ import annotations

import asyncio

from tests.e2e.test_threads_e2e import allow_threads, parent_line, start_in_thread


async def test_five_tables_in_five_threads_played_at_once(fake_discord, mesa):
    fake = fake_discord
    allow_threads(fake)
    mesa.bot.threads.lines.rematch_window = 3.0
    pairs = [(fake.user(f"host{n}"), fake.user(f"guest{n}")) for n in range(5)]
    tables = await asyncio.gather(*(start_in_thread(fake, h, g) for h, g in pairs))
    assert len({t.channel.id for t in tables}) == 5
    await asyncio.gather(*(t.play_to_the_end() for t in tables))
    for table in tables:
        await fake.wait_until(
            lambda table=table: "🏁" in parent_line(fake, table.table_id).content,
            what=f"the result of table {table.table_id} in the channel",
        )
    assert len(fake.channel_messages()) <= 2 * len(tables)
    assert len(fake.channel_messages()) == len(tables)  # one line each: none had to move
    await fake.wait_until(
        lambda: all(fake.channels[t.channel.id].archived for t in tables),
        what="every thread archived after the rematch window",
    )
    assert fake.take_violations() == []
