"""Builders for Triple Triad scenario tests: states put together directly from the spec's
situations (cells 0-8 row by row; sides top, right, bottom, left)."""

from __future__ import annotations

from games.triad import GAME, Play
from games.triad.cards import card
from games.triad.state import InHand, OnBoard, TriadState

SEATS = ["ana", "bo"]


def edges(cid: str) -> tuple[int, int, int, int]:
    return card(cid).edges


def scenario(
    board: dict[int, tuple[str, int, int]],
    hands: dict[int, list[str]],
    turn: int,
    elements: dict[int, str] | None = None,
    seed: str = "scenario",
    **options: object,
) -> TriadState:
    """A state with ``board`` = {cell: (card id, original owner, holder)} and ``hands`` =
    {seat index: card ids}. Each seat's original five are its board cards (cell order) then its
    hand, so every seat must own exactly five cards."""
    originals: list[list[str]] = [[], []]
    placed: dict[int, int] = {}
    for cell in sorted(board):
        cid, owner, _holder = board[cell]
        placed[cell] = owner * 5 + len(originals[owner])
        originals[owner].append(cid)
    hand_uids: list[list[int]] = [[], []]
    for s in (0, 1):
        for cid in hands.get(s, []):
            hand_uids[s].append(s * 5 + len(originals[s]))
            originals[s].append(cid)
    assert [len(o) for o in originals] == [5, 5], originals
    state = GAME.new(SEATS, seed, options, hands={SEATS[0]: originals[0], SEATS[1]: originals[1]})
    state.board = [None] * 9
    for cell, (cid, _owner, holder) in board.items():
        state.board[cell] = OnBoard(uid=placed[cell], card=cid, holder=holder)
    state.hands = [[InHand(uid=u, card=originals[s][u % 5]) for u in hand_uids[s]] for s in (0, 1)]
    state.elements = [None] * 9
    for cell, element in (elements or {}).items():
        state.elements[cell] = element
    state.turn = turn
    state.revealed = sorted(p.uid for p in state.board if p is not None)
    return state


def place(state: TriadState, cid: str, cell: int):
    """Apply the placement of card ``cid`` (from the hand of the seat to move) on ``cell``."""
    seat_index = state.turn
    slot = [h.card for h in state.hands[seat_index]].index(cid)
    return GAME.apply(state, SEATS[seat_index], Play(slot=slot, card=cid, cell=cell))


def holders(state: TriadState) -> list[int | None]:
    return [None if p is None else p.holder for p in state.board]
