"""Hard (determinized Monte-Carlo search) decides from the seat's view only."""

from __future__ import annotations

import random
from collections import Counter

from games.chupate2 import GAME
from games.chupate2.ai_search import determinize
from games.chupate2.cards import DECK
from games.core.search import Budget
from tests.games.search_checks import (
    check_choice_ignores_hidden,
    check_worlds_match_views,
    fits_slots,
    normal_playout_states,
)

BUDGET = Budget(iterations=16)


def test_worlds_agree_with_the_view_and_hold_the_deck():
    assert check_worlds_match_views(GAME, determinize, ["w1", "w2"]) > 20
    state = next(s for k, s in enumerate(normal_playout_states(GAME, "w3", ["a", "b"])) if k == 9)
    world = determinize(GAME.view(state, "a"), random.Random(1))
    cards = [c for h in world.hands.values() for c in h] + world.stock + world.discard
    assert Counter(cards) == Counter(DECK)
    assert sorted(world.hands["a"]) == sorted(state.hands["a"])  # the view sorts the hand


def _swap_unseen(state, seat: str, rng: random.Random):
    """The opponent's hand and the stock reshuffled together: nothing ``seat`` sees."""
    other = next(s for s in state.seats if s != seat)
    pool = list(state.hands[other]) + list(state.stock)
    rng.shuffle(pool)
    n = len(state.hands[other])
    hands = dict(state.hands)
    hands[other] = pool[:n]
    return state.model_copy(update={"hands": hands, "stock": pool[n:]})


def test_swapping_unseen_cards_leaves_the_choice_unchanged():
    checked = 0
    for seed in ("h1", "h2", "h3", "h4"):
        per_seed = 0
        for state in normal_playout_states(GAME, seed, ["a", "b"]):
            if state.phase != "play" or state.plus4 is not None or state.reveal is not None:
                continue
            seat = state.seats[state.turn]
            if len(GAME.legal_actions(state, seat)) < 3 or not state.stock:
                continue
            swapped = _swap_unseen(state, seat, random.Random(checked))
            check_choice_ignores_hidden(GAME, state, swapped, seat, BUDGET)
            checked += 1
            per_seed += 1
            if per_seed >= 2:
                break
    assert checked >= 4


def test_hard_is_deterministic_for_a_seed_and_plays_legal_actions():
    for state in list(normal_playout_states(GAME, "d1", ["a", "b"]))[:10]:
        seat = state.seats[state.turn]
        legal = GAME.legal_actions(state, seat)
        view = GAME.view(state, seat)
        a = GAME.choose_action(view, legal, "hard", random.Random(3), budget=BUDGET)
        b = GAME.choose_action(view, legal, "hard", random.Random(3), budget=BUDGET)
        assert a == b and a in legal


def test_the_rollouts_cheap_view_gives_normal_the_same_choices():
    from games.chupate2 import ai
    from games.chupate2.ai_search import _RolloutView

    compared = 0
    for seed in ("r1", "r2"):
        for k, state in enumerate(normal_playout_states(GAME, seed, ["a", "b"])):
            for seat in state.seats:
                legal = GAME.legal_actions(state, seat)
                if not legal:
                    continue
                full = ai.choose_action(GAME.view(state, seat), legal, "normal", random.Random(k))
                cheap_view = _RolloutView(state, seat, None)
                cheap = ai.choose_action(cheap_view, legal, "normal", random.Random(k))  # type: ignore[arg-type]
                assert full == cheap
                compared += 1
    assert compared > 10


def _fits(cards: list[str], slots: list) -> bool:
    """Whether the cards can be matched one to one with the slots they would not have answered."""
    from games.chupate2.ai_search import _playable_on

    return fits_slots(cards, slots, _playable_on)


def test_what_draws_reveal_agrees_with_the_true_hands():
    """``normal`` draws only with nothing playable: the slots read from the public events
    always admit the true hand, and they do say something."""
    from games.chupate2.ai_search import hand_slots

    states = constrained = 0
    for seed in ("i1", "i2", "i3", "i4"):
        for state in normal_playout_states(GAME, seed, ["a", "b"]):
            for seat in state.seats:
                other = next(s for s in state.seats if s != seat)
                slots = hand_slots(GAME.view(state, seat))[other]
                assert len(slots) == len(state.hands[other])
                assert _fits(list(state.hands[other]), slots)
                constrained += sum(1 for s in slots if s)
                states += 1
    assert constrained > states // 4


def test_worlds_deal_the_other_hand_from_cards_its_draws_allow():
    from games.chupate2 import ai_search
    from games.chupate2.ai_search import _playable_on, hand_slots

    checked = 0
    states = [s for seed in ("i5", "i6") for s in normal_playout_states(GAME, seed, ["a", "b"])]
    for state in states:
        if state.plus4 is not None or state.reveal is not None:
            continue
        view = GAME.view(state, "a")
        slots = hand_slots(view)["b"]
        if not any(slots):
            continue
        saved, ai_search.TRUST = ai_search.TRUST, 1.0
        try:
            world = determinize(view, random.Random(checked))
        finally:
            ai_search.TRUST = saved
        hand = world.hands["b"]
        assert not any(_playable_on(c, s) for c, s in zip(hand, slots, strict=False) if s)
        checked += 1
    assert checked > 3
