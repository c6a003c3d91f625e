"""What the bot remembers of each person it meets stays bounded (issue 29: six maps, one entry
per person ever met, grew for as long as the bot ran; ``storage/kept.py``): with the maps made
to keep one person, three play a game to its end, each shown their own hand in their own place
at every move (the driver checks it), the maps never over one; what a map forgot is read back
(from the database; a DM channel from Discord), right."""

from __future__ import annotations

from typing import Any

from storage import kept
from tests.e2e.amapatolli_driver import start_game

SEED = "e2e-0063"  # 12 moves
KEPT = 1


def _person_maps(bot: Any) -> dict[str, dict[str, Any]]:
    kit = bot.listener.kit
    return {
        "bot._locales": bot._locales,
        "kit._dm_channels": kit._dm_channels,
        "kit.dms._known": kit.dms._known,
        "kit.places._known": kit.places._known,
        "db.players_written": bot.db.players_written,
    }


async def test_more_people_than_the_maps_keep_play_as_anyone_else(fake_discord, mesa, monkeypatch):
    """Bob plays from "Ver mi mano" (his DMs closed: the DM gate must keep knowing it, from
    the database when it forgot), Carol speaks English (her locale, read back likewise)."""
    monkeypatch.setattr(kept, "PEOPLE", KEPT)
    await mesa.restart()  # its maps made small
    fake = fake_discord
    mesa.seed = SEED
    alice = fake.user("alice")
    bob = fake.user("bob", dms_open=False)
    carol = fake.user("carol", locale="en-US")
    table = await start_game(fake, [alice, bob, carol], seed=SEED)
    largest = {name: 0 for name in _person_maps(mesa.bot)}
    met: dict[str, set[str]] = {name: set() for name in largest}
    while not table.oracle.finished:
        await table.move()
        for name, people in _person_maps(mesa.bot).items():
            largest[name] = max(largest[name], len(people))
            met[name] |= set(people)
    await fake.settle()
    await mesa.bot.listener.drain()
    assert largest == {name: KEPT for name in largest}  # full, never over
    del met["kit._dm_channels"]  # (used for new DM messages only: asked below)
    assert {name: len(people) for name, people in met.items()} == {name: 3 for name in met}
    bot = mesa.bot
    for user in (alice, carol):  # forgotten or not, the channel is the user's
        channel = await bot.listener.kit.dm_channel(str(user.id))
        assert channel.id == fake.dm_channel(user.model).id
    locales = {user.name: await bot.locale_of(str(user.id)) for user in (alice, bob, carol)}
    assert locales == {"alice": "es", "bob": "es", "carol": "en"}
    assert await bot.listener.kit.dms.marked_closed(str(bob.id))
    assert not await bot.listener.kit.dms.marked_closed(str(alice.id))
    assert fake.violations == []
