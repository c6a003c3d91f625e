"""The compiled search (``games.triad.compiled``, numba) against the pure-Python one and the
independent exhaustive solver.

- Flips: ``kernel.flips`` takes the cells the engine's ``apply`` flips, for every legal
  placement of random positions (every rule mix, Elemental boards).
- Values: the same exact value as ``tests/games/triad/solver.Solver`` on random positions of every rule set the
  game offers, from one empty cell up to the first move; from six empty cells down also the
  independent solver's; the returned move reaches that value (solving its position again).
- ``move_scores``, node and clock budgets, identical cards: ``test_search.py`` runs those tests
  on both searches.

The kernel is compiled once per machine (numba's disk cache), then loaded in well under a
second.
"""

from __future__ import annotations

import itertools
import random
import subprocess
import sys
from pathlib import Path

import pytest

from games.triad import GAME
from games.triad import kernel as k
from games.triad.compiled import CompiledSolver, warm_up
from games.triad.search import Allowance
from tests.games.triad.randomgames import CARD_IDS, SEATS, rule_sets
from tests.games.triad.reference import exact_value, problem_of, random_position
from tests.games.triad.solver import Solver


def played_to(rules: dict[str, bool], n: int, empties: int):
    """An open-hands round under ``rules``, played at random down to ``empties`` empty cells."""
    rng = random.Random(90_000 + n)
    hands = {s: rng.sample(CARD_IDS, 5) for s in SEATS}
    state = GAME.new(SEATS, f"compiled-{n}", {"open": True, **rules}, hands=hands)
    while sum(p is None for p in state.board) > empties:
        seat = SEATS[state.turn]
        state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    return state


def test_there_are_22_rule_sets():
    assert len(rule_sets()) == 22


def test_warm_up_compiles_the_entry_points_python_calls():
    """(Loaded from the disk cache, ``root_pass`` carries the functions it calls.)"""
    warm_up()
    assert k.root_pass.signatures and k.flips.signatures and k.final_value.signatures


NO_CACHE_DIR = """
import numba.core.caching as caching
caching.CacheImpl._locator_classes = []  # as if no directory were writable
from games.triad import kernel
from games.triad.compiled import warm_up
warm_up()
print(type(kernel.root_pass._cache).__name__)
"""


def test_without_a_writable_cache_directory_the_kernel_compiles_uncached():
    """numba refuses ``cache=True`` when it finds nowhere to write (a read-only install with
    no home directory); the kernel then compiles in the process (in a fresh one here)."""
    root = Path(__file__).resolve().parents[3]
    done = subprocess.run(
        [sys.executable, "-c", NO_CACHE_DIR], cwd=root, capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["NullCache"]


def test_flips_are_the_engines_for_every_placement_of_random_positions():
    checked = 0
    for n in range(200):
        state, _rng = random_position(n, n % 8 + 1)
        seat = SEATS[state.turn]
        solver = CompiledSolver(problem_of(state))
        kb, owner, occ, _hands, side = solver.root
        opp = occ & ~owner if side == 0 else owner
        base = len(state.hands[0]) if side == 1 else 0
        for action in GAME.legal_actions(state, seat):
            after, _ = GAME.apply(state, seat, action)
            lm = after.last_move
            assert lm is not None
            kind = solver.kind_of[base + action.slot]
            taken = int(k.flips(solver.ws, action.cell, kind, kb, opp))
            engine = set(lm.same + lm.plus + lm.basic + lm.combo)
            assert {c for c in range(9) if taken >> c & 1} == engine, (n, action)
            checked += 1
    assert checked >= 2000


@pytest.mark.parametrize("rules", list(rule_sets().values()), ids=list(rule_sets()))
def test_values_are_the_python_searchs_under_every_rule_set(rules):
    for n, empties in itertools.product(range(6), (1, 2, 3, 4, 5, 6, 7)):
        state = played_to(rules, n * 10 + empties, empties)
        problem = problem_of(state)
        result = CompiledSolver(problem).solve(Allowance())
        assert result.exact
        assert result.value == Solver(problem).solve(Allowance()).value, (n, empties)
        if empties <= 5:
            assert result.value == exact_value(state, state.turn), (n, empties)


def test_values_against_the_independent_solver_on_random_rule_mixes():
    for n, empties in itertools.product(range(30), (2, 3, 4, 5)):
        state, _ = random_position(70_000 + n * 7 + empties, empties)
        result = CompiledSolver(problem_of(state)).solve(Allowance())
        assert result.exact and result.value == exact_value(state, state.turn), (n, empties)


FIRST_MOVE_RULES = (
    {},
    {"plus": True, "combo": True},
    {"same": True, "same_wall": True, "plus": True, "combo": True, "elemental": True},
)


@pytest.mark.parametrize("rules", FIRST_MOVE_RULES, ids=["basic", "plus_combo", "all_rules"])
def test_the_first_move_is_exact_and_its_move_reaches_the_value(rules):
    """Ply 0 (nine empty cells, five cards each) and ply 1: the value is the pure-Python
    search's (ply 1) and replaying the returned move gives the opponent minus that value."""
    for n in range(3):
        state = played_to(rules, 500 + n, 9)
        for _ply in range(2):
            result = CompiledSolver(problem_of(state)).solve(Allowance())
            assert result.exact and result.value % 2 == 0 and -10 <= result.value <= 10
            if _ply == 1:
                assert result.value == Solver(problem_of(state)).solve(Allowance()).value
            seat = SEATS[state.turn]
            action = next(
                a
                for a in GAME.legal_actions(state, seat)
                if a.slot == result.move.side_slot and a.cell == result.move.cell
            )
            after, _ = GAME.apply(state, seat, action)
            reply = CompiledSolver(problem_of(after)).solve(Allowance())
            assert reply.exact and -reply.value == result.value
            state = after
