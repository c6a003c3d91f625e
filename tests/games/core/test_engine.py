"""The final ``Game.apply`` (shared guards, the copy hook), ``Outcome`` and ``Event``."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

from games.core import Action, CardTransfer, Event, IllegalAction, Outcome
from games.core.errors import BAD_ACTION, GAME_OVER, NOT_A_PLAYER
from tests.bot.toy_game import Take, ToyGame, ToyState

SEATS = ["a", "b"]


class Other(Action):
    verb: ClassVar[str] = "other"


class CountingToy(ToyGame):
    """The toy game, counting the hooks ``apply`` goes through."""

    def __init__(self) -> None:
        self.copies = 0
        self.over_checks = 0
        self.applied: list[tuple[int, str, Any]] = []

    def copy_state(self, state):
        self.copies += 1
        return super().copy_state(state)

    def is_over(self, state):
        self.over_checks += 1
        return state.winner is not None

    def _apply(self, state, seat, action):
        self.applied.append((state.version, seat, action))
        return super()._apply(state, seat, action)


def _refusal(game: ToyGame, state: ToyState, seat: str, action: Any) -> str:
    before = state.model_dump_json()
    with pytest.raises(IllegalAction) as caught:
        game.apply(state, seat, action)
    assert state.model_dump_json() == before
    return caught.value.code


def test_apply_copies_through_the_hook_and_advances_the_version():
    game = CountingToy()
    state = game.new(SEATS, "s", {"pile": 5})
    before = state.model_dump_json()
    new, events = game.apply(state, "a", Take(n=2))
    assert state.model_dump_json() == before
    assert (new.pile, new.version, state.version) == (3, 1, 0)
    assert game.copies == 1 and game.over_checks == 1
    assert game.applied == [(1, "a", Take(n=2))]  # _apply sees the copy, version advanced
    assert events == [Event(code="took", seat="a", params={"n": 2})]


def test_guards_run_in_order_before_the_game_rules():
    game = CountingToy()
    state = game.new(SEATS, "s", {"pile": 1})
    assert _refusal(game, state, "stranger", Other()) == NOT_A_PLAYER
    assert _refusal(game, state, "a", Other()) == BAD_ACTION
    assert _refusal(game, state, "b", Take(n=1)) == "not_your_turn"  # the game's own rule
    assert game.copies == 1  # only the action that reached _apply was copied
    over, _ = game.apply(state, "a", Take(n=1))
    assert _refusal(game, over, "stranger", Take(n=1)) == NOT_A_PLAYER
    assert _refusal(game, over, "b", Other()) == GAME_OVER
    assert _refusal(game, over, "a", Take(n=1)) == GAME_OVER


def test_a_refusal_inside_the_rules_leaves_the_input_untouched():
    game = ToyGame()
    state = game.new(SEATS, "s", {"pile": 1})
    assert _refusal(game, state, "a", Take(n=2)) == BAD_ACTION


def test_default_copy_is_deep():
    game = ToyGame()
    state = game.new(SEATS, "s")
    copy = game.copy_state(state)
    assert copy == state and copy is not state and copy.seats is not state.seats


def test_default_is_over_follows_outcome():
    game = ToyGame()
    state = game.new(SEATS, "s", {"pile": 1})
    assert not game.is_over(state)
    over, _ = game.apply(state, "a", Take(n=1))
    assert game.is_over(over) and game.outcome(over) is not None


def test_decode_action_uses_the_codec():
    game = ToyGame()
    assert game.decode_action("t.2") == Take(n=2)
    for text in ("t.3", "t", "other", "t:1"):
        with pytest.raises(IllegalAction):
            game.decode_action(text)


def test_state_round_trips_through_json():
    game = ToyGame()
    state, _ = game.apply(game.new(SEATS, "s"), "a", Take(n=1))
    assert game.load_state(game.dump_state(state)) == state


def test_default_action_is_the_normal_computer_and_is_seeded():
    game = ToyGame()
    state = game.new(SEATS, "s", {"pile": 4})
    assert game.default_action(state, "a") == Take(n=1)  # leaves a multiple of 3
    assert game.default_action(state, "a") == game.default_action(state, "a")
    with pytest.raises(IllegalAction):
        game.default_action(state, "b")  # nothing legal for a seat not to act


def test_outcome_winners_and_draws():
    win = Outcome(ranking=[["a"], ["b", "c"]])
    assert win.winners == ["a"] and not win.is_draw
    draw = Outcome(ranking=[["a", "b"]])
    assert draw.winners == ["a", "b"] and draw.is_draw
    assert Outcome(ranking=[]).winners == []


def test_outcome_typed_fields_round_trip():
    outcome = Outcome(
        ranking=[["a"], ["b"]],
        points={"a": 3},
        team_winners=["a"],
        stats={"a": {"amulets": 2}},
        transfers=[CardTransfer(card="c1", giver="b", receiver="a")],
    )
    assert Outcome.model_validate_json(outcome.model_dump_json()) == outcome


def test_event_visibility():
    public = Event(code="x")
    private = Event(code="drew", seat="a", to=("a",))
    assert public.visible_to(None) and public.visible_to("b")
    assert private.visible_to("a") and not private.visible_to("b")
    assert not private.visible_to(None)
