"""``Event``: an immutable tuple with named fields that pydantic models hold as the JSON object
``{"code", "seat", "params", "to"}``."""

from __future__ import annotations

import copy
import pickle

import pytest
from pydantic import BaseModel, ValidationError

from games.core import Event, event


class _Holder(BaseModel):
    log: list[Event] = []


def test_fields_defaults_and_immutability():
    e = Event(code="drew", seat="a", params={"n": 1}, to=("a",))
    assert (e.code, e.seat, e.params, e.to) == ("drew", "a", {"n": 1}, ("a",))
    assert Event(code="x") == event("x") and Event(code="x").params == {}
    assert Event(code="x").params is not Event(code="x").params  # no shared default
    with pytest.raises(AttributeError):
        e.code = "other"
    assert e.visible_to("a") and not e.visible_to("b") and not e.visible_to(None)
    assert event("x").visible_to(None)


def test_pickles_copies_and_model_copy():
    e = event("played", "p0", {"card": "r1a"}, ("p0",))
    assert pickle.loads(pickle.dumps(e)) == e and type(pickle.loads(pickle.dumps(e))) is Event
    assert copy.deepcopy(e) == e
    assert e.model_copy(update={"seat": "p1"}) == event("played", "p1", {"card": "r1a"}, ("p0",))


def test_models_hold_events_as_their_json_objects():
    held = _Holder(log=[event("a", "s", {"k": [1, 2]}, ("s",)), event("b")])
    text = held.model_dump_json()
    assert text == (
        '{"log":[{"code":"a","seat":"s","params":{"k":[1,2]},"to":["s"]},'
        '{"code":"b","seat":null,"params":{},"to":null}]}'
    )
    assert _Holder.model_validate_json(text) == held
    assert _Holder.model_validate({"log": [{"code": "b"}]}).log == [event("b")]
    assert held.model_dump()["log"][0] == {
        "code": "a",
        "seat": "s",
        "params": {"k": [1, 2]},
        "to": ("s",),
    }


@pytest.mark.parametrize(
    "bad",
    [
        {"seat": "s"},
        {"code": 1},
        {"code": "x", "seat": 2},
        {"code": "x", "params": [1]},
        {"code": "x", "to": "s"},
        {"code": "x", "other": 1},
    ],
)
def test_malformed_events_are_refused(bad: dict):
    with pytest.raises(ValidationError):
        _Holder.model_validate({"log": [bad]})
