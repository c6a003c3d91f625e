"""The Triple Triad rules as pure functions: flip resolution, then the match itself.

Flips work on plain data shared by the engine and the computer's search. Cells are numbered 0-8
row by row; sides are 0 top, 1 right, 2 bottom, 3 left. ``printed[c]`` and ``modified[c]`` hold
the (top, right, bottom, left) values of the card on cell ``c`` (``None`` when empty);
``owner[c]`` is the seat index (0/1) whose colour the card shows, or -1 when empty. ``modified``
equals ``printed`` unless the Elemental rule changes a card on an elemental cell.

Resolution reads only the board as it was before the move plus the placed card, and every
decision is a set (never a "first found"), so the result does not depend on the order in which
sides or chained cards are visited: ``order`` lets tests prove that.

The match (``new_state``, ``legal_actions``, ``resolve_action``, ``transfers_of``...) works
on a ``TriadState``: ``resolve_action`` changes the working copy ``Game.apply`` made with ``copy_state``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import NamedTuple

from pydantic import BaseModel, ConfigDict

from games.core import CardTransfer, Event, IllegalAction, Outcome, event, rng_for
from games.core.engine import Seat, opening
from games.core.errors import NOT_YOUR_TURN
from games.core.fast import replace, trusted
from games.triad import cards as catalogue
from games.triad.actions import PickCard, Play, TriadAction
from games.triad.options import MAX_REMATCHES, Options, RuleSet
from games.triad.state import InHand, LastMove, OnBoard, RoundResult, TriadState

TOP, RIGHT, BOTTOM, LEFT = 0, 1, 2, 3
SIDES: tuple[int, ...] = (TOP, RIGHT, BOTTOM, LEFT)
OPPOSITE: tuple[int, ...] = (BOTTOM, LEFT, TOP, RIGHT)
WALL_VALUE = 10  # Pared: the board edge counts as an A for Igual


def _neighbours(cell: int) -> tuple[int, int, int, int]:
    row, col = divmod(cell, 3)
    return (
        cell - 3 if row > 0 else -1,
        cell + 1 if col < 2 else -1,
        cell + 3 if row < 2 else -1,
        cell - 1 if col > 0 else -1,
    )


NEIGHBOURS: tuple[tuple[int, int, int, int], ...] = tuple(_neighbours(c) for c in range(9))


class Flips(NamedTuple):
    """Cells that change colour, by the rule that took them (each sorted, disjoint)."""

    same: tuple[int, ...]  # taken by Igual (Pared included)
    plus: tuple[int, ...]  # taken by Suma and not by Igual
    basic: tuple[int, ...]  # taken by the basic rule only
    combo: tuple[int, ...]  # taken by Cadena
    same_wall: bool  # a wall counted towards an Igual that took cards

    @property
    def all(self) -> tuple[int, ...]:
        return tuple(sorted(self.same + self.plus + self.basic + self.combo))


def elemental_modifier(cell_element: str | None, card_element: str | None) -> int:
    """+1 on the card's own element, -1 on any other element (also for element-less cards)."""
    if cell_element is None:
        return 0
    return 1 if card_element == cell_element else -1


def modified_values(
    printed: Sequence[int], cell_element: str | None, card_element: str | None
) -> tuple[int, int, int, int]:
    delta = elemental_modifier(cell_element, card_element)
    t, r, b, lft = printed
    return (t + delta, r + delta, b + delta, lft + delta)


def resolve(
    cell: int,
    placer: int,
    printed: Sequence[Sequence[int] | None],
    modified: Sequence[Sequence[int] | None],
    owner: Sequence[int],
    rules: RuleSet,
    order: Sequence[int] = SIDES,
    lifo: bool = True,
) -> Flips:
    """The cards that flip when ``placer`` has just put a card on ``cell``.

    The placed card must already be on the board (``printed[cell]``, ``modified[cell]``); ``owner``
    is the ownership before any flip of this move. Nothing is mutated.
    """
    opponent = 1 - placer
    nbs = NEIGHBOURS[cell]
    mine_p = printed[cell]
    assert mine_p is not None and modified[cell] is not None

    same_taken: set[int] = set()
    plus_taken: set[int] = set()
    wall_used = False
    if rules.same:
        matched: list[int] = []
        walls = 0
        for side in order:
            q = nbs[side]
            if q < 0:
                if rules.same_wall and mine_p[side] == WALL_VALUE:
                    walls += 1
            else:
                theirs = printed[q]
                if theirs is not None and mine_p[side] == theirs[OPPOSITE[side]]:
                    matched.append(q)
        if len(matched) + walls >= 2:
            same_taken = {q for q in matched if owner[q] == opponent}
            wall_used = walls > 0 and bool(same_taken)
    if rules.plus:
        by_sum: dict[int, list[int]] = {}
        for side in order:
            q = nbs[side]
            if q >= 0:
                theirs = printed[q]
                if theirs is not None:
                    by_sum.setdefault(mine_p[side] + theirs[OPPOSITE[side]], []).append(q)
        for group in by_sum.values():
            if len(group) >= 2:
                plus_taken.update(q for q in group if owner[q] == opponent)
        plus_taken -= same_taken
    special = same_taken | plus_taken

    def beaten(x: int, side: int, spared: set[int]) -> bool:
        """Whether the card on ``x`` takes its neighbour on ``side`` by the basic rule (an
        opponent's card not in ``spared``)."""
        q = NEIGHBOURS[x][side]
        if q < 0 or owner[q] != opponent or q in spared:
            return False
        attacker, defender = modified[x], modified[q]
        assert attacker is not None and defender is not None
        return attacker[side] > defender[OPPOSITE[side]]

    basic = {nbs[side] for side in order if beaten(cell, side, special)}

    chained: set[int] = set()
    if rules.combo and special:
        taken = special | basic
        frontier = sorted(special)
        while frontier:
            x = frontier.pop() if lifo else frontier.pop(0)
            for side in order:
                if beaten(x, side, taken):
                    q = NEIGHBOURS[x][side]
                    taken.add(q)
                    chained.add(q)
                    frontier.append(q)

    return Flips(
        tuple(sorted(same_taken)),
        tuple(sorted(plus_taken)),
        tuple(sorted(basic)),
        tuple(sorted(chained)),
        wall_used,
    )


# ----- the match --------------------------------------------------------------------------------

HAND = catalogue.HAND_SIZE
ELEMENTAL_CELLS = (1, 4)  # Elemental: between 1 and 4 cells get an element (Decision)

# Error codes raised by apply / new (besides the shared ones).
BAD_HAND = "bad_hand"
WRONG_PHASE = "wrong_phase"
BAD_SLOT = "bad_slot"
CARD_MISMATCH = "card_mismatch"
CELL_TAKEN = "cell_taken"
ALREADY_PICKED = "already_picked"


def element_cells(seed: str, round_no: int) -> list[str | None]:
    """The elements shown by the cells of round ``round_no`` (Elemental), fixed by the seed."""
    rng = rng_for(seed, "elements", round_no)
    count = rng.randint(*ELEMENTAL_CELLS)
    cells = rng.sample(range(9), count)
    out: list[str | None] = [None] * 9
    for c in cells:
        out[c] = rng.choice(catalogue.ELEMENTS)
    return out


def first_player(seed: str, round_no: int) -> int:
    """A random player starts every round (Sudden Death rematches draw again)."""
    return rng_for(seed, "first", round_no).randrange(2)


def deal(
    seats: Sequence[Seat],
    seed: str,
    options: Options,
    hands: Mapping[Seat, Sequence[str]] | None,
    collections: Mapping[Seat, Mapping[str, int]] | None,
) -> list[list[str]]:
    """Each seat's original five card ids (see ``TriadGame.new`` for where they come from)."""
    originals: list[list[str]] = []
    for i, seat in enumerate(seats):
        given = list(hands[seat]) if hands and seat in hands else None
        for cid in given or []:
            if not catalogue.is_card(cid):
                raise IllegalAction(BAD_HAND, seat=seat, card=str(cid))
        if options.random_hand and collections and seat in collections:
            pool = dict(collections[seat])
            if any(not catalogue.is_card(c) for c in pool):
                raise IllegalAction(BAD_HAND, seat=seat)
            try:
                five = catalogue.random_hand(pool, seed, i)
            except ValueError as exc:
                raise IllegalAction(BAD_HAND, seat=seat) from exc
        elif options.random_hand and given is not None:
            if len(given) < HAND:
                raise IllegalAction(BAD_HAND, seat=seat)
            five = rng_for(seed, "random_hand", i).sample(given, HAND)
        elif given is not None:
            if len(given) != HAND:
                raise IllegalAction(BAD_HAND, seat=seat)
            five = given
        else:
            five = catalogue.deck_for_level(3, seed, "seat", i)
        originals.append(five)
    return originals


def new_state(
    seats: Sequence[Seat], seed: str, options: Options, originals: list[list[str]] | None = None
) -> TriadState:
    """The match at its first placement, from each seat's original five (by default a seeded
    level-3 deck each: ``deal`` without chosen hands)."""
    if originals is None:
        originals = deal(seats, seed, options, None, None)
    state = TriadState(
        **opening(seats, seed, options),
        originals=originals,
        first=0,
        turn=0,
        hands=[
            [InHand(uid=s * HAND + i, card=c) for i, c in enumerate(originals[s])] for s in range(2)
        ],
        board=[None] * 9,
        elements=[None] * 9,
    )
    start_round(state, 0)
    return state


def start_round(state: TriadState, round_no: int) -> None:
    state.round = round_no
    state.first = state.turn = first_player(state.seed, round_no)
    state.board = [None] * 9
    state.elements = element_cells(state.seed, round_no) if state.options.elemental else [None] * 9
    state.last_move = None


def copy_state(state: TriadState) -> TriadState:
    """The working copy for ``resolve_action``: new containers for everything it changes in place.

    ``resolve_action`` replaces (never mutates) ``InHand``, ``OnBoard`` (a card that changes
    colour is a new one), ``RoundResult`` and ``LastMove`` values, and ``options`` is frozen, so
    those are shared.
    """
    return replace(
        state,
        {
            "seats": list(state.seats),
            "originals": [list(o) for o in state.originals],
            "hands": [list(h) for h in state.hands],
            "board": list(state.board),  # (its cards are replaced when they flip, see place)
            "elements": list(state.elements),
            "revealed": list(state.revealed),
            "history": list(state.history),
            "picks": list(state.picks),
        },
    )


# ----- turn structure ---------------------------------------------------------------------------


def to_act(state: TriadState) -> set[Seat]:
    if state.phase == "play":
        return {state.seats[state.turn]}
    if state.phase == "pick" and state.winner is not None:
        return {state.seats[state.winner]}
    return set()


def legal_actions(state: TriadState, seat: Seat) -> list[TriadAction]:
    if seat not in state.seats:
        return []
    me = state.seats.index(seat)
    if state.phase == "play" and me == state.turn:
        # Copies of one card from one original owner are interchangeable: list the first.
        empty = [c for c in range(9) if state.board[c] is None]
        seen: set[tuple[str, int]] = set()
        slots = []
        for slot, held in enumerate(state.hands[me]):
            if (held.card, held.uid // HAND) not in seen:
                seen.add((held.card, held.uid // HAND))
                slots.append(slot)
        # Shared frozen values (``_play``): up to 45 moves, asked for several times a move.
        return [
            _play(slot, hand[slot].card, cell)
            for hand in (state.hands[me],)
            for slot in slots
            for cell in empty
        ]
    if state.phase == "pick" and me == state.winner:
        loser = 1 - me
        return [
            trusted(PickCard, {"kind": "pick", "index": i, "card": cid})
            for i, cid in enumerate(state.originals[loser])
            if loser * HAND + i not in state.picks
        ]
    return []


@lru_cache(maxsize=8192)
def _play(slot: int, card: str, cell: int) -> Play:
    """The move, one frozen instance per (slot, card, cell): built ``trusted`` (slots, cards
    and cells come from the state; validating each with a pattern cost ~3 us) and shared.
    Bounded: five slots and nine cells of each catalogue card a hand holds."""
    return trusted(Play, {"kind": "play", "slot": slot, "card": card, "cell": cell})


# ----- moves ------------------------------------------------------------------------------------


def resolve_action(state: TriadState, seat: Seat, action: TriadAction) -> list[Event]:
    """Apply ``action`` by ``seat`` (a seat of the game) to the working copy ``state``, then its
    events into the log (``LoggedState.add_to_log``)."""
    me = state.seats.index(seat)
    events = place(state, me, action) if isinstance(action, Play) else pick(state, me, action)
    state.add_to_log(events)
    return events


def _flip_event(code: str, seat: Seat, cells: Sequence[int]) -> Event:
    return event(code=code, seat=seat, params={"cells": list(cells), "count": len(cells)})


def place(state: TriadState, me: int, action: Play) -> list[Event]:
    if state.phase != "play":
        raise IllegalAction(WRONG_PHASE)
    if me != state.turn:
        raise IllegalAction(NOT_YOUR_TURN)
    hand = state.hands[me]
    if action.slot >= len(hand):
        raise IllegalAction(BAD_SLOT, slot=action.slot)
    if hand[action.slot].card != action.card:
        raise IllegalAction(CARD_MISMATCH, slot=action.slot, card=action.card)
    if state.board[action.cell] is not None:
        raise IllegalAction(CELL_TAKEN, cell=action.cell)
    seat = state.seats[me]
    held = hand.pop(action.slot)
    state.board[action.cell] = trusted(OnBoard, {"uid": held.uid, "card": held.card, "holder": me})
    if held.uid not in state.revealed:
        state.revealed = sorted([*state.revealed, held.uid])
    printed, modified, owner = board_arrays(state)
    owner[action.cell] = me
    flips = resolve(action.cell, me, printed, modified, owner, state.options.rule_set)
    board = state.board
    for cell in flips.all:  # a flipped card is a new value (the board's are shared: copy_state)
        placed = board[cell]
        assert placed is not None
        board[cell] = replace(placed, {"holder": me})
    # (``trusted``: the values of this move, with the fields' types)
    state.last_move = trusted(
        LastMove,
        {
            "seat": me,
            "cell": action.cell,
            "card": held.card,
            "same": list(flips.same),
            "plus": list(flips.plus),
            "basic": list(flips.basic),
            "combo": list(flips.combo),
            "same_wall": flips.same_wall,
        },
    )
    events = [
        event(
            code="played",
            seat=seat,
            params={"card": held.card, "cell": action.cell, "slot": action.slot},
        )
    ]
    if flips.same:
        code = "same_wall" if flips.same_wall else "same"
        events.append(_flip_event(code, seat, flips.same))
    if flips.plus:
        events.append(_flip_event("plus", seat, flips.plus))
    if flips.basic:
        events.append(_flip_event("flipped", seat, flips.basic))
    if flips.combo:
        events.append(_flip_event("combo", seat, flips.combo))
    if any(c is None for c in state.board):
        state.turn = 1 - me
        return events
    return events + end_round(state)


def end_round(state: TriadState) -> list[Event]:
    """The board is full: a Sudden Death rematch, a draw, a win (with picks pending or paid)."""
    scores = state.scores()
    state.history.append(RoundResult(round=state.round, first=state.first, scores=scores))
    names = state.seats
    score_params = {names[0]: scores[0], names[1]: scores[1]}
    if scores[0] == scores[1]:
        if state.options.sudden_death and state.round < MAX_REMATCHES:
            # Hasta la muerte: each side's hand is the five cards of its colour.
            new_hands: list[list[InHand]] = [[], []]
            for placed in state.board:
                assert placed is not None
                new_hands[placed.holder].append(InHand(uid=placed.uid, card=placed.card))
            for s in range(2):
                new_hands[s].extend(state.hands[s])
            state.hands = new_hands
            start_round(state, state.round + 1)
            return [
                event(
                    code="round_draw",
                    params={
                        "round": state.round - 1,
                        "score": scores[0],
                        "scores": score_params,
                    },
                ),
                event(
                    code="sudden_death",
                    seat=names[state.first],
                    params={"round": state.round, "max": MAX_REMATCHES},
                ),
            ]
        state.winner = None
        state.phase = "over"
        draw = event(code="game_draw", params={"score": scores[0], "scores": score_params})
        return [draw, payout_event(state)]
    winner = 0 if scores[0] > scores[1] else 1
    state.winner = winner
    events = [
        event(
            code="game_won",
            seat=names[winner],
            params={
                "winner_score": scores[winner],
                "loser_score": scores[1 - winner],
                "scores": score_params,
            },
        )
    ]
    rule = state.options.payout
    if rule in ("una", "diferencia"):
        need = 1 if rule == "una" else min(HAND, abs(scores[0] - scores[1]))
        state.picks_required = need
        state.phase = "pick"
        return events + [
            event(
                code="pick_required",
                seat=names[winner],
                params={"count": need, "target": names[1 - winner]},
            )
        ]
    state.phase = "over"
    return events + [payout_event(state)]


def pick(state: TriadState, me: int, action: PickCard) -> list[Event]:
    if state.phase != "pick":
        raise IllegalAction(WRONG_PHASE)
    if me != state.winner:
        raise IllegalAction(NOT_YOUR_TURN)
    loser = 1 - me
    if state.originals[loser][action.index] != action.card:
        raise IllegalAction(CARD_MISMATCH, index=action.index, card=action.card)
    uid = loser * HAND + action.index
    if uid in state.picks:
        raise IllegalAction(ALREADY_PICKED, card=action.card)
    state.picks.append(uid)
    events = [
        event(
            code="picked",
            seat=state.seats[me],
            params={"card": action.card, "target": state.seats[loser]},
        )
    ]
    if len(state.picks) >= state.picks_required:
        state.phase = "over"
        events.append(payout_event(state))
    return events


# ----- payout and result ------------------------------------------------------------------------


class Payment(NamedTuple):
    """One card changing owner at the end: ``uid`` tells which of the ten it is."""

    uid: int
    card: str
    giver: Seat
    receiver: Seat


def transfers_of(state: TriadState) -> list[Payment]:
    """The payout of a finished (or fully picked) game."""
    moves: list[tuple[int, int, int]]  # (uid, from seat index, to seat index)
    rule = state.options.payout
    if rule == "directo":
        colour: dict[int, int] = {}
        for placed in state.board:
            if placed is not None:
                colour[placed.uid] = placed.holder
        for seat, hand in enumerate(state.hands):
            for held in hand:
                colour[held.uid] = seat
        moves = [
            (uid, uid // HAND, colour[uid]) for uid in range(2 * HAND) if colour[uid] != uid // HAND
        ]
    elif state.winner is None:
        moves = []
    elif rule == "todas":
        loser = 1 - state.winner
        moves = [(loser * HAND + i, loser, state.winner) for i in range(HAND)]
    else:
        moves = [(uid, 1 - state.winner, state.winner) for uid in state.picks]
    return [
        Payment(uid, state.originals[uid // HAND][uid % HAND], state.seats[src], state.seats[dst])
        for uid, src, dst in moves
    ]


def payout_event(state: TriadState) -> Event:
    moves = [
        {"card": p.card, "uid": p.uid, "from": p.giver, "to": p.receiver}
        for p in transfers_of(state)
    ]
    return event(
        code="payout",
        params={"rule": state.options.payout, "transfers": moves, "count": len(moves)},
    )


def ranking(state: TriadState) -> list[list[Seat]]:
    """Winner first, or both seats together on a draw."""
    seats = state.seats
    if state.winner is None:
        return [[seats[0], seats[1]]]
    return [[seats[state.winner]], [seats[1 - state.winner]]]


# ----- the board as plain arrays ----------------------------------------------------------------

Values = tuple[int, int, int, int]


def board_arrays(state: TriadState) -> tuple[list[Values | None], list[Values | None], list[int]]:
    """``printed``, ``modified`` and ``owner`` of the board, as ``resolve`` reads them."""
    printed: list[Values | None] = [None] * 9
    modified: list[Values | None] = [None] * 9
    owner = [-1] * 9
    for c, placed in enumerate(state.board):
        if placed is not None:
            card = catalogue.card(placed.card)
            printed[c] = card.edges
            modified[c] = modified_values(card.edges, state.elements[c], card.element)
            owner[c] = placed.holder
    return printed, modified, owner


# ----- the outcome ---------------------------------------------------------------------------
class RoundView(BaseModel):
    model_config = ConfigDict(extra="forbid")

    round: int
    first: Seat
    scores: dict[Seat, int]


class TriadOutcome(Outcome):
    """``points`` are the final scores (cards); ``winner`` is None on a draw; ``rounds`` has
    one entry per round played (Sudden Death rematches included)."""

    winner: Seat | None
    scores: dict[Seat, int]
    rounds: list[RoundView]


def rounds_of(state: TriadState) -> list[RoundView]:
    seats = state.seats
    # (``trusted``: the state's values, with the fields' types; every view shows them)
    return [
        trusted(
            RoundView,
            {
                "round": r.round,
                "first": seats[r.first],
                "scores": {seats[0]: r.scores[0], seats[1]: r.scores[1]},
            },
        )
        for r in state.history
    ]


def outcome(state: TriadState) -> TriadOutcome | None:
    """The result once the game is over (after the payout picks); ``None`` before."""
    if not state.finished:
        return None
    seats = state.seats
    scores = state.scores()
    by_seat = {seats[0]: scores[0], seats[1]: scores[1]}
    return TriadOutcome(
        ranking=ranking(state),
        points=dict(by_seat),
        transfers=[
            CardTransfer(card=p.card, giver=p.giver, receiver=p.receiver)
            for p in transfers_of(state)
        ],
        winner=seats[state.winner] if state.winner is not None else None,
        scores=by_seat,
        rounds=rounds_of(state),
    )
