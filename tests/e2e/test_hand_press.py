"""Issue 29, fewer requests per move: a press of "Ver mi mano" on a table whose public message
keeps an interaction token for minutes (the lobby's Start press, an earlier press) is answered
with the hand itself, ONE request (CHANNEL_MESSAGE_WITH_SOURCE, ephemeral), and no intent is
written before it; that hand follows the table through the press's own token. With the table's
token near its end, the press is a deferred update of the table (its token edits the table from
then on) and the hand follows (``PlayCog.on_show_hand``). Clocks are moved by the test."""

from __future__ import annotations

import re

from bot.ui.public_view import TOKEN_SPARE
from tests.e2e.amapatolli_driver import start_game
from tests.e2e.driver_kit import HandlersDone, view_version
from tests.fakediscord.server import RequestRecord
from tests.message_text import clickable
from tests.waiting import until

SEED = "e2e-big-0223"  # 7-card hands
WEBHOOK = re.compile(r"^/webhooks/\d+/([^/]+)(/messages/([^/]+))?$")


def _by_token(requests: list[RequestRecord], token: str, method: str) -> list[RequestRecord]:
    return [
        r
        for r in requests
        if r.method == method and (m := WEBHOOK.match(r.path)) is not None and m[1] == token
    ]


async def _channel_table(fake, mesa):
    """Alice and Carol play from their DMs, Bob (DMs closed) from the table."""
    mesa.seed = SEED
    alice, bob, carol = fake.user("alice"), fake.user("bob", dms_open=False), fake.user("carol")
    table = await start_game(fake, [alice, bob, carol], seed=SEED, hand_size=7)
    await mesa.bot.listener.drain()
    return table, bob


async def test_a_press_is_answered_with_the_hand_while_the_table_keeps_a_token(fake_discord, mesa):
    fake = fake_discord
    requests: list[RequestRecord] = []
    fake.request_observers.append(requests.append)
    table, bob = await _channel_table(fake, mesa)
    started = len(requests)
    writes = mesa.bot.tables.intents.start
    recorded: list[str] = []
    mesa.bot.tables.intents.start = lambda intent: recorded.append(intent.action) or writes(intent)

    handle = await bob.click(table.public(), "Ver mi mano")
    assert await handle.acknowledged() == 4  # the hand itself: no deferred update
    hand = await handle
    assert hand.ephemeral and hand.visible_to is bob.model
    assert view_version(hand) == table.oracle.version
    token = handle.interaction.token
    assert _by_token(requests[started:], token, "POST") == []  # no follow-up
    assert recorded == []  # nothing owed after the answer: no intent written before it

    # It is the live hand: the table's changes reach it through the press's own token.
    seen = view_version(hand)
    while view_version(hand) == seen:
        await table.move()
        await mesa.bot.listener.drain()
    assert view_version(hand) == table.oracle.version
    assert _by_token(requests[started:], token, "PATCH")  # its @original: the hand
    # The public message was edited through a table token meanwhile, never with the bot token.
    public_id = table.public().id
    assert not [
        r
        for r in requests[started:]
        if r.method == "PATCH"
        and r.path.endswith(f"/messages/{public_id}")
        and "webhooks" not in r.path
    ]

    # A second press: a new hand the same way; the first one retires (says so, nothing to click).
    again = await bob.click(table.public(), "Ver mi mano")
    assert await again.acknowledged() == 4
    second = await again
    assert second.id != hand.id and view_version(second) == table.oracle.version
    await until(lambda: "ya no se actualiza" in hand.text, "the first hand retired")
    assert not clickable(hand)
    assert fake.violations == []


async def test_a_press_when_the_table_s_token_is_near_its_end_leaves_a_fresh_one(
    fake_discord, mesa, monkeypatch
):
    fake = fake_discord
    handled = HandlersDone(mesa.bot.pending_commands, monkeypatch)
    requests: list[RequestRecord] = []
    fake.request_observers.append(requests.append)
    table, bob = await _channel_table(fake, mesa)
    await fake.wait_until(lambda: handled.all_done(fake), what="every click's handler done")
    # The Start press's token (the table's) has less than TOKEN_SPARE left: 14 min - 8 min.
    minutes = 8
    assert (14 - minutes) * 60 < TOKEN_SPARE
    fake.advance(minutes=minutes)
    listener = mesa.bot.listener
    listener.clock = lambda real=listener.clock: real() + minutes * 60
    listener.ephemerals.clock = lambda real=listener.ephemerals.clock: real() + minutes * 60

    handle = await bob.click(table.public(), "Ver mi mano")
    assert await handle.acknowledged() == 6  # a deferred update of the table...
    hand = await handle.followup(0)  # ...and the hand as its follow-up
    assert hand.ephemeral and view_version(hand) == table.oracle.version
    mark = len(requests)
    version = table.oracle.version
    while table.oracle.version == version:
        await table.move()
    await mesa.bot.listener.drain()
    # This press's token edits the public message now.
    assert _by_token(requests[mark:], handle.interaction.token, "PATCH")
    assert fake.violations == []
