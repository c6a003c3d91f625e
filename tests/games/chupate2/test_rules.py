"""Scenario tests, one per rule, decision and variant of docs/rules/chupate2.md."""

from __future__ import annotations

from collections import Counter

import pytest

from games.chupate2 import GAME, Options
from games.chupate2.actions import Play
from games.chupate2.cards import COLOUR_OF, DECK, FACE_OF, POINTS, hand_points
from games.core import IllegalAction
from tests.games.chupate2.helpers import (
    act,
    all_cards,
    assert_conserved,
    codes,
    find_seed,
    make_state,
)

SEATS4 = ["a", "b", "c", "d"]


def raises(code: str, state, seat: str, text: str) -> None:
    before = GAME.dump_state(state)
    with pytest.raises(IllegalAction) as err:
        act(state, seat, text)
    assert err.value.code == code
    assert GAME.dump_state(state) == before


# ----- deck and set-up ------------------------------------------------------------------------
def test_deck_has_108_cards_of_the_official_composition():
    assert len(DECK) == 108 and len(set(DECK)) == 108
    faces = Counter(FACE_OF[c] for c in DECK)
    assert sum(faces[str(n)] for n in range(10)) == 76
    assert faces["0"] == 4 and all(faces[str(n)] == 8 for n in range(1, 10))
    assert faces["D"] == faces["S"] == faces["R"] == 8
    assert faces["W"] == faces["F"] == 4
    colours = Counter(COLOUR_OF[c] for c in DECK)
    assert colours == {"r": 25, "y": 25, "g": 25, "b": 25, "w": 8}
    assert max(len(c) for c in DECK) == 3  # short ids


@pytest.mark.parametrize("n", [2, 3, 4, 6])
def test_deal_seven_each_rest_is_stock_one_card_turned(n):
    seats = [f"p{i}" for i in range(n)]
    state = GAME.new(seats, "deal", None)
    assert all(len(h) == 7 for h in state.hands.values())
    assert len(state.discard) == 1
    assert len(state.stock) == 108 - 7 * n - 1
    assert_conserved(state)


@pytest.mark.parametrize("n", [1, 5, 7])
def test_player_counts_other_than_2_3_4_6_are_refused(n):
    with pytest.raises(IllegalAction) as err:
        GAME.new([f"p{i}" for i in range(n)], "x")
    assert err.value.code == "player_count"


@pytest.mark.parametrize("n,teams", [(2, "pairs"), (3, "pairs"), (4, "trios"), (3, "trios")])
def test_teams_need_a_matching_player_count(n, teams):
    with pytest.raises(IllegalAction) as err:
        GAME.new([f"p{i}" for i in range(n)], "x", {"teams": teams})
    assert err.value.code == "team_player_count"


def test_starting_player_comes_from_the_seed():
    starters = {GAME.new(SEATS4, f"seed{i}").starter for i in range(40)}
    assert starters == {0, 1, 2, 3}
    assert GAME.new(SEATS4, "same").starter == GAME.new(SEATS4, "same").starter


def test_direction_starts_counter_clockwise():
    state = make_state({"a": ["r1a", "r2a"], "b": ["g1a"], "c": ["g2a"], "d": ["g3a"]}, "r5a")
    assert state.direction == -1
    state, _ = act(state, "a", "p.r1a")
    assert state.seats[state.turn] == "d"  # seat order decreasing


def test_options_default_and_validation():
    opts = Options()
    assert (opts.points, opts.teams, opts.stack_plus4, opts.last_card) == (
        "off",
        "off",
        False,
        False,
    )
    assert Options(points="150").target == 150
    with pytest.raises(ValueError):
        Options(points="100")


# ----- matching -------------------------------------------------------------------------------
def test_play_by_colour_number_and_symbol():
    hands = {"a": ["r1a", "b5a", "gSa", "y9a", "r9a"], "b": ["g1a"]}
    state = make_state(hands, "r5b")
    legal = {a.encode() for a in GAME.legal_actions(state, "a")}
    assert legal == {"p.r1a", "p.b5a", "p.r9a", "draw"}
    raises("card_does_not_match", state, "a", "p.gSa")
    raises("card_does_not_match", state, "a", "p.y9a")
    # symbol on symbol
    state = make_state({"a": ["gSa", "y9a"], "b": ["g1a"]}, "rSa")
    assert {a.encode() for a in GAME.legal_actions(state, "a")} == {"p.gSa", "draw"}


def test_identical_cards_are_offered_once():
    state = make_state({"a": ["r1a", "r1b", "Wa", "Wb"], "b": ["g1a"]}, "r5a")
    legal = [a.encode() for a in GAME.legal_actions(state, "a")]
    assert legal.count("p.r1a") == 1 and "p.r1b" not in legal
    assert [x for x in legal if x.startswith("p.W")] == ["p.Wa.r", "p.Wa.y", "p.Wa.g", "p.Wa.b"]
    # any copy may still be played
    state, _ = act(state, "a", "p.r1b")
    assert state.discard[-1] == "r1b"


def test_wild_names_the_colour_that_must_then_be_matched():
    state = make_state({"a": ["Wa", "r1a"], "b": ["g1a", "r2a"]}, "b5a")
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, "a", Play(card="Wa"))
    assert err.value.code == "colour_required"
    state, events = act(state, "a", "p.Wa.g")
    assert state.colour == "g" and codes(events)[0] == "played"
    assert {a.encode() for a in GAME.legal_actions(state, "b")} == {"p.g1a", "draw"}


def test_colour_given_for_a_coloured_card_is_refused():
    state = make_state({"a": ["r1a", "r2a"], "b": ["g1a"]}, "r5a")
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, "a", Play(card="r1a", colour="g"))
    assert err.value.code == "colour_not_allowed"


# ----- drawing --------------------------------------------------------------------------------
def test_no_playable_card_draw_one_playable_then_play_it_or_pass():
    state = make_state({"a": ["g1a", "g2a"], "b": ["y1a"], "c": ["y2a"]}, "r5a", stock_top=["r7a"])
    assert {a.encode() for a in GAME.legal_actions(state, "a")} == {"draw"}
    drawn, events = act(state, "a", "draw")
    assert drawn.phase == "drawn" and drawn.drawn == "r7a" and drawn.turn == 0
    assert codes(events) == ["drew_cards", "drew"]
    assert events[0].to == ("a",) and events[0].params == {"cards": ["r7a"]}
    assert {a.encode() for a in GAME.legal_actions(drawn, "a")} == {"p.r7a", "pass"}
    played, _ = act(drawn, "a", "p.r7a")
    assert played.discard[-1] == "r7a"
    passed, events = act(drawn, "a", "pass")
    assert passed.seats[passed.turn] == "c" and "r7a" in passed.hands["a"]
    assert codes(events) == ["passed"]


def test_only_the_drawn_card_may_be_played():
    state = make_state({"a": ["r1a", "g2a"], "b": ["y1a"]}, "r5a", stock_top=["r7a"])
    drawn, _ = act(state, "a", "draw")  # voluntary draw although r1a fits
    assert drawn.phase == "drawn"
    raises("only_drawn_card", drawn, "a", "p.r1a")
    raises("already_drew", drawn, "a", "draw")


def test_unplayable_drawn_card_passes_the_turn():
    state = make_state({"a": ["g1a", "g2a"], "b": ["y1a"], "c": ["y2a"]}, "r5a", stock_top=["b7a"])
    after, events = act(state, "a", "draw")
    assert after.phase == "play" and after.seats[after.turn] == "c"
    assert "b7a" in after.hands["a"]
    raises("cannot_pass", after, "c", "pass")


def test_stock_refilled_from_the_discard_pile_keeping_the_top_card():
    hands = {"a": ["g1a"], "b": ["y1a"]}
    placed = {"g1a", "y1a", "r5a"}
    rest = [c for c in DECK if c not in placed]
    # the stock is empty; everything else lies under the top card
    state = make_state(hands, "r5a", stock=[])
    assert state.stock == [] and len(state.discard) == len(rest) + 1
    after, events = act(state, "a", "draw")
    assert "refilled" in codes(events)
    assert after.discard == ["r5a"]
    assert len(after.stock) == len(rest) - 1
    assert_conserved(after)


def test_draw_skipped_when_no_card_is_left_anywhere():
    cards = [c for c in DECK if c != "r5a"]
    hands = {"a": ["g1a"], "b": [c for c in cards if c != "g1a"]}
    state = make_state(hands, "r5a", stock=[])
    after, events = act(state, "a", "draw")
    assert codes(events) == ["draw_skipped"]
    assert after.seats[after.turn] == "b" and after.hands["a"] == ["g1a"]


# ----- Chúpate 2 ------------------------------------------------------------------------------
def test_draw_two_makes_the_next_player_draw_two_and_lose_the_turn():
    hands = {"a": ["rDa", "r1a"], "b": ["g1a"], "c": ["g2a", "y3a"]}
    state = make_state(hands, "r5a", stock_top=["b1a", "b2a"])
    state, events = act(state, "a", "p.rDa")
    assert state.phase == "penalty" and state.pending == 2 and state.seats[state.turn] == "c"
    assert codes(events)[-1] == "must_draw"
    assert {a.encode() for a in GAME.legal_actions(state, "c")} == {"take"}
    raises("must_answer_draw", state, "c", "draw")
    state, events = act(state, "c", "take")
    assert sorted(state.hands["c"]) == sorted(["g2a", "y3a", "b1a", "b2a"])
    assert state.seats[state.turn] == "b" and state.pending == 0 and state.phase == "play"
    assert events[-1].code == "took" and events[-1].params == {"count": 2}


def test_stacking_chain_two_four_six():
    hands = {"a": ["rDa", "r1a"], "b": ["gDa", "g1a"], "c": ["bDa", "b1a"], "d": ["y1a", "y2a"]}
    state = make_state(hands, "r5a", direction=1)
    state, _ = act(state, "a", "p.rDa")
    assert (state.pending, state.seats[state.turn]) == (2, "b")
    raises("must_answer_draw", state, "b", "p.g1a")
    state, _ = act(state, "b", "p.gDa")  # any colour: symbol on symbol
    assert (state.pending, state.seats[state.turn]) == (4, "c")
    state, _ = act(state, "c", "p.bDa")
    assert (state.pending, state.seats[state.turn]) == (6, "d")
    state, _ = act(state, "d", "take")
    assert len(state.hands["d"]) == 8 and state.seats[state.turn] == "a"
    assert_conserved(state)


def test_wild_cannot_be_played_on_a_pending_draw():
    hands = {"a": ["gDa", "g1a"], "b": ["Wa", "Fa", "b1a"], "c": ["y1a"]}
    state = make_state(hands, "rDa", current=1, phase="penalty", pending=2)
    raises("must_answer_draw", state, "b", "p.Wa.r")
    raises("must_answer_draw", state, "b", "p.Fa.r")  # no +4 on a +2 stack without the variant
    assert {a.encode() for a in GAME.legal_actions(state, "b")} == {"take"}


# ----- Salto and Cambio de sentido ------------------------------------------------------------
def test_skip_makes_the_next_player_lose_the_turn():
    hands = {"a": ["rSa", "r1a"], "b": ["g1a"], "c": ["g2a"]}
    state = make_state(hands, "r5a")
    state, events = act(state, "a", "p.rSa")
    assert state.seats[state.turn] == "b"  # c (counter-clockwise next) was skipped
    assert ("skipped", "c") in [(e.code, e.seat) for e in events]


def test_reverse_changes_direction_with_three_players():
    hands = {"a": ["rRa", "r1a"], "b": ["g1a"], "c": ["g2a"]}
    state = make_state(hands, "r5a")
    state, events = act(state, "a", "p.rRa")
    assert state.direction == 1 and state.seats[state.turn] == "b"
    assert "reversed" in codes(events)


def test_reverse_with_two_players_acts_as_a_skip():
    hands = {"a": ["rRa", "r1a"], "b": ["g1a"]}
    state = make_state(hands, "r5a")
    state, events = act(state, "a", "p.rRa")
    assert state.seats[state.turn] == "a"
    assert ("skipped", "b") in [(e.code, e.seat) for e in events]


# ----- Comodín +4 and ¡Mentira! ---------------------------------------------------------------
def _plus4_state(a_hand, stack=False):
    hands = {"a": a_hand, "b": ["g1a", "g2a"], "c": ["y1a", "y2a"]}
    return make_state(
        hands, "r5a", stock_top=[f"y{n}b" for n in range(1, 10)], options={"stack_plus4": stack}
    )


def test_legal_plus4_challenged_challenger_draws_six_and_loses_the_turn():
    state = _plus4_state(["Fa", "g7a", "b7a"])  # no red: legal
    state, events = act(state, "a", "p.Fa.g")
    assert state.phase == "challenge" and state.pending == 4 and state.seats[state.turn] == "c"
    assert state.plus4.legal
    assert {a.encode() for a in GAME.legal_actions(state, "c")} == {"chal", "take"}
    assert GAME.view(state, None).plus4.victim == "c"
    after, events = act(state, "c", "chal")
    assert len(after.hands["c"]) == 2 + 6
    assert after.seats[after.turn] == "b" and after.pending == 0
    lost = next(e for e in events if e.code == "challenge_lost")
    assert lost.seat == "c" and lost.params == {"target": "a", "count": 6}
    reveal = next(e for e in events if e.code == "challenge_reveal")
    assert reveal.to == ("c",) and reveal.params == {"cards": ["g7a", "b7a"], "legal": True}
    # the challenger alone sees the +4 player's hand, in the view too
    assert GAME.view(after, "c").reveal.cards == ["g7a", "b7a"]
    for seat in ("a", "b", None):
        view = GAME.view(after, seat)
        assert view.reveal is None
        assert all(e.code != "challenge_reveal" for e in view.last_events)
    assert "challenge_reveal" in [e.code for e in GAME.view(after, "c").last_events]
    # one-off: gone after the next action
    later, _ = act(after, "b", "p.g1a")
    assert GAME.view(later, "c").reveal is None


def test_illegal_plus4_challenged_bluffer_draws_four_challenger_plays_on():
    state = _plus4_state(["Fa", "r7a", "b7a"])  # holds red: illegal
    state, _ = act(state, "a", "p.Fa.g")
    assert not state.plus4.legal
    after, events = act(state, "c", "chal")
    assert len(after.hands["a"]) == 2 + 4 and len(after.hands["c"]) == 2
    assert after.seats[after.turn] == "c" and after.phase == "play" and after.pending == 0
    assert after.colour == "g"  # the named colour stays
    won = next(e for e in events if e.code == "challenge_won")
    assert won.params == {"target": "a", "count": 4}
    assert GAME.view(after, "c").reveal.legal is False
    # c plays its turn normally
    assert "p.y1a" not in {a.encode() for a in GAME.legal_actions(after, "c")}
    assert "draw" in {a.encode() for a in GAME.legal_actions(after, "c")}


def test_plus4_legality_ignores_other_colours_and_other_wilds():
    state = _plus4_state(["Fa", "Wa", "g5a", "y5a"])  # red in force: no red card held
    state, _ = act(state, "a", "p.Fa.b")
    assert state.plus4.legal


def test_accepted_plus4_draws_four_and_loses_the_turn():
    state = _plus4_state(["Fa", "r7a"])
    state, _ = act(state, "a", "p.Fa.y")
    after, events = act(state, "c", "take")
    assert len(after.hands["c"]) == 6 and after.seats[after.turn] == "b"
    assert "challenge_reveal" not in codes(events)


def test_draw_two_cannot_be_stacked_on_a_plus4():
    hands = {"a": ["Fa", "r7a"], "b": ["g1a"], "c": ["gDa", "y2a"]}
    state = make_state(hands, "r5a")
    state, _ = act(state, "a", "p.Fa.g")
    raises("must_answer_draw", state, "c", "p.gDa")
    raises("no_challenge", make_state(hands, "r5a"), "a", "chal")


def test_variant_stack_plus4_on_plus4_and_on_a_draw_two_stack():
    hands = {"a": ["rDa", "r1a"], "b": ["Fa", "g1a"], "c": ["Fb", "y2a"], "d": ["b1a", "b2a"]}
    state = make_state(
        hands,
        "r5a",
        direction=1,
        options={"stack_plus4": True},
        stock_top=[f"g{n}a" for n in range(2, 10)],
    )
    state, _ = act(state, "a", "p.rDa")
    assert "p.Fa.r" in {a.encode() for a in GAME.legal_actions(state, "b")}
    state, _ = act(state, "b", "p.Fa.g")  # +4 on a +2 stack
    assert state.pending == 6 and state.phase == "challenge"
    assert {a.encode() for a in GAME.legal_actions(state, "c")} >= {"chal", "take", "p.Fb.r"}
    state, _ = act(state, "c", "p.Fb.b")  # +4 on +4
    assert state.pending == 10 and state.seats[state.turn] == "d"
    state, _ = act(state, "d", "take")
    assert len(state.hands["d"]) == 12
    assert_conserved(state)


def test_successful_challenge_of_a_stacked_plus4_leaves_the_earlier_stack():
    hands = {"a": ["rDa", "r1a"], "b": ["Fa", "r2a"], "c": ["y1a", "y2a"], "d": ["b1a"]}
    state = make_state(hands, "r5a", direction=1, options={"stack_plus4": True})
    state, _ = act(state, "a", "p.rDa")
    state, _ = act(state, "b", "p.Fa.g")  # b holds red: a bluff
    state, events = act(state, "c", "chal")
    assert "challenge_won" in codes(events)
    assert len(state.hands["b"]) == 1 + 4
    assert state.phase == "penalty" and state.pending == 2 and state.seats[state.turn] == "c"
    state, _ = act(state, "c", "take")
    assert len(state.hands["c"]) == 4 and state.seats[state.turn] == "d"


# ----- first-card effects ---------------------------------------------------------------------
def _first(face):
    return find_seed(lambda s: FACE_OF[s.discard[0]] == face)


def test_first_card_draw_two_is_answered_by_the_starting_player():
    state = _first("D")
    assert state.phase == "penalty" and state.pending == 2 and state.turn == state.starter
    starter = state.seats[state.starter]
    after, _ = act(state, starter, "take")
    assert len(after.hands[starter]) == 9


def test_first_card_skip_makes_the_starting_player_lose_the_turn():
    state = _first("S")
    assert state.turn == (state.starter - 1) % 4 and state.phase == "play"
    assert ("skipped", state.seats[state.starter]) in [(e.code, e.seat) for e in state.log]


def test_first_card_reverse_starting_player_loses_turn_then_clockwise():
    state = _first("R")
    assert state.direction == 1 and state.turn == (state.starter + 1) % 4


def test_first_card_reverse_with_two_players():
    state = find_seed(lambda s: FACE_OF[s.discard[0]] == "R", n_players=2)
    assert state.turn != state.starter and state.direction == 1


def test_first_card_wild_the_starting_player_names_the_colour_then_plays():
    state = _first("W")
    starter = state.seats[state.starter]
    assert state.phase == "colour" and state.colour is None and state.turn == state.starter
    assert {a.encode() for a in GAME.legal_actions(state, starter)} == {
        "col.r",
        "col.y",
        "col.g",
        "col.b",
    }
    raises("choose_colour_first", state, starter, "draw")
    after, events = act(state, starter, "col.b")
    assert after.colour == "b" and after.phase == "play" and after.turn == state.starter
    assert codes(events) == ["colour_chosen"]
    raises("no_colour_to_choose", after, starter, "col.r")


def test_first_card_plus4_goes_back_into_the_stock():
    state = find_seed(lambda s: any(e.code == "first_card_returned" for e in s.log))
    returned = next(e.params["card"] for e in state.log if e.code == "first_card_returned")
    assert FACE_OF[returned] == "F" and returned in state.stock
    assert FACE_OF[state.discard[0]] != "F"
    assert_conserved(state)


# ----- end of round and scoring ---------------------------------------------------------------
def test_scoring_values():
    assert [POINTS[c] for c in ("r0a", "b7a", "y9b")] == [0, 7, 9]
    assert [POINTS[c] for c in ("gDa", "rSb", "bRa")] == [20, 20, 20]
    assert [POINTS[c] for c in ("Wa", "Fd")] == [50, 50]
    assert hand_points(["r0a", "b7a", "gDa", "Wa", "Fb"]) == 127


def test_single_round_game_first_out_wins_and_scores_opponents_cards():
    hands = {"a": ["r1a"], "b": ["gDa", "g9a"], "c": ["Wa", "y3a"]}
    state = make_state(hands, "r5a")
    assert GAME.outcome(state) is None
    state, events = act(state, "a", "p.r1a")
    out = GAME.outcome(state)
    assert out.ranking == [["a"], ["c"], ["b"]] or out.ranking == [["a"], ["b"], ["c"]]
    assert out.points == {"a": 29 + 53, "b": 0, "c": 0}
    assert out.mode == "single"
    assert out.rounds[0].left == {"a": 0, "b": 29, "c": 53}
    assert out.team_winners == []  # no teams: no team wins to record
    assert codes(events)[-2:] == ["round_won", "game_won"]
    assert GAME.to_act(state) == set() and GAME.legal_actions(state, "b") == []
    raises("game_over", state, "b", "draw")


def test_last_draw_two_still_makes_the_next_player_draw_and_counts():
    hands = {"a": ["rDa"], "b": ["g1a"], "c": ["y1a"]}
    state = make_state(hands, "r5a", stock_top=["b9a", "b8a"])
    state, events = act(state, "a", "p.rDa")
    assert sorted(state.hands["c"]) == ["b8a", "b9a", "y1a"]
    assert ("final_draw", "c") in [(e.code, e.seat) for e in events]
    assert GAME.outcome(state).points["a"] == 1 + 1 + 9 + 8


def test_last_plus4_makes_the_next_player_draw_four():
    hands = {"a": ["Fa"], "b": ["g1a"], "c": ["y1a"]}
    state = make_state(hands, "r5a")
    state, _ = act(state, "a", "p.Fa.g")
    assert len(state.hands["c"]) == 5 and GAME.outcome(state) is not None


def test_points_game_new_round_dealt_with_the_dealer_advancing():
    hands = {"a": ["r1a"], "b": ["g9a"], "c": ["y3a"]}
    state = make_state(hands, "r5a", options={"points": "50"}, dealer=1, starter=0)
    state, events = act(state, "a", "p.r1a")
    assert GAME.outcome(state) is None
    assert state.round == 2 and state.scores == {"a": 12, "b": 0, "c": 0}
    assert state.dealer == 2 and state.starter == 1
    assert all(len(h) == 7 for h in state.hands.values())
    assert "round_started" in codes(events)
    assert state.results[0].points == 12
    assert_conserved(state)


def test_points_game_reaching_the_target_wins():
    hands = {"a": ["r1a"], "b": ["Wa", "Fa"], "c": ["y3a"]}
    state = make_state(
        hands, "r5a", options={"points": "150"}, scores={"a": 40, "b": 149, "c": 0}, round=4
    )
    state, events = act(state, "a", "p.r1a")
    assert GAME.outcome(state) is None and state.scores["a"] == 40 + 103
    assert "game_won" not in codes(events) and state.round == 5  # 143 < 150: another round
    state = make_state(
        hands, "r5a", options={"points": "150"}, scores={"a": 60, "b": 149, "c": 0}, round=4
    )
    state, events = act(state, "a", "p.r1a")
    out = GAME.outcome(state)
    assert out.ranking == [["a"], ["b"], ["c"]]
    assert out.points == {"a": 163, "b": 149, "c": 0}
    assert out.mode == "points" and out.target == 150


def test_points_game_played_to_its_target_by_computer_players():
    import random

    state = GAME.new(SEATS4, "to-target", {"points": "300"})
    rng = random.Random(7)
    while GAME.outcome(state) is None:
        (seat,) = GAME.to_act(state)
        view = GAME.view(state, seat)
        action = GAME.choose_action(view, GAME.legal_actions(state, seat), "normal", rng)
        state, _ = GAME.apply(state, seat, action)
    out = GAME.outcome(state)
    assert max(state.scores.values()) >= 300 and state.round >= 2
    assert (
        sum(r.points for r in state.results if r.winner == out.winners[0])
        == state.scores[out.winners[0]]
    )
    assert len(out.rounds) == state.round


# ----- teams ----------------------------------------------------------------------------------
def test_team_seats_alternate():
    def teams(n, t):
        return GAME.view(GAME.new([f"p{i}" for i in range(n)], "t", {"teams": t}), None).teams

    assert teams(4, "pairs") == [["p0", "p2"], ["p1", "p3"]]
    assert teams(6, "pairs") == [["p0", "p3"], ["p1", "p4"], ["p2", "p5"]]
    assert teams(6, "trios") == [["p0", "p2", "p4"], ["p1", "p3", "p5"]]


def test_team_wins_when_a_member_goes_out():
    hands = {"a": ["g1a", "g2a"], "b": ["y1a", "y2a"], "c": ["r1a"], "d": ["Wa", "b2a"]}
    state = make_state(hands, "r5a", current=2, options={"teams": "pairs"})
    state, events = act(state, "c", "p.r1a")
    out = GAME.outcome(state)
    assert out.ranking == [["a", "c"], ["b", "d"]]
    # points only from the non-team-mates' hands (b: 3, d: 52); a's cards don't count
    assert out.points == {"a": 55, "c": 55, "b": 0, "d": 0}
    assert out.winning_team == 0 and out.teams == [["a", "c"], ["b", "d"]]
    assert out.team_winners == ["a", "c"]  # a and c won, b and d lost
    assert next(e for e in events if e.code == "round_won").params["team"] == 0


def test_team_points_game_scores_go_to_the_team():
    hands = {"a": ["g1a"], "b": ["y1a"], "c": ["r1a"], "d": ["b2a"], "e": ["g3a"], "f": ["Wa"]}
    state = make_state(hands, "g5a", options={"teams": "trios", "points": "50"}, team_scores=[0, 0])
    state, _ = act(state, "a", "p.g1a")
    out = GAME.outcome(state)
    assert out.team_scores == [53, 0]  # b 1 + d 2 + f 50
    assert out.ranking == [["a", "c", "e"], ["b", "d", "f"]]
    assert out.points["e"] == 53 and out.points["b"] == 0
    assert out.team_winners == ["a", "c", "e"]


# ----- "¡Última!" call variant ----------------------------------------------------------------
def _last_card_state():
    hands = {"a": ["r1a", "r2a"], "b": ["g1a", "g2a"], "c": ["y1a", "y2a"]}
    return make_state(hands, "r5a", options={"last_card": True}, stock_top=["b1a", "b2a", "b3a"])


def test_last_card_call_before_playing_is_safe():
    state = _last_card_state()
    assert "announce" in {a.encode() for a in GAME.legal_actions(state, "a")}
    state, events = act(state, "a", "announce")
    assert codes(events) == ["announced"] and state.turn == 0
    state, _ = act(state, "a", "p.r1a")
    assert state.exposed == []
    assert "catch" not in {a.encode() for a in GAME.legal_actions(state, "b")}


def test_missing_call_can_be_caught_for_two_cards():
    state = _last_card_state()
    state, _ = act(state, "a", "p.r1a")
    assert state.exposed == ["a"]
    assert {a.encode() for a in GAME.legal_actions(state, "b")} == {"catch"}
    assert "announce" in {a.encode() for a in GAME.legal_actions(state, "a")}
    caught, events = act(state, "b", "catch")
    assert len(caught.hands["a"]) == 3 and caught.exposed == []
    assert events[-1].code == "caught" and events[-1].params == {"target": "a", "count": 2}
    # late call closes the window too
    called, _ = act(state, "a", "announce")
    raises("nothing_to_catch", called, "b", "catch")
    # Decision: another player's move leaves the window open; the exposed player's own next
    # action (or their drawing) closes it
    moved, _ = act(state, "c", "draw")
    if moved.phase == "drawn":
        moved, _ = act(moved, "c", "pass")
    assert moved.exposed == ["a"] and "catch" in {
        x.encode() for x in GAME.legal_actions(moved, "b")
    }
    moved, _ = act(moved, "b", "draw")
    if moved.phase == "drawn":
        moved, _ = act(moved, "b", "pass")
    assert moved.seats[moved.turn] == "a" and moved.exposed == ["a"]
    own, _ = act(moved, "a", "draw")
    assert own.exposed == []
    raises("nothing_to_catch", own, "b", "catch")


def test_last_card_actions_need_the_variant():
    hands = {"a": ["r1a", "r2a"], "b": ["g1a", "g2a"], "c": ["y1a"]}
    state = make_state(hands, "r5a")
    assert "announce" not in {a.encode() for a in GAME.legal_actions(state, "a")}
    raises("cannot_call", state, "a", "announce")
    state, _ = act(state, "a", "p.r1a")
    assert state.exposed == []
    raises("nothing_to_catch", state, "b", "catch")


# ----- the security boundary ------------------------------------------------------------------
def test_forged_actions_fail_and_change_nothing():
    state = make_state({"a": ["r1a", "r2a"], "b": ["g1a"], "c": ["y1a"]}, "r5a")
    raises("not_your_turn", state, "b", "p.g1a")
    raises("not_in_hand", state, "a", "p.g1a")
    raises("nothing_to_take", state, "a", "take")
    raises("no_challenge", state, "a", "chal")
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, "zz", GAME.decode_action("draw"))
    assert err.value.code == "not_a_player"
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, "a", "draw")  # not an action object
    assert err.value.code == "bad_action"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "p",
        "p.",
        "p.zz",
        "p.r1a.g",
        "p.Wa",
        "p.Wa.x",
        "col.z",
        "col",
        "x",
        "p.r1a.",
        "DRAW",
        "p.r1a.g.g",
    ],
)
def test_decode_rejects_junk(text):
    with pytest.raises(IllegalAction) as err:
        GAME.decode_action(text)
    assert err.value.code == "bad_action"


def test_every_action_encoding_round_trips():
    from games.chupate2 import actions as A

    every = [
        *A.PLAY.values(),
        *[a for t in A.PLAY_WILD.values() for a in t],
        *A.CHOOSE_COLOUR.values(),
        A.DRAW,
        A.PASS,
        A.TAKE,
        A.CHALLENGE,
        A.ANNOUNCE,
        A.CATCH,
    ]
    assert len({a.encode() for a in every}) == len(every)
    for action in every:
        assert GAME.decode_action(action.encode()) == action
        assert len(action.encode()) <= 8


def test_apply_leaves_the_old_state_unchanged_and_bumps_the_version():
    state = make_state({"a": ["rDa", "r2a"], "b": ["g1a"], "c": ["y1a"]}, "r5a")
    before = GAME.dump_state(state)
    new, _ = act(state, "a", "p.rDa")
    assert GAME.dump_state(state) == before and new.version == state.version + 1
    assert GAME.load_state(GAME.dump_state(new)) == new


# ----- views ----------------------------------------------------------------------------------
def test_view_shows_own_hand_and_only_counts_of_others():
    state = make_state(
        {"a": ["b1a", "r2a", "Wa"], "b": ["g1a"], "c": ["y1a", "y2a"]}, "r5a", stock_top=["r9a"]
    )
    view = GAME.view(state, "a")
    assert view.hand == ["r2a", "b1a", "Wa"]  # grouped by colour
    assert view.hand_counts == {"a": 3, "b": 1, "c": 2}
    assert (view.top_card, view.colour, view.direction, view.turn) == ("r5a", "r", -1, "a")
    assert view.stock_count == len(state.stock) and view.to_act == ["a"]
    public = GAME.view(state, None)
    assert public.hand == [] and "g1a" not in public.model_dump_json()
    drawn, _ = act(state, "a", "draw")
    assert GAME.view(drawn, "a").drawn_card == "r9a"
    assert GAME.view(drawn, "b").drawn_card is None
    assert "r9a" not in GAME.view(drawn, "b").model_dump_json()
    assert all(c in all_cards(drawn) for c in GAME.view(drawn, "a").hand)


def test_last_card_pre_call_allowed_while_another_player_is_exposed():
    hands = {"a": ["r1a", "r2a"], "b": ["g1a", "g2a", "g3a"], "c": ["r3a", "r4a"]}
    state = make_state(hands, "r5a", options={"last_card": True})
    state, _ = act(state, "a", "p.r1a")  # a forgets: exposed; c (next) holds two cards
    assert state.exposed == ["a"] and state.seats[state.turn] == "c"
    assert {a.encode() for a in GAME.legal_actions(state, "c")} >= {"catch", "announce"}
    state, _ = act(state, "c", "announce")
    assert state.exposed == ["a"] and state.called == ["c"]
    state, _ = act(state, "c", "p.r3a")
    assert state.exposed == ["a"]  # c called; a's window stays open until a's own next action


def test_view_last_events_with_versions_and_private_filtering():
    state = make_state({"a": ["g1a", "g2a"], "b": ["y1a"], "c": ["y2a"]}, "r5a", stock_top=["b7a"])
    state, _ = act(state, "a", "draw")
    mine, theirs = GAME.view(state, "a"), GAME.view(state, "b")
    assert [e.code for e in mine.last_events] == ["drew_cards", "drew"]
    assert [e.code for e in theirs.last_events] == ["drew"]
    assert mine.last_event_versions == [1, 1] and theirs.last_event_versions == [1]
    assert "b7a" not in theirs.model_dump_json()


def test_forged_unvalidated_actions_are_refused():
    from games.chupate2.actions import ChooseColour

    state = _first("W")
    starter = state.seats[state.starter]
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, starter, ChooseColour.model_construct(kind="colour", colour="x"))
    assert err.value.code == "bad_action"
    hands = {"a": ["Wa", "r1a"], "b": ["g1a"]}
    state = make_state(hands, "r5a")
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, "a", Play.model_construct(kind="play", card="Wa", colour="x"))
    assert err.value.code == "colour_required"


def _two_forget_state():
    """4 players, counter-clockwise from a: a plays, then d; both hold two red cards."""
    hands = {
        "a": ["r1a", "r2a"],
        "b": ["g1a", "g2a", "g3a"],
        "c": ["y1a", "y2a", "y3a"],
        "d": ["r3a", "r4a"],
    }
    state = make_state(hands, "r5a", options={"last_card": True}, stock_top=["b1a", "b2a", "b3a"])
    state, _ = act(state, "a", "p.r1a")  # a forgets to call
    state, _ = act(state, "d", "p.r3a")  # so does d, before anybody caught a
    return state


def test_several_exposed_players_can_each_be_caught():
    state = _two_forget_state()
    assert state.exposed == ["a", "d"]  # a second exposed player does not replace the first
    assert {a.encode() for a in GAME.legal_actions(state, "c")} >= {"catch.0", "catch.3"}
    assert "catch" not in {a.encode() for a in GAME.legal_actions(state, "c")}
    raises("nothing_to_catch", state, "c", "catch")  # with two exposed, name the one caught
    # each exposed player may still call late, and may catch the other one
    offered_a = {x.encode() for x in GAME.legal_actions(state, "a")}
    assert {"announce", "catch"} <= offered_a and "catch.0" not in offered_a
    caught, events = act(state, "c", "catch.0")
    assert events[-1].code == "caught" and events[-1].params == {"target": "a", "count": 2}
    assert len(caught.hands["a"]) == 3 and caught.exposed == ["d"]
    raises("nothing_to_catch", caught, "b", "catch.0")
    raises("nothing_to_catch", caught, "b", "catch.3")  # one left: the plain form
    caught, events = act(caught, "b", "catch")
    assert events[-1].params == {"target": "d", "count": 2}
    assert len(caught.hands["d"]) == 3 and caught.exposed == []


def test_each_exposure_closes_on_that_players_own_next_play_or_draw():
    state = _two_forget_state()
    assert state.seats[state.turn] == "c"
    state, _ = act(state, "c", "p.y1a" if state.colour == "y" else "draw")
    if state.phase == "drawn":
        state, _ = act(state, "c", "pass")
    assert state.exposed == ["a", "d"]  # c's move closes neither window
    state, _ = act(state, "b", "draw")
    if state.phase == "drawn":
        state, _ = act(state, "b", "pass")
    assert state.seats[state.turn] == "a" and state.exposed == ["a", "d"]
    state, _ = act(state, "a", "draw")  # a's own next action closes a's window only
    assert state.exposed == ["d"]
    assert "catch" in {x.encode() for x in GAME.legal_actions(state, "b")}


def test_old_states_with_one_exposed_seat_load():
    state = _two_forget_state()
    text = GAME.dump_state(state).replace('"exposed":["a","d"]', '"exposed":"d"')
    assert GAME.load_state(text).exposed == ["d"]
    text = GAME.dump_state(state).replace('"exposed":["a","d"]', '"exposed":null')
    assert GAME.load_state(text).exposed == []
