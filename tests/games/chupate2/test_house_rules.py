"""Scenarios of the house rules (docs/rules/chupate2.md, "House rules") and of the decisions
added to the spec (challenges on stacks, bluffed +4s, team seating, "¡Última!")."""

from __future__ import annotations

import pytest

from games.chupate2 import GAME
from games.core import IllegalAction
from tests.games.chupate2.helpers import act, assert_conserved, codes, make_state

JUMP = {"jump_in": True}
SEVEN_O = {"seven_o": True}
UNTIL = {"draw_until_playable": True}


def legal(state, seat) -> set[str]:
    return {a.encode() for a in GAME.legal_actions(state, seat)}


def refused(code: str, state, seat: str, text: str) -> None:
    before = GAME.dump_state(state)
    with pytest.raises(IllegalAction) as err:
        act(state, seat, text)
    assert err.value.code == code
    assert GAME.dump_state(state) == before


def turn(state) -> str:
    return state.seats[state.turn]


# ----- jump-in ------------------------------------------------------------------------------
def _jump_state(top="r5a", phase="play", pending=0, options=JUMP, **extra):
    hands = {"a": ["g1a", "g2a"], "b": ["y1a", "y2a"], "c": ["r5b", "b3a"], "d": ["b1a", "b2a"]}
    return make_state(hands, top, phase=phase, pending=pending, options=options, **extra)


def test_jump_in_identical_card_out_of_turn_play_continues_from_the_jumper():
    state = _jump_state()
    assert turn(state) == "a"
    assert legal(state, "c") == {"p.r5b"}  # identical: same colour and number
    assert legal(state, "b") == set()  # a matching colour or number is not enough
    after, events = act(state, "c", "p.r5b")
    assert codes(events)[:2] == ["jumped_in", "played"]
    assert after.discard[-1] == "r5b" and after.hands["c"] == ["b3a"]
    # counter-clockwise from the jumper: c -> b
    assert turn(after) == "b"
    assert_conserved(after)


def test_jump_in_card_effect_applies_as_if_on_the_jumpers_turn():
    hands = {"a": ["g1a", "g2a"], "b": ["y1a", "y2a"], "c": ["rSb", "b3a"], "d": ["b1a"]}
    state = make_state(hands, "rSa", current=0, options=JUMP)
    after, events = act(state, "c", "p.rSb")  # a Salto jumped in skips the jumper's next: b
    assert next(e for e in events if e.code == "skipped").seat == "b"
    assert turn(after) == "a"


def test_jump_in_only_with_the_variant_never_with_a_wild_nor_on_a_pending_draw():
    refused("not_your_turn", _jump_state(options={}), "c", "p.r5b")
    assert legal(_jump_state(options={}), "c") == set()
    # a wild on top: nothing is identical to it
    hands = {"a": ["g1a"], "b": ["y1a"], "c": ["Wb", "b3a"]}
    wild_top = make_state(hands, "Wa", colour="r", options=JUMP)
    assert legal(wild_top, "c") == set()
    refused("not_your_turn", wild_top, "c", "p.Wb.r")
    # a draw penalty pending: not even an identical Chúpate 2 jumps in
    hands = {"a": ["g1a", "g2a"], "b": ["y1a"], "c": ["rDb", "b3a"]}
    penalty = make_state(hands, "rDa", phase="penalty", pending=2, options=JUMP)
    assert legal(penalty, "c") == set()
    refused("not_your_turn", penalty, "c", "p.rDb")


def test_jump_in_not_while_a_challenge_is_pending():
    hands = {"a": ["Fa", "r7a"], "b": ["y1a"], "c": ["g9a"], "d": ["b1a"]}
    state = make_state(hands, "r5a", options=JUMP)
    state, _ = act(state, "a", "p.Fa.g")
    assert state.phase == "challenge"
    assert legal(state, "b") == set()


def test_two_jump_ins_on_the_same_card_the_first_wins_the_other_is_stale():
    state = _jump_state()
    first, _ = act(state, "c", "p.r5b")
    # the current player's move, decided on the old state, no longer fits
    refused("not_your_turn", first, "a", "p.g1a")
    # and the identical card is gone from every other hand: nothing left to jump in with
    assert all(legal(first, s) <= {"draw"} or s == turn(first) for s in first.seats)


def test_jump_in_interrupts_a_player_deciding_on_a_drawn_card():
    hands = {"a": ["g1a", "g2a"], "b": ["y1a"], "c": ["r5b", "b3a"], "d": ["b1a"]}
    state = make_state(hands, "r5a", options=JUMP, stock_top=["r9a"])
    state, _ = act(state, "a", "draw")
    assert state.phase == "drawn"
    after, _ = act(state, "c", "p.r5b")
    assert after.drawn is None and after.phase == "play" and "r9a" in after.hands["a"]
    assert turn(after) == "b"


# ----- 7-0 -----------------------------------------------------------------------------------
def _seven_state(**kw):
    hands = {
        "a": ["r7a", "g1a", "g2a"],
        "b": ["y1a"],
        "c": ["b1a", "b2a", "b3a", "b4a"],
        "d": ["y5a", "y6a"],
    }
    return make_state(hands, "r5a", options={**SEVEN_O, **kw.pop("options", {})}, **kw)


def test_seven_swaps_hands_with_the_chosen_player_after_it_is_placed():
    state = _seven_state()
    state, events = act(state, "a", "p.r7a")
    assert state.discard[-1] == "r7a" and state.phase == "swap" and turn(state) == "a"
    assert legal(state, "a") == {"swap.1", "swap.2", "swap.3"}  # anyone but oneself
    refused("choose_swap_first", state, "a", "draw")
    refused("bad_swap_target", state, "a", "swap.0")
    after, events = act(state, "a", "swap.1")
    assert after.hands["a"] == ["y1a"] and after.hands["b"] == ["g1a", "g2a"]
    assert codes(events) == ["hands_swapped"] and events[0].params == {"target": "b"}
    assert turn(after) == "d" and after.phase == "play"  # play goes on as after a plain 7
    # each player sees only their new hand
    assert GAME.view(after, "a").hand == ["y1a"]
    assert "g1a" not in GAME.view(after, "a").model_dump_json()
    assert_conserved(after)


def test_seven_with_teams_may_swap_with_a_team_mate():
    state = _seven_state(options={"teams": "pairs"})
    state, _ = act(state, "a", "p.r7a")
    assert "swap.2" in legal(state, "a")  # c is a's team-mate (seats 0 and 2)
    after, _ = act(state, "a", "swap.2")
    assert after.hands["c"] == ["g1a", "g2a"]


def test_zero_passes_every_hand_to_the_next_player_in_direction():
    hands = {"a": ["r0a", "g1a"], "b": ["y1a"], "c": ["b1a", "b2a"], "d": ["y5a", "y6a", "y7a"]}
    state = make_state(hands, "r5a", options=SEVEN_O)  # counter-clockwise: a -> d -> c -> b
    after, events = act(state, "a", "p.r0a")
    assert "hands_passed" in codes(events)
    assert after.hands == {
        "a": ["y1a"],
        "b": ["b1a", "b2a"],
        "c": ["y5a", "y6a", "y7a"],
        "d": ["g1a"],
    }
    assert turn(after) == "d"
    assert_conserved(after)


def test_seven_and_zero_are_plain_numbers_without_the_variant():
    state = _seven_state(options={})
    state = state.model_copy(
        update={"options": state.options.model_copy(update={"seven_o": False})}
    )
    after, _ = act(state, "a", "p.r7a")
    assert after.phase == "play" and turn(after) == "d"


def test_a_last_seven_ends_the_round_without_a_swap():
    hands = {"a": ["r7a"], "b": ["y1a"], "c": ["b1a"]}
    after, events = act(make_state(hands, "r5a", options=SEVEN_O), "a", "p.r7a")
    assert after.phase == "over" and "hands_swapped" not in codes(events)


def test_swap_leaving_one_card_exposes_only_with_last_card_variant():
    state = _seven_state(options={"last_card": True})
    state, _ = act(state, "a", "p.r7a")
    after, _ = act(state, "a", "swap.1")  # a now holds b's single card, uncalled
    assert after.exposed == ["a"]
    assert "catch" in legal(after, "c")
    plain = _seven_state()
    plain, _ = act(plain, "a", "p.r7a")
    plain, _ = act(plain, "a", "swap.1")
    assert plain.exposed == [] and "catch" not in legal(plain, "c")


# ----- draw until playable --------------------------------------------------------------------
def test_draw_until_playable_draws_one_at_a_time_until_one_fits():
    hands = {"a": ["g1a"], "b": ["y1a"], "c": ["b1a"]}
    state = make_state(hands, "r5a", options=UNTIL, stock_top=["y2a", "b7a", "r9a", "g3a"])
    after, events = act(state, "a", "draw")
    assert after.hands["a"] == ["g1a", "y2a", "b7a", "r9a"]  # stops at the first playable
    assert after.phase == "drawn" and after.drawn == "r9a" and turn(after) == "a"
    drew = next(e for e in events if e.code == "drew")
    assert drew.params == {"count": 3}
    assert legal(after, "a") == {"p.r9a", "pass"}
    kept, _ = act(after, "a", "pass")  # keep it and pass
    assert "r9a" in kept.hands["a"] and turn(kept) == "c"


def test_draw_until_playable_by_choice_too_and_never_for_penalties():
    hands = {"a": ["r1a"], "b": ["y1a"], "c": ["b1a"]}
    state = make_state(hands, "r5a", options=UNTIL, stock_top=["y2a", "r9a"])
    after, _ = act(state, "a", "draw")  # a could play r1a but chooses to draw
    assert after.drawn == "r9a" and len(after.hands["a"]) == 3
    hands = {"a": ["g1a", "g2a"], "b": ["y1a"], "c": ["b1a"]}
    penalty = make_state(
        hands, "rDa", phase="penalty", pending=2, options=UNTIL, stock_top=["y3a", "y4a", "y5a"]
    )
    took, _ = act(penalty, "a", "take")
    assert len(took.hands["a"]) == 4  # exactly the 2 of the penalty


def test_draw_until_playable_turn_passes_when_stock_and_discard_run_out():
    hands = {"a": ["g1a"], "b": ["y1a"], "c": ["b1a"]}
    # every card not in a hand or on top is in the stock, none of them playable on a red 5
    # except those we keep out: make the stock a few unplayable cards and no discard below top
    state = make_state(hands, "r5a", options=UNTIL, stock=["y2a", "b7a"])
    state = state.model_copy(
        update={
            "discard": ["r5a"],
            "hands": {**state.hands, "c": state.hands["c"] + state.discard[:-1]},
        }
    )
    state = GAME.load_state(GAME.dump_state(state))
    assert_conserved(state)
    after, events = act(state, "a", "draw")
    assert after.hands["a"] == ["g1a", "b7a", "y2a"] and turn(after) == "c"
    assert next(e for e in events if e.code == "drew").params == {"count": 2}


# ----- decisions added to the spec ----------------------------------------------------------
def test_decision_bluffed_plus4_is_offered_though_holding_the_colour_in_force():
    hands = {"a": ["Fa", "r7a"], "b": ["y1a"], "c": ["g9a"]}
    state = make_state(hands, "r5a")
    assert {"p.Fa.r", "p.Fa.g", "p.Fa.y", "p.Fa.b"} <= legal(state, "a")
    after, _ = act(state, "a", "p.Fa.g")
    assert after.plus4 is not None and not after.plus4.legal  # a bluff, left to "¡Mentira!"


def _stacked_bluff():
    hands = {"a": ["rDa", "r1a"], "b": ["Fa", "r2a"], "c": ["Fb", "gDa", "y2a"], "d": ["b1a"]}
    state = make_state(hands, "r5a", direction=1, options={"stack_plus4": True})
    state, _ = act(state, "a", "p.rDa")
    return act(state, "b", "p.Fa.g")[0]  # b holds red: the top +4 is a bluff


def test_decision_won_challenge_on_a_stack_the_rest_stands_answered_by_stacking_rules():
    state, events = act(_stacked_bluff(), "c", "chal")
    assert "challenge_won" in codes(events) and len(state.hands["b"]) == 1 + 4
    assert state.pending == 2 and turn(state) == "c"
    # a +4 is on top: another +4 may go on it, a Chúpate 2 never
    assert legal(state, "c") == {"p.Fb.r", "p.Fb.y", "p.Fb.g", "p.Fb.b", "take"}
    taken, _ = act(state, "c", "take")
    assert len(taken.hands["c"]) == 3 + 2 and turn(taken) == "d"


def test_decision_lost_challenge_on_a_stack_draws_the_whole_total_plus_two():
    hands = {"a": ["rDa", "r1a"], "b": ["Fa", "g2a"], "c": ["y1a", "y2a"], "d": ["b1a"]}
    state = make_state(hands, "r5a", direction=1, options={"stack_plus4": True})
    state, _ = act(state, "a", "p.rDa")
    state, _ = act(state, "b", "p.Fa.g")  # no red in b's hand: legal
    assert state.pending == 6
    after, events = act(state, "c", "chal")
    assert "challenge_lost" in codes(events)
    assert len(after.hands["c"]) == 2 + 6 + 2 and turn(after) == "d" and after.pending == 0


def test_decision_team_seating_alternates_seat_i_in_team_i_mod_t():
    for n, teams, groups in [
        (4, "pairs", [["p0", "p2"], ["p1", "p3"]]),
        (6, "pairs", [["p0", "p3"], ["p1", "p4"], ["p2", "p5"]]),
        (6, "trios", [["p0", "p2", "p4"], ["p1", "p3", "p5"]]),
    ]:
        view = GAME.view(GAME.new([f"p{i}" for i in range(n)], "t", {"teams": teams}), None)
        assert view.teams == groups


def test_decision_last_card_call_while_answering_a_penalty_or_a_challenge():
    opts = {"last_card": True, "stack_plus4": True}
    hands = {"a": ["g1a", "g2a"], "b": ["rDb", "y1a"], "c": ["b1a"]}
    state = make_state(hands, "rDa", current=1, phase="penalty", pending=2, options=opts)
    assert "announce" in legal(state, "b")
    state, _ = act(state, "b", "announce")
    state, _ = act(state, "b", "p.rDb")
    assert state.exposed == []
    hands_c = make_state(
        {"a": ["Fa", "g1a", "g2a"], "b": ["b1a", "b2a"], "c": ["Fb", "y1a"]}, "r5a", options=opts
    )
    hands_c, _ = act(hands_c, "a", "p.Fa.g")  # on c (counter-clockwise)
    assert hands_c.phase == "challenge" and "announce" in legal(hands_c, "c")
    hands_c, _ = act(hands_c, "c", "announce")
    hands_c, _ = act(hands_c, "c", "p.Fb.r")  # stacked (variant): down to one card, called
    assert hands_c.exposed == []


def test_decision_wrong_catch_is_refused_without_penalty():
    hands = {"a": ["r1a", "r2a"], "b": ["g1a", "g2a"], "c": ["y1a", "y2a"]}
    state = make_state(hands, "r5a", options={"last_card": True})
    refused("nothing_to_catch", state, "b", "catch")
    state, _ = act(state, "a", "announce")
    state, _ = act(state, "a", "p.r1a")
    refused("nothing_to_catch", state, "b", "catch")


def test_decision_caught_until_the_exposed_players_next_action_or_draw():
    hands = {"a": ["r1a", "r2a"], "b": ["g1a", "g2a", "g3a"], "c": ["y1a", "y2a", "rDa"]}
    state = make_state(hands, "r5a", options={"last_card": True})
    state, _ = act(state, "a", "p.r1a")  # a forgets to call
    assert state.exposed == ["a"]
    state, _ = act(state, "c", "p.rDa")  # counter-clockwise: b must answer it, not a
    assert turn(state) == "b" and state.pending == 2
    state, _ = act(state, "b", "take")
    assert state.exposed == ["a"]  # b's move left it open
    hands = {"a": ["r1a", "r2a"], "b": ["g1a", "g2a", "g3a"], "c": ["y1a", "y2a", "rDa"]}
    forced = make_state(hands, "r5a", options={"last_card": True}, direction=1)
    forced, _ = act(forced, "a", "p.r1a")  # clockwise: b then c
    forced, _ = act(forced, "b", "draw")
    if forced.phase == "drawn":
        forced, _ = act(forced, "b", "pass")
    forced, _ = act(forced, "c", "p.rDa")  # c's Chúpate 2 lands on a: a draws
    assert turn(forced) == "a"
    forced, _ = act(forced, "a", "take")
    assert forced.exposed == []
