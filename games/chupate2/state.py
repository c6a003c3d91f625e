"""The full (secret) game state. Round-trips through JSON exactly.

``Chupate2State`` is a plain class with ``__slots__`` (not a pydantic model): the engine reads and
writes its fields on every step of every playout, and a slot is read in a fifth and written in a
tenth of the time of a pydantic field (whose instance ``__dict__`` defeats CPython's attribute
caches). Its stored JSON is the one ``StoredChupate2State`` (the pydantic model it was) validates
and writes: loading and dumping go through that model, so old rows load and the JSON keeps its
exact shape; ``model_validate``/``model_dump``/``model_copy`` and friends behave as pydantic's.
Both take their fields from one declaration, ``Chupate2Fields``. The stored JSON's key order is
part of the game's record: a table's deal digest (``games.core.fairness``) is the SHA-256 of its
first state's JSON, so the fields keep their order (the golden playouts digest every state).

Two states may share containers (``copy_state`` is copy-on-write): the rules replace a
container they change instead of mutating it, so an old state stays unchanged after ``apply``.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    field_validator,
    model_validator,
)

from games.chupate2.cards import COLOURS, DECK
from games.chupate2.events import EVENT_PARAMS, LOG_SIZE, OLD_EVENT_CODES
from games.chupate2.options import Options
from games.core import Event
from games.core.engine import TURN, Seat
from games.core.eventlog import Codes, EventLog, LoggedState, LogReader, OldCodes
from games.core.fast import share_fields_set, trusted

# Turn phases of the seat ``turn``:
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


class Chupate2Fields:
    """The fields of a Chúpate 2 state after ``seed``, ``version`` and ``seats``, in the order of
    its stored JSON, declared once for its two forms: the stored model (pydantic collects the
    annotated fields of every base, plain classes too: defaults and aliases included) and the
    slotted state (whose slots they type; a slot shadows the default of the same name)."""

    __slots__ = ()
    options: Options
    round: int = 1
    dealer: int
    starter: int
    hands: dict[Seat, list[str]]
    stock: list[str]  # top of the stock = last element
    discard: list[str]  # top of the discard pile = last element
    colour: str | None  # colour in force (None while a first-card Comodín waits for its colour)
    direction: int = -1  # +1 clockwise (increasing seat index), -1 counter-clockwise
    turn: int = Field(validation_alias=TURN)  # index in seats of the seat to act
    phase: Phase
    pending: int = 0  # cards the seat ``turn`` must draw unless it stacks / challenges
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
    # The most recent events and the version each produced: ``log_raw`` (``LoggedState``).
    log_size: ClassVar[int] = LOG_SIZE
    log_codes: ClassVar[Codes] = EVENT_PARAMS
    log_old_codes: ClassVar[OldCodes] = OLD_EVENT_CODES


class StoredChupate2State(Chupate2Fields, LoggedState):
    """The stored JSON form of a ``Chupate2State`` (validation on load, the JSON on dump): the
    fields of ``LoggedState`` (``seed``, ``version``, ``seats``, ``log_raw``), then those of
    ``Chupate2Fields`` (its first base: pydantic collects fields in reverse method order)."""

    @model_validator(mode="after")
    def _shared_parts(self) -> StoredChupate2State:
        """A loaded state holds the deck's own card strings (not 108 copies of them), the one
        "no signals yet" instance and the shared field sets of its models: a third of the
        memory of a plain load (its log is packed: see ``games.core.eventlog``)."""
        card = _CARD
        self.hands = {s: [card.get(c, c) for c in h] for s, h in self.hands.items()}
        self.stock = [card.get(c, c) for c in self.stock]
        self.discard = [card.get(c, c) for c in self.discard]
        self.signals = {s: _shared_signals(g) for s, g in self.signals.items()}
        self.options = _OPTIONS.setdefault(self.options, self.options)
        for part in (self.options, *self.signals.values(), *self.results):
            share_fields_set(part)
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


# The fields of a state, in the order of the stored JSON, then ``log_raw``, which holds ``log``
# and ``log_versions`` (``games.core.eventlog.LoggedState``).
FIELDS: tuple[str, ...] = (
    *(name for name in StoredChupate2State.model_fields if name != "log_raw"),
    "log_raw",
)


class Chupate2State(Chupate2Fields, LogReader):
    """The game state the engine works on: the fields of ``StoredChupate2State`` in slots.

    ``Chupate2State(**fields)``, ``model_validate`` and ``model_validate_json`` validate as the
    stored model does; the rules build states without validation (``trusted_state``,
    ``copy_state``).
    """

    __slots__ = FIELDS
    # Its stored JSON is that model's fields, read by name, written by orjson
    # (``games.core.statejson``): pydantic's own dump built the stored model first (dump_state
    # 15.2 -> 9.8 us, measured)
    stored_model: ClassVar[type[StoredChupate2State]] = StoredChupate2State
    dump_by_orjson: ClassVar[bool] = True

    seed: str
    version: int
    seats: list[Seat]
    log_raw: EventLog  # the latest events (``games.core.eventlog``)

    if TYPE_CHECKING:  # the keyword arguments of the stored JSON, typed as its fields

        def __init__(
            self,
            *,
            seed: str,
            version: int = 0,
            seats: list[Seat],
            options: Options,
            round: int = 1,
            dealer: int,
            starter: int,
            hands: dict[Seat, list[str]],
            stock: list[str],
            discard: list[str],
            colour: str | None,
            direction: int = -1,
            turn: int,
            phase: Phase,
            pending: int = 0,
            drawn: str | None = None,
            plus4: PlusFour | None = None,
            reveal: Reveal | None = None,
            shuffles: int = 0,
            scores: dict[Seat, int] | None = None,
            team_scores: list[int] | None = None,
            results: list[RoundResult] | None = None,
            called: list[Seat] | None = None,
            exposed: list[Seat] | None = None,
            signals: dict[Seat, Signals] | None = None,
            log: list[Event] | None = None,
            log_versions: list[int] | None = None,
        ) -> None: ...

    else:

        def __init__(self, **fields: Any) -> None:
            _fill(self, StoredChupate2State(**fields))

    # ----- pydantic's methods, as the states' users know them ---------------------------------
    @classmethod
    def model_validate(cls, value: object) -> Chupate2State:
        if isinstance(value, Chupate2State):
            return value
        return _from_stored(StoredChupate2State.model_validate(value))

    @classmethod
    def model_validate_json(cls, text: str | bytes) -> Chupate2State:
        return _from_stored(StoredChupate2State.model_validate_json(text))

    def model_dump(self, **kwargs: Any) -> dict[str, Any]:
        return self.stored().model_dump(**kwargs)

    def model_dump_json(self, **kwargs: Any) -> str:
        return self.stored().model_dump_json(**kwargs)

    def model_copy(
        self, *, update: Mapping[str, Any] | None = None, deep: bool = False
    ) -> Chupate2State:
        """A copy with the fields of ``update`` replaced (not validated, as pydantic's)."""
        new = copy_state(self)
        for name, value in (update or {}).items():
            setattr(new, name, value)  # an unknown field name raises AttributeError
        return copy.deepcopy(new) if deep else new

    def stored(self) -> StoredChupate2State:
        """This state as its stored model (sharing its containers)."""
        return trusted(StoredChupate2State, {name: getattr(self, name) for name in FIELDS})

    @property
    def finished(self) -> bool:
        """Whether the game has ended (every state answers ``finished``; here the phase machine's
        last phase, ``over``, says it)."""
        return self.phase == "over"

    def __eq__(self, other: object) -> bool:
        """Equal fields and equal logs (one log may be packed and the other not)."""
        if not isinstance(other, Chupate2State):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in FIELDS[:-1]) and (
            self.log_raw is other.log_raw or self.log_entries() == other.log_entries()
        )

    __hash__ = None  # type: ignore[assignment]  # mutable, as pydantic models are

    def __repr__(self) -> str:
        fields = ", ".join(f"{n}={getattr(self, n)!r}" for n in FIELDS[:-1])
        return f"Chupate2State({fields})"


def copy_state(
    state: Chupate2State, _new: Callable[[type], Any] = object.__new__, _cls: type = Chupate2State
) -> Chupate2State:
    """A working copy of ``state`` that an action may change without touching ``state``.

    Every field is shared with ``state`` except the hands dict (copied: the rules assign a seat's new
    hand into it). Every other container (hand lists, stock, discard pile, scores, results,
    calls, signals, log) is copy-on-write: shared with ``state`` and *replaced*, never mutated in
    place, by the code that changes it. Written out field by field: a slot is copied in a few
    nanoseconds, a loop over ``FIELDS`` would cost ten times as much (a test checks that every
    field is here).
    """
    n: Chupate2State = _new(_cls)
    n.seed = state.seed
    n.version = state.version
    n.seats = state.seats
    n.options = state.options
    n.round = state.round
    n.dealer = state.dealer
    n.starter = state.starter
    n.hands = state.hands.copy()  # the hand lists themselves are replaced when they change
    n.stock = state.stock
    n.discard = state.discard
    n.colour = state.colour
    n.direction = state.direction
    n.turn = state.turn
    n.phase = state.phase
    n.pending = state.pending
    n.drawn = state.drawn
    n.plus4 = state.plus4
    n.reveal = state.reveal
    n.shuffles = state.shuffles
    n.scores = state.scores
    n.team_scores = state.team_scores
    n.results = state.results
    n.called = state.called
    n.exposed = state.exposed
    n.signals = state.signals
    n.log_raw = state.log_raw
    return n


def _fill(state: Chupate2State, stored: StoredChupate2State) -> None:
    values = stored.__dict__
    for name in FIELDS:
        setattr(state, name, values[name])


def _from_stored(stored: StoredChupate2State) -> Chupate2State:
    state: Chupate2State = object.__new__(Chupate2State)
    _fill(state, stored)
    return state


_CARD: dict[str, str] = {c: c for c in DECK}  # card id -> the deck's own string for it
NO_SIGNALS = Signals()  # frozen: one instance serves every seat that gave no signal yet

# Loaded options, one instance per distinct value (frozen models, hashed by value): every table
# of the same options shares it. Bounded by the distinct option sets ever loaded (a few dozen).
_OPTIONS: dict[Options, Options] = {}


def _orderings(items: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Every ordered selection of distinct ``items`` (the empty one first)."""
    out: list[tuple[str, ...]] = [()]
    for seq in out:  # grows while it is walked: breadth first
        out.extend((*seq, i) for i in items if i not in seq)
    return out


# Every signals value the rules can make (lacks: distinct colours in the order they were noted;
# named: a colour or none), one shared frozen instance each: the rules take theirs from here
# instead of building one (``signals_for``), and a loaded state shares them.
SIGNALS: Mapping[tuple[tuple[str, ...], str | None], Signals] = {
    (lacks, named): NO_SIGNALS
    if not lacks and named is None
    else trusted(Signals, {"lacks": list(lacks), "named": named})
    for lacks in _orderings(COLOURS)
    for named in (None, *COLOURS)
}


def signals_for(lacks: Sequence[str], named: str | None) -> Signals:
    """The shared ``Signals(lacks=lacks, named=named)``."""
    shared = SIGNALS.get((tuple(lacks), named))
    return shared if shared is not None else Signals(lacks=list(lacks), named=named)


def _shared_signals(signals: Signals) -> Signals:
    return SIGNALS.get((tuple(signals.lacks), signals.named), signals)


def trusted_state(fields: dict[str, Any]) -> Chupate2State:
    """``Chupate2State(**fields)`` without validation, for values of the right types built by
    the rules themselves (a new game): the other fields take their defaults."""
    state: Chupate2State = object.__new__(Chupate2State)
    for name, default in _DEFAULTS.items():
        setattr(state, name, fields[name] if name in fields else default())
    return state


def _constant(value: Any) -> Callable[[], Any]:
    return lambda: value


# field -> what makes its default (a new list, dict ... for each state); a required field's is
# never called (``trusted_state`` is given every one of them)
_DEFAULTS: dict[str, Callable[[], Any]] = {
    name: info.default_factory  # type: ignore[misc]  # factories of no argument only
    if info.default_factory is not None
    else _constant(info.default)
    for name, info in StoredChupate2State.model_fields.items()
}
