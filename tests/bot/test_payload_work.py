"""Work a payload does once, not per use (issue 29 item 2): seat names are worked out once per
table, language and seats, and the V2 limits are checked in one walk of the view that still
catches too much text (more than 40 components discord.py refuses itself, as they are added)."""

from __future__ import annotations

import discord
import pytest

from bot.i18n import translator
from bot.ui import messages, v2
from bot.ui.messages import seat_names
from games.chupate2 import GAME
from tests.bot.presenter_kit import table_for


def test_seat_names_are_worked_out_once_per_table_language_and_seats(monkeypatch):
    """Every seat's name is worked out in one walk of the table's seats and kept for the next
    payloads of that table and language (a name not of the table: its id); a new list of
    seats (a join, a computer taking a seat over) or another language names them anew."""
    state = GAME.new(["seatid-alpha", "seatid-bravo"], "names-once", None)
    table = table_for(GAME, state, 7)
    walks: list[list[str]] = []
    real = messages._names_of

    def counting(seats, tr):  # type: ignore[no-untyped-def]
        named = real(seats, tr)
        walks.append(sorted(named.values()))
        return named

    monkeypatch.setattr(messages, "_names_of", counting)
    monkeypatch.setattr(messages, "_NAMES", {})
    names = seat_names(table, translator("es"))
    for _ in range(5):
        assert names("seatid-alpha") == "Ana" and names("seatid-bravo") == "Beto"
    assert names("seatid-stranger") == "seatid-stranger" and names(None) == "—"
    assert walks == [["Ana", "Beto"]]
    assert seat_names(table, translator("es"))("seatid-bravo") == "Beto"  # kept: no new walk
    assert len(walks) == 1

    # the computer takes Beto's seat: the record's seats are a new list, named anew
    bravo = table.record.seats[1]
    taken = bravo.model_copy(update={"cpu_level": "easy"})
    table.record.seats = [table.record.seats[0], taken]
    es = seat_names(table, translator("es"))("seatid-bravo")
    assert es == translator("es")(
        "seat.cpu_name", name="Beto", level=translator("es")("level.easy")
    )
    assert len(walks) == 2
    en = seat_names(table, translator("en"))("seatid-bravo")  # another language: its own names
    assert en == translator("en")(
        "seat.cpu_name", name="Beto", level=translator("en")("level.easy")
    )
    assert en != es and len(walks) == 3
    other = table_for(GAME, state, 8)  # another table: its own names
    assert seat_names(other, translator("es"))("seatid-alpha") == "Ana" and len(walks) == 4


def test_kept_seat_names_are_bounded(monkeypatch):
    """The oldest table named goes first once ``NAMES_KEPT`` tables are kept."""
    monkeypatch.setattr(messages, "_NAMES", {})
    monkeypatch.setattr(messages, "NAMES_KEPT", 2)
    state = GAME.new(["seatid-alpha", "seatid-bravo"], "names-bounded", None)
    for table_id in (1, 2, 3):
        seat_names(table_for(GAME, state, table_id), translator("es"))
    assert list(messages._NAMES) == [(2, "es"), (3, "es")]


def test_the_limits_check_still_refuses_too_much_text():
    fine = v2.card_view(v2.Card(title="t", colour=None, text="x" * 100))
    v2.check_v2_limits(fine)
    long = discord.ui.LayoutView(timeout=None)
    long.add_item(discord.ui.Container(*(discord.ui.TextDisplay("y" * 1500) for _ in range(3))))
    with pytest.raises(ValueError, match="characters of text"):
        v2.check_v2_limits(long)
