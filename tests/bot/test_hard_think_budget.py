"""The hidden-card games' hard search gets the table's think time from the presenters, in a form
the worker processes accept (pickled), and plays a legal action with it."""

from __future__ import annotations

import pickle
import time

import pytest

from bot.service.choose import choose_action_text, game_ref
from bot.ui.presenter import presenter_for
from games.amapatolli import GAME as AMAPATOLLI
from games.chupate2 import GAME as CHUPATE2
from games.core import Game
from games.macarena import GAME as MACARENA
from games.maquiavelo import GAME as MAQUIAVELO


@pytest.mark.parametrize("game", [AMAPATOLLI, CHUPATE2, MACARENA, MAQUIAVELO])
def test_think_time_becomes_a_timed_search_budget(game: Game):
    budget = presenter_for(game).ai_kwargs(0.5)["budget"]
    assert budget.seconds == 0.5 and budget.clock is time.monotonic
    assert presenter_for(game).ai_kwargs(2.0)["budget"].iterations > budget.iterations
    assert pickle.loads(pickle.dumps(budget)) == budget


@pytest.mark.parametrize("game", [AMAPATOLLI, CHUPATE2, MACARENA, MAQUIAVELO])
def test_hard_plays_a_legal_action_with_the_budget(game: Game):
    state = game.new(["a", "b"], "think")
    seat = sorted(game.to_act(state))[0]
    legal = [a.encode() for a in game.legal_actions(state, seat)]
    extra = presenter_for(game).ai_kwargs(0.05)
    text = choose_action_text(
        game_ref(game), game.view(state, seat), legal, "hard", "seed", ("cpu", seat, 0), extra
    )
    assert text is not None
    game.apply(state, seat, game.decode_action(text))
