"""The engine contract every game implements (docs/architecture.md, "The engine contract").

A game is one object (a ``Game`` subclass instance) with pure functions over immutable-by-
convention states (pydantic ``GameState`` models, or any class with the same methods: see
``State``):

    new(seats, seed, options) -> State
    to_act(state) -> set[seat]            seats the game is waiting on (their turn timer runs)
    legal_actions(state, seat) -> [Action]  also for seats outside to_act (call-outs, challenges)
    apply(state, seat, action) -> (State, [Event])   the security boundary (final: guards, then
                                                     copy_state, then the game's _apply)
    view(state, seat | None) -> View      what that seat may see; None = public
    outcome(state) -> Outcome | None
    choose_action(view, legal, level, rng, *, budget) -> Action | None   computer play, from
                                          the view only, within a ``Budget`` (think_budget)

Seats are opaque strings chosen by the caller (the bot uses Discord user ids and ``cpu:N``).
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from operator import itemgetter
from types import MethodType
from typing import Any, ClassVar, Generic, ParamSpec, Protocol, TypedDict, TypeVar, cast, final

from pydantic import (
    AliasChoices,
    BaseModel,
    ConfigDict,
    Field,
    GetCoreSchemaHandler,
    TypeAdapter,
    ValidationError,
)
from pydantic_core import core_schema

from games.core.actions import Action, ActionCodec
from games.core.budget import Budget, Clock
from games.core.errors import (
    BAD_ACTION,
    BAD_OPTIONS,
    DUPLICATE_SEAT,
    GAME_OVER,
    NOT_A_PLAYER,
    PLAYER_COUNT,
    IllegalAction,
)

Seat = str
P = ParamSpec("P")


class Event(tuple[str, Seat | None, dict[str, Any], tuple[Seat, ...] | None]):
    """Something that happened, as a code plus parameters; bot/ turns it into a sentence.

    ``to`` limits who may see it (e.g. the card a player drew); ``None`` means public.

    An immutable tuple ``(code, seat, params, to)`` with named fields (every move of every
    playout builds one or more: a tuple is made in a fifth of the time of a pydantic model). In
    pydantic models (states, views) it validates from and serializes to the JSON object
    ``{"code", "seat", "params", "to"}`` it always had; ``model_*`` give the pydantic methods the
    bot and the tests use.
    """

    __slots__ = ()

    code = property(itemgetter(0))
    seat = property(itemgetter(1))
    params = property(itemgetter(2))
    to = property(itemgetter(3))

    def __new__(
        cls,
        code: str,
        seat: Seat | None = None,
        params: dict[str, Any] | None = None,
        to: tuple[Seat, ...] | None = None,
    ) -> Event:
        return _new_event(cls, (code, seat, {} if params is None else params, to))

    def __getnewargs__(self) -> tuple[Any, ...]:  # pickling and copy: the four fields
        return tuple(self)

    def visible_to(self, seat: Seat | None) -> bool:
        to = self[3]
        return to is None or (seat is not None and seat in to)

    def __repr__(self) -> str:
        return f"Event(code={self[0]!r}, seat={self[1]!r}, params={self[2]!r}, to={self[3]!r})"

    def model_copy(self, *, update: dict[str, Any] | None = None) -> Event:
        """A copy with the fields of ``update`` changed (as pydantic's ``model_copy``)."""
        fields = self.model_dump()
        fields.update(update or {})
        return Event(**fields)

    def model_dump(self, *, mode: str = "python") -> dict[str, Any]:
        to = self[3]
        if mode == "json" and to is not None:
            return {"code": self[0], "seat": self[1], "params": self[2], "to": list(to)}
        return {"code": self[0], "seat": self[1], "params": self[2], "to": to}

    def model_dump_json(self) -> str:
        return _EVENT_ADAPTER.dump_json(self).decode()

    @classmethod
    def model_validate(cls, value: object) -> Event:
        return _EVENT_ADAPTER.validate_python(value)

    @classmethod
    def model_validate_json(cls, text: str | bytes) -> Event:
        return _EVENT_ADAPTER.validate_json(text)

    @classmethod
    def __get_pydantic_core_schema__(
        cls, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        fields = core_schema.typed_dict_schema(
            {
                "code": core_schema.typed_dict_field(core_schema.str_schema()),
                "seat": core_schema.typed_dict_field(
                    core_schema.with_default_schema(
                        core_schema.nullable_schema(core_schema.str_schema()), default=None
                    ),
                    required=False,
                ),
                "params": core_schema.typed_dict_field(
                    core_schema.with_default_schema(
                        core_schema.dict_schema(core_schema.str_schema(), core_schema.any_schema()),
                        default_factory=dict,
                    ),
                    required=False,
                ),
                "to": core_schema.typed_dict_field(
                    core_schema.with_default_schema(
                        core_schema.nullable_schema(
                            core_schema.tuple_schema(
                                [core_schema.str_schema()], variadic_item_index=0
                            )
                        ),
                        default=None,
                    ),
                    required=False,
                ),
            },
            extra_behavior="forbid",
        )
        from_fields = core_schema.no_info_after_validator_function(
            lambda d: _new_event(cls, (d["code"], d["seat"], d["params"], d["to"])), fields
        )
        return core_schema.json_or_python_schema(
            json_schema=from_fields,
            python_schema=core_schema.union_schema(
                [core_schema.is_instance_schema(cls), from_fields]
            ),
            serialization=core_schema.plain_serializer_function_ser_schema(
                _event_fields, info_arg=False
            ),
        )


def _event_fields(e: Event) -> dict[str, Any]:
    """An event's fields for pydantic's serializer, in either mode: in JSON, pydantic writes
    the tuple ``to`` as the list it always was. Without the ``SerializationInfo`` argument
    pydantic builds no info object per event (a view or state holds dozens of them)."""
    return {"code": e[0], "seat": e[1], "params": e[2], "to": e[3]}


def _bound_new(cls: Callable[P, Event]) -> Callable[P, Event]:
    """``Event.__new__`` bound to ``Event``: what ``Event(...)`` makes (a tuple subclass without
    ``__init__``) without the type call's cost, typed with ``Event``'s own parameters."""
    return cast("Callable[P, Event]", MethodType(Event.__new__, Event))


# ``Event(code, ...)`` for the engines' hot paths: the same event, one call less (as fast as a
# function of its own, measured: 135 ns against 206 ns for ``Event(...)``; a ``partial`` 165 ns).
event = _bound_new(Event)
_new_event = tuple.__new__
_EVENT_ADAPTER: TypeAdapter[Event] = TypeAdapter(Event)


# Every state names the seat index whose turn it is ``turn``; states stored before issue 26 held it
# as ``current`` (Chupate 2, Maquiavelo, Macarena), and still load: the field's validation alias.
TURN = AliasChoices("turn", "current")

# The version of a logged event loaded from a row stored before its game kept the versions of its
# events (``games.core.eventlog``): older than every move, and equal to any in ``Game.same_end``.
UNKNOWN_VERSION = -1


class GameState(BaseModel):
    """Base of every game's state. Round-trips through JSON exactly.

    Every game's state has ``turn`` (the index in ``seats`` of the seat whose turn it is) and
    ``finished`` (whether the game has ended: a field, or a property of the phase machine).
    """

    # by name, and by a former name a field's ``validation_alias`` lists (``TURN``)
    model_config = ConfigDict(extra="forbid", validate_by_name=True)

    seed: str
    version: int = 0
    seats: list[Seat]


class State(Protocol):
    """What the engine contract and the table service use of a game's state.

    Every ``GameState`` (a pydantic model) has it; a game whose engine needs faster field access
    than pydantic's may use a plain class with these members instead (Chúpate 2's slotted
    state), as long as its JSON round-trips exactly like a model's.
    """

    seed: str
    version: int
    seats: list[Seat]
    turn: int  # the index in ``seats`` of the seat whose turn it is
    # the game's former event codes, renamed when a stored row loads (``games.core.eventlog``)
    log_old_codes: ClassVar[Mapping[str, str | tuple[str, str]]]

    @property
    def finished(self) -> bool:
        """Whether the game has ended."""
        ...

    @classmethod
    def model_validate_json(cls, json_data: str | bytes, /) -> Any: ...

    def model_dump_json(self) -> str: ...

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Any: ...


class PlayerView(BaseModel):
    """Base of every game's view: what one seat (or the public, ``seat=None``) may see."""

    # by name, and by a former name a field's ``validation_alias`` lists (``TURN``)
    model_config = ConfigDict(extra="forbid", validate_by_name=True)

    seat: Seat | None
    version: int
    seats: list[Seat]
    to_act: list[Seat]
    finished: bool = False


class CardTransfer(BaseModel):
    """A card that changes owner when a game ends (Triple Triad payouts)."""

    model_config = ConfigDict(frozen=True)

    card: str
    giver: Seat
    receiver: Seat


class Outcome(BaseModel):
    """The result of a finished game; storage reads only these typed fields.

    ``ranking`` groups seats by place, best first (ties share a group). ``points`` are the
    standings points each seat earns. ``team_winners`` are the seats whose team won (team games);
    ``stats`` are ``{seat: {counter: n}}`` added to leaderboard counters (amulets, ...);
    ``transfers`` are cards changing hands. A game whose presenter needs more (scores per round,
    the reason the game ended) subclasses ``Outcome`` with typed fields.
    """

    ranking: list[list[Seat]]
    points: dict[Seat, int] = Field(default_factory=dict)
    team_winners: list[Seat] = Field(default_factory=list)
    stats: dict[Seat, dict[str, int]] = Field(default_factory=dict)
    transfers: list[CardTransfer] = Field(default_factory=list)

    @property
    def winners(self) -> list[Seat]:
        return list(self.ranking[0]) if self.ranking else []

    @property
    def is_draw(self) -> bool:
        """Everyone tied for first."""
        return len(self.ranking) == 1 and len(self.ranking[0]) > 1


def _first_error(exc: ValidationError) -> str:
    """``field: message`` of the first thing pydantic refused (the message alone for a rule
    across fields), e.g. ``pile: Input should be less than or equal to 10``."""
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err.get("loc", ()))
    message = str(err.get("msg", "")).removeprefix("Value error, ")
    return f"{where}: {message}" if where else message


S = TypeVar("S", bound=State)
A = TypeVar("A", bound=Action)
V = TypeVar("V", bound=PlayerView)
Opts = TypeVar("Opts", bound=BaseModel)


class Opening(TypedDict, Generic[Opts]):
    """What every game's first state starts from, its constructor's keywords:
    ``State(**opening(seats, seed, options), ...)`` (typed: mypy checks them against the state's
    fields)."""

    seed: str
    seats: list[Seat]
    options: Opts


def opening(seats: Sequence[Seat], seed: str, options: Opts) -> Opening[Opts]:
    """The seed, a list of its own of the seats, and the options of a new game."""
    return {"seed": seed, "seats": list(seats), "options": options}


class Game(ABC, Generic[S, A, V, Opts]):
    """Describes one game. Subclasses set the class attributes and implement the hooks."""

    key: ClassVar[str]
    names: ClassVar[dict[str, str]]  # locale -> display name
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options_model: ClassVar[type[BaseModel]]
    action_codec: ClassVar[ActionCodec[Any]]
    state_model: ClassVar[type[State]]
    ai_levels: ClassVar[tuple[str, ...]] = ("easy", "normal", "hard")
    # Search steps a second of the ``hard`` computer on a quiet machine (rollouts, or nodes of an
    # exact search): what ``think_budget`` caps a think time at.
    think_rate: ClassVar[float] = 1000.0
    # Whether ``legal_actions`` lists every action a seat the game waits on may take. False
    # where some are free-form, built by the player and validated as they are applied
    # (Maquiavelo's plays, Macarena's longer series): only a game that lists them all has a
    # waited seat with one legal action and no choice, played without a search
    # (``bot/service/cpu.py``). A rules module that does not list every action says so beside
    # its ``legal_actions``: ``LISTS_EVERY_ACTION = False``.
    lists_every_action: ClassVar[bool] = True

    # ----- creation -------------------------------------------------------------------------
    @final
    def parse_options(self, raw: Opts | dict[str, Any] | None) -> Opts:
        """The game's options; anything its model refuses raises
        ``IllegalAction(BAD_OPTIONS, reason=...)`` (the same error for every game)."""
        # options_model is the runtime form of Opts (a ClassVar cannot name a type variable)
        if raw is None:
            return cast(Opts, self.options_model())
        if isinstance(raw, self.options_model):
            return raw
        try:
            return cast(Opts, self.options_model.model_validate(raw))
        except ValidationError as exc:
            raise IllegalAction(BAD_OPTIONS, reason=_first_error(exc)) from exc

    @abstractmethod
    def new(self, seats: list[Seat], seed: str, options: Opts | dict[str, Any] | None = None) -> S:
        """A fresh game. Raises ``IllegalAction("player_count", ...)`` for a wrong seat count."""

    def check_player_count(self, seats: list[Seat]) -> None:
        if not self.min_players <= len(seats) <= self.max_players:
            raise IllegalAction(
                PLAYER_COUNT, count=len(seats), min=self.min_players, max=self.max_players
            )
        if len(set(seats)) != len(seats):
            raise IllegalAction(DUPLICATE_SEAT)

    # ----- turn structure -------------------------------------------------------------------
    @abstractmethod
    def to_act(self, state: S) -> set[Seat]:
        """Seats the game waits on. Other seats may still hold optional legal actions."""

    @abstractmethod
    def legal_actions(self, state: S, seat: Seat) -> list[A]:
        """Every action ``seat`` may take now: the only source of UI choices."""

    @final
    def apply(self, state: S, seat: Seat, action: A) -> tuple[S, list[Event]]:
        """Validate and apply ``action`` by ``seat``; the old state is left untouched.

        The guards every game shares live here (a seat of the game, a game not over, an action of
        this game's union); the copy goes through ``copy_state`` and the rules through ``_apply``.
        """
        if seat not in state.seats:
            raise IllegalAction(NOT_A_PLAYER)
        if self.is_over(state):
            raise IllegalAction(GAME_OVER)
        codec = self.action_codec
        if type(action) not in codec.exact_types and not isinstance(action, codec.types):
            raise IllegalAction(BAD_ACTION)
        new_state = self.copy_state(state)
        new_state.version = state.version + 1
        events = self._apply(new_state, seat, action)
        return new_state, events

    def copy_state(self, state: S) -> S:
        """A copy ``_apply`` may change freely; games override it with a cheaper copy."""
        return cast(S, state.model_copy(deep=True))

    def is_over(self, state: S) -> bool:
        """Whether the game has ended; games override it when ``outcome`` is costly."""
        return self.outcome(state) is not None

    @abstractmethod
    def _apply(self, state: S, seat: Seat, action: A) -> list[Event]:
        """Mutate the private copy ``state`` (its version already advanced); raise
        ``IllegalAction`` for anything not allowed. ``seat`` is a seat of the game and ``action``
        one of ``action_codec.types``."""

    # ----- information ----------------------------------------------------------------------
    @abstractmethod
    def view(self, state: S, seat: Seat | None) -> V:
        """What ``seat`` may see (``None``: the public). Never another seat's secrets."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """``None`` while the game goes on."""

    # ----- text forms -----------------------------------------------------------------------
    @final
    def decode_action(self, text: str) -> A:
        """Inverse of ``Action.encode``; raises ``IllegalAction(BAD_ACTION)`` on bad input."""
        return self.action_codec.decode(text)

    def load_state(self, text: str) -> S:
        return cast(S, self.state_model.model_validate_json(text))

    def dump_state(self, state: S) -> str:
        return state.model_dump_json()

    @final
    def same_end(self, stored: str, state: S) -> bool:
        """Whether ``state`` (the game rebuilt from its actions) is the stored state ``stored``
        as this code loads it. A logged event's version is compared only where the row knew it
        (``UNKNOWN_VERSION``), and a row stored without a log (Triple Triad's, before session
        11) is compared without the logs: the log only records what the actions did."""
        old = json.loads(self.dump_state(self.load_state(stored)))
        new = json.loads(self.dump_state(state))
        if "log" not in json.loads(stored):
            for fields in (old, new):
                fields.pop("log", None)
                fields.pop("log_versions", None)
        was, now = old.pop("log_versions", []), new.pop("log_versions", [])
        return (
            len(was) == len(now)
            and all(v in (w, UNKNOWN_VERSION) for v, w in zip(was, now, strict=True))
            and old == new
        )

    # ----- computer play --------------------------------------------------------------------
    @abstractmethod
    def choose_action(
        self,
        view: V,
        legal: list[A],
        level: str,
        rng: random.Random,
        *,
        budget: Budget | None = None,
    ) -> A | None:
        """The computer's choice for the seat of ``view``, seeing only that view.

        ``budget`` bounds a searching level (``think_budget``); without one the game uses its
        own fixed budget, so the choice is a pure function of the arguments. Returns ``None``
        to decline optional actions (only when the seat is not in ``to_act``).
        """

    @final
    def think_budget(self, seconds: float, clock: Clock | None = None) -> Budget:
        """The budget of ``seconds`` of thinking at this game's ``think_rate``, timed by
        ``clock`` when given (the table service passes ``time.monotonic``)."""
        return Budget.for_seconds(seconds, clock, self.think_rate)

    def cpu_wait_seconds(self, state: S, humans: frozenset[Seat]) -> float:
        """How long computer seats must leave ``state`` unchanged before they act on it,
        counted from the moment it was reached; ``humans`` are the seats people play.

        The default is no wait. A game overrides it to give people a fair chance at a race the
        computer would otherwise always win (Amapatolli's "¡Ce!" window).
        """
        return 0.0

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
