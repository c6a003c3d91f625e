"""End of a hand (spec "End of a hand"): triggers, penalty, awards, exchanges, objective."""

import pytest

from games.core import IllegalAction
from games.macarena import GAME, BuyElement, Draw, GiveElement, Pass
from games.macarena.state import Tokens

from .helpers import codes, play, table

# Pozo tops: 0:2C 1:5D 2:9S 3:QH 4:KC 5:3H 6:7D.  Seat "a" ends every hand below by laying 3C
# on pozo 0 with an empty stock: the next player (to the right: c, then b) cannot draw.


def end_hand(hands, collections=None, tokens=None, macas=None, seats=None, a_extra="", **options):
    hands = dict(hands)
    hands["a"] = f"3C {a_extra} " + hands.get("a", "")
    s = table(
        hands,
        stock="",
        collections=collections,
        tokens=tokens,
        macas=macas,
        seats=seats,
        hand_number=2,
        **options,
    )
    return play(s, "a", 0, "3C")


def tok(coins=0, elements=(), amulets=0):
    return Tokens(coins=coins, elements=list(elements), amulets=amulets)


# ----- how a hand ends ------------------------------------------------------------------------


def test_a_draw_from_an_empty_stock_ends_the_hand():
    s = table({"a": "3C 4C", "b": "5S", "c": "6S"}, stock="")
    s2, ev = play(s, "a", 0, "3C")
    assert "hand_ended" in codes(ev)
    ended = next(e for e in ev if e.code == "hand_ended")
    assert ended.params["reason"] == "stock_empty"
    assert s2.hand_number == 2  # nobody had tokens: awards, then a new hand at once
    assert s2.hand_result.reason == "stock_empty" and s2.hand_result.went_out is None


def test_draw_is_a_separate_step_and_the_last_card_can_still_be_played():
    s = table({"a": "4C", "b": "5S", "c": "6S"}, stock="8H", phase="draw")
    assert GAME.legal_actions(s, "a") == [Draw()]
    s2, ev = GAME.apply(s, "a", Draw())
    assert s2.phase == "play" and s2.stock == [] and GAME.view(s2, "a").drawn.code == "8H"
    assert ev[1].to == ("a",) and GAME.view(s2, "b").drawn is None
    s3, ev = GAME.apply(s2, "a", Pass())
    assert "hand_ended" in codes(ev)


def test_going_out_ends_the_hand_and_earns_a_coin():
    s = table({"a": "3C", "b": "5S 6S", "c": "6S"}, hand_number=2)
    s2, ev = play(s, "a", 0, "3C")
    r = s2.hand_result
    assert r.reason == "went_out" and r.went_out == "a"
    assert r.seats["a"].coins_went_out == 1 and s2.tokens["a"].coins == 1


def test_going_out_with_an_espejo_ends_the_hand_instead_of_the_espejo_turn():
    s = table({"a": "2C", "b": "5S 6S", "c": "6S"})
    s2, ev = play(s, "a", 0, "2C")
    assert "maca_placed" in codes(ev) and "espejo_turn" not in codes(ev)
    assert s2.hand_result.went_out == "a" and s2.hand_result.seats["a"].coins_macas == 1


# ----- penalty --------------------------------------------------------------------------------


def test_penalty_choice_of_element_before_the_collections_are_shown():
    s, ev = end_hand(
        {"a": "4C", "b": "5S 6S 7S", "c": "5S 6S 7S"},
        collections={"a": "4H 5H", "b": "6H", "c": "9H"},
        tokens={"b": tok(elements=["fire", "water"]), "c": tok(elements=["air"])},
    )
    # b and c hold the most cards: c has one element and gives it; b must choose
    assert s.phase == "penalty" and GAME.to_act(s) == {"b"}
    assert s.tokens["c"].elements == [] and "penalty_element" in codes(ev)
    view = GAME.view(s, "b")
    assert view.choice == "give_element" and view.give_choices == ["water", "fire"]
    assert view.ending == "stock_empty" and view.hand_result is None
    assert [p.collection_count for p in view.players] == [None, 1, None]  # not shown yet
    assert sorted(a.encode() for a in GAME.legal_actions(s, "b")) == ["g.f", "g.w"]
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, "b", GiveElement(element="earth"))
    assert err.value.code == "element_not_held"
    with pytest.raises(IllegalAction):
        GAME.apply(s, "a", GiveElement(element="fire"))
    s2, ev = GAME.apply(s, "b", GiveElement(element="fire"))
    assert "fire" not in s2.tokens["b"].elements
    assert s2.hand_result.seats["b"].gave_element == "fire"
    assert s2.hand_result.seats["c"].gave_element == "air"
    assert s2.hand_result.revealed and "collections_shown" in codes(ev)


def test_penalty_default_gives_an_element_the_collection_may_win_back():
    s, _ = end_hand(
        {"a": "4C", "b": "5S 6S 7S"},
        collections={"b": "6D 7D 8D"},
        tokens={"b": tok(elements=["water", "fire"])},
        seats=["a", "b", "c"],
    )
    assert GAME.default_action(s, "b") == GiveElement(element="fire")


def test_penalty_without_elements_gives_all_coins():
    s, ev = end_hand({"a": "4C", "b": "5S 6S", "c": "5S"}, tokens={"b": tok(coins=3)})
    assert s.hand_result.seats["b"].gave_coins == 3
    assert "penalty_coins" in codes(ev)
    assert s.tokens["b"].coins == 0


@pytest.mark.parametrize("tokens", [tok(), tok(amulets=1)])
def test_penalty_with_nothing_or_only_amulets_gives_nothing(tokens):
    s, ev = end_hand({"a": "4C", "b": "5S 6S", "c": "5S"}, tokens={"b": tokens})
    assert "penalty_nothing" in codes(ev)
    assert s.tokens["b"].amulets == tokens.amulets


def test_first_hand_penalty_changes_nothing():
    s = table({"a": "3C 4C", "b": "5S 6S 7S", "c": "6S"}, stock="")
    s2, ev = play(s, "a", 0, "3C")
    assert s2.hand_result.seats["b"].penalized
    assert s2.hand_result.seats["b"].gave_element is None
    assert s2.hand_result.seats["b"].gave_coins == 0


# ----- awards ---------------------------------------------------------------------------------


def test_award_coins_for_active_macas():
    macas = [{"a": 1}, {"a": 1, "b": 1}, {}, {"a": 1}, {}, {}, {}]
    s, ev = end_hand({"a": "4C", "b": "5S", "c": "5S"}, macas=macas)
    assert s.hand_result.seats["a"].coins_macas == 3 and s.hand_result.seats["b"].coins_macas == 1
    assert s.tokens["a"].coins == 3 and s.tokens["b"].coins == 1
    assert s.macas == [{}] * 7  # the new hand starts without MACAS


def test_largest_collection_coin_shared_on_a_tie():
    s, _ = end_hand(
        {"a": "4C", "b": "5S", "c": "5S"},
        collections={"a": "4H 5S", "b": "6D 7C", "c": "9H"},
    )
    assert s.hand_result.largest_collection == ["a", "b"]
    assert (s.tokens["a"].coins, s.tokens["b"].coins, s.tokens["c"].coins) == (1, 1, 0)


def test_each_element_goes_to_the_most_cards_of_it():
    s, ev = end_hand(
        {"a": "4C", "b": "5S", "c": "5S"},
        collections={"a": "2H 3H 4H", "b": "AH KH 9C", "c": "4D"},
    )
    r = s.hand_result
    assert r.element_winners == {"earth": "b", "air": None, "water": "a", "fire": "c"}
    assert s.tokens["a"].elements == ["water"] and s.tokens["b"].elements == ["earth"]
    assert [e.params["element"] for e in ev if e.code == "award_element_none"] == ["air"]


@pytest.mark.parametrize(
    "coll_a,coll_b,winner",
    [
        ("AH 2H", "KH QH", "a"),  # the ace is the highest card
        ("KH 5H", "KH 6H", "b"),  # same highest: the second highest decides
        ("KH QH 2H", "KH QH 3H", "b"),  # and so on
        ("KH 5H", "KH 5H", None),  # a full tie awards nobody
    ],
)
def test_element_tie_break_by_highest_cards(coll_a, coll_b, winner):
    s, _ = end_hand(
        {"a": "4C", "b": "5S", "c": "5S"},
        collections={"a": coll_a, "b": coll_b},
    )
    assert s.hand_result.element_winners["water"] == winner


def test_revealed_results_in_every_view():
    s, _ = end_hand(
        {"a": "4C", "b": "5S", "c": "5S"},
        collections={"a": "2H 3H", "b": "AH", "c": ""},
    )
    for seat in (None, "a", "b", "c"):
        r = GAME.view(s, seat).hand_result
        assert (
            r is not None
            and r.revealed
            and [c.code for c in r.seats["a"].collection] == ["2H", "3H"]
        )


# ----- exchanges ------------------------------------------------------------------------------


def test_duplicate_element_becomes_a_coin():
    s, ev = end_hand(
        {"a": "4C", "b": "5S", "c": "5S"},
        a_extra="JD JS",
        collections={"b": "4H", "c": ""},
        tokens={"b": tok(elements=["water"])},
    )
    assert "award_element_duplicate" in codes(ev)
    assert s.tokens["b"].elements == ["water"]
    assert s.tokens["b"].coins == 2  # the duplicate and the largest collection
    assert s.hand_result.seats["b"].duplicates == ["water"]


def test_four_coins_buy_an_element_of_choice():
    s, ev = end_hand(
        {"a": "4C", "b": "5S 6S 7S", "c": "5S"},
        collections={"a": "4H 5H"},
        tokens={"a": tok(coins=3, elements=["earth"])},
    )
    # a wins water and the largest collection (4 coins): earth+water held, air or fire to buy
    assert s.phase == "buy" and GAME.to_act(s) == {"a"}
    view = GAME.view(s, "a")
    assert view.choice == "buy_element" and view.buy_choices == ["air", "fire"]
    assert view.hand_result is not None  # the collections are already shown
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, "a", BuyElement(element="water"))
    assert err.value.code == "element_held"
    s2, ev = GAME.apply(s, "a", BuyElement(element="fire"))
    assert s2.tokens["a"].coins == 0 and sorted(s2.tokens["a"].elements) == [
        "earth",
        "fire",
        "water",
    ]
    assert s2.hand_number == 3 and "round_started" in codes(ev)
    assert GAME.default_action(s, "a") in GAME.legal_actions(s, "a")


def test_four_coins_buy_the_only_missing_element_and_four_elements_make_an_amulet():
    s, ev = end_hand(
        {"a": "4C", "b": "5S 6S 7S", "c": "5S"},
        collections={"a": "4H 5H"},
        tokens={"a": tok(coins=3, elements=["earth", "air"])},
    )
    # a: +water (element), +1 coin (largest) -> 4 coins buy fire -> 4 elements -> an amulet
    assert codes(ev).count("buy_element") == 1 and "amulet" in codes(ev)
    assert s.tokens["a"] == tok(coins=0, elements=[], amulets=1)
    assert s.hand_result.seats["a"].bought == ["fire"]
    assert s.hand_result.seats["a"].amulets_won == 1


def test_four_elements_become_an_amulet():
    s, ev = end_hand(
        {"a": "4C", "b": "5S", "c": "5S"},
        a_extra="JD JS",
        collections={"b": "4D", "c": "6S 7S"},
        tokens={"b": tok(elements=["earth", "air", "water"])},
    )
    assert "amulet" in codes(ev) and s.tokens["b"].amulets == 1 and s.tokens["b"].elements == []


# ----- objective and the next hand ------------------------------------------------------------


def test_two_amulets_win_with_three_players():
    s, ev = end_hand(
        {"a": "4C", "b": "5S", "c": "5S"},
        a_extra="JD JS",
        collections={"b": "4D"},
        tokens={"b": tok(elements=["earth", "air", "water"], amulets=1)},
    )
    assert "game_won" in codes(ev)
    out = GAME.outcome(s)
    assert out.winners == ["b"] and out.amulets["b"] == 2 and out.points["b"] == 2
    assert out.amulets_to_win == 2
    assert out.stats["b"] == {"amulets": 2, "macarenas": 0}
    assert out.stats["a"] == {"amulets": 0, "macarenas": 0}


def test_one_amulet_wins_with_four_players():
    s, ev = end_hand(
        {"a": "4C", "b": "5S", "c": "5S", "d": "5S"},
        a_extra="JD JS",
        collections={"b": "4D"},
        tokens={"b": tok(elements=["earth", "air", "water"])},
    )
    assert GAME.outcome(s).winners == ["b"]


def test_option_overrides_the_objective():
    s, ev = end_hand(
        {"a": "4C", "b": "5S", "c": "5S", "d": "5S"},
        a_extra="JD JS",
        collections={"b": "4D"},
        tokens={"b": tok(elements=["earth", "air", "water"])},
        amulets_to_win=2,
    )
    assert GAME.outcome(s) is None and s.hand_number == 3
    assert GAME.view(s, None).amulets_to_win == 2


def test_simultaneous_objective_ties_by_amulets_elements_coins():
    s, ev = end_hand(
        {"a": "4C", "b": "5S", "c": "5S", "d": "5S"},
        a_extra="JD JS",
        collections={"b": "4D", "c": "4S"},
        tokens={
            "b": tok(elements=["earth", "air", "water"]),
            "c": tok(coins=2, elements=["earth", "fire", "water"]),
        },
    )
    out = GAME.outcome(s)
    assert out.winners == ["c"]  # both reach one amulet; c has more coins
    assert out.ranking[1] == ["b"]


def test_next_hand_dealt_tokens_carry_over_and_the_start_moves_right():
    s = table(
        {"a": "3C 4C", "b": "5S", "c": "6S"},
        stock="",
        macas=[{"a": 1}] + [{}] * 6,
        collections={"a": "4H"},
    )
    s.starter = 0
    s2, ev = play(s, "a", 0, "3C")
    assert s2.hand_number == 2 and s2.phase == "draw"
    assert s2.starter == 2 and s2.seats[s2.turn] == "c"  # the player to the right of a
    assert all(len(h) == 7 for h in s2.hands.values()) and len(s2.pozos) == 7
    assert s2.collections == {"a": [], "b": [], "c": []} and s2.macas == [{}] * 7
    assert s2.tokens["a"].coins == 2 and s2.tokens["a"].elements == ["water"]
    assert len(s2.stock) == 104 - 21 - 7


def test_the_winner_is_not_asked_to_buy_an_element_once_the_game_is_won():
    # b's fourth element makes the winning amulet (4 players: 1 amulet) and its 4th coin (the
    # largest collection) would buy an element: the game ends with the buy made for b.
    s, ev = end_hand(
        {"a": "4C", "b": "5S", "c": "5S", "d": "5S"},
        a_extra="JD JS",
        collections={"b": "4D"},
        tokens={"b": tok(coins=3, elements=["earth", "air", "water"])},
    )
    assert "buy_choice" not in codes(ev)
    assert s.phase == "over" and GAME.outcome(s).winners == ["b"]
    assert s.tokens["b"] == tok(coins=0, elements=["earth"], amulets=1)
    assert s.hand_result.seats["b"].bought == ["earth"]


def test_nobody_else_is_asked_to_buy_once_the_game_is_won():
    # a would choose what to buy; b's amulet wins the game first: a's buy is made
    # (a token either way, which is all the standings count) and the game ends.
    s, ev = end_hand(
        {"a": "4C", "b": "5S", "c": "5S", "d": "5S"},
        a_extra="JD JS",
        collections={"a": "4H 5H", "b": "4D"},
        tokens={
            "a": tok(coins=3, elements=["earth"]),
            "b": tok(elements=["earth", "air", "water"]),
        },
    )
    assert "buy_choice" not in codes(ev) and s.phase == "over"
    assert GAME.outcome(s).winners == ["b"]
    # a gave up earth (most cards), won water, and its 4 coins became a token
    assert s.tokens["a"].coins == 0 and len(s.tokens["a"].elements) == 2
    assert GAME.to_act(s) == set()


def test_a_buy_is_still_asked_when_nobody_has_reached_the_objective():
    s, _ = end_hand(
        {"a": "4C", "b": "5S 6S 7S", "c": "5S"},
        collections={"a": "4H 5H"},
        tokens={"a": tok(coins=3, elements=["earth"])},
    )
    assert s.phase == "buy" and GAME.view(s, "a").buy_choices == ["air", "fire"]


def test_decision_nobody_gets_the_largest_collection_coin_when_every_collection_is_empty():
    s, ev = end_hand({"a": "4C", "b": "5S", "c": "5S"})
    assert "award_collection" not in codes(ev)
    assert s.hand_result.largest_collection == []
    assert all(s.tokens[x].coins == 0 for x in ("b", "c"))
