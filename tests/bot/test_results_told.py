"""Results told whole (issue 31 item 5): a loser with 0 points reads why they placed there."""

from __future__ import annotations

import pytest

from bot.i18n import LOCALES, tr, translator
from bot.ui.amapatolli.presenter import Presenter as AmapatolliPresenter
from bot.ui.maquiavelo.presenter import Presenter as MaquiaveloPresenter
from games.amapatolli import GAME as AMAPATOLLI
from games.amapatolli.rules import AmapatolliOutcome
from games.maquiavelo import GAME as MAQUIAVELO
from games.maquiavelo.view import MaquiaveloOutcome
from tests.bot.presenter_kit import text_presenter
from tests.message_text import read_card


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


def test_a_move_the_computer_made_for_a_person_out_of_time_is_labelled():
    """Issue 31: a computer-played turn says so in the last moves."""
    from bot.ui.messages import public_payload
    from tests.bot.presenter_kit import SEAT_IDS, SEAT_NAMES, StubService, table_for

    presenter = text_presenter(AmapatolliPresenter, AMAPATOLLI)
    state = AMAPATOLLI.new(SEAT_IDS[:2], "timer-label")
    seat = sorted(AMAPATOLLI.to_act(state))[0]
    state, events = AMAPATOLLI.apply(state, seat, AMAPATOLLI.default_action(state, seat))
    table = table_for(AMAPATOLLI, state, 5)
    table.last_events, table.last_actor = events, seat
    name = SEAT_NAMES[SEAT_IDS.index(seat)]
    label = tr("es", "table.played_by_timer", player=name)

    def last_moves() -> str:
        embed = read_card(public_payload(table, presenter, StubService(), translator("es")))
        return "\n".join(f.value for f in embed.fields if f.name == "Últimas jugadas")

    assert label not in last_moves()
    table.last_by_timer = True
    assert label in last_moves()
