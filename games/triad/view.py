"""What one seat (or the public) may see of a Triple Triad table."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from games.core.engine import PlayerView, Seat
from games.triad.options import Options
from games.triad.state import Phase


class CardFace(BaseModel):
    """A card as shown: ``printed`` are the catalogue values (top, right, bottom, left);
    ``values`` the ones in force (Elemental-modified on an elemental cell, else = printed)."""

    model_config = ConfigDict(extra="forbid")

    uid: int
    card: str
    level: int
    element: str | None
    printed: list[int]
    values: list[int]
    owner: Seat  # original owner (whose collection it comes from)


class CellView(BaseModel):
    model_config = ConfigDict(extra="forbid")

    cell: int
    element: str | None  # Elemental: the cell's element
    card: CardFace | None
    holder: Seat | None  # the colour it shows


class LastMoveView(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seat: Seat
    cell: int
    card: str
    same: list[int]
    plus: list[int]
    basic: list[int]
    combo: list[int]
    same_wall: bool


class RoundView(BaseModel):
    model_config = ConfigDict(extra="forbid")

    round: int
    first: Seat
    scores: dict[Seat, int]


class PickChoice(BaseModel):
    model_config = ConfigDict(extra="forbid")

    index: int  # the pick action's index into the loser's original five
    face: CardFace
    picked: bool


class PickView(BaseModel):
    """Payout pending: the winner must take ``remaining`` more of the loser's cards."""

    model_config = ConfigDict(extra="forbid")

    winner: Seat
    loser: Seat
    required: int
    remaining: int
    choices: list[PickChoice]


class Transfer(BaseModel):
    model_config = ConfigDict(extra="forbid")

    card: str
    uid: int
    from_seat: Seat
    to_seat: Seat


class TriadView(PlayerView):
    options: Options
    phase: Phase
    round: int  # 0 = the match, 1..max_rematches = Sudden Death rematches
    max_rematches: int
    first: Seat
    turn: Seat | None
    me: int | None  # index of the viewing seat in ``seats`` (None for the public)
    board: list[CellView]
    elements: list[str | None]
    hands: dict[Seat, list[CardFace | None]]  # None entries are hidden cards
    hand_counts: dict[Seat, int]
    hands_open: bool  # Abierto
    scores: dict[Seat, int]
    last_move: LastMoveView | None
    history: list[RoundView]
    pick: PickView | None
    winner: Seat | None
    transfers: list[Transfer]  # once finished: the payout
