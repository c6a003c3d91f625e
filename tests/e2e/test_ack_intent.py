"""Issue 25, the ack: a click's intent (``storage/intents.py``, written before a click is
acknowledged ahead of its move) is written beside the move from the moment the click arrives,
not after the answer window ran out: an acknowledgement that has to wait for it then finds it
written, or queued ahead of the move's own write, never queued behind it. The move's unit
marks it done."""

from __future__ import annotations

from storage.intents import IntentsRepo
from tests.e2e.amapatolli_driver import start_game
from tests.e2e.driver_kit import take

SEED = "e2e-0063"


async def test_a_click_s_intent_is_written_as_it_arrives_beside_its_move(
    fake_discord, mesa, monkeypatch
):
    mesa.seed = SEED
    order: list[str] = []  # what the click started, in order
    real_start, real_act = IntentsRepo.start, mesa.bot.tables.act

    def start(self, intent):
        order.append("intent")
        return real_start(self, intent)

    async def act(*args, **kwargs):
        order.append("move")
        return await real_act(*args, **kwargs)

    game = await start_game(fake_discord, [fake_discord.user(n) for n in "abc"], seed=SEED)
    seat, action = game.oracle.next_move()
    before = game.version()
    offer = (await game.private_offers(game.by_seat[seat], before))[action]
    monkeypatch.setattr(IntentsRepo, "start", start)
    monkeypatch.setattr(mesa.bot.tables, "act", act)
    await (await take(game.by_seat[seat], offer)).acknowledged()
    game.oracle.apply(seat, action)
    await game.wait_version(before + 1)
    assert order == ["intent", "move"]  # the write started before the move asked for the table
    await mesa.bot.listener.drain()
    left = [i for i in await mesa.bot.tables.intents.unanswered() if not i.done]
    assert left == []  # the move's own unit marked it done: nothing to resolve after a restart
