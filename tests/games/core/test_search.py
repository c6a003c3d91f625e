"""The shared determinized Monte-Carlo search (games/core/search.py) on a toy game."""

from __future__ import annotations

import random

import pytest

from games.core.errors import IllegalAction
from games.core.search import Budget, determinized_search

ToyState = tuple[str | None, float]  # (the candidate played, the luck of the world)


class Toy:
    """One decision: candidate ``a`` wins with probability ``odds[a]`` in a world (a uniform
    draw); a rollout is one step long. Counts the worlds it samples."""

    def __init__(self, odds: dict[str, float]) -> None:
        self.odds = odds
        self.worlds = 0

    def determinize(self, view: object, rng: random.Random) -> ToyState:
        self.worlds += 1
        return None, rng.random()

    def done(self, state: ToyState) -> bool:
        return True

    def step(self, state: ToyState, rng: random.Random) -> ToyState:
        raise AssertionError("rollouts of the toy are over at once")

    def play(self, state: ToyState, seat: str, action: str) -> ToyState:
        if action == "illegal":
            raise IllegalAction("bad_action")
        return action, state[1]

    def value(self, state: ToyState, seat: str, finished: bool) -> float:
        action, luck = state
        assert action is not None
        return 1.0 if luck < self.odds[action] else 0.0


def test_finds_the_clearly_better_candidate_and_is_deterministic():
    odds = {"a": 0.3, "b": 0.7, "c": 0.5}
    results = [
        determinized_search(
            Toy(odds), None, "s", ["a", "b", "c"], random.Random(7), Budget(iterations=300)
        )
        for _ in range(2)
    ]
    assert results[0].choice == "b"
    assert [s.visits for s in results[0].stats] == [s.visits for s in results[1].stats]


def test_iteration_budget_is_respected_and_worse_candidates_are_dropped():
    toy = Toy({"a": 0.0, "b": 1.0})
    result = determinized_search(toy, None, "s", ["a", "b"], random.Random(1), Budget(40))
    assert result.iterations <= 40
    assert result.choice == "b"
    assert result.stats[0].visits < 20  # dropped once clearly behind


def test_common_random_numbers_one_world_per_round():
    toy = Toy({"a": 0.5, "b": 0.5, "c": 0.5})
    result = determinized_search(toy, None, "s", ["a", "b", "c"], random.Random(3), Budget(30))
    assert toy.worlds == 10  # every candidate plays each sampled world
    assert {s.mean for s in result.stats} == {result.stats[0].mean}


def test_default_is_kept_unless_clearly_worse():
    equal = Toy({"a": 0.5, "b": 0.5})
    result = determinized_search(
        equal, None, "s", ["a", "b"], random.Random(2), Budget(200), default=1
    )
    assert result.choice == "b"
    worse = Toy({"a": 0.9, "b": 0.1})
    result = determinized_search(
        worse, None, "s", ["a", "b"], random.Random(2), Budget(200), default=1
    )
    assert result.choice == "a"


def test_a_candidate_the_world_refuses_scores_zero():
    toy = Toy({"ok": 0.5, "illegal": 1.0})
    result = determinized_search(toy, None, "s", ["illegal", "ok"], random.Random(4), Budget(60))
    assert result.choice == "ok"


def test_clock_budget_stops_the_search_with_a_fake_clock():
    ticks = iter(range(1000))
    budget = Budget(iterations=10_000, seconds=5.0, clock=lambda: float(next(ticks)))
    result = determinized_search(
        Toy({"a": 0.5, "b": 0.5}), None, "s", ["a", "b"], random.Random(5), budget
    )
    assert result.iterations < 20  # a tick per round: stops after about five rounds


def test_single_candidate_needs_no_search():
    toy = Toy({"a": 1.0})
    assert determinized_search(toy, None, "s", ["a"], random.Random(0), Budget(10)).choice == "a"
    assert toy.worlds == 0
    with pytest.raises(ValueError):
        determinized_search(toy, None, "s", [], random.Random(0), Budget(10))


def test_the_default_stands_until_enough_rounds():
    worse = Toy({"a": 0.9, "b": 0.1})
    few = determinized_search(
        worse, None, "s", ["a", "b"], random.Random(2), Budget(20), default=1, override_rounds=12
    )
    assert few.choice == "b"  # ten rounds: not enough to overrule
    many = determinized_search(
        worse, None, "s", ["a", "b"], random.Random(2), Budget(40), default=1, override_rounds=12
    )
    assert many.choice == "a"
