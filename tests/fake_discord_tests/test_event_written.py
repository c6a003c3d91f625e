"""The fake stamps when a click's INTERACTION_CREATE is handed to the bot's socket, so
``bench/load.py`` can tell its own queueing (the fake's loop also runs the simulated players)
from the bot's answer (issue 25: the driver's timestamps must not include its own queueing)."""

from __future__ import annotations


async def test_an_interaction_is_stamped_when_its_event_is_written(fake_discord, bot):
    alice = fake_discord.user("alice")
    handle = await alice.slash("play", game="amapatolli")
    await handle
    inter = handle.interaction
    assert inter.dispatched_real is not None
    assert inter.answered_after is not None
    answered_real = inter.created_real + inter.answered_after
    # the order of three instants on one clock (made, written, answered), not a duration
    assert inter.created_real <= inter.dispatched_real <= answered_real


async def test_an_event_queued_while_the_bot_is_away_is_stamped_only_when_written(
    fake_discord, bot
):
    alice = fake_discord.user("alice")
    release = fake_discord.hold_resumes()
    await fake_discord.close_gateway(4000)
    await fake_discord.wait_until(
        lambda: fake_discord.gateway.pending_resumes == 1, what="the bot's RESUME"
    )
    handle = await alice.slash("play", game="amapatolli")
    assert handle.interaction.dispatched_real is None  # not sent: replayed after the RESUME
    release.set()
    await handle
    await fake_discord.wait_for_resume()
    assert handle.interaction.answered_after is not None
    assert handle.interaction.dispatched_real is None  # a replay: the bench leaves it out
