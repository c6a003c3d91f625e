"""The think budget of a searching computer is decided in one place, the table service
(``ComputerTurns.think_budget``): the ``cpu_think_seconds`` setting at the game's ``think_rate``
on the service's clock, in a form the worker processes accept (pickled); with it, ``hard``
plays a legal action in every game."""

from __future__ import annotations

import pickle
import time

import pytest

from bot.registry import load_games
from bot.service import ServiceConfig
from bot.service.choose import choose_action_text, game_ref
from bot.service.cpu import ComputerTurns
from games.core import Budget, Game

GAMES = load_games()


class _Ctx:
    """What ``ComputerTurns.think_budget`` reads of its context."""

    def __init__(self, seconds: float, clock) -> None:
        self.config = ServiceConfig(cpu_think_seconds=seconds)
        self.think_clock = clock

    @property
    def ctx(self):
        return self


def _extra(game: Game, seconds: float, clock=time.monotonic) -> dict:
    return ComputerTurns.think_budget(_Ctx(seconds, clock), game)  # type: ignore[arg-type]


@pytest.mark.parametrize("key", sorted(GAMES))
def test_think_time_becomes_a_timed_core_budget(key):
    game = GAMES[key]
    budget = _extra(game, 0.5)["budget"]
    assert isinstance(budget, Budget) and budget.timed()
    assert budget.seconds == 0.5 and budget.clock is time.monotonic
    assert budget.iterations == max(8, int(0.5 * game.think_rate))
    assert _extra(game, 2.0)["budget"].iterations > budget.iterations
    assert pickle.loads(pickle.dumps(budget)) == budget


@pytest.mark.parametrize("key", sorted(GAMES))
def test_without_a_clock_the_games_fixed_budget_is_kept(key):
    assert _extra(GAMES[key], 0.5, None) == {}


@pytest.mark.parametrize("key", [k for k in sorted(GAMES) if k != "triad"])
def test_hard_plays_a_legal_action_with_the_budget(key):
    game = GAMES[key]
    state = game.new(["a", "b"], "think")
    seat = sorted(game.to_act(state))[0]
    legal = [a.encode() for a in game.legal_actions(state, seat)]
    extra = _extra(game, 0.05)
    text = choose_action_text(
        game_ref(game), game.view(state, seat), legal, "hard", "seed", ("cpu", seat, 0), extra
    )
    assert text is not None
    game.apply(state, seat, game.decode_action(text))
