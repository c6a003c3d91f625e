"""A click nothing handles is answered ("this button is no longer active"); a click an item
handles starts no ``on_interaction`` task of its own only to find that out (issue 29:
``MesaBot.dispatch`` checks it at once)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.amapatolli_driver import start_game

SEED = "e2e-0063"


async def test_only_an_unrouted_click_gets_a_task_of_its_own(
    fake_discord, mesa, monkeypatch: pytest.MonkeyPatch
):
    fake = fake_discord
    mesa.seed = SEED
    players = [fake.user(n) for n in ("alice", "bob")]
    table = await start_game(fake, players, seed=SEED)
    bot = mesa.bot
    scheduled: list[str] = []
    schedule = bot._schedule_event

    def recording(coro: Any, event_name: str, *args: Any, **kwargs: Any) -> Any:
        scheduled.append(event_name)
        return schedule(coro, event_name, *args, **kwargs)

    monkeypatch.setattr(bot, "_schedule_event", recording)

    for _ in range(3):
        await table.move()  # clicks routed to their items
    assert "on_interaction" not in scheduled

    handle = await players[0].forge_click(table.public(), "old:format:1")
    answer = await handle.response()
    assert answer.ephemeral and "Este botón ya no está activo." in answer.text
    assert scheduled.count("on_interaction") == 1
    fake.assert_no_violations()
