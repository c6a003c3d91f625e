"""What one seat (or the public) may see of a Triple Triad table, and the result of a match."""

from __future__ import annotations

from functools import lru_cache

from pydantic import BaseModel, ConfigDict

from games.core.engine import PlayerView, Seat
from games.core.fast import trusted
from games.triad import cards as catalogue
from games.triad import rules
from games.triad.options import MAX_REMATCHES, Options
from games.triad.rules import RoundView, rounds_of
from games.triad.state import Phase, TriadState


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


# ----- building them from the state -------------------------------------------------------------
# Built with ``trusted`` (no validation: every value comes from the state, with the field's type;
# ``tests/games/test_contract.py`` checks a view is what validating its JSON gives).


def _face(state: TriadState, uid: int, card_id: str, cell: int | None) -> CardFace:
    owner = state.seats[uid // rules.HAND]
    if cell is None:
        return _card_face(uid, card_id, owner, False, None)
    return _card_face(uid, card_id, owner, True, state.elements[cell])


# A face is a pure function of these: built once and shared by the views that show it (a view
# shows ten; nothing changes a view once built). Bounded: five uids a seat, a catalogue card
# each, nine cell elements.
@lru_cache(maxsize=8192)
def _card_face(
    uid: int, card_id: str, owner: Seat, on_board: bool, cell_element: str | None
) -> CardFace:
    card = catalogue.card(card_id)
    values = (
        rules.modified_values(card.edges, cell_element, card.element) if on_board else card.edges
    )
    return trusted(
        CardFace,
        {
            "uid": uid,
            "card": card_id,
            "level": card.level,
            "element": card.element,
            "printed": list(card.edges),
            "values": list(values),
            "owner": owner,
        },
    )


# A cell is a pure function of these, shown alike to every seat: built once and shared by the
# views that show it (as the faces). Bounded: nine cells, their elements, the cards on them.
@lru_cache(maxsize=8192)
def _cell(
    cell: int, element: str | None, uid: int, card_id: str, owner: Seat, holder: Seat
) -> CellView:
    return trusted(
        CellView,
        {
            "cell": cell,
            "element": element,
            "card": _card_face(uid, card_id, owner, True, element),
            "holder": holder,
        },
    )


@lru_cache(maxsize=128)
def _empty_cell(cell: int, element: str | None) -> CellView:
    return trusted(CellView, {"cell": cell, "element": element, "card": None, "holder": None})


def build_view(state: TriadState, seat: Seat | None) -> TriadView:
    """What ``seat`` may see (``None`` or a stranger: the public). Another seat's hand shows
    only the cards already seen on the board, unless Abierto or once the game is over."""
    me = state.seats.index(seat) if seat in state.seats else None
    seats = state.seats
    elements = state.elements
    board = [
        _empty_cell(c, elements[c])
        if placed is None
        else _cell(
            c,
            elements[c],
            placed.uid,
            placed.card,
            seats[placed.uid // rules.HAND],
            seats[placed.holder],
        )
        for c, placed in enumerate(state.board)
    ]
    hands: dict[Seat, list[CardFace | None]] = {}
    for s in range(2):
        shown = state.options.open or s == me or state.finished
        hands[seats[s]] = [
            _face(state, h.uid, h.card, None) if shown or h.uid in state.revealed else None
            for h in state.hands[s]
        ]
    scores = state.scores()
    pick = None
    if state.phase == "pick" and state.winner is not None:
        loser = 1 - state.winner
        pick = trusted(
            PickView,
            {
                "winner": seats[state.winner],
                "loser": seats[loser],
                "required": state.picks_required,
                "remaining": state.picks_required - len(state.picks),
                "choices": [
                    trusted(
                        PickChoice,
                        {
                            "index": i,
                            "face": _face(state, loser * rules.HAND + i, cid, None),
                            "picked": loser * rules.HAND + i in state.picks,
                        },
                    )
                    for i, cid in enumerate(state.originals[loser])
                ],
            },
        )
    lm = state.last_move
    return trusted(
        TriadView,
        {
            "seat": seat if me is not None else None,
            "version": state.version,
            "seats": list(seats),
            "to_act": sorted(rules.to_act(state)),
            "finished": state.finished,
            "options": state.options,
            "phase": state.phase,
            "round": state.round,
            "max_rematches": MAX_REMATCHES,
            "first": seats[state.first],
            "turn": seats[state.turn] if state.phase == "play" else None,
            "me": me,
            "board": board,
            "elements": list(state.elements),
            "hands": hands,
            "hand_counts": {seats[s]: len(state.hands[s]) for s in range(2)},
            "hands_open": state.options.open,
            "scores": {seats[0]: scores[0], seats[1]: scores[1]},
            "last_move": None
            if lm is None
            else trusted(
                LastMoveView,
                {
                    "seat": seats[lm.seat],
                    "cell": lm.cell,
                    "card": lm.card,
                    "same": list(lm.same),
                    "plus": list(lm.plus),
                    "basic": list(lm.basic),
                    "combo": list(lm.combo),
                    "same_wall": lm.same_wall,
                },
            ),
            "history": rounds_of(state),
            "pick": pick,
            "winner": seats[state.winner] if state.winner is not None else None,
            "transfers": [
                trusted(
                    Transfer,
                    {"card": p.card, "uid": p.uid, "from_seat": p.giver, "to_seat": p.receiver},
                )
                for p in (rules.transfers_of(state) if state.finished else [])
            ],
        },
    )
