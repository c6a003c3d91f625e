"""Maquiavelo state: everything the rules need, secrets included (views hide them)."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from games.core.engine import TURN
from games.core.eventlog import LoggedState, OldCodes
from games.core.fast import plain_assignment
from games.maquiavelo.options import Options

LOG_SIZE = 12  # events kept in the state for the views' "last moves"

# The event codes of rows stored before the five games shared one code per shared event
# (session 12, issue 26); ``games.core.eventlog`` renames them on load.
OLD_EVENT_CODES: OldCodes = {"won": "game_won"}


@plain_assignment
class MaquiaveloState(LoggedState):
    """Everything, secrets included; the most recent events are its log (``LoggedState``)."""

    log_size: ClassVar[int] = LOG_SIZE
    log_old_codes: ClassVar[OldCodes] = OLD_EVENT_CODES
    options: Options
    dealer: int
    turn: int = Field(validation_alias=TURN)  # index in seats of the player whose turn it is
    hands: dict[str, list[int]]  # card ids, sorted by suit then rank
    stock: list[int]  # face down; the top is the last element
    helpers: list[int]  # face-up "ayuda" cards (empty without the variant)
    table: list[list[int]]  # melds of card ids, as arranged
    passes: int = 0  # consecutive passes since the stock ran out
    turns: int = 0
    finished: bool = False
    end_reason: Literal["out", "blocked"] | None = None
    winners: list[str] = []
    last_play: list[int] = []  # ids the last play put on the table (helpers included)
