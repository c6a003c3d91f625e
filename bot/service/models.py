"""What the table service and the Discord side share: tables, options, config, the listener."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, Protocol

from pydantic import BaseModel, Field, ValidationError

from bot.places import INTERACTION_ONLY
from games.core import Event, Game, GameState, Outcome
from storage import SeatInfo, TableRecord

CPU_PREFIX = "cpu"


def is_human_id(seat_id: str) -> bool:
    """Computer seats are ``cpu1``, ``cpu2``...; people are Discord user ids."""
    return not seat_id.startswith(CPU_PREFIX)


class TableOptions(BaseModel):
    """Options every table has, whatever the game."""

    turn_seconds: int | None = Field(default=None, ge=10, le=3600)
    cpu_level: str = "normal"
    cpu_delay_seconds: float | None = Field(default=None, ge=0, le=10)  # /settings


# Read once: ``TableOptions.model_fields`` is pydantic's descriptor, called on every access (twice
# per key, it was most of ``split_options``'s 4.3 us; 0.7 us with this set).
TABLE_OPTION_NAMES = frozenset(TableOptions.model_fields)


def split_options(options: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the game's own options, the table options) of a table's stored options."""
    game = {k: v for k, v in options.items() if k not in TABLE_OPTION_NAMES}
    table = {k: v for k, v in options.items() if k in TABLE_OPTION_NAMES}
    return game, table


@dataclass
class Table:
    """A table in memory: its stored record, the live game state and its lock."""

    record: TableRecord
    game: Game
    state: GameState | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    last_events: list[Event] = field(default_factory=list)
    last_actor: str | None = None  # the seat whose move made the current version (this run)
    last_by_timer: bool = False  # that move was the computer's for a person out of time
    # ``record.options``' table options, read once, with the dict they were read of: stored
    # options never change and a move asks for them two or three times (the turn's timer, the
    # public message's deadline, a computer's delay); the listener's copies share it (as_of).
    read_options: tuple[dict[str, Any], TableOptions] | None = field(
        default=None, repr=False, compare=False
    )
    # ``record.id``, read once: a click asks for it ~55 times (a property call each; issue 29).
    # A table's record may be replaced (caught up from the database), never by another table's.
    id: int = field(init=False, compare=False)
    # Whether the table lives on interaction tokens alone (opened where the bot may not post:
    # ``bot/places.py``): no bot-token call about its channel, ever. Fixed when the table is
    # opened (``bot/service/lobby.py``), and read once: every view of a move asks (~9 property
    # calls a move, issue 29).
    interaction_only: bool = field(init=False, compare=False)

    def __post_init__(self) -> None:
        self.id = self.record.id
        self.interaction_only = bool(self.record.meta.get(INTERACTION_ONLY))

    @property
    def version(self) -> int:
        return self.state.version if self.state is not None else self.record.version

    @property
    def outcome(self) -> Outcome | None:
        return self.game.outcome(self.state) if self.state is not None else None

    def seat(self, seat_id: str) -> SeatInfo | None:
        return self.record.seat(seat_id)

    def table_options(self) -> TableOptions:
        """The options every table has (turn time, computer level and delay)."""
        read, options = self.read_options, self.record.options
        if read is None or read[0] is not options:  # (a record replaced, its options too)
            parsed = TableOptions.model_validate(split_options(options)[1])
            read = self.read_options = (options, parsed)
        return read[1]

    def human_seats(self) -> list[SeatInfo]:
        return [s for s in self.record.seats if not s.is_cpu]


class TableListener(Protocol):
    """What the presentation layer hears.

    Guarantees (``bot/service/notify.py``):
    - every call comes after its change is committed to the database;
    - calls are made outside the table's lock (a slow call never blocks the next move);
    - the calls for one table are made one at a time, in the order of the changes (version
      order); a call starts only after the previous call for that table returned or raised;
    - ``table`` is a frozen copy of the table as of that change (``table.version``, state,
      record and ``last_events`` are that change's), except ``record.message_id``, which is
      current. Meanwhile the live table (``TableRegistry.find(table.id)``) may be newer: a
      presenter that is behind may skip a version whose successor is already known (latest
      wins), never show one out of order. Mutate nothing on it except via the service
      (``set_message`` updates the live table too).
    Calls for different tables run concurrently.
    """

    async def lobby_changed(self, table: Table) -> None: ...

    async def game_changed(
        self, table: Table, events: list[Event], actor: str | None, by_timer: bool
    ) -> None: ...

    async def table_closed(self, table: Table, reason: str) -> None: ...

    async def seat_replaced(self, table: Table, seat_id: str) -> None: ...

    async def seat_changed(self, table: Table, seat_id: str, change: str) -> None:
        """A person's seat changed hands mid-game: ``change`` is "left" or "kicked" (the
        computer plays it now) or "rejoined" (the person plays it again)."""
        ...

    async def rematch_opened(self, finished: Table, rematch: Table) -> None:
        """A rematch of the finished table opened (its "Revancha" is used up)."""
        ...


@dataclass(frozen=True)
class ServiceConfig:
    turn_timeout_seconds: int = 120
    timeouts_before_replacement: int = 3
    cpu_delay_seconds: float = 1.0
    cpu_think_seconds: float = 2.0  # the time budget a searching computer player may use


def first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err.get("loc", ()))
    return f"{where}: {err.get('msg', '')}" if where else str(err.get("msg", ""))
