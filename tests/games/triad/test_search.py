"""The exact search (``games.triad.search``) models the engine's flips and finds exact values.

- Flips: on positions of random games (every rule variant, Elemental boards), the cells the
  search takes for a placement are the ones the engine's own ``apply`` flips.
- Values: against an independent exhaustive solver (``tests/games/triad/reference.py``: the
  engine's ``resolve``, no pruning, no search code), on random positions with every rule mix.
- Allowance: node and clock budgets stop the search; the move found is then still legal.

The tests marked ``both_searches`` also run on the compiled search (``games.triad.compiled``,
whose values are checked against this one in ``test_compiled.py``).
"""

from __future__ import annotations

import itertools
import random

import pytest

from games.triad import GAME
from games.triad.ai import problem_from_view
from games.triad.compiled import CompiledSolver
from games.triad.search import Allowance
from tests.games.triad.randomgames import CARD_IDS, SEATS, random_game
from tests.games.triad.reference import exact_value, move_value, problem_of, random_position
from tests.games.triad.solver import Solver

# Each search: how many nodes it may spend past a node budget (the Python search checks the
# budget every 2,000 nodes), and at most before a fake clock's two seconds stop it (the
# compiled one reads the clock between slices of 4,096 nodes or more).
SEARCHES = {"python": (Solver, 2_000, 10_000), "compiled": (CompiledSolver, 0, 3 * 4_096)}
both_searches = pytest.mark.parametrize(
    "solver, overrun, clock_nodes", list(SEARCHES.values()), ids=list(SEARCHES)
)


def test_search_flips_are_the_engines_on_random_games():
    checked = 0
    for n in range(400):
        g = random_game(7_000 + n, low_levels=n % 3 == 0)
        for (before, after), (_seat, action) in zip(
            itertools.pairwise(g.states), g.moves, strict=True
        ):
            if before.phase != "play" or after.round != before.round:
                continue  # a round's last placement: a rematch board (no last move) follows
            solver = Solver(problem_of(before))
            taken, _values, _occ = solver.placement(action.slot, action.cell)
            lm = after.last_move
            assert lm is not None and lm.cell == action.cell
            engine = set(lm.same + lm.plus + lm.basic + lm.combo)
            assert {c for c in range(9) if taken >> c & 1} == engine, (n, before.version)
            checked += 1
    assert checked >= 3000


def test_search_flips_match_every_placement_of_random_positions():
    """Every legal placement (not only the ones played) of positions mid-round."""
    checked = 0
    for n in range(150):
        state, _rng = random_position(n, n % 8 + 1)
        seat = SEATS[state.turn]
        solver = Solver(problem_of(state))
        for action in GAME.legal_actions(state, seat):
            after, _ = GAME.apply(state, seat, action)
            lm = after.last_move
            assert lm is not None
            taken, _values, _occ = solver.placement(action.slot, action.cell)
            assert {c for c in range(9) if taken >> c & 1} == set(
                lm.same + lm.plus + lm.basic + lm.combo
            )
            checked += 1
    assert checked >= 2000


@pytest.mark.parametrize("empties", [1, 2, 3, 4, 5, 6])
def test_solve_is_exact_against_the_independent_solver(empties):
    count = {6: 4, 5: 20}.get(empties, 50)
    for n in range(count):
        state, _ = random_position(20_000 + n * 11 + empties, empties)
        result = Solver(problem_of(state)).solve(Allowance())
        assert result.exact
        assert result.value == exact_value(state, state.turn), (n, empties)


@both_searches
def test_move_scores_are_exact_for_optimal_moves_and_bounds_for_the_others(
    solver, overrun, clock_nodes
):
    for n in range(40):
        state, _ = random_position(31_000 + n, 4 + n % 2)
        seat = SEATS[state.turn]
        scores, complete = solver(problem_of(state)).move_scores(Allowance())
        assert complete
        best = exact_value(state, state.turn)
        assert max(scores.values()) == best
        for action in GAME.legal_actions(state, seat):
            truth = move_value(state, action)
            score = next(
                v
                for m, v in scores.items()
                if m.cell == action.cell
                and (state.hands[state.turn][m.side_slot].card == action.card)
            )
            if truth == best:
                assert score == best
            else:
                assert truth <= score < best


@both_searches
def test_a_node_budget_stops_the_search_with_a_legal_move(solver, overrun, clock_nodes):
    state, _ = random_position(3, 9)
    seat = SEATS[state.turn]
    legal = {(a.slot, a.cell) for a in GAME.legal_actions(state, seat)}
    for nodes in (1, 100, 5_000):
        budget = Allowance(nodes=nodes)
        result = solver(problem_of(state)).solve(budget)
        assert not result.exact
        assert (result.move.side_slot, result.move.cell) in legal
        assert budget.spent <= nodes + overrun


@both_searches
def test_a_clock_budget_stops_the_search(solver, overrun, clock_nodes):
    """A fake clock that advances one second per reading: a two-second budget stops the search
    after its second look at the clock, whatever the machine's speed."""
    ticks = itertools.count()
    budget = Allowance(seconds=2.0, clock=lambda: float(next(ticks)))
    state, _ = random_position(4, 9)
    result = solver(problem_of(state)).solve(budget)
    assert not result.exact and budget.exhausted()
    assert budget.spent <= clock_nodes


def test_a_time_budget_needs_a_clock():
    with pytest.raises(ValueError):
        Allowance(seconds=1.0)


def test_the_view_and_the_state_give_the_same_problem_under_abierto():
    for n in range(30):
        state, _ = random_position(40_000 + n, n % 9 + 1)
        view = GAME.view(state, SEATS[state.turn])
        assert problem_from_view(view) == problem_of(state)


@both_searches
def test_identical_cards_are_searched_once_per_hand(solver, overrun, clock_nodes):
    state = GAME.new(
        SEATS,
        "dups",
        {"open": True},
        hands={SEATS[0]: ["c001"] * 5, SEATS[1]: ["c002", "c002", "c003", "c003", "c004"]},
    )
    moves = solver(problem_of(state)).root_moves()
    distinct = 1 if state.turn == 0 else 3
    assert len(moves) == 9 * distinct
    random.Random(0).shuffle(moves)  # nothing depends on the order of the list


FIRST_MOVE_RULES = (
    {},
    {"plus": True, "combo": True},
    {"same": True, "same_wall": True, "plus": True, "combo": True, "elemental": True},
)


@pytest.mark.parametrize("rules", FIRST_MOVE_RULES, ids=["basic", "plus_combo", "all_rules"])
def test_the_first_move_is_solved_exactly_within_a_node_budget(rules):
    """Ply 0 under Abierto (nine empty cells, five cards each): the exact solve ends well
    within 1,000,000 nodes, and its value is a possible final score difference, reached by
    the move it returns (checked by solving that move's position again)."""
    for n in range(2):
        rng = random.Random(60_000 + n)
        hands = {s: rng.sample(CARD_IDS, 5) for s in SEATS}
        state = GAME.new(SEATS, f"first-{n}", {"open": True, **rules}, hands=hands)
        budget = Allowance(nodes=1_000_000)
        result = Solver(problem_of(state)).solve(budget)
        assert result.exact and result.value % 2 == 0 and -10 <= result.value <= 10
        seat = SEATS[state.turn]
        action = next(
            a
            for a in GAME.legal_actions(state, seat)
            if a.slot == result.move.side_slot and a.cell == result.move.cell
        )
        after, _ = GAME.apply(state, seat, action)
        reply = Solver(problem_of(after)).solve(Allowance(nodes=1_000_000))
        assert reply.exact and -reply.value == result.value
