"""Computer players: legal choices from the view only, and the normal heuristic's habits."""

from __future__ import annotations

import random

import pytest

from games.amapatolli import GAME
from tests.games.amapatolli.helpers import SEATS, act, make, play


def choose(state, seat_index, level="normal", seed=0):
    seat = state.seats[seat_index]
    legal = GAME.legal_actions(state, seat)
    return GAME.choose_action(GAME.view(state, seat), legal, level, random.Random(seed))


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_every_level_picks_a_legal_action(level):
    state = GAME.new(SEATS[:4], "ai")
    for seed in range(20):
        action = choose(state, 0, level, seed)
        assert action in GAME.legal_actions(state, "ana")


def test_normal_announces_ce_and_calls_out_whoever_forgot():
    state = make([["a04", "a20"], ["b01", "b04", "b05"], ["c01", "c02"]], "a02", ["d01", "d02"])
    state, _ = act(state, 0, play("a04"))
    assert choose(state, 0).kind == "announce"  # even though it is not her turn
    assert choose(state, 2).kind == "catch"
    assert choose(state, 1).kind == "catch"  # the next player catches her before playing


def test_normal_declines_when_it_has_nothing_optional_to_do():
    state = make([["a04", "a20", "a09"], ["b01", "b04"]], "a02", ["d01"])
    assert choose(state, 1) is None


def test_normal_answers_a_bird_with_a_bird():
    state = make([["a16", "a01", "a03"], ["b15", "b01", "b03"], ["c01"]], "a20", ["d01"])
    state, _ = act(state, 0, play("a16"))
    assert choose(state, 1) == play("b15")


def test_normal_keeps_the_tlapiani_while_other_cards_play():
    # ana holds a Tlapiāni and a04 (W/K, matches W/R); nobody is close to going out
    state = make(
        [["tw", "a04", "a20", "a06"], ["b03", "b05", "b06"], ["c01", "c03", "c05"]],
        "a02",
        ["d01"],
    )
    assert choose(state, 0) == play("a04")


def test_normal_uses_the_tlapiani_when_nothing_else_plays_naming_its_best_colour():
    # on W/R only the Tlapiāni plays; the rest of the hand is black (a06 K/K, a18 K/K, a20 B/K)
    state = make(
        [["tr", "a06", "a18", "a20"], ["b03", "b05", "b06"], ["c01", "c03"]], "a02", ["d01"]
    )
    assert choose(state, 0) == play("tr", "black")


def test_normal_keeps_birds_unless_the_next_player_is_close_to_going_out():
    # a16 (B/B bird) and a20 (B/K) both match a19 (B/R)... a20 is chosen while ben has cards
    hands = [["a16", "a20", "a03", "a06"], ["b01", "b02", "b03"], ["c01", "c02", "c03"]]
    state = make(hands, "a19", ["d01"])
    assert choose(state, 0) == play("a20")
    hands[1] = ["b01"]
    state = make(hands, "a19", ["d01"])
    assert choose(state, 0) == play("a16")


def test_normal_prefers_a_double_play_it_can_follow_up():
    # on a02 (W/R): b02 is a double match and a04 (W/K) can follow it; a14 (K/R) plays singly
    state = make([["b02", "a04", "a14", "a06"], ["b01", "b03", "b05"]], "a02", ["d01"])
    assert choose(state, 0) == play("b02")


def test_normal_sheds_the_higher_value():
    # a04 (W/K, 4) and a14 (K/R, 14) both match W/R singly; the rest matches neither
    state = make([["a04", "a14", "a08"], ["b01", "b03", "b05"]], "a02", ["d01"])
    assert choose(state, 0) == play("a14")


def test_normal_goes_out_when_it_can():
    state = make([["tw"], ["b01", "b03"]], "a02", ["d01"])
    assert choose(state, 0).card == "tw"


def test_ai_only_sees_its_view():
    state = GAME.new(SEATS[:3], "peek")
    view = GAME.view(state, "ana")
    assert [c.id for c in view.hand] == state.hands[0]
    assert not any(c.id in state.hands[1] for c in view.hand)
