"""The house rules on Discord: the 7's swap buttons name the players, a jump-in is offered to a
player out of turn, and the new events read as sentences in both languages."""

from __future__ import annotations

from bot.i18n import translator
from bot.ui.chupate2.presenter import Presenter
from bot.ui.messages import private_payload, public_payload
from games.chupate2 import GAME
from tests.bot.presenter_kit import (
    SEAT_IDS,
    SEAT_NAMES,
    StubService,
    components,
    table_for,
    text_presenter,
)
from tests.bot.test_messages import _check_limits
from tests.games.chupate2.helpers import act, make_state

PRESENTER = text_presenter(Presenter, GAME)
A, B, C = SEAT_IDS[:3]


def _offers(payload) -> set[str]:
    found = set()
    for c in components(payload):
        if c["type"] == 2 and c["custom_id"].startswith("t:"):
            found.add(c["custom_id"].split(":", 3)[3])
        if c["type"] == 3 and c["custom_id"].startswith("ts:"):
            found |= {o["value"] for o in c["options"]}
    return found


def _labels(payload) -> list[str]:
    return [c.get("label", "") for c in components(payload) if c["type"] == 2]


def test_swap_buttons_name_the_players_and_the_events_read_well():
    hands = {A: ["r7a", "g1a"], B: ["y1a", "y2a"], C: ["b1a"]}
    options = {"seven_o": True, "jump_in": True}
    state, _ = act(make_state(hands, "r5a", options=options), A, "p.r7a")
    for locale in ("es", "en"):
        tr = translator(locale)
        table = table_for(GAME, state, 7)
        mine = private_payload(table, PRESENTER, A, tr)
        _check_limits(mine)
        assert _offers(mine) == {"swap.1", "swap.2"}
        labels = " ".join(_labels(mine))
        assert SEAT_NAMES[1] in labels and SEAT_NAMES[2] in labels
        _check_limits(public_payload(table, PRESENTER, StubService(), tr))
    after, events = act(state, A, "swap.1")
    names = {s: n for s, n in zip(SEAT_IDS, SEAT_NAMES, strict=False)}
    for locale in ("es", "en"):
        text = PRESENTER.event_text(events[0], names.__getitem__, translator(locale))
        assert text and SEAT_NAMES[0] in text and SEAT_NAMES[1] in text and "{" not in text


def test_jump_in_offered_out_of_turn_and_told_to_the_table():
    hands = {A: ["g1a", "g2a"], B: ["y1a"], C: ["r5b", "b3a"]}
    state = make_state(hands, "r5a", options={"jump_in": True})
    tr = translator("es")
    table = table_for(GAME, state, 7)
    assert "p.r5b" in _offers(private_payload(table, PRESENTER, C, tr))
    _, events = act(state, C, "p.r5b")
    names = {s: n for s, n in zip(SEAT_IDS, SEAT_NAMES, strict=False)}
    lines = [PRESENTER.event_text(e, names.__getitem__, tr) for e in events]
    assert lines[0] and SEAT_NAMES[2] in lines[0] and "{" not in lines[0]


def test_several_cards_drawn_until_playable_read_as_one_sentence():
    hands = {A: ["g1a"], B: ["y1a"], C: ["b1a"]}
    options = {"draw_until_playable": True}
    state = make_state(hands, "r5a", options=options, stock_top=["y2a", "b7a", "r9a"])
    _, events = act(state, A, "draw")
    drew = next(e for e in events if e.code == "drew")
    names = {s: n for s, n in zip(SEAT_IDS, SEAT_NAMES, strict=False)}
    for locale in ("es", "en"):
        text = PRESENTER.event_text(drew, names.__getitem__, translator(locale))
        assert "3" in text and SEAT_NAMES[0] in text
