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
    fits_slots,
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


def _fits(cards: list[str], slots: list) -> bool:
    """Whether the cards can be matched one to one with the slots they would not have answered."""
    from games.amapatolli.ai_search import _matches_any

    return fits_slots(cards, slots, _matches_any)


def test_what_draws_reveal_agrees_with_the_true_hands():
    """A player who drew held nothing matching the colours in force: the slots read from the
    public events admit the true hand (bar the odd guess of which card a play took)."""
    from games.amapatolli.ai_search import hand_slots

    states = agree = constrained = 0
    for seed in ("i1", "i2", "i3", "i4", "i5", "i6"):
        for state in normal_playout_states(GAME, seed, ["a", "b"]):
            for i, seat in enumerate(state.seats):
                other = state.seats[1 - i]
                slots = hand_slots(GAME.view(state, seat))[other]
                assert len(slots) == len(state.hands[1 - i])
                constrained += sum(1 for s in slots if s)
                agree += _fits(state.hands[1 - i], slots)
                states += 1
    assert constrained > states // 4  # the draws do say something
    assert agree >= states - max(2, states // 100)


def test_worlds_deal_the_other_hand_from_cards_its_draws_allow():
    from games.amapatolli.ai_search import _matches_any, hand_slots

    checked = 0
    states = [
        s for seed in ("i7", "i8", "i9") for s in normal_playout_states(GAME, seed, ["a", "b"])
    ]
    for state in states:
        view = GAME.view(state, "a")
        slots = hand_slots(view)["b"]
        if not any(slots):
            continue
        world = determinize(view, random.Random(checked))
        assert _fits(world.hands[1], slots)
        assert not any(_matches_any(c, s) for c, s in zip(world.hands[1], slots, strict=True))
        checked += 1
    assert checked > 3


def test_normal_holding_the_true_hand_would_have_made_its_last_play():
    """The rebuilt decision (colours then, counts then, the hand plus the card played) gives
    ``normal``'s own choice back: its true hand never makes a world be dealt again."""
    from games.amapatolli.ai_search import _normal_would_play, last_plays

    checked = 0
    for seed in ("l1", "l2", "l3", "l4"):
        for state in normal_playout_states(GAME, seed, ["a", "b"]):
            for i, seat in enumerate(state.seats):
                view = GAME.view(state, seat)
                for play in last_plays(view):
                    assert _normal_would_play(view, play, state.hands[1 - i])
                    checked += 1
    assert checked > 100


def test_worlds_explain_the_last_play_far_more_often_than_a_blind_deal():
    from games.amapatolli import ai_search

    blind = explained = 0
    for state in list(normal_playout_states(GAME, "l5", ["a", "b"]))[::2]:
        view = GAME.view(state, "a")
        reading = ai_search.read_view(view)
        if not reading.plays:
            continue
        for k in range(6):
            unread = ai_search.Reading(reading.slots, [])
            for read, count in ((reading, True), (unread, False)):
                world = determinize(view, random.Random(k), read)
                fits = all(
                    ai_search._normal_would_play(view, p, world.hands[1]) for p in reading.plays
                )
                if count:
                    explained += fits
                else:
                    blind += fits
    assert explained > blind


def test_the_rollouts_in_place_step_makes_the_engines_move():
    """``AmapatolliSearch.step`` changes its state in place, skipping the engine's copy and log:
    the same move ``engine_step`` makes with ``normal`` (the same draws of the rng) on every
    state of a few games, with many "Ce" windows among them."""
    from games.amapatolli.ai_search import AmapatolliSearch, _rollout_policy
    from games.amapatolli.rules import copy_state
    from games.core.search import engine_step

    search = AmapatolliSearch(GAME)
    fields = ("hands", "stock", "pile", "margin", "background", "turn", "direction")
    fields += ("skip_pending", "double_play", "drawn", "passes", "ce_window", "announced")
    checked = 0
    for seed in ("step1", "step2", "step3"):
        for k, state in enumerate(normal_playout_states(GAME, seed, ["a", "b"])):
            expected = engine_step(GAME, state, random.Random(k), _rollout_policy)
            got = search.step(copy_state(state), random.Random(k))
            assert [getattr(got, f) for f in fields] == [getattr(expected, f) for f in fields]
            assert (got.finished, got.winner) == (expected.finished, expected.winner)
            checked += 1
    assert checked > 60
