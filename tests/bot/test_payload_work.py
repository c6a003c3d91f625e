"""Work a payload does once, not per use (issue 29 item 2): seat names are worked out once per
payload, and the V2 limits are checked in one walk of the view that still catches too much text
(more than 40 components discord.py refuses itself, as they are added)."""

from __future__ import annotations

import discord
import pytest

from bot.i18n import translator
from bot.ui import messages, v2
from bot.ui.messages import seat_names
from games.chupate2 import GAME
from tests.bot.presenter_kit import table_for


def test_a_seat_name_is_looked_up_once_per_payload(monkeypatch):
    """Every seat's name is worked out in one walk of the table's seats, at the first name a
    payload asks for, and read from it after (a name not of the table: its id)."""
    state = GAME.new(["seatid-alpha", "seatid-bravo"], "names-once", None)
    table = table_for(GAME, state, 7)
    walks: list[list[str]] = []
    real = messages._seat_names

    def counting(table, tr, into):  # type: ignore[no-untyped-def]
        real(table, tr, into)
        walks.append(sorted(into))

    monkeypatch.setattr(messages, "_seat_names", counting)
    names = seat_names(table, translator("es"))
    for _ in range(5):
        assert names("seatid-alpha") == "Ana" and names("seatid-bravo") == "Beto"
    assert walks == [["seatid-alpha", "seatid-bravo"]]
    assert names("seatid-stranger") == "seatid-stranger" and len(walks) == 1
    assert seat_names(table, translator("es"))("seatid-bravo") == "Beto"  # a new payload asks again
    assert len(walks) == 2


def test_the_limits_check_still_refuses_too_much_text():
    fine = v2.card_view(v2.Card(title="t", colour=None, text="x" * 100))
    v2.check_v2_limits(fine)
    long = discord.ui.LayoutView(timeout=None)
    long.add_item(discord.ui.Container(*(discord.ui.TextDisplay("y" * 1500) for _ in range(3))))
    with pytest.raises(ValueError, match="characters of text"):
        v2.check_v2_limits(long)
