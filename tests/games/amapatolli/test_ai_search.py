"""Hard (determinized Monte-Carlo search) decides from the seat's view only."""

from __future__ import annotations

import random
from collections import Counter

from games.amapatolli import GAME
from games.amapatolli.ai_search import determinize
from games.amapatolli.cards import deck_ids
from games.core.search import Budget
from tests.games.search_checks import (
    check_choice_ignores_hidden,
    check_worlds_match_views,
    normal_playout_states,
)

BUDGET = Budget(iterations=24)


def test_worlds_agree_with_the_view_and_hold_the_deck():
    assert check_worlds_match_views(GAME, determinize, ["w1", "w2"]) > 20
    state = next(s for k, s in enumerate(normal_playout_states(GAME, "w3", ["a", "b"])) if k == 9)
    world = determinize(GAME.view(state, "a"), random.Random(1))
    cards = [c for h in world.hands for c in h] + world.stock + world.pile
    assert Counter(cards) == Counter(deck_ids(not state.options.no_tlapiani))
    assert world.hands[0] == state.hands[0]


def _swap_unseen(state, seat_index: int, rng: random.Random):
    """The opponent's hand and the stock reshuffled together: nothing ``seat_index`` sees."""
    other = 1 - seat_index
    pool = state.hands[other] + state.stock
    rng.shuffle(pool)
    n = len(state.hands[other])
    hands = [list(h) for h in state.hands]
    hands[other] = pool[:n]
    return state.model_copy(update={"hands": hands, "stock": pool[n:]})


def test_swapping_unseen_cards_leaves_the_choice_unchanged():
    checked = 0
    for seed in ("h1", "h2", "h3"):
        for state in normal_playout_states(GAME, seed, ["a", "b"]):
            seat = state.seats[state.turn]
            turn_actions = [a for a in GAME.legal_actions(state, seat) if a.kind == "play"]
            if len(turn_actions) < 2 or state.ce_window is not None or not state.stock:
                continue
            swapped = _swap_unseen(state, state.turn, random.Random(checked))
            if swapped.hands == state.hands:
                continue
            check_choice_ignores_hidden(GAME, state, swapped, seat, BUDGET)
            checked += 1
            if checked >= 2:
                break
    assert checked >= 4


def test_hard_is_deterministic_for_a_seed_and_plays_legal_actions():
    for state in list(normal_playout_states(GAME, "d1", ["a", "b"]))[:12]:
        seat = state.seats[state.turn]
        legal = GAME.legal_actions(state, seat)
        view = GAME.view(state, seat)
        a = GAME.choose_action(view, legal, "hard", random.Random(3), budget=BUDGET)
        b = GAME.choose_action(view, legal, "hard", random.Random(3), budget=BUDGET)
        assert a == b and a in legal


def test_the_rollouts_cheap_view_gives_normal_the_same_choices():
    from games.amapatolli import ai
    from games.amapatolli.ai_search import _RolloutView

    compared = 0
    for k, state in enumerate(normal_playout_states(GAME, "r1", ["a", "b"])):
        for i, seat in enumerate(state.seats):
            legal = GAME.legal_actions(state, seat)
            if not legal:
                continue
            full = ai.choose_action(GAME.view(state, seat), legal, "normal", random.Random(k))
            cheap = ai.choose_action(_RolloutView(state, i), legal, "normal", random.Random(k))  # type: ignore[arg-type]
            assert full == cheap
            compared += 1
    assert compared > 10
