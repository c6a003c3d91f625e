"""Computer play: legality at every level, no peeking, and ``hard`` exact near the end."""

from __future__ import annotations

import random
from functools import lru_cache

import pytest

from games.triad import GAME, PickCard, PlaceCard
from games.triad.ai import (
    DEFAULT_NODE_BUDGET,
    choose_action,
    node_budget_for,
    position_from_view,
    search_best,
)
from games.triad.cards import card
from games.triad.rules import RuleSet, modified_values, resolve
from tests.games.triad.randomgames import SEATS, random_hands, random_options

# ----- an independent exhaustive search (engine flip rules, no pruning, no AI code) -----------


def exact_value(state, side: int) -> int:
    """Final score difference (``side`` minus the other) under perfect play by both sides."""
    rules = state.options.rule_set
    elements = tuple(state.elements)
    printed0 = tuple(None if p is None else card(p.card).edges for p in state.board)
    modified0 = tuple(
        None
        if p is None
        else modified_values(card(p.card).edges, elements[c], card(p.card).element)
        for c, p in enumerate(state.board)
    )
    owner0 = tuple(-1 if p is None else p.holder for p in state.board)
    hands0 = tuple(tuple(h.card for h in hand) for hand in state.hands)
    return _negamax(printed0, modified0, owner0, hands0, side, rules, elements)


@lru_cache(maxsize=200_000)
def _negamax(printed, modified, owner, hands, side, rules: RuleSet, elements) -> int:
    empties = [c for c in range(9) if owner[c] < 0]
    if not empties:
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


def move_value(state, action: PlaceCard) -> int:
    """Exact value, for the mover, of playing ``action`` in ``state``."""
    rules = state.options.rule_set
    elements = tuple(state.elements)
    printed = tuple(None if p is None else card(p.card).edges for p in state.board)
    modified = tuple(
        None
        if p is None
        else modified_values(card(p.card).edges, elements[c], card(p.card).element)
        for c, p in enumerate(state.board)
    )
    owner = tuple(-1 if p is None else p.holder for p in state.board)
    hands = tuple(tuple(h.card for h in hand) for hand in state.hands)
    return _child_value(
        printed, modified, owner, hands, state.turn, rules, elements, action.slot, action.cell
    )


def random_position(n: int, empties: int):
    """Random open-hands game ``n`` played at random until ``empties`` cells are left."""
    rng = random.Random(10_000 + n)
    options = random_options(rng)
    options.update(open=True, random_hand=False, sudden_death=False)
    state = GAME.new(SEATS, f"ai-{n}", options, hands=random_hands(rng, low_levels=n % 2 == 0))
    while sum(p is None for p in state.board) > empties:
        seat = SEATS[state.turn]
        state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    return state, rng


@pytest.mark.parametrize("empties", [1, 2, 3, 4, 5])
def test_hard_plays_an_optimal_move_with_at_most_five_empty_cells(empties):
    for n in range(60 if empties < 5 else 45):
        state, rng = random_position(n * 7 + empties, empties)
        seat = SEATS[state.turn]
        legal = GAME.legal_actions(state, seat)
        chosen = choose_action(GAME.view(state, seat), legal, "hard", rng)
        assert chosen in legal
        best = max(move_value(state, a) for a in legal)
        assert move_value(state, chosen) == best, (n, empties)
        assert exact_value(state, state.turn) == best


def test_hard_search_reports_the_exact_value():
    for n in range(40):
        state, _ = random_position(500 + n, 5)
        view = GAME.view(state, SEATS[state.turn])
        (slot, cell), value, exact, nodes = search_best(position_from_view(view))
        assert exact and nodes <= DEFAULT_NODE_BUDGET
        assert value == 100 * exact_value(state, state.turn)


def test_hard_with_a_tiny_budget_still_plays_legally():
    state, rng = random_position(3, 9)
    seat = SEATS[state.turn]
    legal = GAME.legal_actions(state, seat)
    for budget in (1, 50, 500):
        assert (
            choose_action(GAME.view(state, seat), legal, "hard", rng, node_budget=budget) in legal
        )


def test_node_budget_from_time():
    assert node_budget_for(2.0) == DEFAULT_NODE_BUDGET
    assert node_budget_for(0.5) < node_budget_for(2.0) < node_budget_for(4.0)


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_every_level_plays_whole_games_legally(level):
    for n in range(6):
        rng = random.Random(n)
        options = random_options(rng)
        state = GAME.new(SEATS, f"lvl-{level}-{n}", options, hands=random_hands(rng))
        while GAME.outcome(state) is None:
            (seat,) = GAME.to_act(state)
            legal = GAME.legal_actions(state, seat)
            action = GAME.choose_action(GAME.view(state, seat), legal, level, rng, node_budget=3000)
            assert action in legal
            state, _ = GAME.apply(state, seat, action)


def test_default_action_is_the_normal_computer():
    state = GAME.new(SEATS, "timeout")
    seat = SEATS[state.turn]
    assert GAME.default_action(state, seat) in GAME.legal_actions(state, seat)


def test_the_computer_picks_the_strongest_card_when_paid():
    from tests.games.triad.test_payout import endgame

    state, _ = endgame({0, 1, 2}, payout="una")
    legal = GAME.legal_actions(state, "ana")
    choice = choose_action(GAME.view(state, "ana"), legal, "hard", random.Random(1))
    assert isinstance(choice, PickCard)
    best = max(legal, key=lambda a: (card(a.card).level, card(a.card).strength))
    assert choice == best
    assert choose_action(GAME.view(state, "bo"), [], "hard", random.Random(1)) is None


def test_the_computer_sees_only_its_view():
    """Two deals that differ only in the opponent's hidden hand give the computer the same view,
    hence the same move."""
    base = ["c030", "c041", "c052", "c063", "c074"]
    for n in range(5):
        a = GAME.new(SEATS, f"hid-{n}", hands={SEATS[0]: base, SEATS[1]: ["c001"] * 5})
        b = GAME.new(SEATS, f"hid-{n}", hands={SEATS[0]: base, SEATS[1]: ["c110"] * 5})
        seat = SEATS[0]
        assert GAME.view(a, seat) == GAME.view(b, seat)
        legal = GAME.legal_actions(a, seat)
        if a.turn == 0:
            ca = choose_action(
                GAME.view(a, seat), legal, "hard", random.Random(n), node_budget=5000
            )
            cb = choose_action(
                GAME.view(b, seat), legal, "hard", random.Random(n), node_budget=5000
            )
            assert ca == cb


def test_hard_beats_random_play():
    wins = losses = 0
    for n in range(16):
        rng = random.Random(200 + n)
        hands = random_hands(rng)
        state = GAME.new(SEATS, f"vs-{n}", {"open": True, "same": n % 2 == 0}, hands=hands)
        while state.phase == "play":
            seat = SEATS[state.turn]
            legal = GAME.legal_actions(state, seat)
            level = "hard" if seat == SEATS[n % 2] else "easy"
            action = choose_action(GAME.view(state, seat), legal, level, rng, node_budget=4000)
            state, _ = GAME.apply(state, seat, action)
        if state.winner is not None:
            if SEATS[state.winner] == SEATS[n % 2]:
                wins += 1
            else:
                losses += 1
    assert wins >= 3 * losses and wins >= 10
