"""Which token edits a DM view (``DiscordTableListener._edit_dm``): the webhook of the latest
click on that very message while it is answered and fresh (exempt from the global limit), the
bot token otherwise. Stand-ins for discord.py's objects; no network."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from unittest.mock import AsyncMock, MagicMock

import discord

from bot.ui.listener import DiscordTableListener, Slot
from bot.ui.payload import Payload

DM_VIEW = 555


def _listener() -> tuple[DiscordTableListener, AsyncMock]:
    bot_edit = AsyncMock()
    channel = MagicMock()
    channel.get_partial_message.return_value = SimpleNamespace(edit=bot_edit)
    host = MagicMock()
    host.get_partial_messageable.return_value = channel
    host.create_dm = AsyncMock(return_value=SimpleNamespace(id=42))
    return DiscordTableListener(host), bot_edit


def _click(message_id: int, answered: bool = True) -> MagicMock:
    click = MagicMock()
    click.message = SimpleNamespace(id=message_id)
    click.response.is_done.return_value = answered
    click.edit_original_response = AsyncMock()
    return click


async def _edit(listener: DiscordTableListener, slot: Slot) -> None:
    await listener._edit_dm("123", slot, Payload(content="view"))


async def test_a_dm_view_is_edited_through_the_latest_answered_click_on_it():
    listener, bot_edit = _listener()
    slot = Slot(message_id=DM_VIEW)
    click = _click(DM_VIEW)
    listener._remember_click(slot, click)
    await _edit(listener, slot)
    click.edit_original_response.assert_awaited_once()
    bot_edit.assert_not_awaited()


async def test_the_bot_token_edits_when_the_click_is_unanswered_stale_or_elsewhere():
    listener, bot_edit = _listener()
    late = Slot(message_id=DM_VIEW)
    listener._remember_click(late, unanswered := _click(DM_VIEW, answered=False))
    old = Slot(message_id=DM_VIEW)
    listener._remember_click(old, expired := _click(DM_VIEW))
    old.hook_until = asyncio.get_running_loop().time() - 1
    moved_on = Slot(message_id=DM_VIEW)
    listener._remember_click(moved_on, older_message := _click(DM_VIEW))
    moved_on.message_id = DM_VIEW + 1  # a new DM view since: that click edits the old one
    other = Slot(message_id=DM_VIEW)
    listener._remember_click(other, _click(DM_VIEW - 1))  # a click on another message
    for slot in (late, old, moved_on, other):
        await _edit(listener, slot)
    assert bot_edit.await_count == 4
    for click in (unanswered, expired, older_message):
        click.edit_original_response.assert_not_awaited()
    assert other.hook is None


async def test_a_failed_webhook_edit_falls_back_to_the_bot_token():
    listener, bot_edit = _listener()
    slot = Slot(message_id=DM_VIEW)
    click = _click(DM_VIEW)
    click.edit_original_response.side_effect = discord.NotFound(
        SimpleNamespace(status=404, reason="Not Found"), "Unknown Webhook"
    )
    listener._remember_click(slot, click)
    await _edit(listener, slot)
    bot_edit.assert_awaited_once()
    assert slot.hook is None  # not tried again
