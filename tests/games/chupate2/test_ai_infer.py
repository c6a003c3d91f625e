"""What ``normal``'s public plays say of its hand (``ai_infer``): read from the view only,
never contradicted by the true hand of a ``normal`` player, and used by the search's worlds."""

from __future__ import annotations

import random

from games.chupate2 import GAME, ai_infer
from games.chupate2.ai_search import determinize, hand_slots
from games.chupate2.options import Options
from games.core.search import Budget
from tests.games.search_checks import check_choice_ignores_hidden, normal_playout_states


def _states(seeds: tuple[str, ...]):
    return [s for seed in seeds for s in normal_playout_states(GAME, seed, ["a", "b"])]


def test_the_true_hands_of_normal_players_never_contradict_their_plays():
    recorded = 0
    for state in _states(("n1", "n2", "n3", "n4", "n5")):
        for seat in state.seats:
            records = ai_infer.decisions(GAME.view(state, seat))
            assert all(d.seat != seat for d in records)
            assert ai_infer.violations(records, state.hands) == 0
            recorded += len(records)
    assert recorded > 50


def test_plays_rule_hands_out():
    """A random hand of the right size often contradicts the recorded plays: they say something."""
    contradicted = checked = 0
    rng = random.Random(5)
    for state in _states(("n6", "n7")):
        view = GAME.view(state, "a")
        records = ai_infer.decisions(view)
        if not records:
            continue
        pool = list(state.hands["b"]) + list(state.stock)
        rng.shuffle(pool)
        guess = {"a": list(state.hands["a"]), "b": pool[: len(state.hands["b"])]}
        contradicted += ai_infer.violations(records, guess) > 0
        checked += 1
    assert checked > 10 and contradicted > checked // 5


def test_the_records_come_from_the_view_only():
    for state in _states(("n8",))[:40]:
        view = GAME.view(state, "a")
        again = GAME.view(state.model_copy(update={"stock": list(reversed(state.stock))}), "a")
        assert ai_infer.decisions(view) == ai_infer.decisions(again)


def test_worlds_mostly_explain_the_recorded_plays():
    explained = checked = 0
    for k, state in enumerate(_states(("n9", "n10"))):
        if state.plus4 is not None or state.reveal is not None:
            continue
        view = GAME.view(state, "a")
        records = ai_infer.decisions(view)
        if not records:
            continue
        world = determinize(view, random.Random(k), hand_slots(view), records)
        explained += ai_infer.violations(records, world.hands) == 0
        checked += 1
    assert checked > 10 and explained > 0.8 * checked


def test_house_rules_that_move_cards_turn_the_reading_off():
    state = GAME.new(["a", "b"], "n11", Options(seven_o=True))
    assert ai_infer.decisions(GAME.view(state, "a")) == []


def test_hard_with_the_reading_ignores_unseen_cards_and_plays_legal_actions():
    """Swapping the other hand and the stock (nothing the seat sees) leaves hard's choice, with
    worlds read from the plays, unchanged for a fixed rng and an iteration budget."""
    budget = Budget(iterations=16)
    checked = 0
    for k, state in enumerate(_states(("n12", "n13", "n14"))):
        if state.phase != "play" or state.plus4 is not None or not state.stock:
            continue
        seat = state.seats[state.turn]
        view = GAME.view(state, seat)
        if not ai_infer.decisions(view) or len(GAME.legal_actions(state, seat)) < 3:
            continue
        other = next(s for s in state.seats if s != seat)
        pool = list(state.hands[other]) + list(state.stock)
        random.Random(k).shuffle(pool)
        n = len(state.hands[other])
        swapped = state.model_copy(
            update={"hands": {**state.hands, other: pool[:n]}, "stock": pool[n:]}
        )
        choice = check_choice_ignores_hidden(GAME, state, swapped, seat, budget)
        assert choice in GAME.legal_actions(state, seat)
        checked += 1
        if checked >= 6:
            break
    assert checked >= 4


def test_the_search_with_the_reading_keeps_to_its_iteration_budget():
    from games.chupate2.ai_search import Chupate2Search
    from games.core.search import determinized_search

    searched = 0
    for state in _states(("n15",)):
        seat = state.seats[state.turn]
        legal = GAME.legal_actions(state, seat)
        view = GAME.view(state, seat)
        if len(legal) < 2 or not ai_infer.decisions(view):
            continue
        result = determinized_search(
            Chupate2Search(GAME, view.round),
            view,
            seat,
            legal,
            random.Random(2),
            Budget(iterations=12),
            300,
        )
        assert result.iterations <= max(12, len(legal))
        assert result.choice in legal
        searched += 1
    assert searched > 3
