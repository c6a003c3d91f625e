"""The slotted Chúpate 2 state: same moves, events and stored JSON as the pydantic one it
replaced (every game's seeded playouts: ``tests/games/test_golden_playouts.py``), copy-on-write
without aliasing, and pydantic's methods where its users call them."""

from __future__ import annotations

import json
import pickle
import random

import pytest
from pydantic import ValidationError

from games.chupate2 import GAME
from games.chupate2.state import FIELDS, SIGNALS, Chupate2State, Signals, copy_state


def _playout(seed: int, options: dict | None = None, moves: int = 400) -> list[Chupate2State]:
    state = GAME.new(["a", "b", "c", "d"], f"fast-{seed}", options)
    rng = random.Random(seed)
    states = [state]
    while not GAME.is_over(state) and len(states) < moves:
        seat = state.seats[state.turn]
        state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        states.append(state)
    return states


def test_copy_state_copies_every_field_and_only_the_hands_dict():
    state = _playout(1, moves=30)[-1]
    copy = copy_state(state)
    assert type(copy) is Chupate2State and copy == state
    for name in FIELDS:
        if name == "hands":
            assert copy.hands == state.hands and copy.hands is not state.hands
        else:
            assert getattr(copy, name) is getattr(state, name), name


@pytest.mark.parametrize(
    "options",
    [None, {"stack_plus4": True, "last_card": True, "jump_in": True, "seven_o": True}],
)
def test_later_moves_never_change_an_earlier_state(options):
    """Copy-on-write: the states of a playout share containers, and no later ``apply`` changes
    any of them in place (each state's JSON at the end is the JSON it had when made)."""
    for seed in range(3):
        states = _playout(seed, options)
        dumps = [GAME.dump_state(s) for s in states]
        # a move from every tenth kept state again (a branch off it): still nothing changes
        for s in states[:: max(1, len(states) // 10)]:
            if not GAME.is_over(s):
                seat = s.seats[s.turn]
                GAME.apply(s, seat, GAME.legal_actions(s, seat)[0])
        assert [GAME.dump_state(s) for s in states] == dumps


def test_a_new_hand_list_per_change_never_a_shared_one_mutated():
    before, after = _playout(4, moves=2)
    for seat in before.seats:
        if after.hands[seat] != before.hands[seat]:
            assert after.hands[seat] is not before.hands[seat]
    if after.discard != before.discard:
        assert after.discard is not before.discard


def test_stored_json_round_trips_and_keeps_its_fields():
    state = _playout(2, moves=50)[-1]
    text = GAME.dump_state(state)
    data = json.loads(text)
    assert list(data) == [*FIELDS[:-1], "log", "log_versions"]
    loaded = GAME.load_state(text)
    assert type(loaded) is Chupate2State and loaded == state
    assert GAME.dump_state(loaded) == text
    assert Chupate2State.model_validate(data) == state
    assert Chupate2State.model_validate(state) is state
    assert state.model_dump(mode="json") == data


def test_constructor_and_loading_still_validate():
    state = _playout(3, moves=5)[-1]
    data = json.loads(GAME.dump_state(state))
    with pytest.raises(ValidationError):
        GAME.load_state(json.dumps({**data, "phase": "nope"}))
    with pytest.raises(ValidationError):
        GAME.load_state(json.dumps({**data, "unknown_field": 1}))
    fields = {k: getattr(state, k) for k in FIELDS if k != "log_raw"}
    with pytest.raises(ValidationError):
        Chupate2State(**{**fields, "turn": "first"})
    built = Chupate2State(**fields)
    assert built.log == [] and built.hands == state.hands


def test_model_copy_pickle_and_deep_copy():
    state = _playout(5, moves=40)[-1]
    dump = GAME.dump_state(state)
    changed = state.model_copy(update={"colour": None, "pending": 7})
    assert (changed.colour, changed.pending) == (None, 7)
    assert GAME.dump_state(state) == dump
    with pytest.raises(AttributeError):
        state.model_copy(update={"no_such_field": 1})
    deep = state.model_copy(deep=True)
    assert deep == state and deep.stock is not state.stock
    assert pickle.loads(pickle.dumps(state)) == state
    assert GAME.dump_state(pickle.loads(pickle.dumps(state))) == dump


def test_signals_are_shared_instances_equal_to_validated_ones():
    state = _playout(6, moves=120)[-1]
    for signal in state.signals.values():
        assert SIGNALS[(tuple(signal.lacks), signal.named)] is signal
    for (lacks, named), signal in SIGNALS.items():
        assert signal == Signals(lacks=list(lacks), named=named)
    loaded = GAME.load_state(GAME.dump_state(state))
    for seat, signal in loaded.signals.items():
        assert signal is state.signals[seat]
