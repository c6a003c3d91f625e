"""One scenario per rule, decision and variant of docs/rules/amapatolli.md.

Card ids: series letter + sign number (``a07``); Tlapiāni ``tw tr tk tb``. Colour pairs
(margin/background) used below: 1 W/W, 2 W/R, 3 R/R, 4 W/K, 5 W/B, 6 K/K, 7 R/W, 8 B/B, 9 R/K,
10 R/B, 12 K/W, 14 K/R, 15 K/B (bird), 16 B/B (bird), 17 B/W, 19 B/R, 20 B/K.
"""

from __future__ import annotations

import pytest

from games.amapatolli import GAME
from games.amapatolli.actions import ACCEPT_SKIP, ANNOUNCE, DRAW, PASS, Catch
from games.amapatolli.cards import BIRD_SIGNS, CARDS, SIGN_COLOURS, deck_ids, hand_value
from games.core import IllegalAction
from tests.games.amapatolli.helpers import SEATS, act, codes, legal_codes, make, play

# ----- the deck ------------------------------------------------------------------------------


def test_deck_has_84_cards_in_four_series_plus_four_tlapiani():
    ids = deck_ids()
    assert len(ids) == 84 and len(set(ids)) == 84
    for sign in range(1, 21):
        assert sum(1 for c in ids if CARDS[c].sign == sign) == 4
    wild = [CARDS[c] for c in ids if CARDS[c].wild]
    assert sorted(c.margin for c in wild) == ["black", "blue", "red", "white"]
    assert all(c.margin == c.background and c.value == 0 for c in wild)
    assert {CARDS[c].name for c in ("tw", "tk", "tr", "tb")} == {
        "Itztli",
        "Tláloc",
        "Tlazoltéotl",
        "Mictlantecuhtli",
    }


def test_colour_pairs_and_values_follow_the_spec():
    single = {
        1: "white",
        13: "white",
        3: "red",
        11: "red",
        6: "black",
        18: "black",
        8: "blue",
        16: "blue",
    }
    for sign, colour in single.items():
        assert SIGN_COLOURS[sign] == (colour, colour)
    two = [2, 4, 5, 7, 9, 10, 12, 14, 15, 17, 19, 20]
    pairs = [
        ("white", "red"),
        ("white", "black"),
        ("white", "blue"),
        ("red", "white"),
        ("red", "black"),
        ("red", "blue"),
        ("black", "white"),
        ("black", "red"),
        ("black", "blue"),
        ("blue", "white"),
        ("blue", "red"),
        ("blue", "black"),
    ]
    assert [SIGN_COLOURS[s] for s in two] == pairs
    for cid in deck_ids():
        card = CARDS[cid]
        assert card.value == card.sign
        assert (card.margin, card.background) == SIGN_COLOURS.get(card.sign, (card.margin,) * 2)
    assert sum(1 for c in deck_ids() if CARDS[c].sign in BIRD_SIGNS) == 8


# ----- set-up --------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_deal_seven_each_turn_one_up_rest_is_stock(players):
    state = GAME.new(SEATS[:players], "deal")
    assert all(len(h) == 7 for h in state.hands)
    assert len(state.pile) == 1 and not CARDS[state.pile[0]].wild
    assert len(state.stock) == 84 - 7 * players - 1
    assert state.turn == 0 and state.direction == 1  # the dealer (seat 0) starts, clockwise
    assert GAME.to_act(state) == {SEATS[0]}


def test_player_count_is_checked():
    with pytest.raises(IllegalAction) as err:
        GAME.new(["solo"], "x")
    assert err.value.code == "player_count"
    with pytest.raises(IllegalAction):
        GAME.new(SEATS + ["extra"], "x")
    with pytest.raises(IllegalAction) as err:
        GAME.new(["a", "a"], "x")
    assert err.value.code == "duplicate_seat"


def _seed_where(predicate, players=3, **options):
    for n in range(5000):
        state = GAME.new(SEATS[:players], f"s{n}", options)
        if predicate(state):
            return state
    raise AssertionError("no seed found")


def test_tlapiani_turned_up_goes_back_into_the_stock():
    state = _seed_where(lambda s: any(e.code == "first_card_returned" for e in s.log))
    returned = [e.params["card"] for e in state.log if e.code == "first_card_returned"]
    assert all(CARDS[c].wild for c in returned)
    assert all(c in state.stock for c in returned)
    assert not CARDS[state.pile[0]].wild
    assert sum(map(len, state.hands)) + len(state.stock) + len(state.pile) == 84


def test_a_bird_turned_up_has_no_effect():
    state = _seed_where(lambda s: CARDS[s.pile[0]].is_bird)
    assert not state.skip_pending
    assert "accept" not in legal_codes(state, 0)


# ----- matching ------------------------------------------------------------------------------


def test_match_by_margin_or_background_only():
    # top 2 = white/red: a04 (W/K) matches by margin, a14 (K/R) by background, a07 (R/W) is the
    # inverse (always playable, see test_inverse_card...), while a09 (R/K) and a12 (K/W) share a
    # colour only crosswise and a20 (B/K) shares none: not playable.
    state = make([["a04", "a07", "a14", "a09", "a12", "a20"], ["b01"]], "b02", ["c01"])
    assert sorted(legal_codes(state, 0)) == ["p.a04", "p.a07", "p.a14"]
    for card in ("a09", "a12", "a20"):
        with pytest.raises(IllegalAction) as err:
            act(state, 0, play(card))
        assert err.value.code == "card_does_not_match"
    new, events = act(state, 0, play("a04"))
    assert new.pile[-1] == "a04" and (new.margin, new.background) == ("white", "black")
    assert new.turn == 1 and codes(events) == ["played"]


# ----- double play ---------------------------------------------------------------------------


def test_double_match_forces_another_card_and_can_chain():
    # top a02 W/R; b02 is the same pair (double), then c02 again (double), then a04 ends it.
    state = make([["b02", "c02", "a04", "a20"], ["b01"]], "a02", ["d01"])
    state, events = act(state, 0, play("b02"))
    assert "double_play" in codes(events) and state.turn == 0 and state.double_play
    state, events = act(state, 0, play("c02"))
    assert state.turn == 0 and state.double_play
    state, events = act(state, 0, play("a04"))
    assert state.turn == 1 and not state.double_play


def test_inverse_card_forces_another_card():
    # top a02 W/R; a07 is R/W, the inverse.
    state = make([["a07", "a03", "a20"], ["b01"]], "a02", ["d01"])
    state, events = act(state, 0, play("a07"))
    assert "double_play" in codes(events) and state.turn == 0


def test_double_play_without_playable_card_draws_until_playable():
    # after the double a02 -> b02 (W/R), the hand holds a20 (B/K), a06 (K/K): draw, a17 (B/W) no,
    # then a05 (W/B) yes.
    state = make([["b02", "a20", "a06"], ["b01"]], "a02", ["a05", "a17"])
    state, _ = act(state, 0, play("b02"))
    assert legal_codes(state, 0) == ["draw"]
    state, _ = act(state, 0, DRAW)  # a17: B/W does not match W/R
    assert legal_codes(state, 0) == ["draw"] and state.drawn == 1
    state, _ = act(state, 0, DRAW)  # a05: W/B matches by margin
    assert legal_codes(state, 0) == ["p.a05"]
    state, _ = act(state, 0, play("a05"))
    assert state.turn == 1


def test_double_play_ends_the_turn_when_the_stock_runs_out():
    state = make([["b02", "a20", "a17"], ["b01"]], "a02", [])
    state, _ = act(state, 0, play("b02"))
    assert legal_codes(state, 0) == ["pass"]
    state, events = act(state, 0, PASS)
    assert state.turn == 1 and not state.double_play and codes(events) == ["passed"]


def test_playing_the_last_card_wins_even_when_a_double_play_is_due():
    state = make([["b02"], ["b01", "c20"]], "a02", ["d01"])
    state, events = act(state, 0, play("b02"))
    assert state.finished and codes(events) == ["played", "game_won"]
    assert GAME.outcome(state).winners == ["ana"]


# ----- drawing -------------------------------------------------------------------------------


def test_draw_only_without_playable_card_then_must_play_what_matches():
    state = make([["a20", "a09"], ["b01"]], "a02", ["b04", "a17"])  # a17 drawn first
    with pytest.raises(IllegalAction) as err:
        act(state, 0, play("a20"))
    assert err.value.code == "card_does_not_match"
    state, events = act(state, 0, DRAW)
    assert codes(events) == ["drew", "drew_card"] and events[1].to == ("ana",)
    assert events[0].params == {"stock": 1} and "card" not in events[0].params
    assert state.turn == 0 and legal_codes(state, 0) == ["draw"]
    state, _ = act(state, 0, DRAW)  # b04 W/K matches the margin
    assert legal_codes(state, 0) == ["p.b04"]
    with pytest.raises(IllegalAction) as err:
        act(state, 0, DRAW)
    assert err.value.code == "has_playable_card"


def test_a_drawn_tlapiani_may_be_played_naming_any_colour():
    state = make([["a20"], ["b01"]], "a02", ["tw"])
    state, _ = act(state, 0, DRAW)
    assert sorted(legal_codes(state, 0)) == ["p.tw.b", "p.tw.k", "p.tw.r", "p.tw.w"]


def test_stock_empty_and_nothing_playable_ends_the_turn():
    state = make([["a20", "a09"], ["b01"], ["c01"]], "a02", [])
    assert legal_codes(state, 0) == ["pass"]
    with pytest.raises(IllegalAction) as err:
        act(state, 0, DRAW)
    assert err.value.code == "stock_empty"
    state, _ = act(state, 0, PASS)
    assert state.turn == 1 and state.passes == 1


def test_pass_is_illegal_with_a_playable_card_or_a_stock():
    state = make([["a04"], ["b01"]], "a02", ["c01"])
    with pytest.raises(IllegalAction) as err:
        act(state, 0, PASS)
    assert err.value.code == "has_playable_card"
    state = make([["a20"], ["b01"]], "a02", ["c01"])
    with pytest.raises(IllegalAction) as err:
        act(state, 0, PASS)
    assert err.value.code == "stock_not_empty"


# ----- birds ---------------------------------------------------------------------------------


def test_bird_makes_the_next_player_lose_their_turn():
    # top a20 B/K; a15 (K/B bird) does not match (K vs B margin, B vs K background)... use a16.
    state = make([["a16", "a01", "a03"], ["b01", "b03"], ["c01"]], "a20", ["d01"])
    state, events = act(state, 0, play("a16"))
    assert state.turn == 1 and state.skip_pending and "skip_next" in codes(events)
    assert legal_codes(state, 1) == ["accept"]
    assert GAME.view(state, "ben").skip_pending
    state, events = act(state, 1, ACCEPT_SKIP)
    assert codes(events) == ["skipped"] and state.turn == 2 and not state.skip_pending


def test_bird_chain_answer_with_any_bird_without_matching():
    # ana plays a16 (B/B) on a20; ben answers with b15 (K/B) - no colour match needed; cy answers
    # with c16; dee accepts; ana (next after dee) must match the last bird's colours.
    hands = [["a16", "a03", "a06"], ["b15", "b03"], ["c16", "c03"], ["d01", "d02"]]
    state = make(hands, "a20", ["d05"])
    state, _ = act(state, 0, play("a16"))
    assert sorted(legal_codes(state, 1)) == ["accept", "p.b15"]
    with pytest.raises(IllegalAction) as err:
        act(state, 1, play("b03"))
    assert err.value.code == "not_a_skip_card"
    with pytest.raises(IllegalAction) as err:
        act(state, 1, DRAW)
    assert err.value.code == "must_answer_skip"
    state, _ = act(state, 1, play("b15"))
    assert state.turn == 2 and state.skip_pending
    state, _ = act(state, 2, play("c16"))
    assert state.turn == 3 and state.skip_pending
    state, _ = act(state, 3, ACCEPT_SKIP)
    assert state.turn == 0 and not state.skip_pending
    assert (state.margin, state.background) == ("blue", "blue")
    assert legal_codes(state, 0) == ["draw"]  # a03 R/R and a06 K/K don't match B/B


def test_answering_bird_never_triggers_a_double_play():
    # ana's a16 (B/B) on a08 (B/B) is a double match: she must go on, draws d01 (W/W, no match)
    # and the stock is empty: her turn ends, and the bird of her double play still skips ben.
    # ben answers with b16 - the same colours again - and it is no double play for him.
    state = make([["a16", "a01"], ["b16", "b01"], ["c01", "c02"]], "a08", ["d01"])
    state, events = act(state, 0, play("a16"))
    assert state.turn == 0 and state.double_play and state.skip_next
    state, _ = act(state, 0, DRAW)
    assert legal_codes(state, 0) == ["pass"]
    state, _ = act(state, 0, PASS)
    assert state.turn == 1 and state.skip_pending
    state, events = act(state, 1, play("b16"))
    assert "double_play" not in codes(events) and state.turn == 2 and state.skip_pending


def test_tlapiani_cannot_answer_a_bird():
    state = make([["a16", "a01", "a03"], ["tw", "b01"], ["c01"]], "a20", ["d01"])
    state, _ = act(state, 0, play("a16"))
    assert legal_codes(state, 1) == ["accept"]
    with pytest.raises(IllegalAction) as err:
        act(state, 1, play("tw", "red"))
    assert err.value.code == "not_a_skip_card"


def test_skip_with_two_players_gives_the_bird_player_another_turn():
    state = make([["a16", "a08", "a01"], ["b01", "b03"]], "a20", ["d01"])
    state, _ = act(state, 0, play("a16"))
    state, _ = act(state, 1, ACCEPT_SKIP)
    assert state.turn == 0


def test_accepting_a_skip_is_only_legal_when_one_is_pending():
    state = make([["a04"], ["b01"]], "a02", ["c01"])
    with pytest.raises(IllegalAction) as err:
        act(state, 0, ACCEPT_SKIP)
    assert err.value.code == "no_skip_pending"


# ----- Tlapiāni ------------------------------------------------------------------------------


def test_tlapiani_is_wild_names_the_colour_and_reverses():
    state = make(
        [["tk", "a20", "a09"], ["b01"], ["c20", "c01"]], "a02", ["d01"]
    )  # nothing else plays
    assert sorted(legal_codes(state, 0)) == ["p.tk.b", "p.tk.k", "p.tk.r", "p.tk.w"]
    with pytest.raises(IllegalAction) as err:
        act(state, 0, play("tk"))
    assert err.value.code == "colour_required"
    with pytest.raises(IllegalAction) as err:
        act(state, 0, play("a20", "red"))
    assert err.value.code == "colour_not_allowed"
    state, events = act(state, 0, play("tk", "blue"))
    assert codes(events) == ["played", "colour_chosen", "reversed"]
    assert (state.margin, state.background, state.named_colour) == ("blue", "blue", "blue")
    assert state.direction == -1 and state.turn == 2  # reversed: seat 2 is next
    assert legal_codes(state, 2) == ["p.c20"]  # B/K matches blue by margin
    view = GAME.view(state, None)
    assert view.top.wild and view.named_colour == "blue" and view.direction == -1


def test_tlapiani_with_two_players_changes_nothing_and_never_doubles():
    state = make([["tw", "a01"], ["b01"]], "a02", ["d01"])
    state, events = act(state, 0, play("tw", "white"))
    assert state.turn == 1 and "double_play" not in codes(events)


def test_single_colour_card_on_a_named_colour_is_a_double_match():
    state = make([["a01", "a13", "a20"], ["b20"]], "tk", ["d01"], named="white")
    state, events = act(state, 0, play("a01"))
    assert "double_play" in codes(events) and state.turn == 0


def test_tlapiani_may_be_the_second_card_of_a_double_play():
    state = make([["b02", "tr", "a20"], ["b01"]], "a02", ["d01"])
    state, _ = act(state, 0, play("b02"))
    assert "p.tr.r" in legal_codes(state, 0)
    state, _ = act(state, 0, play("tr", "red"))
    assert state.turn == 1 and not state.double_play


def test_tlapiani_always_playable_so_no_draw():
    state = make([["tb", "a20"], ["b01"]], "a02", ["d01"])
    assert "draw" not in legal_codes(state, 0)


# ----- "¡Ce!" --------------------------------------------------------------------------------


def test_announce_from_the_second_to_last_card_until_the_next_player_acts():
    state = make([["a04", "a20"], ["b01", "b04"], ["c01", "c02"]], "a02", ["d01", "d02"])
    assert "announce" not in legal_codes(state, 0)
    state, _ = act(state, 0, play("a04"))
    assert state.turn == 1 and "announce" in legal_codes(state, 0)
    assert "catch.0" in legal_codes(state, 1) and "catch.0" in legal_codes(state, 2)
    assert GAME.view(state, None).ce_window == "ana"
    state, events = act(state, 0, ANNOUNCE)
    assert codes(events) == ["announced"] and state.announced[0]
    assert "catch.0" not in legal_codes(state, 1) and "announce" not in legal_codes(state, 0)
    assert GAME.view(state, "ben").announced["ana"]


def test_call_out_costs_three_cards():
    state = make(
        [["a04", "a20"], ["b01", "b04"], ["c01", "c02"]], "a02", ["d01", "d02", "d03", "d05"]
    )
    state, _ = act(state, 0, play("a04"))
    state, events = act(state, 2, Catch(target=0))  # cy, not the next player, calls
    assert codes(events) == ["caught", "penalty_cards"]
    assert events[0].params == {"target": "ana", "count": 3} and events[1].to == ("ana",)
    assert len(state.hands[0]) == 4 and state.stock == ["d01"]
    assert "announce" not in legal_codes(state, 0) and "catch.0" not in legal_codes(state, 1)


def test_call_out_draws_what_is_left_of_the_stock():
    state = make([["a04", "a20"], ["b01", "b04"]], "a02", ["d01"])
    state, _ = act(state, 0, play("a04"))
    state, events = act(state, 1, Catch(target=0))
    assert events[0].params["count"] == 1 and len(state.hands[0]) == 2


def test_wrong_call_out_is_not_legal_and_costs_nothing():
    state = make([["a04", "a20", "a09"], ["b01", "b04"]], "a02", ["d01", "d02", "d03"])
    assert not any(a.startswith("catch") for a in legal_codes(state, 1))
    with pytest.raises(IllegalAction) as err:
        act(state, 1, Catch(target=0))
    assert err.value.code == "nothing_to_call"
    state, _ = act(state, 0, play("a04"))  # two cards left: still nothing to call
    with pytest.raises(IllegalAction):
        act(state, 1, Catch(target=0))
    with pytest.raises(IllegalAction) as err:
        act(state, 1, ANNOUNCE)
    assert err.value.code == "cannot_announce"


def test_player_cannot_call_themselves_out():
    state = make([["a04", "a20"], ["b01", "b04"]], "a02", ["d01", "d02", "d03"])
    state, _ = act(state, 0, play("a04"))
    with pytest.raises(IllegalAction):
        act(state, 0, Catch(target=0))


def test_the_window_closes_when_the_next_player_acts():
    state = make(
        [["a04", "a20"], ["b05", "b01", "b03"], ["c01", "c02"]], "a02", ["d01", "d02", "d03"]
    )
    state, _ = act(state, 0, play("a04"))
    state, _ = act(state, 1, play("b05"))  # ben acts
    assert state.ce_window is None
    assert "announce" not in legal_codes(state, 0) and "catch.0" not in legal_codes(state, 2)
    with pytest.raises(IllegalAction):
        act(state, 2, Catch(target=0))


def test_announce_during_ones_own_double_play():
    state = make([["b02", "c02", "a04"], ["b01"]], "a02", ["d01", "d02", "d03"])
    state, _ = act(state, 0, play("b02"))
    state, _ = act(state, 0, play("c02"))  # a double play again, one card left
    assert state.turn == 0 and "announce" in legal_codes(state, 0)
    assert "catch.0" in legal_codes(state, 1)


# ----- the end -------------------------------------------------------------------------------


def test_last_card_wins_at_once_ranking_by_hand_value_points_to_the_winner():
    hands = [["a04"], ["b20", "b01"], ["c05"], ["d02", "d03"]]  # values 21, 5, 5
    state = make(hands, "a02", ["d01"])
    state, events = act(state, 0, play("a04"))
    assert codes(events) == ["played", "game_won"] and state.finished
    out = GAME.outcome(state)
    assert out.ranking == [["ana"], ["cy", "dee"], ["ben"]]
    assert out.points == {"ana": 31, "ben": 0, "cy": 0, "dee": 0}
    assert out.hand_values == {"ana": 0, "ben": 21, "cy": 5, "dee": 5}
    assert out.reason == "out"
    assert GAME.legal_actions(state, "ben") == [] and GAME.to_act(state) == set()
    with pytest.raises(IllegalAction) as err:
        act(state, 1, DRAW)
    assert err.value.code == "game_over"


def test_blocked_game_ends_with_lowest_sum_and_shared_ties():
    hands = [["a20", "a09"], ["b19", "b10"], ["c20", "c09"]]  # 29, 29, 29
    state = make(hands, "a01", [])  # W/W: nothing matches (B/K R/K B/R R/B)
    state, _ = act(state, 0, PASS)
    state, _ = act(state, 1, PASS)
    assert not state.finished
    state, events = act(state, 2, PASS)
    assert state.finished and codes(events) == ["passed", "blocked"]
    out = GAME.outcome(state)
    assert out.ranking == [["ana", "ben", "cy"]] and out.points == {"ana": 0, "ben": 0, "cy": 0}
    assert out.reason == "blocked"


def test_blocked_game_finishing_order_by_hand_value():
    hands = [["a20", "a09"], ["b19"], ["c10"], ["d09", "d10"]]  # 29, 19, 10, 19
    state = make(hands, "a01", [])
    for seat in range(4):
        state, _ = act(state, seat, PASS)
    out = GAME.outcome(state)
    assert out.ranking == [["cy"], ["ben", "dee"], ["ana"]]
    assert out.points == {"cy": 67, "ben": 0, "dee": 0, "ana": 0}
    assert GAME.view(state, None).hand_values == {"ana": 29, "ben": 19, "cy": 10, "dee": 19}


def test_a_play_resets_the_count_of_players_who_could_not_play():
    hands = [["a20"], ["b06", "b19"], ["c10"]]
    state = make(hands, "a14", [])  # K/R: only b06 (K/K) plays
    state, _ = act(state, 0, PASS)
    assert state.passes == 1
    state, _ = act(state, 1, play("b06"))
    assert state.passes == 0


# ----- variants ------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [3, 4, 5, 6, 7])
def test_variant_hand_size(size):
    state = GAME.new(SEATS[:4], "h", {"hand_size": size})
    assert all(len(h) == size for h in state.hands)
    for bad in (2, 8):  # the engine's one option error, as for every game
        with pytest.raises(IllegalAction) as refused:
            GAME.new(SEATS[:4], "h", {"hand_size": bad})
        assert refused.value.code == "bad_options"


def test_variant_inverse_once():
    opts = {"inverse_once": True}
    state = make([["a07", "b02", "c07", "a20"], ["b01", "b20"]], "a02", ["d01"], options=opts)
    assert "p.a07" in legal_codes(state, 0)
    state, events = act(state, 0, play("a07"))  # first inverse: double play
    assert "double_play" in codes(events) and state.inverse_used[0]
    state, events = act(state, 0, play("b02"))  # inverse again (W/R on R/W): now a plain play
    assert "double_play" not in codes(events) and state.turn == 1
    # a double match is not affected by the variant
    state = make([["b02", "a20"], ["b01"]], "a02", ["d01"], options=opts)
    state, events = act(state, 0, play("b02"))
    assert "double_play" in codes(events) and not state.inverse_used[0]


def test_variant_no_birds_makes_birds_ordinary():
    state = make(
        [["a16", "a01"], ["b16", "b01"], ["c01"]], "a20", ["d01"], options={"no_birds": True}
    )
    state, events = act(state, 0, play("a16"))
    assert not state.skip_pending and state.turn == 1 and "skip_next" not in codes(events)
    assert not GAME.view(state, "ana").top.bird


def test_variant_no_tlapiani_removes_the_wild_cards():
    state = GAME.new(SEATS[:3], "nt", {"no_tlapiani": True})
    cards = [c for h in state.hands for c in h] + state.stock + state.pile
    assert len(cards) == 80 and not any(CARDS[c].wild for c in cards)


def test_variant_powers_tochtli_skips_and_ollin_reverses():
    opts = {"powers": True}
    # a08 Tochtli B/B on a20 B/K: a skip, answerable with a bird (or with a Tochtli)
    state = make(
        [["a08", "a01", "a03"], ["b15", "b08", "b01"], ["c01", "c03"]], "a20", ["d01"], options=opts
    )
    assert GAME.view(state, "ana").hand[0].skips
    state, _ = act(state, 0, play("a08"))
    assert state.skip_pending and state.turn == 1
    assert sorted(legal_codes(state, 1)) == ["accept", "p.b08", "p.b15"]
    # a17 Ollin B/W on a20 B/K reverses the order
    state = make([["a17", "a01"], ["b01"], ["c01"]], "a20", ["d01"], options=opts)
    state, events = act(state, 0, play("a17"))
    assert "reversed" in codes(events) and state.direction == -1 and state.turn == 2
    # without the variant they are plain cards
    state = make([["a17", "a08", "a01"], ["b01"], ["c01"]], "a20", ["d01"])
    state, events = act(state, 0, play("a17"))
    assert state.direction == 1 and state.turn == 1 and "reversed" not in codes(events)
    state = make([["a08", "a01"], ["b01"], ["c01"]], "a20", ["d01"])
    state, _ = act(state, 0, play("a08"))
    assert not state.skip_pending and state.turn == 1


# ----- rematch -------------------------------------------------------------------------------


def test_rematch_the_last_placed_player_deals_and_starts():
    hands = [["a04"], ["b20", "b01"], ["c05"], ["d02", "d03"]]
    state = make(hands, "a02", ["d01"])
    assert GAME.rematch_seats(state) == SEATS[:4]  # not finished: unchanged
    state, _ = act(state, 0, play("a04"))
    assert GAME.rematch_seats(state) == ["ben", "cy", "dee", "ana"]
    rematch = GAME.new(GAME.rematch_seats(state), "second")
    assert rematch.seats[rematch.turn] == "ben"


# ----- security and text forms ---------------------------------------------------------------


def test_forged_and_out_of_turn_actions_are_rejected():
    state = make([["a04", "a20"], ["b04", "b01"]], "a02", ["d01"])
    cases = [
        ("ben", play("b04"), "not_your_turn"),
        ("zed", play("a04"), "not_a_player"),
        ("ana", play("b04"), "card_not_in_hand"),
        ("ana", play("zz9"), "card_not_in_hand"),
        ("ana", DRAW, "has_playable_card"),
    ]
    for seat, action, code in cases:
        with pytest.raises(IllegalAction) as err:
            GAME.apply(state, seat, action)
        assert err.value.code == code
    assert state.version == 0 and state.hands[0] == ["a04", "a20"]


@pytest.mark.parametrize(
    "text",
    [
        "",
        "p",
        "p.",
        "p.a21",
        "p.e01",
        "p.a00",
        "p.tw",
        "p.a01.r",
        "p.tw.x",
        "p.tw.r.r",
        "call.9",
        "call.",
        "call",
        "call.02",
        "call.+2",
        "draw.1",
        "ce.0",
        "xx",
        "DRAW",
        "p.a1",
        "p:a07",  # the old text form
        "call:0",
    ],
)
def test_decode_rejects_junk(text):
    with pytest.raises(IllegalAction) as err:
        GAME.decode_action(text)
    assert err.value.code == "bad_action"


def test_encodings():
    for action, text in [
        (play("a07"), "p.a07"),
        (play("tw", "red"), "p.tw.r"),
        (DRAW, "draw"),
        (PASS, "pass"),
        (ACCEPT_SKIP, "accept"),
        (ANNOUNCE, "announce"),
        (Catch(target=3), "catch.3"),
    ]:
        assert action.encode() == text and GAME.decode_action(text) == action


def test_view_shows_own_hand_and_counts_only():
    state = make([["a04", "a20"], ["b04", "b01", "b05"]], "a02", ["d01"])
    view = GAME.view(state, "ana")
    assert [c.id for c in view.hand] == ["a04", "a20"] and view.playable == ["a04"]
    assert view.hand_counts == {"ana": 2, "ben": 3} and view.stock_count == 1
    assert view.top.id == "a02" and view.turn == "ana" and view.next_seat == "ben"
    public = GAME.view(state, None)
    assert public.hand == [] and public.seat is None
    assert "b04" not in view.model_dump_json() and "d01" not in view.model_dump_json()
    assert hand_value(["a04", "a20"]) == 24


def test_a_timed_out_turn_is_played_not_just_announced():
    state = make([["b02", "c02", "a04", "a20"], ["b01", "b05"]], "a02", ["d01", "d02", "d03"])
    state, _ = act(state, 0, play("b02"))
    state, _ = act(state, 0, play("c02"))
    state, _ = act(state, 0, play("a04"))  # W/K on W/R: one card left, turn passes to ben
    assert "announce" in legal_codes(state, 0) and "catch.0" in legal_codes(state, 1)
    action = GAME.default_action(state, "ben")
    assert action.kind == "play"
    with pytest.raises(IllegalAction):
        GAME.default_action(state, "ana")  # not her turn: nothing to time out


def test_call_out_with_an_empty_stock_costs_nothing_but_closes_the_window():
    state = make([["a04", "a20"], ["b01", "b04"], ["c01", "c03"]], "a02", [])
    state, _ = act(state, 0, play("a04"))
    state, events = act(state, 2, Catch(target=0))
    assert events[0].params["count"] == 0 and state.hands[0] == ["a20"]
    assert state.ce_window is None and "announce" not in legal_codes(state, 0)
