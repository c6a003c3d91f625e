"""Hard's end-of-hand search (determinized Monte-Carlo) decides from the seat's view only."""

from __future__ import annotations

import random
from collections import Counter

from games.core.cards import two_decks
from games.core.search import Budget, determinized_search
from games.macarena import GAME, Pass
from games.macarena.ai_rollout import forced_end_score
from games.macarena.ai_search import MacarenaSearch, determinize
from games.macarena.options import amulets_target
from games.macarena.state import Tokens
from tests.games.macarena.helpers import table
from tests.games.search_checks import check_choice_ignores_hidden, normal_playout_states

BUDGET = Budget(iterations=12)
# the previous hand's result stays on show in the next hand; a world does not need it
EXCLUDED = {"last_events", "version", "hand_result"}


def _faces(cards):
    return Counter((c.rank, c.suit) for c in cards)


def test_worlds_agree_with_the_view_and_hold_both_decks():
    checked = 0
    for k, state in enumerate(normal_playout_states(GAME, "w1", ["a", "b"])):
        if k % 25 or k > 400 or state.phase not in ("draw", "play"):
            continue  # the search only runs in the play of a hand
        view = GAME.view(state, "a")
        world = determinize(view, random.Random(k))
        assert GAME.view(world, "a").model_dump(exclude=EXCLUDED) == view.model_dump(
            exclude=EXCLUDED
        )
        cards = [c for h in world.hands.values() for c in h] + world.stock
        cards += [c for p in world.pozos for c in p]
        cards += [c for h in world.collections.values() for c in h]
        assert _faces(cards) == _faces(two_decks())
        checked += 1
    assert checked >= 8


def _endgame_decisions(seed: str):
    for state in normal_playout_states(GAME, seed, ["a", "b"]):
        if state.phase != "play" or len(state.stock) > 10:
            continue
        seat = state.seats[state.turn]
        if sum(1 for a in GAME.legal_actions(state, seat) if a.kind == "play") >= 2:
            yield state, seat


def _swap_unseen(state, seat: str, rng: random.Random):
    other = next(s for s in state.seats if s != seat)
    pool = list(state.hands[other]) + list(state.stock)
    rng.shuffle(pool)
    n = len(state.hands[other])
    hands = dict(state.hands)
    hands[other] = pool[:n]
    return state.model_copy(update={"hands": hands, "stock": pool[n:]})


def test_swapping_unseen_cards_leaves_the_choice_unchanged():
    checked = 0
    for seed in ("h1", "h2"):
        for k, (state, seat) in enumerate(_endgame_decisions(seed)):
            swapped = _swap_unseen(state, seat, random.Random(k))
            check_choice_ignores_hidden(GAME, state, swapped, seat, BUDGET)
            checked += 1
            if k >= 1:
                break
    assert checked >= 2


def _shuffle_stock(state, rng: random.Random):
    stock = list(state.stock)
    while len(set(map(str, stock))) > 1 and stock == state.stock:
        rng.shuffle(stock)
    return state.model_copy(update={"stock": stock})


def test_the_order_of_the_stock_does_not_change_the_choice():
    checked = 0
    for k, (state, seat) in enumerate(_endgame_decisions("h3")):
        if len(state.stock) < 2:
            continue
        check_choice_ignores_hidden(
            GAME, state, _shuffle_stock(state, random.Random(k)), seat, BUDGET
        )
        checked += 1
        if checked >= 2:
            break
    assert checked >= 2


def test_the_search_returns_a_legal_move_within_its_iterations():
    checked = 0
    for state, seat in _endgame_decisions("h4"):
        view = GAME.view(state, seat)
        legal = GAME.legal_actions(state, seat)
        candidates = [a for a in legal if a.kind == "play"][:3] + [Pass()]
        search = MacarenaSearch(GAME, view.hand_number)
        for iterations in (4, 9, 20):
            result = determinized_search(
                search, view, seat, candidates, random.Random(3), Budget(iterations=iterations)
            )
            assert len(candidates) <= result.iterations <= max(iterations, len(candidates))
            assert sum(s.visits for s in result.stats) == result.iterations
            GAME.apply(state, seat, result.choice)  # a move the true state accepts
        action = GAME.choose_action(view, legal, "hard", random.Random(5), budget=BUDGET)
        GAME.apply(state, seat, action)
        checked += 1
        if checked >= 3:
            break
    assert checked >= 3


def test_scoring_a_cut_off_rollout_leaves_the_rollout_state_alone():
    for k, (state, seat) in enumerate(_endgame_decisions("h5")):
        before = state.model_dump()
        forced_end_score(state, seat)
        assert state.model_dump() == before
        if k >= 3:
            break


def test_a_hand_that_ends_the_game_scores_the_game():
    # a holds an amulet and three elements: winning fire at the end of this hand wins the game
    tokens = {
        "a": Tokens(amulets=1, elements=["earth", "air", "water"]),
        "b": Tokens(amulets=1, elements=["earth", "air", "fire"]),
    }
    state = table(
        {"a": "6S", "b": "AS 4H"},
        seats=["a", "b"],
        collections={"a": "2D 3D 4D", "b": "5C"},
        tokens=tokens,
    )
    assert amulets_target(state.options, 2) == 2
    search = MacarenaSearch(GAME, state.hand_number, game_value=True)
    assert search.value(state, "a", False) == 1.0
    assert search.value(state, "b", False) == 0.0
    plain = MacarenaSearch(GAME, state.hand_number)  # main's: the hand's tokens only
    assert 0.0 < plain.value(state, "b", False) < plain.value(state, "a", False) < 1.0
    assert state.phase == "play"  # scoring a cut-off rollout ends a copy, not the state
