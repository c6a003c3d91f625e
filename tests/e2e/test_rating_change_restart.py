"""The rating change of every person at a game's end survives a restart (issue 31): the bot is
"killed" between the final move's commit and the edit that shows it; the restarted bot shows
the final message from storage alone, rating changes included."""

from __future__ import annotations

import re

from games.amapatolli import GAME
from tests.e2e.amapatolli_driver import start_game
from tests.e2e.driver_kit import take
from tests.message_text import read_card
from tests.waiting import within_guard

SEED = "e2e-0063"


def _changes(message) -> list[tuple[str, int, int]]:
    fields = [f for f in read_card(message).get("fields", []) if f["name"] == "Puntuación"]
    if not fields:
        return []
    rows = re.findall(r"(\w+): (\d+) → \*\*(\d+)\*\* \(([+-]\d+)\)", fields[0]["value"])
    assert all(int(after) - int(before) == int(delta) for _, before, after, delta in rows)
    return [(who, int(before), int(after)) for who, before, after, _ in rows]


async def test_the_final_message_rebuilt_after_a_restart_shows_the_rating_changes(
    fake_discord, mesa, monkeypatch
):
    fake = fake_discord
    mesa.seed = SEED
    alice, bob = fake.user("alice"), fake.user("bob")
    table = await start_game(fake, [alice, bob], seed=SEED)
    while True:  # every move but the last one
        seat, action = table.oracle.next_move()
        after, _ = GAME.apply(table.oracle.state, seat, GAME.decode_action(action))
        if GAME.outcome(after) is not None:
            break
        await table.move()
    version = table.version()
    assert version == table.oracle.version

    async def lost(*args, **kwargs):  # killed between the commit and the edit
        return None

    monkeypatch.setattr(mesa.bot.listener, "game_changed", lost)
    offers = await table.private_offers(table.by_seat[seat], version)
    await (await take(table.by_seat[seat], offers[action])).acknowledged()

    def finished() -> bool:
        live = mesa.bot.tables.registry.find(table.table_id)
        return live is None or live.record.status == "finished"

    await fake.wait_until(finished, what="the final commit")
    assert table.version() == version and not _changes(table.public())
    await mesa.restart()
    await within_guard(mesa.bot.recovery.shown_again.wait())
    await mesa.bot.listener.drain()
    table.oracle.apply(seat, action)
    assert table.version() == version + 1  # shown by the restarted bot, from storage
    changes = _changes(table.public())
    assert sorted(who for who, _, _ in changes) == ["alice", "bob"]
    assert all(before == 1000 and after != before for _, before, after in changes)
