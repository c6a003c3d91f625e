"""The Triple Triad state: plain pydantic data that round-trips through JSON exactly.

Every card in play has a ``uid`` (0-9) fixed at creation: ``uid // 5`` is the seat index of its
original owner and ``uid % 5`` its position in that seat's original five. Sudden Death rematches
move cards between hands, and the uid still tells whom a card belongs to for the payout.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from games.core.eventlog import LoggedState, OldCodes
from games.core.fast import plain_assignment
from games.triad.options import Options

Phase = Literal["play", "pick", "over"]
LOG_SIZE = 24  # events kept in the state for the views' "last moves"


class InHand(BaseModel):
    model_config = ConfigDict(extra="forbid")

    uid: int = Field(ge=0, le=9)
    card: str


class OnBoard(BaseModel):
    model_config = ConfigDict(extra="forbid")

    uid: int = Field(ge=0, le=9)
    card: str
    holder: int = Field(ge=0, le=1)  # the seat index whose colour it shows


class LastMove(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seat: int
    cell: int
    card: str
    same: list[int] = Field(default_factory=list)
    plus: list[int] = Field(default_factory=list)
    basic: list[int] = Field(default_factory=list)
    combo: list[int] = Field(default_factory=list)
    same_wall: bool = False


class RoundResult(BaseModel):
    model_config = ConfigDict(extra="forbid")

    round: int
    first: int
    scores: list[int]


# The event codes of rows stored before the five games shared one code per shared event
# (session 12, issue 26); ``games.core.eventlog`` renames them on load.
OLD_EVENT_CODES: OldCodes = {"placed": "played"}


@plain_assignment
class TriadState(LoggedState):
    """Everything, secrets included; the latest events are its log (``LoggedState``; rows
    stored before session 11 have none and load with an empty one)."""

    log_size: ClassVar[int] = LOG_SIZE
    log_old_codes: ClassVar[OldCodes] = OLD_EVENT_CODES
    options: Options
    originals: list[list[str]]  # the five card ids each seat brought (uid = seat * 5 + index)
    round: int = 0  # 0 = the match, 1-5 = Sudden Death rematches
    first: int  # seat index that started this round
    turn: int  # seat index to place next (meaningless once phase != "play")
    hands: list[list[InHand]]
    board: list[OnBoard | None]
    elements: list[str | None]
    revealed: list[int] = Field(default_factory=list)  # uids that have been seen on the board
    history: list[RoundResult] = Field(default_factory=list)
    phase: Phase = "play"
    winner: int | None = None  # seat index once decided (None: draw or still playing)
    picks_required: int = 0
    picks: list[int] = Field(default_factory=list)  # uids the winner took (Una / Diferencia)
    last_move: LastMove | None = None

    @property
    def finished(self) -> bool:
        """Whether the game has ended (every state answers ``finished``; here the phase machine's
        last phase, ``over``, says it)."""
        return self.phase == "over"

    def scores(self) -> list[int]:
        """Cards of each colour on the board plus cards still in hand (always summing to 10)."""
        s = [len(self.hands[0]), len(self.hands[1])]
        for placed in self.board:
            if placed is not None:
                s[placed.holder] += 1
        return s
