"""bot/ui/ephemeral.py: which "Ver mi mano" answer may still be edited (the token's 15 minutes on
the bot's own clock, with a minute to spare), live updates, and retiring a replaced hand."""

from types import SimpleNamespace
from unittest.mock import AsyncMock

import discord
import pytest

from bot.i18n import translator
from bot.ui import payload as sending
from bot.ui.ephemeral import MARGIN, TOKEN_LIFETIME, EphemeralViews
from bot.ui.payload import Payload
from tests.message_text import clickable, text_of


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(autouse=True)
def _edits_through_the_interaction(monkeypatch):
    """The hands' edits go out as ``payload.edit_followup`` requests (the wire form is
    ``tests/bot/test_token_wire.py``'s): here they land on the interaction's own methods, which
    these tests watch."""

    async def edit(interaction, message_id, kwargs, *, ref=None):
        if ref == "@original":
            await interaction.edit_original_response(**kwargs)
        else:
            await interaction.followup.edit_message(message_id, **kwargs)

    monkeypatch.setattr(sending, "edit_followup", edit)


def _interaction(message_id: int = 1):
    return SimpleNamespace(
        message=SimpleNamespace(id=message_id),
        edit_original_response=AsyncMock(),
        followup=SimpleNamespace(edit_message=AsyncMock()),
    )


def _hand(tr) -> Payload:
    return Payload(content="hand")


async def test_an_answer_is_edited_only_while_its_token_has_a_minute_left():
    clock = Clock()
    views = EphemeralViews(clock)
    press = _interaction()
    views.remember(1, "u", press, translator("es"), message_id=9, version=3, pressed=True)
    clock.now += TOKEN_LIFETIME - MARGIN - 1
    assert views.live(1, "u") is not None
    assert views.live(2, "u") is None and views.live(1, "v") is None
    await views.update(1, "u", _hand, 4)
    press.followup.edit_message.assert_awaited_once()  # the follow-up, through the press
    await views.update(1, "u", _hand, 4)  # shown already: not again
    press.followup.edit_message.assert_awaited_once()
    clock.now += 2
    assert views.live(1, "u") is None  # too old: the next press posts a new answer


async def test_a_refused_live_edit_forgets_the_hand():
    views = EphemeralViews(Clock())
    press = _interaction()
    press.followup.edit_message.side_effect = discord.HTTPException(
        SimpleNamespace(status=401, reason="no"),
        {"code": 50027, "message": "Invalid Webhook Token"},
    )
    views.remember(1, "u", press, translator("es"), message_id=9, version=3, pressed=True)
    await views.update(1, "u", _hand, 4)
    assert views.live(1, "u") is None  # dismissed or expired early: a press makes a new one


async def test_a_click_on_another_hand_retires_the_old_one():
    views = EphemeralViews(Clock())
    old = _interaction()
    views.remember(1, "u", old, translator("es"), message_id=9, version=3, pressed=True)
    views.remember(1, "u", _interaction(message_id=12), translator("es"), version=4)
    await views.drain()
    (kwargs,) = [c.kwargs for c in old.followup.edit_message.await_args_list]
    # a V2 hand stays V2: the note is a container, with nothing to click
    assert not kwargs["content"] and kwargs["view"].has_components_v2()
    assert not clickable(kwargs) and "ya no se actualiza" in text_of(kwargs)


async def test_the_end_forgets_the_table_s_views():
    views = EphemeralViews(Clock())
    views.remember(1, "u", _interaction(), translator("es"))
    views.remember(2, "u", _interaction(), translator("es"))
    views._views[(1, "u")].done = True  # (shown its last edit already)
    await views.table_closed(1, ["u"], _hand)
    assert views.live(1, "u") is None and views.live(2, "u") is not None


async def test_a_press_answered_with_the_hand_is_that_hand_not_the_table_it_was_pressed_on():
    """A "Ver mi mano" press answered with the hand as its own message (``answer_id``): a
    click on that hand is a click on the live one (nothing retires), and its edits go to the
    press's own response; a click on another hand retires it."""
    views = EphemeralViews(Clock())
    press = _interaction(message_id=5)  # the public table it was pressed on
    views.remember(1, "u", press, translator("es"), version=3, pressed=True, answer_id=20)
    views.remember(1, "u", _interaction(message_id=20), translator("es"), version=4)
    await views.drain()
    press.edit_original_response.assert_not_awaited()  # the same hand: not retired
    assert views.live(1, "u").pressed_at == 3
    clicked = views.live(1, "u").interaction
    views.remember(1, "u", _interaction(message_id=21), translator("es"), version=5)
    await views.drain()
    (kwargs,) = [c.kwargs for c in clicked.edit_original_response.await_args_list]
    assert "ya no se actualiza" in text_of(kwargs)
