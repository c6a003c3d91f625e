"""Work a payload does once, not per use (issue 29 item 2): seat names are worked out once per
table, language and seats, and the V2 limits are checked in one walk of the view that still
catches too much text (more than 40 components discord.py refuses itself, as they are added)."""

from __future__ import annotations

import discord
import pytest

from bot.i18n import translator
from bot.registry import load_games
from bot.ui import messages, v2
from bot.ui.messages import seat_names
from bot.ui.payload_memos import HANDS_KEPT, NAMES_KEPT, PayloadMemos
from bot.ui.presenter import presenter_for
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
    known = PayloadMemos().names
    names = seat_names(table, translator("es"), known)
    for _ in range(5):
        assert names("seatid-alpha") == "Ana" and names("seatid-bravo") == "Beto"
    assert names("seatid-stranger") == "seatid-stranger" and names(None) == "—"
    assert walks == [["Ana", "Beto"]]
    assert seat_names(table, translator("es"), known)("seatid-bravo") == "Beto"  # kept
    assert len(walks) == 1
    assert seat_names(table, translator("es"))("seatid-bravo") == "Beto"  # none kept: a walk
    assert len(walks) == 2
    walks.clear()

    # the computer takes Beto's seat: the record's seats are a new list, named anew
    bravo = table.record.seats[1]
    taken = bravo.model_copy(update={"cpu_level": "easy"})
    table.record.seats = [table.record.seats[0], taken]
    es = seat_names(table, translator("es"), known)("seatid-bravo")
    assert es == translator("es")(
        "seat.cpu_name", name="Beto", level=translator("es")("level.easy")
    )
    assert len(walks) == 1
    en = seat_names(table, translator("en"), known)("seatid-bravo")  # another language
    assert en == translator("en")(
        "seat.cpu_name", name="Beto", level=translator("en")("level.easy")
    )
    assert en != es and len(walks) == 2
    other = table_for(GAME, state, 8)  # another table: its own names
    assert seat_names(other, translator("es"), known)("seatid-alpha") == "Ana"
    assert len(walks) == 3


def test_kept_seat_names_are_bounded():
    """The oldest table named goes first once ``names_kept`` tables are kept."""
    known = PayloadMemos(names_kept=2).names
    state = GAME.new(["seatid-alpha", "seatid-bravo"], "names-bounded", None)
    for table_id in (1, 2, 3):
        seat_names(table_for(GAME, state, table_id), translator("es"), known)
    assert list(known.entries) == [(2, "es"), (3, "es")]
    memos = PayloadMemos()
    assert memos.names.entries.at_most == NAMES_KEPT and memos.hands.entries.at_most == HANDS_KEPT


def test_a_bot_s_presenters_share_its_memos_and_two_bots_share_nothing():
    """Seat names and kept hands live with a bot's presenters (``presenter_for``'s memos, one
    per bot), not in the process: a hand kept by one bot is not another bot's."""
    memos = PayloadMemos()
    games = load_games()
    mine = [presenter_for(game, memos) for game in games.values()]
    assert all(p.memos is memos for p in mine)
    other = presenter_for(GAME)
    assert other.memos is not memos
    state = GAME.new(["seatid-alpha", "seatid-bravo"], "two-bots", None)
    table = table_for(GAME, state, 7)
    chupate2 = next(p for p in mine if p.key == GAME.key)
    messages.private_payload(table, chupate2, "seatid-alpha", translator("es"))
    assert list(memos.hands.entries) == [(7, "seatid-alpha")]
    assert list(memos.names.entries) == [(7, "es")]
    assert other.memos.hands.entries == {} and other.memos.names.entries == {}


def test_the_limits_check_still_refuses_too_much_text():
    fine = v2.card_view(v2.Card(title="t", colour=None, text="x" * 100))
    v2.check_v2_limits(fine)
    long = discord.ui.LayoutView(timeout=None)
    long.add_item(discord.ui.Container(*(discord.ui.TextDisplay("y" * 1500) for _ in range(3))))
    with pytest.raises(ValueError, match="characters of text"):
        v2.check_v2_limits(long)


def _built_hands(monkeypatch) -> list[tuple[str, int]]:  # type: ignore[no-untyped-def]
    """The private payloads actually built (not copied), by seat and version, from now on."""
    built: list[tuple[str, int]] = []
    real = messages._private_payload

    def counting(table, presenter, seat, tr, page, draft, view):  # type: ignore[no-untyped-def]
        built.append((seat, table.state.version))
        return real(table, presenter, seat, tr, page, draft, view)

    monkeypatch.setattr(messages, "_private_payload", counting)
    return built


def _shown(payload) -> object:  # type: ignore[no-untyped-def]
    return payload.view.to_components()


def test_a_hand_built_again_for_the_same_inputs_is_a_copy(monkeypatch):
    """The same seat, version, page and language without a draft: the last payload's copy, the
    same JSON, its layout its own (a note or an image on one leaves the other as built)."""
    built = _built_hands(monkeypatch)
    state = GAME.new(["seatid-alpha", "seatid-bravo"], "hands-kept", None)
    table = table_for(GAME, state, 7)
    presenter = presenter_for(GAME)
    es = translator("es")
    first = messages.private_payload(table, presenter, "seatid-alpha", es)
    shown = _shown(first)
    v2.add_notice(first.view, "una nota")  # what a sender does to its own payload
    first.view.alt = "drawn"
    again = messages.private_payload(table, presenter, "seatid-alpha", es)
    assert built == [("seatid-alpha", state.version)]
    assert _shown(again) == shown and again.view is not first.view
    assert again.view.texts is not first.view.texts and again.view.alt is None
    assert again.image is first.image


def test_a_kept_hand_is_built_anew_when_an_input_changes(monkeypatch):
    """Another seat (never another seat's payload), version, page, language, seats list or
    game (a rematch counts versions again) builds anew; a draft is never kept."""
    built = _built_hands(monkeypatch)
    state = GAME.new(["seatid-alpha", "seatid-bravo"], "hands-anew", None)
    table = table_for(GAME, state, 7)
    presenter = presenter_for(GAME)
    es, en = translator("es"), translator("en")
    alpha = messages.private_payload(table, presenter, "seatid-alpha", es)
    bravo = messages.private_payload(table, presenter, "seatid-bravo", es)
    assert _shown(bravo) != _shown(alpha) and len(built) == 2
    messages.private_payload(table, presenter, "seatid-alpha", es)  # (kept: alpha's last)
    messages.private_payload(table, presenter, "seatid-alpha", en)
    messages.private_payload(table, presenter, "seatid-alpha", en, page=1)
    messages.private_payload(table, presenter, "seatid-alpha", en, page=1, draft={"x": 1})
    messages.private_payload(table, presenter, "seatid-alpha", en, page=1, draft={"x": 1})
    assert len(built) == 6
    seat = next(iter(GAME.to_act(state)))
    table.state, _ = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    moved = messages.private_payload(table, presenter, "seatid-alpha", en, page=1)
    assert built[-1] == ("seatid-alpha", table.state.version) and len(built) == 7
    table.record.seats = list(table.record.seats)  # the seats replaced (a computer took one)
    messages.private_payload(table, presenter, "seatid-alpha", en, page=1)
    assert len(built) == 8
    rematch = GAME.new(["seatid-alpha", "seatid-bravo"], "hands-rematch", None)
    for _ in range(table.state.version - rematch.version):  # the same version, another game
        mover = next(iter(GAME.to_act(rematch)))
        rematch, _ = GAME.apply(rematch, mover, GAME.legal_actions(rematch, mover)[0])
    assert rematch.version == table.state.version and rematch.seed != table.state.seed
    table.state = rematch
    again = messages.private_payload(table, presenter, "seatid-alpha", en, page=1)
    assert len(built) == 9 and _shown(again) != _shown(moved)


def test_kept_hands_are_bounded(monkeypatch):
    built = _built_hands(monkeypatch)
    state = GAME.new(["seatid-alpha", "seatid-bravo"], "hands-bounded", None)
    presenter = presenter_for(GAME, PayloadMemos(hands_kept=2))
    for table_id in (1, 2, 3):
        messages.private_payload(
            table_for(GAME, state, table_id), presenter, "seatid-alpha", translator("es")
        )
    assert list(presenter.memos.hands.entries) == [(2, "seatid-alpha"), (3, "seatid-alpha")]
    assert len(built) == 3
