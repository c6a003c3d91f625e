"""A game's rules module as the engine contract's rule functions (docs/architecture.md, "The
engine contract").

Every game's ``rules.py`` names the jobs alike (``to_act``, ``legal_actions``, ``copy_state``,
``resolve_action``, ``outcome``): ``Rules`` says so as a protocol a module satisfies (mypy checks
the module against it where a game sets ``rules = <its rules module>``), and ``RulesGame`` is the
``Game`` whose rule functions are that module's. So a game's ``game.py`` holds what is its own
(names, player counts, the deal, the view, the computer) and no forwarding wrappers.

The functions are bound to the class as they are (``staticmethod``) when the subclass is made:
``legal_actions`` and ``apply`` run on every step of a search's playouts, where a wrapper call
would cost. The methods written below are what mypy reads (the same calls, typed by the game's
``Game[S, A, V, Opts]``) and what runs for a subclass that sets ``rules`` later.
"""

from __future__ import annotations

from typing import Any, Protocol, TypeVar

from pydantic import BaseModel

from games.core.actions import Action
from games.core.engine import Event, Game, Outcome, PlayerView, Seat, State

S = TypeVar("S", bound=State)
A = TypeVar("A", bound=Action)
V = TypeVar("V", bound=PlayerView)
Opts = TypeVar("Opts", bound=BaseModel)

# the rule functions a ``RulesGame`` takes from its module, by the name of the ``Game`` method
BOUND = {
    "to_act": "to_act",
    "legal_actions": "legal_actions",
    "copy_state": "copy_state",
    "_apply": "resolve_action",
    "outcome": "outcome",
}


class Rules(Protocol[S, A]):
    """What every game's ``rules`` module provides (positional arguments: the names are the
    module's own)."""

    def to_act(self, state: S, /) -> set[Seat]: ...

    def legal_actions(self, state: S, seat: Seat, /) -> list[A]: ...

    def copy_state(self, state: S, /) -> S: ...

    def resolve_action(self, state: S, seat: Seat, action: A, /) -> list[Event]: ...

    def outcome(self, state: S, /) -> Outcome | None: ...


class RulesGame(Game[S, A, V, Opts]):
    """A ``Game`` whose rule functions are its ``rules`` module's and whose end is the state's
    ``finished``."""

    rules: Rules[S, A]  # the game's rules module, set in the subclass's body

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        module = cls.__dict__.get("rules")
        if module is not None:
            for method, function in BOUND.items():
                if method not in cls.__dict__:  # a game may still write its own
                    setattr(cls, method, staticmethod(getattr(module, function)))

    def to_act(self, state: S) -> set[Seat]:
        return self.rules.to_act(state)

    def legal_actions(self, state: S, seat: Seat) -> list[A]:
        return self.rules.legal_actions(state, seat)

    def copy_state(self, state: S) -> S:
        return self.rules.copy_state(state)

    def _apply(self, state: S, seat: Seat, action: A) -> list[Event]:
        return self.rules.resolve_action(state, seat, action)

    def outcome(self, state: S) -> Outcome | None:
        return self.rules.outcome(state)

    def is_over(self, state: S) -> bool:
        return state.finished
