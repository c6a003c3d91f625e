"""Results told whole (issue 31 item 5): a loser with 0 points reads why they placed there."""

from __future__ import annotations

import pytest

from bot.i18n import LOCALES, tr, translator
from bot.ui.presenters.amapatolli import Presenter as AmapatolliPresenter
from bot.ui.presenters.maquiavelo import Presenter as MaquiaveloPresenter
from games.amapatolli import GAME as AMAPATOLLI
from games.amapatolli.view import AmapatolliOutcome
from games.maquiavelo import GAME as MAQUIAVELO
from games.maquiavelo.view import MaquiaveloOutcome
from tests.bot.presenter_kit import text_presenter


def _names(seat: str) -> str:
    return seat.upper()


@pytest.mark.parametrize("locale", LOCALES)
def test_amapatolli_losers_read_what_they_kept_and_the_ranking_rule(locale):
    presenter = text_presenter(AmapatolliPresenter, AMAPATOLLI)
    outcome = AmapatolliOutcome(
        ranking=[["a"], ["b"], ["c", "d"]],
        points={"a": 23, "b": 0, "c": 0, "d": 0},
        reason="out",
        hand_values={"a": 0, "b": 5, "c": 9, "d": 9},
        cards_left={"a": 0, "b": 1, "c": 2, "d": 1},
    )
    lines = presenter.outcome_lines(outcome, _names, translator(locale))
    one = tr(locale, "game.result_hand", count=1, value=5)
    assert lines[1].endswith(one)
    assert "C: " + tr(locale, "game.result_hand", count=2, value=9) in lines[2]
    assert "D: " + tr(locale, "game.result_hand", count=1, value=9) in lines[2]
    assert lines[-1] == tr(locale, "amapatolli.outcome.ranking_rule")
    assert tr(locale, "game.result_hand", count=0, value=0) not in lines[0]  # the winner


def test_maquiavelo_losers_read_cards_then_value():
    presenter = text_presenter(MaquiaveloPresenter, MAQUIAVELO)
    outcome = MaquiaveloOutcome(
        ranking=[["a"], ["b"], ["c"]],
        points={"a": 30, "b": 0, "c": 0},
        reason="out",
        hand_counts={"a": 0, "b": 2, "c": 4},
        hand_values={"a": 0, "b": 12, "c": 18},
    )
    lines = presenter.outcome_lines(outcome, _names, translator("es"))
    assert "le quedan 2 cartas (valor 12)" in lines[1]
    assert "le quedan 4 cartas (valor 18)" in lines[2]
    assert tr("es", "maquiavelo.outcome.ranking_rule") in lines
