"""What the bot keeps in memory stays bounded (issue 29: bot RSS <= 400 MB at 1,000 busy
tables; ``bench/memory_census.py`` finds what grows): each bound here fails its test if it
goes. The image cache's bound is ``tests/bot/test_rendering.py``'s."""

from __future__ import annotations

import gc
from typing import Any

import discord
import pytest

from bot.i18n import translator
from bot.ui import payload as sending
from bot.ui.ephemeral import EphemeralViews
from bot.ui.payload import Payload
from bot.ui.tokens import Tokens
from tests.bot.test_token_wire import BASE, CLICK, Wire, _card, _click, _unbounded


@pytest.fixture
def wire(monkeypatch: pytest.MonkeyPatch) -> Wire:
    monkeypatch.setattr(discord.http.Route, "BASE", BASE)
    return Wire()


async def test_a_kept_token_edits_as_its_click_but_holds_nothing_of_the_click(wire):
    """A hook keeps an interaction's token for 14 minutes, not its click's gateway event (the
    clicked message's payload, the clicker, the options: ~9 KB a hook)."""
    click = _click(wire)
    tokens = Tokens(clock=lambda: 0.0)
    tokens.offer("public", click, 2, received=0.0)
    await click.followup.edit_message("@original", view=_card())  # type: ignore[arg-type]
    hook = tokens.fresh("public", 2)
    assert hook is not None
    kept: Any = hook.interaction
    assert (kept.message, kept.data, kept.user, kept.channel) == (None, None, None, None)
    assert (kept.id, kept.token, kept.application_id) == (click.id, CLICK["token"], 1)
    assert kept.created_at == click.created_at
    await hook.edit({"view": _card()})  # as the views edit through it
    theirs, ours = (_unbounded(r) for r in wire.sent)
    assert ours == theirs
    clicked = (click.message, click.data, click.user)
    assert clicked[0] is not None
    assert not [o for o in gc.get_referents(kept) if any(o is c for c in clicked)]


async def test_a_live_hand_keeps_its_token_and_the_clicked_message_id_not_the_click(wire):
    """A live "Ver mi mano" hand keeps the token of the interaction that answered on it and
    the id of the message clicked (the hand it edits), not the click's gateway event; it edits
    as the click itself would."""
    click = _click(wire)
    views = EphemeralViews(clock=lambda: 0.0)
    views.remember(1, "u", click, translator("es"), version=3)
    view = views.live(1, "u")
    assert view is not None and view.shown_id == click.message.id  # type: ignore[union-attr]
    kept: Any = view.interaction
    assert (kept.message, kept.data, kept.user, kept.channel) == (None, None, None, None)
    assert (kept.id, kept.token) == (click.id, CLICK["token"])
    clicked = (click.message, click.data, click.user)
    assert not [o for o in gc.get_referents(kept) if any(o is c for c in clicked)]
    # the full click through the same sender, then the kept view
    await sending.edit_followup(click, 0, Payload(view=_card()).edit_kwargs(), ref="@original")
    await view.edit(Payload(view=_card()))
    theirs, ours = (_unbounded(r) for r in wire.sent)
    assert ours == theirs
