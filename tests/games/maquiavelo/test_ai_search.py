"""Session 6's hard (``ai_search``: a determinized Monte-Carlo search over variants of the best
play, still what ``bench/ai_strength.py`` runs as "before") and its worlds; today's hard
(``ai_hoard``, tests/games/maquiavelo/test_ai_hoard.py) samples the same worlds."""

from __future__ import annotations

import random
from collections import Counter

from games.core.search import Budget
from games.maquiavelo import GAME, ai
from games.maquiavelo.actions import Play
from games.maquiavelo.ai_search import candidates, choose_hard, determinize
from games.maquiavelo.cards import NUM_CARDS, sort_key
from tests.games.search_checks import (
    check_choice_ignores_hidden,
    check_worlds_match_views,
    normal_playout_states,
)

BUDGET = Budget(iterations=8)


def test_worlds_agree_with_the_view_and_hold_the_deck():
    assert check_worlds_match_views(GAME, determinize, ["w1"], every=6) > 10
    state = next(s for k, s in enumerate(normal_playout_states(GAME, "w3", ["a", "b"])) if k == 9)
    world = determinize(GAME.view(state, "a"), random.Random(1))
    cards = [c for h in world.hands.values() for c in h] + world.stock + world.helpers
    cards += [c for m in world.table for c in m]
    assert Counter(cards) == Counter(range(NUM_CARDS))
    assert world.hands["a"] == state.hands["a"]


def _swap_unseen(state, seat: str, rng: random.Random):
    other = next(s for s in state.seats if s != seat)
    pool = list(state.hands[other]) + list(state.stock)
    rng.shuffle(pool)
    n = len(state.hands[other])
    hands = dict(state.hands)
    hands[other] = sorted(pool[:n], key=sort_key)
    return state.model_copy(update={"hands": hands, "stock": pool[n:]})


def _decisions(seed: str):
    """States where the seat to act has a play and more than one choice to search."""
    for state in normal_playout_states(GAME, seed, ["a", "b"]):
        seat = state.seats[state.turn]
        view = GAME.view(state, seat)
        best = ai.best_play_action(view)
        legal = GAME.legal_actions(state, seat)
        if best is not None and state.stock and len(candidates(view, best, legal[0])) > 1:
            yield state, seat


def test_swapping_unseen_cards_leaves_the_choice_unchanged():
    checked = 0
    for seed in ("h1", "h2"):
        for k, (state, seat) in enumerate(_decisions(seed)):
            swapped = _swap_unseen(state, seat, random.Random(k))
            check_choice_ignores_hidden(GAME, state, swapped, seat, BUDGET)
            checked += 1
            if k >= 1:
                break
    assert checked >= 2


def test_candidates_are_the_best_play_reserves_and_the_draw():
    state, seat = next(_decisions("c1"))
    view = GAME.view(state, seat)
    best = ai.best_play_action(view)
    assert best is not None
    options = candidates(view, best, GAME.legal_actions(state, seat)[0])
    assert options[0] == best and options[-1].kind == "draw"
    for option in options[1:-1]:
        assert isinstance(option, Play)
        assert set(option.cards) < set(best.cards) and len(option.cards) == len(best.cards) - 1
    legal = GAME.legal_actions(state, seat)
    choice = choose_hard(view, best, legal[0], random.Random(2), BUDGET)
    assert choice in options
