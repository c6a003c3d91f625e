"""Issue 25, set-up that rides tokens: with ``DM_VIEWS_WHEN_NEEDED`` (the default) a player's DM
hand is posted when they first have something to act on, not at Start, and a DM hand with
nothing to act on is not edited with the bot token (through its player's own click token it
is). The first round of a three-player game then costs one DM post per player and no bot-token
DM edit at all; a hand that showed "your turn" is always brought up to date."""

from __future__ import annotations

import re

from tests.e2e.amapatolli_driver import start_game
from tests.e2e.test_token_edits import CHANNEL_EDIT, Edits
from tests.fakediscord.server import RequestRecord

SEED = "e2e-big-0223"
MESSAGES = re.compile(r"^/channels/(\d+)/messages$")


async def test_dm_hands_are_posted_when_needed_and_not_edited_with_the_bot_token_until_then(
    fake_discord, mesa
):
    fake = fake_discord
    mesa.seed = SEED
    mesa.bot.listener.kit.dm_when_needed = True
    players = [fake.user(n) for n in ("alice", "bob", "carol")]
    posts: list[RequestRecord] = []
    fake.request_observers.append(
        lambda r: posts.append(r) if r.method == "POST" and MESSAGES.match(r.path) else None
    )
    edits = Edits(fake)
    table = await _start(fake, players)
    first = table.oracle.next_move()[0]
    await mesa.bot.listener.drain()
    # At Start only the player to act got their hand
    assert [p.name for p in players if p.dms()] == [table.by_seat[first].name]

    movers: set[str] = set()
    while len(movers) < 3:
        seat, _ = await table.move()
        movers.add(seat)
    await mesa.bot.listener.drain()
    for player in players:  # one hand each, posted once
        assert len(player.dms()) == 1, (player.name, [m.content for m in player.dms()])
    dm_ids = {fake.dm_channels[p.model.id].id for p in players}
    bot_dm_edits = [
        r
        for token, r in edits.since(0)
        if token is None and int(CHANNEL_EDIT.match(r.path)[1]) in dm_ids
    ]
    assert bot_dm_edits == []
    assert len([r for r in posts if int(MESSAGES.match(r.path)[1]) in dm_ids]) == 3


async def _start(fake, players):
    """``start_game`` waits for every player's DM at Start; here only the first one comes."""
    saved = fake.wait_until

    async def lenient(predicate, *, timeout=30.0, what="condition"):
        if what == "the first private views by DM":
            predicate = lambda: any(p.dms() for p in players)  # noqa: E731
        return await saved(predicate, timeout=timeout, what=what)

    fake.wait_until = lenient
    try:
        return await start_game(fake, players, seed=SEED, hand_size=7)
    finally:
        fake.wait_until = saved


async def test_a_dm_hand_left_waiting_is_not_built(fake_discord, mesa, monkeypatch):
    """A DM hand that waits for its player's turn (no token of theirs to edit it through) is
    left as it is before its view and digest are built: a change it does not show costs it
    nothing (issue 29)."""
    from bot.ui import private_views

    built: list[str] = []
    digest_of = private_views._view_digest

    def recording(table, seat, finished):
        built.append(seat)
        return digest_of(table, seat, finished)

    monkeypatch.setattr(private_views, "_view_digest", recording)
    fake = fake_discord
    mesa.seed = SEED
    mesa.bot.listener.kit.dm_when_needed = True
    players = [fake.user(n) for n in ("alice", "bob", "carol")]
    table = await _start(fake, players)
    first = table.oracle.next_move()[0]
    await table.move()
    await mesa.bot.listener.drain()
    second = table.oracle.next_move()[0]
    waiting = [s for s in table.by_seat if s not in (first, second)]
    assert second != first and len(waiting) == 1
    assert second in built  # their turn: their hand is shown
    assert waiting[0] not in built and not table.by_seat[waiting[0]].dms()
