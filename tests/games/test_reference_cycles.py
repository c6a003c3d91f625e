"""Searches that make no reference cycle. The bot freezes what survives its collections
(``bot/ops/collector.py``): a cycle still alive at a freeze waits for the next thaw, and a
recursive closure (a function referring to itself through its own cell) is one, with
everything it closes over. Counted with the cyclic collector off: nothing for it to free."""

from __future__ import annotations

import gc
from collections.abc import Callable

from games.macarena.series import enumerate_series
from games.maquiavelo import solver
from tests.games.macarena.helpers import cards
from tests.games.maquiavelo.helpers import F


def _left_for_the_collector(call: Callable[[], object]) -> int:
    gc.collect()
    gc.disable()
    try:
        call()
        return gc.collect()
    finally:
        gc.enable()


def test_the_maquiavelo_solver_leaves_no_reference_cycle():
    hand = F("AS 2S 3S 4S QH KH AH 7C 7D 7S 9D")
    fixed, optional, zeros = [0] * 52, solver.counts_of(hand), [0] * 52

    def solve() -> None:
        assert solver._Problem(fixed, zeros, optional, zeros).solve() > solver.NEG
        assert solver._Problem(fixed, zeros, optional, zeros, mirrored=True).solve() > solver.NEG

    assert _left_for_the_collector(solve) == 0


def test_a_budget_stopped_search_leaves_no_reference_cycle():
    hand = F("AS 2S 3S 4S QH KH AH 7C 7D 7S 9D")
    fixed, optional, zeros = [0] * 52, solver.counts_of(hand), [0] * 52

    def stopped() -> None:
        problem = solver._Problem(fixed, zeros, optional, zeros)
        problem.limit = 5
        try:
            problem.solve()
        except solver._OutOfBudget as stop:
            stop.__traceback__ = None  # (the test's own frame would make one)
        else:
            raise AssertionError("the budget did not stop the search")

    assert _left_for_the_collector(stopped) == 0


def test_macarena_series_enumeration_leaves_no_reference_cycle():
    top = cards("5D")[0]
    hand = cards("6D 7D 6H 5H 4H 8D 5S")
    found: list[list[object]] = []
    assert _left_for_the_collector(lambda: found.extend(enumerate_series(top, hand))) == 0
    assert len(found) > 5  # (a search that found series)
