"""Hard keeps its cards, draws, goes out in one play, and weighs the end phase from its view."""

from __future__ import annotations

import random

import pytest

from games.core.search import Budget
from games.maquiavelo import GAME, Draw, Pass, Play, ai_search
from games.maquiavelo.ai_hoard import _stranded, choose_hard, goes_out, small_plays
from games.maquiavelo.cards import sort_key
from games.maquiavelo.solver import counts_of, feasible
from tests.games.maquiavelo.helpers import F
from tests.games.maquiavelo.test_rules import ids, make_state
from tests.games.search_checks import check_choice_ignores_hidden

BUDGET = Budget(iterations=16)


def _hard(state, seat: str, budget: Budget = BUDGET, seed: int = 3):
    view = GAME.view(state, seat)
    return choose_hard(view, GAME.legal_actions(state, seat), random.Random(seed), budget)


@pytest.fixture
def truth(monkeypatch):
    """The scenarios leave most of the deck out of the game, so the unseen cards are not the
    other hand as in a real game with an empty stock: the sampled world is the true state."""

    def use(state):
        monkeypatch.setattr(ai_search, "determinize", lambda view, rng: state)
        return state

    return use


def test_goes_out_when_the_table_and_the_hand_split_into_melds():
    s = make_state(
        {"ana": "8S 9S 2D 2C", "beto": "KH"}, table=["5S 6S 7S", "2H 2S 3S 4S"], stock="5C"
    )
    choice = _hard(s, "ana").action
    assert isinstance(choice, Play) and sorted(choice.cards) == sorted(s.hands["ana"])
    after, _ = GAME.apply(s, "ana", choice)
    assert after.finished and after.winners == ["ana"]


def test_draws_instead_of_feeding_the_table():
    # normal would lay down seven cards; hard keeps them (they are as good in its hand) and draws
    s = make_state({"ana": "7H 7D 7S 7C 3S 4S 5S KC 2D 9C 5H", "beto": "3H 2H"}, stock="5C 6C")
    assert _hard(s, "ana").action == Draw()
    normal = GAME.choose_action(GAME.view(s, "ana"), GAME.legal_actions(s, "ana"), "normal", None)
    assert len(normal.cards) == 7


def test_end_phase_passes_rather_than_let_the_other_out(truth):
    # the stock is empty: 8♠ fits, but then beto's 9♠ 10♠ go out
    s = truth(make_state({"ana": "8S KD", "beto": "9S 10S"}, table=["5S 6S 7S", "2H 3H 4H"]))
    assert _hard(s, "ana").action == Pass()


def test_end_phase_prefers_a_play_the_others_cannot_use(truth):
    s = truth(
        make_state({"ana": "8S JD QD KD 2C", "beto": "9S 10S"}, table=["5S 6S 7S", "2H 3H 4H"])
    )
    choice = _hard(s, "ana").action
    assert isinstance(choice, Play)
    assert sorted(c % 52 for c in choice.cards) == sorted(F("JD QD KD"))


def test_end_phase_passes_when_that_ends_the_game_in_its_favour(truth):
    s = make_state({"ana": "8S 2D", "beto": "9S 10S"}, table=["5S 6S 7S", "2H 3H 4H"])
    s = truth(s.model_copy(update={"passes": 1}))  # beto passed: a pass ends it, 10 < 19
    assert _hard(s, "ana").action == Pass()
    worse = truth(s.model_copy(update={"hands": {**s.hands, "ana": ids("3D 4D 5D KD")}}))
    choice = _hard(worse, "ana").action  # a pass would lose it (4 cards to 2): play on
    assert isinstance(choice, Play) and len(choice.cards) == 3


def test_small_plays_are_singles_then_hand_melds():
    s = make_state({"ana": "8S JD QD KD 4C", "beto": "9S 10S"}, table=["5S 6S 7S", "2H 3H 4H"])
    plays = small_plays(GAME.view(s, "ana"))
    faces = [sorted(c % 52 for c in p.cards) for p in plays]
    assert faces == [F("8S"), sorted(F("JD QD KD"))]


def test_stranded_is_a_sound_quick_no():
    rng = random.Random(5)
    for _ in range(300):
        deck = list(range(52)) * 2
        rng.shuffle(deck)
        counts = counts_of(deck[: rng.randint(3, 30)])
        if _stranded(counts, []):
            assert not feasible(counts)
    assert not goes_out(F("5S 6S 7S"), F("9S"))
    assert goes_out(F("5S 6S 7S"), F("8S"))
    assert goes_out([], F("7H 7D"), F("7S"))  # a helper completes the set


def _end_phase_state(seed: str):
    """A three-seat game played by normal until the stock is empty, then hard's turn."""
    state = GAME.new(["a", "b", "c"], seed)
    state = state.model_copy(update={"stock": state.stock[:4]})
    while state.stock or state.finished:
        seat = state.seats[state.turn]
        legal = GAME.legal_actions(state, seat)
        action = GAME.choose_action(GAME.view(state, seat), legal, "normal", random.Random(0))
        state, _ = GAME.apply(state, seat, action)
        assert not state.finished, "pick another seed"
    return state


def _swap_other_hands(state, seat: str):
    b, c = [s for s in state.seats if s != seat]
    pool = list(state.hands[b]) + list(state.hands[c])
    random.Random(7).shuffle(pool)
    n = len(state.hands[b])
    hands = {**state.hands, b: sorted(pool[:n], key=sort_key), c: sorted(pool[n:], key=sort_key)}
    return state.model_copy(update={"hands": hands})


def test_end_phase_decides_from_the_view_and_keeps_to_the_budget():
    state = _end_phase_state("end3")
    seat = state.seats[state.turn]
    swapped = _swap_other_hands(state, seat)
    choice = check_choice_ignores_hidden(GAME, state, swapped, seat, BUDGET)
    GAME.apply(state, seat, choice)  # legal
    for iterations in (1, 4, 9):
        decision = _hard(state, seat, Budget(iterations=iterations))
        options = len(small_plays(GAME.view(state, seat))) + 1  # and the pass
        assert 0 < decision.checks <= max(iterations, options)
    assert _hard(state, seat, Budget(iterations=64)).checks > 9  # more budget, more worlds


def test_hard_decides_from_the_view_while_the_stock_lasts():
    state = GAME.new(["a", "b"], "view1")
    for k in range(30):
        seat = state.seats[state.turn]
        other = next(s for s in state.seats if s != seat)
        pool = list(state.hands[other]) + list(state.stock)
        random.Random(k).shuffle(pool)
        n = len(state.hands[other])
        hands = {**state.hands, other: sorted(pool[:n], key=sort_key)}
        swapped = state.model_copy(update={"hands": hands, "stock": pool[n:]})
        choice = check_choice_ignores_hidden(GAME, state, swapped, seat, BUDGET, seed=k)
        state, _ = GAME.apply(state, seat, choice)


def test_hard_against_itself_plays_legal_moves_to_the_end():
    for seats, options in ((["a", "b"], None), (["a", "b", "c"], {"ayuda": True})):
        state = GAME.new(seats, "self1", options)
        moves = 0
        while not state.finished:
            seat = state.seats[state.turn]
            legal = GAME.legal_actions(state, seat)
            choice = GAME.choose_action(
                GAME.view(state, seat), legal, "hard", random.Random(moves), budget=BUDGET
            )
            state, _ = GAME.apply(state, seat, choice)  # raises if illegal
            moves += 1
            assert moves < 1000
