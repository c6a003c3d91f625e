"""A game built from its modules: the one declaration every ``games/<game>/game.py`` makes
(docs/architecture.md, "The engine contract"; docs/adding-a-game.md).

Every game package names its jobs alike: ``rules`` (``new_state``, ``to_act``, ``legal_actions``,
``copy_state``, ``resolve_action``, ``outcome``), ``view`` (``build_view``), ``ai``
(``choose_action``, made of its ``decide`` by ``games.core.computer``, and ``THINK_RATE``) and
``actions`` (``CODEC``). ``Rules``, ``Views`` and
``Computer`` say so as protocols a module satisfies, and ``Parts`` gathers one game's modules
(mypy checks each module against its protocol where a game writes ``parts = Parts(...)``).
``RulesGame`` is the ``Game`` made of them; with ``spec = Spec(key, name, players)`` a game's
``game.py`` holds only what is its own (Amapatolli's fair "¡Ce!" wait, Triad's chosen hands, ...).

The module functions are bound to the class as they are (``staticmethod``) when the subclass is
made: ``legal_actions`` and ``apply`` run on every step of a search's playouts, where a wrapper
call would cost. The methods written below are what mypy reads (the same calls, typed by the
game's ``Game[S, A, V, Opts]``) and what runs for a subclass that sets ``parts`` later.
"""

from __future__ import annotations

import typing
from collections.abc import Mapping
from dataclasses import dataclass
from random import Random
from typing import Any, Generic, Protocol, TypeVar

from pydantic import BaseModel

from games.core.actions import Action, ActionCodec
from games.core.budget import Budget
from games.core.engine import Event, Game, Outcome, PlayerView, Seat, State
from games.core.eventlog import stored_json

S = TypeVar("S", bound=State)
A = TypeVar("A", bound=Action)
V = TypeVar("V", bound=PlayerView)
Opts = TypeVar("Opts", bound=BaseModel)
S_in = TypeVar("S_in", bound=State, contravariant=True)
V_in = TypeVar("V_in", bound=PlayerView, contravariant=True)
V_out = TypeVar("V_out", bound=PlayerView, covariant=True)
Opts_in = TypeVar("Opts_in", bound=BaseModel, contravariant=True)

# the rule functions a ``RulesGame`` takes from its rules module, by the name of the ``Game`` method
BOUND = {
    "to_act": "to_act",
    "legal_actions": "legal_actions",
    "copy_state": "copy_state",
    "_apply": "resolve_action",
    "outcome": "outcome",
}


class Rules(Protocol[S, A, Opts_in]):
    """What every game's ``rules`` module provides (positional arguments: the names are the
    module's own)."""

    def new_state(self, seats: list[Seat], seed: str, options: Opts_in, /) -> S: ...

    def to_act(self, state: S, /) -> set[Seat]: ...

    def legal_actions(self, state: S, seat: Seat, /) -> list[A]: ...

    def copy_state(self, state: S, /) -> S: ...

    def resolve_action(self, state: S, seat: Seat, action: A, /) -> list[Event]: ...

    def outcome(self, state: S, /) -> Outcome | None: ...


class Views(Protocol[S_in, V_out]):
    """What every game's ``view`` module provides."""

    def build_view(self, state: S_in, seat: Seat | None, /) -> V_out: ...


class Computer(Protocol[V_in, A]):
    """What every game's ``ai`` module provides: the computer player and its search speed."""

    # search steps a second of ``hard`` on a quiet machine (``Game.think_rate``)
    @property
    def THINK_RATE(self) -> float: ...

    def choose_action(
        self, view: V_in, legal: list[A], level: str, rng: Random, /, *, budget: Budget | None
    ) -> A | None: ...


@dataclass(frozen=True)
class Parts(Generic[S, A, V, Opts]):
    """One game's modules: its rules, views, computer player and action codec."""

    rules: Rules[S, A, Opts]
    views: Views[S, V]
    ai: Computer[V, A]
    codec: ActionCodec[Any]  # typed like ``Game.action_codec``


@dataclass(frozen=True)
class Spec:
    """What a table needs to know of a game before it starts: its key, its name (one text for
    every locale, or ``{locale: name}``) and its player counts ``(min, max)``."""

    key: str
    name: str | Mapping[str, str]
    players: tuple[int, int]

    def names(self) -> dict[str, str]:
        if isinstance(self.name, str):
            return {"es": self.name, "en": self.name}
        return dict(self.name)


class RulesGame(Game[S, A, V, Opts]):
    """A ``Game`` made of its ``parts`` and ``spec``, whose end is the state's ``finished``.

    Its state and options models are the classes it is typed with (``RulesGame[State, Action,
    View, Options]``), so a game names them once."""

    spec: Spec
    parts: Parts[S, A, V, Opts]
    rules: Rules[S, A, Opts]  # ``parts.rules``, set when the subclass is made

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        spec, parts = cls.__dict__.get("spec"), cls.__dict__.get("parts")
        if spec is not None:
            cls.key, cls.names = spec.key, spec.names()
            cls.min_players, cls.max_players = spec.players
        if parts is not None:
            cls._bind(parts)
        for base in cls.__dict__.get("__orig_bases__", ()):
            if typing.get_origin(base) is RulesGame:
                state_model, _, _, options_model = typing.get_args(base)
                cls.state_model, cls.options_model = state_model, options_model

    @classmethod
    def _bind(cls, parts: Parts[Any, Any, Any, Any]) -> None:
        """The modules' functions as the class's own (a game may still write its own)."""
        cls.rules = parts.rules
        cls.action_codec = parts.codec
        cls.think_rate = parts.ai.THINK_RATE
        cls.lists_every_action = getattr(parts.rules, "LISTS_EVERY_ACTION", True)
        functions = {method: getattr(parts.rules, name) for method, name in BOUND.items()}
        functions |= {"view": parts.views.build_view, "choose_action": parts.ai.choose_action}
        for method, function in functions.items():
            if method not in cls.__dict__:
                setattr(cls, method, staticmethod(function))

    def new(self, seats: list[Seat], seed: str, options: Opts | dict[str, Any] | None = None) -> S:
        self.check_player_count(seats)
        return self.parts.rules.new_state(seats, seed, self.parse_options(options))

    def to_act(self, state: S) -> set[Seat]:
        return self.parts.rules.to_act(state)

    def legal_actions(self, state: S, seat: Seat) -> list[A]:
        return self.parts.rules.legal_actions(state, seat)

    def copy_state(self, state: S) -> S:
        return self.parts.rules.copy_state(state)

    def _apply(self, state: S, seat: Seat, action: A) -> list[Event]:
        return self.parts.rules.resolve_action(state, seat, action)

    def outcome(self, state: S) -> Outcome | None:
        return self.parts.rules.outcome(state)

    def view(self, state: S, seat: Seat | None) -> V:
        return self.parts.views.build_view(state, seat)

    def choose_action(
        self, view: V, legal: list[A], level: str, rng: Random, *, budget: Budget | None = None
    ) -> A | None:
        return self.parts.ai.choose_action(view, legal, level, rng, budget=budget)

    def is_over(self, state: S) -> bool:
        return state.finished

    def dump_state(self, state: S) -> str:
        return stored_json(state)  # the state's model_dump_json, its log written by orjson
