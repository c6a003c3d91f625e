"""The Triple Triad engine (game key ``triad``): rules, payout picks, views and outcome."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.core import Event, Game, IllegalAction, Outcome, rng_for
from games.core.engine import Seat
from games.core.errors import BAD_ACTION, NOT_YOUR_TURN
from games.triad import cards as catalogue
from games.triad.actions import PickCard, PlaceCard, TriadAction, decode_action
from games.triad.options import MAX_REMATCHES, Options
from games.triad.rules import modified_values, resolve
from games.triad.state import InHand, LastMove, OnBoard, RoundResult, TriadState
from games.triad.view import (
    CardFace,
    CellView,
    LastMoveView,
    PickChoice,
    PickView,
    RoundView,
    Transfer,
    TriadView,
)

HAND = catalogue.HAND_SIZE
ELEMENTAL_CELLS = (1, 4)  # Elemental: between 1 and 4 cells get an element (Decision)

# Error codes raised by apply / new (besides the shared ones).
BAD_HAND = "bad_hand"
WRONG_PHASE = "wrong_phase"
BAD_SLOT = "bad_slot"
CARD_MISMATCH = "card_mismatch"
CELL_TAKEN = "cell_taken"
ALREADY_PICKED = "already_picked"
BAD_OPTIONS = "bad_options"


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


def transfers_of(state: TriadState) -> list[tuple[int, int, int]]:
    """The payout of a finished (or picked) game as ``(uid, from_seat, to_seat)`` triples."""
    rule = state.options.payout
    if rule == "directo":
        colour: dict[int, int] = {}
        for placed in state.board:
            if placed is not None:
                colour[placed.uid] = placed.holder
        for seat, hand in enumerate(state.hands):
            for held in hand:
                colour[held.uid] = seat
        out = []
        for uid in range(2 * HAND):
            owner = uid // HAND
            if colour[uid] != owner:
                out.append((uid, owner, colour[uid]))
        return out
    if state.winner is None:
        return []
    loser = 1 - state.winner
    if rule == "todas":
        return [(loser * HAND + i, loser, state.winner) for i in range(HAND)]
    return [(uid, loser, state.winner) for uid in state.picks]


def _flip_event(code: str, seat: Seat, cells: Sequence[int]) -> Event:
    return Event(code=code, seat=seat, params={"cells": list(cells), "count": len(cells)})


class TriadGame(Game[TriadState, TriadAction, TriadView, Options]):
    key = "triad"
    names = {"es": "Triple Triad", "en": "Triple Triad"}
    min_players = 2
    max_players = 2
    options_model = Options
    state_model = TriadState

    # ----- creation -------------------------------------------------------------------------
    def parse_options(self, raw: Any) -> Options:
        try:
            return super().parse_options(raw)
        except ValueError as exc:
            raise IllegalAction(BAD_OPTIONS, reason=str(exc).splitlines()[0]) from exc

    def new(
        self,
        seats: list[Seat],
        seed: str,
        options: Options | dict[str, Any] | None = None,
        *,
        hands: Mapping[Seat, Sequence[str]] | None = None,
        collections: Mapping[Seat, Mapping[str, int]] | None = None,
    ) -> TriadState:
        """A new match. ``hands`` gives each seat's five chosen card ids. Under Mano mezclada
        the five are drawn at random from ``collections`` (card id -> quantity) when given,
        else from the seat's ``hands`` entry (which may then hold more than five). A seat
        with neither gets a seeded deck of catalogue level 3 (handy for tests and benches)."""
        self.check_player_count(seats)
        opts = self.parse_options(options)
        originals: list[list[str]] = []
        for i, seat in enumerate(seats):
            given = list(hands[seat]) if hands and seat in hands else None
            for cid in given or []:
                if not catalogue.is_card(cid):
                    raise IllegalAction(BAD_HAND, seat=seat, card=str(cid))
            if opts.random_hand and collections and seat in collections:
                pool = dict(collections[seat])
                if any(not catalogue.is_card(c) for c in pool):
                    raise IllegalAction(BAD_HAND, seat=seat)
                try:
                    five = catalogue.random_hand(pool, seed, i)
                except ValueError as exc:
                    raise IllegalAction(BAD_HAND, seat=seat) from exc
            elif opts.random_hand and given is not None:
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
        state = TriadState(
            seed=seed,
            seats=list(seats),
            options=opts,
            originals=originals,
            first=0,
            turn=0,
            hands=[
                [InHand(uid=s * HAND + i, card=c) for i, c in enumerate(originals[s])]
                for s in range(2)
            ],
            board=[None] * 9,
            elements=[None] * 9,
        )
        self._start_round(state, 0)
        return state

    def _start_round(self, state: TriadState, round_no: int) -> None:
        state.round = round_no
        state.first = state.turn = first_player(state.seed, round_no)
        state.board = [None] * 9
        state.elements = (
            element_cells(state.seed, round_no) if state.options.elemental else [None] * 9
        )
        state.last_move = None

    # ----- turn structure -------------------------------------------------------------------
    def to_act(self, state: TriadState) -> set[Seat]:
        if state.phase == "play":
            return {state.seats[state.turn]}
        if state.phase == "pick" and state.winner is not None:
            return {state.seats[state.winner]}
        return set()

    def legal_actions(self, state: TriadState, seat: Seat) -> list[TriadAction]:
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
            return [
                PlaceCard(slot=slot, card=state.hands[me][slot].card, cell=cell)
                for slot in slots
                for cell in empty
            ]
        if state.phase == "pick" and me == state.winner:
            loser = 1 - me
            return [
                PickCard(index=i, card=cid)
                for i, cid in enumerate(state.originals[loser])
                if loser * HAND + i not in state.picks
            ]
        return []

    # ----- rules ----------------------------------------------------------------------------
    def _apply(self, state: TriadState, seat: Seat, action: TriadAction) -> list[Event]:
        me = state.seats.index(seat)
        if isinstance(action, PlaceCard):
            return self._place(state, me, action)
        if isinstance(action, PickCard):
            return self._pick(state, me, action)
        raise IllegalAction(BAD_ACTION)

    def _place(self, state: TriadState, me: int, action: PlaceCard) -> list[Event]:
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
        state.board[action.cell] = OnBoard(uid=held.uid, card=held.card, holder=me)
        if held.uid not in state.revealed:
            state.revealed = sorted([*state.revealed, held.uid])
        printed, modified, owner = self.board_arrays(state)
        owner[action.cell] = me
        flips = resolve(action.cell, me, printed, modified, owner, state.options.rule_set)
        for cell in flips.all:
            placed = state.board[cell]
            assert placed is not None
            placed.holder = me
        state.last_move = LastMove(
            seat=me,
            cell=action.cell,
            card=held.card,
            same=list(flips.same),
            plus=list(flips.plus),
            basic=list(flips.basic),
            combo=list(flips.combo),
            same_wall=flips.same_wall,
        )
        events = [
            Event(
                code="placed",
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
        return events + self._end_round(state)

    def _end_round(self, state: TriadState) -> list[Event]:
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
                self._start_round(state, state.round + 1)
                return [
                    Event(
                        code="round_draw",
                        params={
                            "round": state.round - 1,
                            "score": scores[0],
                            "scores": score_params,
                        },
                    ),
                    Event(
                        code="sudden_death",
                        seat=names[state.first],
                        params={"round": state.round, "max": MAX_REMATCHES},
                    ),
                ]
            state.winner = None
            state.phase = "over"
            draw = Event(code="game_draw", params={"score": scores[0], "scores": score_params})
            return [draw] + self._payout_events(state)
        winner = 0 if scores[0] > scores[1] else 1
        state.winner = winner
        events = [
            Event(
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
                Event(
                    code="pick_required",
                    seat=names[winner],
                    params={"count": need, "target": names[1 - winner]},
                )
            ]
        state.phase = "over"
        return events + self._payout_events(state)

    def _pick(self, state: TriadState, me: int, action: PickCard) -> list[Event]:
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
            Event(
                code="picked",
                seat=state.seats[me],
                params={"card": action.card, "target": state.seats[loser]},
            )
        ]
        if len(state.picks) >= state.picks_required:
            state.phase = "over"
            events += self._payout_events(state)
        return events

    def _payout_events(self, state: TriadState) -> list[Event]:
        moves = self._transfer_dicts(state)
        return [
            Event(
                code="payout",
                params={"rule": state.options.payout, "transfers": moves, "count": len(moves)},
            )
        ]

    def _transfer_dicts(self, state: TriadState) -> list[dict[str, Any]]:
        return [
            {
                "card": state.originals[uid // HAND][uid % HAND],
                "uid": uid,
                "from": state.seats[src],
                "to": state.seats[dst],
            }
            for uid, src, dst in transfers_of(state)
        ]

    # ----- helpers --------------------------------------------------------------------------
    @staticmethod
    def board_arrays(state: TriadState) -> tuple[list, list, list[int]]:
        printed: list[tuple[int, int, int, int] | None] = [None] * 9
        modified: list[tuple[int, int, int, int] | None] = [None] * 9
        owner = [-1] * 9
        for c, placed in enumerate(state.board):
            if placed is not None:
                card = catalogue.card(placed.card)
                printed[c] = card.edges
                modified[c] = modified_values(card.edges, state.elements[c], card.element)
                owner[c] = placed.holder
        return printed, modified, owner

    def _face(self, state: TriadState, uid: int, card_id: str, cell: int | None) -> CardFace:
        card = catalogue.card(card_id)
        values = (
            card.edges
            if cell is None
            else modified_values(card.edges, state.elements[cell], card.element)
        )
        return CardFace(
            uid=uid,
            card=card_id,
            level=card.level,
            element=card.element,
            printed=list(card.edges),
            values=list(values),
            owner=state.seats[uid // HAND],
        )

    # ----- information ----------------------------------------------------------------------
    def view(self, state: TriadState, seat: Seat | None) -> TriadView:
        me = state.seats.index(seat) if seat in state.seats else None
        seats = state.seats
        board = []
        for c, placed in enumerate(state.board):
            board.append(
                CellView(
                    cell=c,
                    element=state.elements[c],
                    card=None if placed is None else self._face(state, placed.uid, placed.card, c),
                    holder=None if placed is None else seats[placed.holder],
                )
            )
        hands: dict[Seat, list[CardFace | None]] = {}
        for s in range(2):
            shown = state.options.open or s == me or state.phase == "over"
            hands[seats[s]] = [
                self._face(state, h.uid, h.card, None) if shown or h.uid in state.revealed else None
                for h in state.hands[s]
            ]
        scores = state.scores()
        pick = None
        if state.phase == "pick" and state.winner is not None:
            loser = 1 - state.winner
            pick = PickView(
                winner=seats[state.winner],
                loser=seats[loser],
                required=state.picks_required,
                remaining=state.picks_required - len(state.picks),
                choices=[
                    PickChoice(
                        index=i,
                        face=self._face(state, loser * HAND + i, cid, None),
                        picked=loser * HAND + i in state.picks,
                    )
                    for i, cid in enumerate(state.originals[loser])
                ],
            )
        lm = state.last_move
        return TriadView(
            seat=seat if me is not None else None,
            version=state.version,
            seats=list(seats),
            to_act=sorted(self.to_act(state)),
            finished=state.phase == "over",
            options=state.options,
            phase=state.phase,
            round=state.round,
            max_rematches=MAX_REMATCHES,
            first=seats[state.first],
            turn=seats[state.turn] if state.phase == "play" else None,
            me=me,
            board=board,
            elements=list(state.elements),
            hands=hands,
            hand_counts={seats[s]: len(state.hands[s]) for s in range(2)},
            hands_open=state.options.open,
            scores={seats[0]: scores[0], seats[1]: scores[1]},
            last_move=None
            if lm is None
            else LastMoveView(
                seat=seats[lm.seat],
                cell=lm.cell,
                card=lm.card,
                same=lm.same,
                plus=lm.plus,
                basic=lm.basic,
                combo=lm.combo,
                same_wall=lm.same_wall,
            ),
            history=[
                RoundView(
                    round=r.round,
                    first=seats[r.first],
                    scores={seats[0]: r.scores[0], seats[1]: r.scores[1]},
                )
                for r in state.history
            ],
            pick=pick,
            winner=seats[state.winner] if state.winner is not None else None,
            transfers=[
                Transfer(card=t["card"], uid=t["uid"], from_seat=t["from"], to_seat=t["to"])
                for t in (self._transfer_dicts(state) if state.phase == "over" else [])
            ],
        )

    def outcome(self, state: TriadState) -> Outcome | None:
        if state.phase != "over":
            return None
        seats = state.seats
        scores = state.scores()
        if state.winner is None:
            ranking = [[seats[0], seats[1]]]
        else:
            ranking = [[seats[state.winner]], [seats[1 - state.winner]]]
        return Outcome(
            ranking=ranking,
            points={seats[0]: scores[0], seats[1]: scores[1]},
            details={
                "winner": seats[state.winner] if state.winner is not None else None,
                "scores": {seats[0]: scores[0], seats[1]: scores[1]},
                "rounds": [
                    {
                        "round": r.round,
                        "first": seats[r.first],
                        "scores": {seats[0]: r.scores[0], seats[1]: r.scores[1]},
                    }
                    for r in state.history
                ],
                "payout": state.options.payout,
                "hands": {seats[s]: list(state.originals[s]) for s in range(2)},
                "transfers": self._transfer_dicts(state),
            },
        )

    # ----- text forms -----------------------------------------------------------------------
    def decode_action(self, text: str) -> TriadAction:
        return decode_action(text)

    # ----- computer play --------------------------------------------------------------------
    def choose_action(
        self,
        view: TriadView,
        legal: list[TriadAction],
        level: str,
        rng: random.Random,
        *,
        node_budget: int | None = None,
    ) -> TriadAction | None:
        from games.triad.ai import choose_action

        return choose_action(view, legal, level, rng, node_budget=node_budget)
