"""Hard's end-of-hand search (determinized Monte-Carlo) decides from the seat's view only."""

from __future__ import annotations

import random
from collections import Counter

from games.core.cards import two_decks
from games.core.search import Budget
from games.macarena import GAME
from games.macarena.ai_search import determinize
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
        seat = state.seats[state.current]
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
