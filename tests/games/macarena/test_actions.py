"""Action texts: compact, ≤ 60 characters, exact round trips, junk rejected."""

import pytest

from games.core import IllegalAction
from games.core.cards import two_decks
from games.macarena import (
    GAME,
    BuyElement,
    Draw,
    GiveElement,
    MoveMaca,
    Pass,
    Play,
    decode_draft,
    encode_draft,
)
from games.macarena.actions import MAX_SERIES


def test_every_kind_round_trips():
    faces = [c.code for c in two_decks()[:52]]
    actions = [
        Draw(),
        Pass(),
        MoveMaca(source=6),
        GiveElement(element="water"),
        BuyElement(element="earth"),
        Play(pozo=0, cards=("AS",)),
        Play(pozo=6, cards=tuple(faces[:MAX_SERIES])),
    ] + [Play(pozo=3, cards=(f,)) for f in faces]
    for action in actions:
        text = action.encode()
        assert len(text) <= 60 and text.isascii()
        assert GAME.decode_action(text) == action


def test_faces_are_canonical():
    assert Play(pozo=1, cards=("10h", "T♣", "q♦")).cards == ("10H", "10C", "QD")


@pytest.mark.parametrize(
    "text",
    [
        "",
        "p",
        "p.7.A",
        "p.0",
        "p.0.?",
        "p.0.A.A",
        "p.00.A",
        "p.0.",
        "m.7",
        "m.03",
        "m.1.2",
        "g.z",
        "b.x",
        "g.e.a",
        "d.d",
        "x.x",
        "q",
        "p.0." + "A" * 57,
        "d" * 61,
        "g",
        "m",
        # the old compact forms are not actions any more
        "p7A",
        "p0A",
        "m3",
        "ge",
        "dd",
        "xx",
    ],
)
def test_junk_is_rejected(text):
    with pytest.raises(IllegalAction) as err:
        GAME.decode_action(text)
    assert err.value.code == "bad_action"


def test_series_drafts_for_the_builder():
    assert encode_draft(2, []) == "p.2"
    assert decode_draft("p.2") == (2, [])
    text = encode_draft(4, ["10H", "JH"])
    assert text == Play(pozo=4, cards=("10H", "JH")).encode() == "p.4.MN"
    assert decode_draft(text) == (4, ["10H", "JH"])
    for bad in ("", "xx", "draw.1", "p", "p.9", "p.1.?", "p.1.", "p.1.A.B", "d.1", "p2"):
        with pytest.raises(IllegalAction):
            decode_draft(bad)


def test_forged_actions_fail_without_changing_the_state():
    state = GAME.new(["a", "b"], "forge")
    seat = state.seats[state.turn]
    other = next(s for s in state.seats if s != seat)
    before = GAME.dump_state(state)
    for who, action, code in [
        (other, Draw(), "not_your_turn"),
        (seat, Pass(), "wrong_phase"),
        (seat, Play(pozo=0, cards=("AS",)), "wrong_phase"),
        ("zed", Draw(), "not_a_player"),
    ]:
        with pytest.raises(IllegalAction) as err:
            GAME.apply(state, who, action)
        assert err.value.code == code
    assert GAME.dump_state(state) == before


def test_player_counts():
    for n in (1, 6):
        with pytest.raises(IllegalAction) as err:
            GAME.new([f"s{i}" for i in range(n)], "x")
        assert err.value.code == "player_count"
    state = GAME.new(["a", "b", "c", "d", "e"], "five")
    assert len(state.stock) == 104 - 35 - 7 and all(len(h) == 7 for h in state.hands.values())


def test_first_starter_is_random_by_seed_and_play_passes_to_the_right():
    starters = {GAME.new(["a", "b", "c"], f"s{i}").starter for i in range(30)}
    assert starters == {0, 1, 2}
    state = GAME.new(["a", "b", "c"], "s1")
    assert GAME.new(["a", "b", "c"], "s1") == state  # same seed, same deal
    seat = state.seats[state.turn]
    state, _ = GAME.apply(state, seat, Draw())
    state, _ = GAME.apply(state, seat, Pass())
    assert state.turn == (state.seats.index(seat) - 1) % 3
