"""Which token edits a DM hand (``DiscordTableListener._edit_dm``, ``bot/ui/tokens.py``): the
token of the latest answered click on that very message while it is fresh (exempt from the
global limit), the bot token otherwise; a refused token (401 50027, 404 10008) falls back to
the bot token for that one edit and is dropped. Stand-ins for discord.py's objects; no
network."""

from __future__ import annotations

import datetime
from types import SimpleNamespace
from unittest.mock import AsyncMock, MagicMock

import discord
import pytest

from bot.ui import payload as sending
from bot.ui.listener import DiscordTableListener
from bot.ui.payload import Payload
from bot.ui.tokens import LIFETIME

DM_VIEW = 555
TABLE, SEAT = 7, "123"
KEY = ("dm", TABLE, SEAT)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(autouse=True)
def edits_through_the_mocks(monkeypatch):
    """The views edit without parsing the answer (``bot/ui/payload.py``), below discord.py's
    ``edit`` methods; here the interaction and the message are mocks, so those edits go through
    the mocks' own ``edit`` methods, the calls they stand for."""

    async def edit_message(partial, kwargs):
        await partial.edit(**kwargs)

    async def edit_followup(interaction, message_id, kwargs, *, ref=None):
        if ref == "@original":  # a token's ``@original`` (``tokens.Hook.target``)
            await interaction.edit_original_response(**kwargs)
        else:
            await interaction.followup.edit_message(message_id, **kwargs)

    monkeypatch.setattr(sending, "edit_message", edit_message)
    monkeypatch.setattr(sending, "edit_followup", edit_followup)


def _listener() -> tuple[DiscordTableListener, AsyncMock, Clock]:
    bot_edit = AsyncMock()
    channel = MagicMock()
    channel.get_partial_message.return_value = SimpleNamespace(edit=bot_edit)
    host = MagicMock()
    host.get_partial_messageable.return_value = channel
    host.create_dm = AsyncMock(return_value=SimpleNamespace(id=42))
    listener = DiscordTableListener(host)
    clock = Clock()
    listener.clock = clock
    listener.private._slots.of((TABLE, SEAT)).message_id = DM_VIEW
    return listener, bot_edit, clock


def _click(message_id: int, kind=discord.InteractionResponseType.message_update) -> MagicMock:
    click = MagicMock()
    click.guild_id = None  # a click in a DM
    click.created_at = discord.utils.utcnow()  # as every discord.Interaction has: its id's time
    click.id = discord.utils.time_snowflake(click.created_at)
    click.message = SimpleNamespace(id=message_id)
    click.response.type = kind
    click.edit_original_response = AsyncMock()
    return click


async def _edit(listener: DiscordTableListener) -> None:
    slot = listener.private._slots.of((TABLE, SEAT))
    await listener.private._edit_dm(TABLE, SEAT, slot, Payload(content="view"))


async def test_a_dm_hand_is_edited_through_the_latest_answered_click_on_it():
    listener, bot_edit, _ = _listener()
    first, latest = (
        _click(DM_VIEW),
        _click(DM_VIEW, discord.InteractionResponseType.deferred_message_update),
    )
    # Discord made the first a second before: read at once, two stand-ins made a microsecond
    # apart could otherwise look born in either order
    first.created_at -= datetime.timedelta(seconds=1)
    first.id = discord.utils.time_snowflake(first.created_at)
    listener.private.remember_click(TABLE, SEAT, first)
    listener.private.remember_click(TABLE, SEAT, latest)
    await _edit(listener)
    latest.edit_original_response.assert_awaited_once()
    first.edit_original_response.assert_not_awaited()
    bot_edit.assert_not_awaited()


async def test_the_bot_token_edits_when_the_click_is_unanswered_expired_or_elsewhere():
    listener, bot_edit, clock = _listener()
    unanswered = _click(DM_VIEW, None)  # type: ignore[arg-type]
    listener.private.remember_click(TABLE, SEAT, unanswered)
    await _edit(listener)
    other = _click(DM_VIEW - 1)  # a click on another message
    listener.private.remember_click(TABLE, SEAT, other)
    await _edit(listener)
    expired = _click(DM_VIEW)
    listener.private.remember_click(TABLE, SEAT, expired)
    clock.now += LIFETIME  # 14 minutes: a 16-minute-old token is never tried
    await _edit(listener)
    assert bot_edit.await_count == 3
    for click in (unanswered, other, expired):
        click.edit_original_response.assert_not_awaited()
    assert len(listener.tokens) == 0  # the expired one was dropped


async def test_a_refused_token_falls_back_to_the_bot_token_once_and_is_dropped():
    for status, code in ((401, 50027), (404, 10008)):
        listener, bot_edit, _ = _listener()
        click = _click(DM_VIEW)
        click.edit_original_response.side_effect = discord.HTTPException(
            SimpleNamespace(status=status, reason="refused"), {"code": code, "message": "no"}
        )
        listener.private.remember_click(TABLE, SEAT, click)
        await _edit(listener)
        bot_edit.assert_awaited_once()
        assert listener.tokens.fresh(KEY, DM_VIEW) is None  # not tried again
        await _edit(listener)
        assert click.edit_original_response.await_count == 1 and bot_edit.await_count == 2


async def test_expired_tokens_are_swept_even_if_never_used_again():
    from bot.ui.tokens import PRUNE_EVERY

    listener, _, clock = _listener()
    listener.private.remember_click(TABLE, SEAT, _click(DM_VIEW))
    clock.now += LIFETIME
    for n in range(PRUNE_EVERY):  # other clicks elsewhere
        listener.tokens.offer(("dm", TABLE + 1 + n, SEAT), _click(DM_VIEW + 1 + n), DM_VIEW + 1 + n)
    assert len(listener.tokens) == PRUNE_EVERY  # the fresh ones only: the expired one swept


async def test_a_table_end_keeps_the_last_dm_click_for_the_next_hand_only_while_fresh():
    """At a table's end its DM click tokens go, but each player's last one is kept for their
    next table's first hand (``bot/ui/dm_followup.py``); an expired one is not."""
    from bot.ui.view_kit import next_dm_key

    listener, _, clock = _listener()
    click = _click(DM_VIEW)
    listener.private.remember_click(TABLE, SEAT, click)
    listener.kit.ends.over(TABLE, [SEAT])
    assert listener.tokens.fresh(KEY, None) is None  # the table's own: gone
    kept = listener.tokens.fresh(next_dm_key(SEAT), None)
    assert kept is not None and kept.interaction is click
    listener.tokens.drop(next_dm_key(SEAT))
    listener.private._slots.of((TABLE + 1, SEAT)).message_id = DM_VIEW + 1
    listener.private.remember_click(TABLE + 1, SEAT, _click(DM_VIEW + 1))
    clock.now += LIFETIME
    listener.kit.ends.over(TABLE + 1, [SEAT])
    assert listener.tokens.fresh(next_dm_key(SEAT), None) is None  # expired: not kept
    assert len(listener.tokens) == 0
