"""The engine contract every game implements (ARCHITECTURE.md, "The engine contract").

A game is one object (a ``Game`` subclass instance) with pure functions over immutable-by-
convention pydantic states:

    new(seats, seed, options) -> State
    to_act(state) -> set[seat]            seats the game is waiting on (their turn timer runs)
    legal_actions(state, seat) -> [Action]  also for seats outside to_act (call-outs, challenges)
    apply(state, seat, action) -> (State, [Event])   the security boundary
    view(state, seat | None) -> View      what that seat may see; None = public
    outcome(state) -> Outcome | None
    choose_action(view, legal, level, rng) -> Action | None   computer play, from the view only

Seats are opaque strings chosen by the caller (the bot uses Discord user ids and ``cpu:N``).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from games.core.errors import BAD_ACTION, GAME_OVER, NOT_A_PLAYER, IllegalAction

Seat = str


class Action(BaseModel):
    """A move. Subclasses add fields and a compact text form (like UCI for chess).

    ``encode()`` must be short enough for a Discord custom_id (keep it under 60 characters) and
    ``Game.decode_action(a.encode()) == a`` must hold for every action.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    def encode(self) -> str:  # pragma: no cover - every game overrides
        raise NotImplementedError


class Event(BaseModel):
    """Something that happened, as a code plus parameters; bot/ turns it into a sentence.

    ``to`` limits who may see it (e.g. the card a player drew); ``None`` means public.
    """

    model_config = ConfigDict(frozen=True)

    code: str
    seat: Seat | None = None
    params: dict[str, Any] = Field(default_factory=dict)
    to: tuple[Seat, ...] | None = None

    def visible_to(self, seat: Seat | None) -> bool:
        return self.to is None or (seat is not None and seat in self.to)


class GameState(BaseModel):
    """Base of every game's state. Round-trips through JSON exactly."""

    model_config = ConfigDict(extra="forbid")

    seed: str
    version: int = 0
    seats: list[Seat]


class PlayerView(BaseModel):
    """Base of every game's view: what one seat (or the public, ``seat=None``) may see."""

    model_config = ConfigDict(extra="forbid")

    seat: Seat | None
    version: int
    seats: list[Seat]
    to_act: list[Seat]
    finished: bool = False


class Outcome(BaseModel):
    """The result of a finished game.

    ``ranking`` groups seats by place, best first (ties share a group). ``points`` are the
    standings points each seat earns. ``details`` holds game-specific data for presenters and
    storage as plain JSON values; storage reads these keys when present:

    - ``team_winners``: seats whose team won (team games);
    - ``stats``: ``{seat: {counter: int}}`` added to leaderboard counters (amulets, ...);
    - ``transfers``: ``[{"card": id, "from": seat, "to": seat}]`` cards changing hands.
    """

    ranking: list[list[Seat]]
    points: dict[Seat, int] = Field(default_factory=dict)
    details: dict[str, Any] = Field(default_factory=dict)

    @property
    def winners(self) -> list[Seat]:
        return list(self.ranking[0]) if self.ranking else []


S = TypeVar("S", bound=GameState)
A = TypeVar("A", bound=Action)
V = TypeVar("V", bound=PlayerView)
Opts = TypeVar("Opts", bound=BaseModel)


class Game(ABC, Generic[S, A, V, Opts]):
    """Describes one game. Subclasses set the class attributes and implement the hooks."""

    key: ClassVar[str]
    names: ClassVar[dict[str, str]]  # locale -> display name
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options_model: ClassVar[type[BaseModel]]
    state_model: ClassVar[type[GameState]]
    ai_levels: ClassVar[tuple[str, ...]] = ("easy", "normal", "hard")

    # ----- creation -------------------------------------------------------------------------
    def parse_options(self, raw: Opts | dict[str, Any] | None) -> Opts:
        if raw is None:
            return self.options_model()  # type: ignore[return-value]
        if isinstance(raw, self.options_model):
            return raw  # type: ignore[return-value]
        return self.options_model.model_validate(raw)  # type: ignore[return-value]

    @abstractmethod
    def new(self, seats: list[Seat], seed: str, options: Opts | dict[str, Any] | None = None) -> S:
        """A fresh game. Raises ``IllegalAction("player_count", ...)`` for a wrong seat count."""

    def check_player_count(self, seats: list[Seat]) -> None:
        if not self.min_players <= len(seats) <= self.max_players:
            raise IllegalAction(
                "player_count", count=len(seats), min=self.min_players, max=self.max_players
            )
        if len(set(seats)) != len(seats):
            raise IllegalAction("duplicate_seat")

    # ----- turn structure -------------------------------------------------------------------
    @abstractmethod
    def to_act(self, state: S) -> set[Seat]:
        """Seats the game waits on. Other seats may still hold optional legal actions."""

    @abstractmethod
    def legal_actions(self, state: S, seat: Seat) -> list[A]:
        """Every action ``seat`` may take now: the only source of UI choices."""

    def apply(self, state: S, seat: Seat, action: A) -> tuple[S, list[Event]]:
        """Validate and apply ``action`` by ``seat``; the old state is left untouched."""
        if seat not in state.seats:
            raise IllegalAction(NOT_A_PLAYER)
        if self.outcome(state) is not None:
            raise IllegalAction(GAME_OVER)
        new_state = state.model_copy(deep=True)
        events = self._apply(new_state, seat, action)
        new_state.version = state.version + 1
        return new_state, events

    @abstractmethod
    def _apply(self, state: S, seat: Seat, action: A) -> list[Event]:
        """Mutate the private copy ``state``; raise ``IllegalAction`` for anything not allowed."""

    # ----- information ----------------------------------------------------------------------
    @abstractmethod
    def view(self, state: S, seat: Seat | None) -> V:
        """What ``seat`` may see (``None``: the public). Never another seat's secrets."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """``None`` while the game goes on."""

    # ----- text forms -----------------------------------------------------------------------
    @abstractmethod
    def decode_action(self, text: str) -> A:
        """Inverse of ``Action.encode``; raises ``IllegalAction(BAD_ACTION)`` on bad input."""

    def load_state(self, text: str) -> S:
        return self.state_model.model_validate_json(text)  # type: ignore[return-value]

    def dump_state(self, state: S) -> str:
        return state.model_dump_json()

    # ----- computer play --------------------------------------------------------------------
    @abstractmethod
    def choose_action(
        self, view: V, legal: list[A], level: str, rng: random.Random
    ) -> A | None:
        """The computer's choice for the seat of ``view``, seeing only that view.

        Returns ``None`` to decline optional actions (only when the seat is not in ``to_act``).
        """

    def default_action(self, state: S, seat: Seat) -> A:
        """What is played for a seat whose turn timer ran out (the ``normal`` computer)."""
        from games.core.rng import rng_for

        legal = self.legal_actions(state, seat)
        choice = self.choose_action(
            self.view(state, seat), legal, "normal", rng_for(state.seed, "timeout", state.version)
        )
        if choice is None:
            if not legal:
                raise IllegalAction(BAD_ACTION)
            choice = legal[0]
        return choice

    def rematch_seats(self, state: S) -> list[Seat]:
        """Seat order for a rematch; games whose rules move the dealer override this."""
        return list(state.seats)
