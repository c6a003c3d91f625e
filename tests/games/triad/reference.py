"""An independent exhaustive Triple Triad solver for checking the ``hard`` search.

It shares nothing with ``games.triad.search``: plain negamax over every (card, cell), no pruning,
memoised on the whole position, with the engine's own ``rules.resolve`` for flips. Also the
state -> ``search.Problem`` conversion that tests use, and random positions to check on.
"""

from __future__ import annotations

import random
from functools import lru_cache

from games.triad import GAME, Play
from games.triad.cards import card
from games.triad.rules import RuleSet, modified_values, resolve
from games.triad.search import Card, Problem
from games.triad.state import TriadState
from tests.games.triad.randomgames import SEATS, random_hands, random_options


def exact_value(state: TriadState, side: int) -> int:
    """Final score difference (``side`` minus the other) under perfect play by both sides."""
    return _negamax(*_position(state), side, state.options.rule_set, tuple(state.elements))


def move_value(state: TriadState, action: Play) -> int:
    """Exact value, for the mover, of playing ``action`` in ``state``."""
    printed, modified, owner, hands = _position(state)
    rules = state.options.rule_set
    elements = tuple(state.elements)
    return _child_value(
        printed, modified, owner, hands, state.turn, rules, elements, action.slot, action.cell
    )


def _position(state: TriadState):
    elements = state.elements
    printed = tuple(None if p is None else card(p.card).edges for p in state.board)
    modified = tuple(
        None
        if p is None
        else modified_values(card(p.card).edges, elements[c], card(p.card).element)
        for c, p in enumerate(state.board)
    )
    owner = tuple(-1 if p is None else p.holder for p in state.board)
    hands = tuple(tuple(h.card for h in hand) for hand in state.hands)
    return printed, modified, owner, hands


@lru_cache(maxsize=400_000)
def _negamax(printed, modified, owner, hands, side, rules: RuleSet, elements) -> int:
    empties = [c for c in range(9) if owner[c] < 0]
    if not empties or not hands[side]:
        mine = sum(1 for o in owner if o == side) + len(hands[side])
        theirs = sum(1 for o in owner if o == 1 - side) + len(hands[1 - side])
        return mine - theirs
    return max(
        _child_value(printed, modified, owner, hands, side, rules, elements, slot, cell)
        for slot in range(len(hands[side]))
        for cell in empties
    )


def _child_value(printed, modified, owner, hands, side, rules, elements, slot, cell) -> int:
    cid = hands[side][slot]
    c = card(cid)
    p = list(printed)
    m = list(modified)
    o = list(owner)
    p[cell] = c.edges
    m[cell] = modified_values(c.edges, elements[cell], c.element)
    o[cell] = side
    for q in resolve(cell, side, p, m, o, rules).all:
        o[q] = side
    hs = list(hands)
    hs[side] = hands[side][:slot] + hands[side][slot + 1 :]
    return -_negamax(tuple(p), tuple(m), tuple(o), tuple(hs), 1 - side, rules, elements)


def problem_of(state: TriadState) -> Problem:
    """The full-information ``Problem`` of ``state`` (both hands read from the state)."""

    def card_of(cid: str) -> Card:
        c = card(cid)
        return Card(c.edges, c.element)

    board = [None if p is None else (card_of(p.card), p.holder) for p in state.board]
    hands = [[card_of(h.card) for h in hand] for hand in state.hands]
    return Problem(board, hands, state.turn, list(state.elements), state.options.rule_set)


def random_position(n: int, empties: int):
    """Random open-hands game ``n`` (random rules) played at random until ``empties`` cells
    are left; also the generator, for the computer's choices."""
    rng = random.Random(10_000 + n)
    options = random_options(rng)
    options.update(open=True, random_hand=False, sudden_death=False)
    state = GAME.new(SEATS, f"ai-{n}", options, hands=random_hands(rng, low_levels=n % 2 == 0))
    while sum(p is None for p in state.board) > empties:
        seat = SEATS[state.turn]
        state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    return state, rng
