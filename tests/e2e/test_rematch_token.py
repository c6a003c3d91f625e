"""Issue 29: "Revancha" rides its press's token. The press is acknowledged with a deferred
update; the new lobby is its public follow-up (the press's token edits it), and the finished
table's "Revancha" is turned off through that token (its ``@original``: the message pressed).
Before, each rematch cost a bot-token post of the lobby and a bot-token edit of the finished
table: calls of the 45/s budget every table shares. A follow-up or an edit Discord refused
goes by bot token, as before. And each player's first DM hand of the rematch is a follow-up of
their last click on their DM hand of the finished game (that token lives 15 minutes): the bot
token's last call of a game's end and the next start."""

from __future__ import annotations

from tests.e2e.amapatolli_driver import start_game
from tests.fakediscord.ratelimit import BOT
from tests.fakediscord.server import RequestRecord
from tests.message_text import read_card

SEED = "e2e-rematch-token"
REMATCH = "Revancha"
FOLLOWUP = "/webhooks/{webhook_id}/{webhook_token}"
ORIGINAL = "/webhooks/{webhook_id}/{webhook_token}/messages/@original"


async def _finished(fake, mesa):
    """A game of Ce Amapatolli played to its end: (players, its table, its public message, the
    requests seen from now on)."""
    mesa.seed = SEED
    players = [fake.user("alice"), fake.user("bob")]
    table = await start_game(fake, players, seed=SEED)
    await table.play_to_the_end()
    await mesa.bot.listener.drain()
    await fake.settle()
    requests: list[RequestRecord] = []
    fake.request_observers.append(requests.append)
    return players, table, table.public(), requests


def _lobby_of(fake, finished):
    """The rematch's lobby: a table message of the channel that is not the finished one."""
    return next(
        (
            m
            for m in fake.channel_messages(finished.channel)
            if m.id != finished.id and "mesa #" in ((read_card(m) or {}).get("title") or "")
        ),
        None,
    )


async def _pressed(fake, mesa, players, finished):
    press = await players[0].click(finished, REMATCH)
    await press.acknowledged()
    lobby = await fake.wait_until(lambda: _lobby_of(fake, finished), what="the rematch's lobby")
    await fake.wait_until(
        lambda: all(b.disabled for b in finished.buttons if b.label == REMATCH),
        what="Revancha off",
    )
    await mesa.bot.listener.drain()
    await fake.settle()
    return press, lobby


async def test_revancha_rides_its_press_token(fake_discord, mesa):
    fake = fake_discord
    players, table, finished, requests = await _finished(fake, mesa)
    press, lobby = await _pressed(fake, mesa, players, finished)
    assert press.interaction.callback_type == 6  # a deferred update: @original is the table
    assert not lobby.ephemeral and lobby in press.interaction.followups  # in the channel
    assert [b.label for b in finished.buttons] == [REMATCH]
    by_bot = [f"{r.method} {r.template or r.path}" for r in requests if r.kind == BOT]
    assert by_bot == []  # the lobby's post and the old table's edit: the press's token
    # The lobby is the rematch's message: its Start goes on from it.
    rematch = await _start(fake, mesa, players, lobby)
    for player in players:
        first = _first_hand(player, rematch)
        assert first.interaction is not None and first.interaction.type == 3  # a DM click's
        assert first in first.interaction.followups and first.channel.is_dm
    by_bot = [f"{r.method} {r.template or r.path}" for r in requests if r.kind == BOT]
    assert by_bot == []  # from the press to the rematch's first views
    assert fake.violations == []


async def test_a_refused_dm_follow_up_falls_back_to_the_bot_token(fake_discord, mesa):
    fake = fake_discord
    players, table, finished, requests = await _finished(fake, mesa)
    press, lobby = await _pressed(fake, mesa, players, finished)
    fault = fake.fail(FOLLOWUP, method="POST", count=1, status=400)  # one player's hand
    rematch = await _start(fake, mesa, players, lobby)
    assert fault.remaining == 0
    hands = [_first_hand(player, rematch) for player in players]
    assert sorted(hand.interaction is None for hand in hands) == [False, True]
    by_bot = [f"{r.method} {r.template or r.path}" for r in requests if r.kind == BOT]
    assert by_bot == ["POST /channels/{channel_id}/messages"]  # that hand, in their DM


async def _start(fake, mesa, players, lobby) -> int:
    """The host starts the rematch's ``lobby``: its table id, once its first DM hands are out."""
    table_id = int(read_card(lobby)["title"].split("mesa #")[1].split()[0])
    await (await players[0].click(lobby, "Empezar")).acknowledged()
    await fake.wait_until(
        lambda: all(_first_hand(p, table_id) for p in players), what="the rematch's DM hands"
    )
    await mesa.bot.listener.drain()
    await fake.settle()
    return table_id


def _first_hand(player, table_id: int):
    """``player``'s first DM hand of table ``table_id``, if any."""
    title = f"mesa #{table_id}"
    return next(
        (m for m in player.dms() if title in ((read_card(m) or {}).get("title") or "")), None
    )


async def test_a_refused_follow_up_and_edit_fall_back_to_the_bot_token(fake_discord, mesa):
    fake = fake_discord
    players, table, finished, requests = await _finished(fake, mesa)
    followup = fake.fail(FOLLOWUP, method="POST", count=1, status=400)
    edit = fake.fail(ORIGINAL, method="PATCH", count=1, status=404)
    press, lobby = await _pressed(fake, mesa, players, finished)
    assert followup.remaining == 0 and edit.remaining == 0
    assert not lobby.ephemeral and lobby.interaction is None  # the bot token's post, public
    by_bot = sorted(f"{r.method} {r.template or r.path}" for r in requests if r.kind == BOT)
    assert by_bot == [
        "PATCH /channels/{channel_id}/messages/{message_id}",  # Revancha off
        "POST /channels/{channel_id}/messages",  # the lobby
    ]
    assert [b.label for b in finished.buttons] == [REMATCH]
