"""Issue 25: nobody presses a Triple Triad table (its player plays from their DM), so no press
of it leaves a token that may edit it, and every edit of the game went out with the bot token.
Now the last pick's press posts the game as its public follow-up: that message is the table,
its token edits it while the game lasts, and the lobby message it replaces is deleted. Issue 29:
the lobby itself is the ``/play``'s public follow-up (after its private answer, the picker), so
the command's token posts it, edits it at every pick and deletes it: no bot-token call from the
``/play`` to the game's first view, where there were ten (a post, eight edits, the delete)."""

from __future__ import annotations

import re
import sys

from tests.e2e.test_place_question import questions
from tests.e2e.triad_driver import TriadMatch, open_against_cpu, pick_five
from tests.fakediscord.ratelimit import BOT
from tests.fakediscord.server import RequestRecord
from tests.message_text import read_card

SEED = "triad-e2e-01"
CHANNEL_MESSAGE = re.compile(r"^/channels/(\d+)/messages/(\d+)$")
WEBHOOK_EDIT = re.compile(r"^/webhooks/\d+/[^/]+/messages/")
FOLLOWUP = "/webhooks/{webhook_id}/{webhook_token}"


async def test_the_last_pick_posts_the_game_and_its_token_edits_the_table(fake_discord, mesa):
    fake = fake_discord
    alice, requests, table_id, picker, match, lobby = await _lobby_against_cpu(fake, mesa)
    await pick_five(fake, alice, picker, table_id, confirm=False)
    last_pick = await alice.click(picker, custom_id=f"tt:{table_id}:ok")
    await last_pick.acknowledged()
    await fake.wait_until(lambda: match.version() == 0, what="the game started")

    public = match.public()
    assert public is not lobby
    assert public.interaction is last_pick.interaction  # its public follow-up
    assert not public.ephemeral and public in last_pick.followups
    await fake.wait_until(lambda: lobby.deleted, what="the lobby message deleted")
    shown = [m for m in fake.channel_messages(public.channel) if f"#{table_id}" in m.text]
    assert shown == [public]  # one message shows the table

    started = len(requests)
    await match.play()
    await mesa.bot.listener.drain()
    during = requests[started:]
    bot_edits = [
        r
        for r in during
        if r.method == "PATCH"
        and (m := CHANNEL_MESSAGE.match(r.path)) is not None
        and int(m[1]) == public.channel.id
    ]
    token_edits = [r for r in during if r.method == "PATCH" and WEBHOOK_EDIT.match(r.path)]
    assert bot_edits == []  # every edit of the table rode the last pick's token
    assert len(token_edits) >= len(match.moves)
    assert match.finished()


async def test_the_lobby_follows_up_its_play_and_rides_its_token(fake_discord, mesa):
    fake = fake_discord
    alice, requests, table_id, picker, match, lobby = await _lobby_against_cpu(fake, mesa)
    play = picker.interaction
    assert picker.ephemeral and picker is play.original  # the command's answer: the picker
    assert not lobby.ephemeral and lobby in play.followups  # the lobby: its public follow-up
    await pick_five(fake, alice, picker, table_id)
    await fake.wait_until(lambda: match.version() == 0, what="the game started")
    await fake.wait_until(lambda: lobby.deleted, what="the lobby message deleted")
    await mesa.bot.listener.drain()

    on_the_channel = [
        f"{r.method} {r.path}"
        for r in requests
        if r.kind == BOT and r.path.startswith(f"/channels/{lobby.channel.id}/")
    ]
    assert on_the_channel == []  # (the player's DM hand is the bot token's, as before)
    assert any(r.method == "DELETE" and WEBHOOK_EDIT.match(r.path) for r in requests)
    assert fake.violations == []


async def _lobby_against_cpu(fake, mesa):
    """``/play triad`` against the computer until its public lobby shows: (alice, the
    requests seen from the start, table id, her picker, the match, the lobby message)."""
    mesa.seed = SEED
    alice = fake.user("alice")
    requests: list[RequestRecord] = []
    fake.request_observers.append(requests.append)
    table_id, picker = await open_against_cpu(fake, alice, payout="una", level="easy")
    match = TriadMatch(fake, table_id, alice)
    await fake.wait_until(lambda: _shown(match) is not None, what="the public lobby")
    return alice, requests, table_id, picker, match, match.public()


def _shown(match: TriadMatch):
    try:
        return match.public()
    except LookupError:
        return None


async def test_the_game_posted_by_the_press_waits_out_no_coalescing_window(fake_discord, mesa):
    """The picks edit the public lobby (with the bot token where the lobby is no command's
    follow-up: a turn of the pacer each, which would hold the next change in the coalescing
    window); the game's first view is posted by
    the press (exempt): it does not wait, even with a window of an hour, and the confirm's own
    lobby change does not use the press up."""
    from bot import metrics

    fake = fake_discord
    mesa.seed = SEED
    mesa.bot.listener.kit.public_every = 3600.0
    mesa.bot.listener.kit.coalesce_share = 0.0  # coalesce whatever the bot token's load
    alice = fake.user("alice")
    table_id, picker = await open_against_cpu(fake, alice, payout="una", level="easy")
    match = TriadMatch(fake, table_id, alice)
    await pick_five(fake, alice, picker, table_id, confirm=False)
    await mesa.bot.listener.drain()
    coalesced = metrics.counters["public.coalesced"]
    last_pick = await alice.click(picker, custom_id=f"tt:{table_id}:ok")
    await last_pick.acknowledged()
    await fake.wait_until(lambda: match.version() == 0, what="the game started")
    assert match.public().interaction is last_pick.interaction
    assert metrics.counters["public.coalesced"] == coalesced


async def test_a_play_whose_answer_was_refused_gets_its_lobby_posted_publicly(
    fake_discord, mesa, monkeypatch
):
    """The lobby follows up the command's own answer (the picker, after its ephemeral
    "thinking"); when Discord refused that answer, the lobby would be the command's first
    follow-up, taking the place of its ephemeral "thinking": private. It is posted with the bot
    token instead, for everyone to see, and the command goes on at once to ask where the host
    plays (it waited for a follow-up that never comes: ``LOBBY_FOLLOWS_WITHIN``, here an hour)."""
    # (the module the bot loaded as its extension: discord.py imports it anew)
    monkeypatch.setattr(sys.modules["bot.cogs.triad"], "LOBBY_FOLLOWS_WITHIN", 3600.0)
    fake = fake_discord
    mesa.seed = SEED
    alice = fake.user("alice")
    fault = fake.fail(FOLLOWUP, method="POST", count=1, status=400)  # the picker
    await alice.slash("play triad", payout="una", level="easy")
    await fake.wait_until(lambda: fault.remaining == 0, what="the command's answer refused")
    await fake.wait_until(
        lambda: any(
            "mesa #" in ((read_card(m) or {}).get("title") or "") for m in fake.channel_messages()
        ),
        what="the public lobby",
    )
    lobby = next(
        m for m in fake.channel_messages() if "mesa #" in ((read_card(m) or {}).get("title") or "")
    )
    assert not lobby.ephemeral and lobby.interaction is None  # the bot token's post
    table_id = int(re.search(r"#(\d+)", read_card(lobby)["title"]).group(1))
    await fake.wait_until(lambda: questions(alice, table_id), what="where alice plays, asked")
