"""The full (secret) game state. Round-trips through JSON exactly.

Two states may share containers (``rules.copy_state`` is copy-on-write): the rules replace a
container they change instead of mutating it, so an old state stays unchanged after ``apply``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    SkipValidation,
    field_validator,
    model_serializer,
    model_validator,
)

from games.chupate2.cards import DECK
from games.chupate2.events import EVENT_PARAMS, LOG_SIZE
from games.chupate2.options import Options
from games.core import Event, GameState, eventlog
from games.core.engine import Seat
from games.core.eventlog import EMPTY_LOG, EventLog
from games.core.fast import all_fields, plain_assignment, share_fields_set

# Turn phases of the seat ``current``:
#   colour     the starting player names the colour of a first-card Comodín
#   play       play a matching card or draw one
#   drawn      the card just drawn is playable: play it (that card only) or pass
#   penalty    a Chúpate 2 stack is pending: stack or take it all and lose the turn
#   challenge  a +4 was played on this seat: "¡Mentira!", accept (take), or stack (variant)
#   swap       this seat played a 7 (variant ``seven_o``): it names the seat to swap hands with
#   over       the game has ended
Phase = Literal["colour", "play", "drawn", "penalty", "challenge", "swap", "over"]


class PlusFour(BaseModel):
    """The +4 waiting for its victim's answer. ``hand`` is secret (only a challenger sees it)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    by: Seat
    legal: bool
    prev_colour: str
    hand: list[str]
    pending_before: int = 0


class Reveal(BaseModel):
    """The one-off challenge reveal: the +4 player's hand shown to the challenger alone."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    to: Seat
    of: Seat
    cards: list[str]
    legal: bool


class RoundResult(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    round: int
    winner: Seat
    team: int | None = None
    points: int
    left: dict[Seat, int]  # points left in each hand at the end of the round
    cards_left: dict[Seat, int]


class Signals(BaseModel):
    """Public table talk a good player remembers about one seat (what everybody saw).

    ``lacks``: colours in force when the seat drew or took a penalty instead of playing, since
    it last played that colour. ``named``: the colour it last named with a wild.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    lacks: list[str] = Field(default_factory=list)
    named: str | None = None


@plain_assignment
class Chupate2State(GameState):
    options: Options
    round: int = 1
    dealer: int
    starter: int
    hands: dict[Seat, list[str]]
    stock: list[str]  # top of the stock = last element
    discard: list[str]  # top of the discard pile = last element
    colour: str | None  # colour in force (None while a first-card Comodín waits for its colour)
    direction: int = -1  # +1 clockwise (increasing seat index), -1 counter-clockwise
    current: int
    phase: Phase
    pending: int = 0  # cards the seat ``current`` must draw unless it stacks / challenges
    drawn: str | None = None  # the playable card just drawn (phase ``drawn``)
    plus4: PlusFour | None = None
    reveal: Reveal | None = None
    shuffles: int = 0  # how many reshuffles happened (labels of the seeded shuffles)
    scores: dict[Seat, int] = Field(default_factory=dict)  # points game, per seat
    team_scores: list[int] = Field(default_factory=list)  # points game, per team
    results: list[RoundResult] = Field(default_factory=list)
    called: list[Seat] = Field(default_factory=list)  # "¡Última!" declared (variant)
    # down to one card without calling (variant), in the order they were exposed; each may be
    # caught until their own next action or draw
    exposed: list[Seat] = Field(default_factory=list)
    signals: dict[Seat, Signals] = Field(default_factory=dict)
    # The most recent events and the version each produced (``log`` and ``log_versions``, the
    # names they have in the stored JSON), kept as a ``games.core.eventlog`` log.
    log_raw: Annotated[EventLog, SkipValidation] = Field(
        default=EMPTY_LOG, exclude=True, repr=False
    )

    if TYPE_CHECKING:  # to type checkers, the fields of the stored JSON (given to __init__)
        log: list[Event] = Field(default_factory=list)
        log_versions: list[int] = Field(default_factory=list)
    else:

        @property
        def log(self) -> list[Event]:
            """The latest events (at most ``LOG_SIZE``), oldest first."""
            return [
                e for _, e in eventlog.entries(self.log_raw, self.seats, EVENT_PARAMS, LOG_SIZE)
            ]

        @property
        def log_versions(self) -> list[int]:
            """The state version each event of ``log`` produced."""
            return [
                v for v, _ in eventlog.entries(self.log_raw, self.seats, EVENT_PARAMS, LOG_SIZE)
            ]

    def log_entries(self) -> list[tuple[int, Event]]:
        """``zip(log_versions, log)`` in one pass."""
        return eventlog.entries(self.log_raw, self.seats, EVENT_PARAMS, LOG_SIZE)

    def __eq__(self, other: object) -> bool:
        """Equal fields and equal logs (one log may be packed and the other not)."""
        if not isinstance(other, Chupate2State):
            return NotImplemented
        mine, theirs = dict(self.__dict__), dict(other.__dict__)
        return (
            mine.pop("log_raw") is theirs.pop("log_raw")
            or self.log_entries() == other.log_entries()
        ) and mine == theirs

    @model_validator(mode="before")
    @classmethod
    def _read_log(cls, data: Any) -> Any:
        """``log`` and ``log_versions`` (stored JSON, or given in code) into ``log_raw``."""
        if isinstance(data, dict) and ("log" in data or "log_versions" in data):
            data = dict(data)
            events, versions = data.pop("log", []), data.pop("log_versions", [])
            seats = data.get("seats")
            data["log_raw"] = eventlog.load(
                events, versions, seats if isinstance(seats, list) else [], EVENT_PARAMS, LOG_SIZE
            )
        return data

    @model_serializer(mode="wrap")
    def _write_log(
        self, handler: SerializerFunctionWrapHandler, info: SerializationInfo
    ) -> dict[str, Any]:
        """The stored JSON keeps its shape: ``log`` (event objects) and ``log_versions``."""
        data: dict[str, Any] = handler(self)
        data["log"], data["log_versions"] = eventlog.dump(
            self.log_raw,
            self.seats,
            EVENT_PARAMS,
            LOG_SIZE,
            "json" if info.mode_is_json() else "python",
        )
        return data

    @model_validator(mode="after")
    def _shared_parts(self) -> Chupate2State:
        """A loaded state holds the deck's own card strings (not 108 copies of them), the one
        "no signals yet" instance and the shared field sets of its models: a third of the
        memory of a plain load (its log is packed: see ``games.core.eventlog``)."""
        card = _CARD
        self.hands = {s: [card.get(c, c) for c in h] for s, h in self.hands.items()}
        self.stock = [card.get(c, c) for c in self.stock]
        self.discard = [card.get(c, c) for c in self.discard]
        self.signals = {s: _shared_signals(g) for s, g in self.signals.items()}
        self.options = _OPTIONS.setdefault(self.options, self.options)
        for part in (self, self.options, *self.signals.values(), *self.results):
            share_fields_set(part)
        # the fields into a key-sharing dict (a third of the size of the one pydantic built);
        # the working copies of ``rules.copy_state`` copy it as it is
        object.__setattr__(self, "__dict__", _split_dict(self.__dict__))
        return self

    @field_validator("exposed", mode="before")
    @classmethod
    def _one_exposed_seat(cls, value: object) -> object:
        """States stored when only one seat could be exposed hold that seat or ``null``."""
        if value is None:
            return []
        if isinstance(value, str):
            return [value]
        return value


_CARD: dict[str, str] = {c: c for c in DECK}  # card id -> the deck's own string for it
NO_SIGNALS = Signals()  # frozen: one instance serves every seat that gave no signal yet

# Loaded options, one instance per distinct value (frozen models, hashed by value): every table
# of the same options shares it. Bounded by the distinct option sets ever loaded (a few dozen).
_OPTIONS: dict[Options, Options] = {}


def _split_dict(values: dict[str, Any]) -> dict[str, Any]:
    """``values`` in an instance dict of ``Chupate2State`` that shares its key table with the
    others (CPython keeps one per class for the dicts it makes by setting attributes)."""
    holder = Chupate2State.__new__(Chupate2State)
    for name, value in values.items():
        object.__setattr__(holder, name, value)
    return holder.__dict__


# Loaded signals, one instance per distinct value (at most 16 colour sets x 5 named colours).
_SIGNALS: dict[tuple[tuple[str, ...], str | None], Signals] = {((), None): NO_SIGNALS}


def _shared_signals(signals: Signals) -> Signals:
    key = (tuple(signals.lacks), signals.named)
    return _SIGNALS.setdefault(key, signals)


def trusted_state(fields: dict[str, Any]) -> Chupate2State:
    """``Chupate2State(**fields)`` without validation, for values of the right types built by
    the rules themselves (a new game): the other fields take their defaults."""
    values = {
        name: fields[name] if name in fields else default() for name, default in _DEFAULTS.items()
    }
    state = Chupate2State.__new__(Chupate2State)
    object.__setattr__(state, "__dict__", _split_dict(values))
    object.__setattr__(state, "__pydantic_fields_set__", all_fields(Chupate2State))
    object.__setattr__(state, "__pydantic_extra__", None)
    object.__setattr__(state, "__pydantic_private__", None)
    return state


def _constant(value: Any) -> Callable[[], Any]:
    return lambda: value


# field -> what makes its default (a new list, dict ... for each state); a required field's is
# never called (``trusted_state`` is given every one of them)
_DEFAULTS: dict[str, Callable[[], Any]] = {
    name: info.default_factory  # type: ignore[misc]  # factories of no argument only
    if info.default_factory is not None
    else _constant(info.default)
    for name, info in Chupate2State.model_fields.items()
}
