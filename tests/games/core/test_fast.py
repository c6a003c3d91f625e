"""The unvalidated builders of the engines' hot paths give what validation would."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, ConfigDict

from games.core import Event, GameState, event
from games.core.fast import plain_assignment, replace, share_fields_set, trusted


@plain_assignment
class _State(GameState):
    hands: list[list[str]] = []


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)
    a: int = 0


def test_event_equals_the_validated_event_and_round_trips():
    fast = event("played", "p0", {"card": "r1a"}, ("p0",))
    slow = Event(code="played", seat="p0", params={"card": "r1a"}, to=("p0",))
    assert fast == slow and fast.model_dump_json() == slow.model_dump_json()
    assert Event.model_validate_json(fast.model_dump_json()) == fast
    assert event("passed") == Event(code="passed")
    changed = fast.model_copy(update={"params": {}})  # the shared fields set is not touched
    assert changed.params == {} and fast.params == {"card": "r1a"}
    assert trusted(_Frozen, {"a": 3}) == _Frozen(a=3)


def test_replace_shares_unchanged_fields_and_leaves_the_original_alone():
    state = _State(seed="s", seats=["a", "b"], hands=[["x"], ["y"]])
    copy = replace(state, {"hands": [list(h) for h in state.hands]})
    copy.version = 3
    copy.hands[0].append("z")
    assert state.version == 0 and state.hands == [["x"], ["y"]]
    assert copy.seats is state.seats and copy == state.model_copy(
        update={"version": 3, "hands": [["x", "z"], ["y"]]}
    )
    assert _State.model_validate_json(copy.model_dump_json()) == copy


def test_plain_assignment_refuses_models_that_need_pydantics_setattr():
    with pytest.raises(TypeError):
        plain_assignment(_Frozen)


def test_a_shared_fields_set_survives_copies_with_updates():
    one, two = _Frozen(a=1), _Frozen(a=2)
    share_fields_set(one)
    share_fields_set(two)
    assert one.__pydantic_fields_set__ is two.__pydantic_fields_set__
    assert one.model_copy(update={"a": 5}).a == 5 and one.model_fields_set == {"a"}
