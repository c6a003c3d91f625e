"""Chúpate 2's points games: the end of each round as its own section of the table message
(issue 31), like Macarena's: who went out and what it scored, each other hand's cards and
points, each player's (or team's) points this round and in total, and what that decided."""

from __future__ import annotations

import pytest

from bot.i18n import translator
from bot.ui.chupate2.presenter import Presenter
from bot.ui.messages import public_payload
from games.chupate2 import GAME
from tests.bot.presenter_kit import SEAT_IDS, SEAT_NAMES, StubService, table_for, text_presenter
from tests.games.chupate2.helpers import make_state
from tests.message_text import read_card

IDS, NAMES = SEAT_IDS, SEAT_NAMES
PRESENTER = text_presenter(Presenter, GAME)


def _field(state, locale: str, title: str) -> list[str]:
    payload = public_payload(
        table_for(GAME, state, 7), PRESENTER, StubService(), translator(locale)
    )
    fields = [f for f in read_card(payload).fields if f.name == title]
    assert len(fields) == 1, [f.name for f in read_card(payload).fields]
    return fields[0].value.split("\n")


def _solo_round_one():
    hands = {IDS[0]: ["g1a"], IDS[1]: ["y1a"], IDS[2]: ["r9a", "b2a"]}
    state = make_state(hands, "g5a", options={"points": "300"}, direction=1)
    state, _ = GAME.apply(state, IDS[0], GAME.decode_action("p.g1a"))  # 1 + 9 + 2 = 12
    assert GAME.outcome(state) is None and state.round == 2
    return state


def test_a_solo_round_is_scored_whole_in_its_own_section():
    lines = _field(_solo_round_one(), "es", "Puntuación de la ronda 1")
    assert lines == [
        "Ana se quedó sin cartas y se anota los puntos que quedan en las otras manos: 12 puntos.",
        "Valor de las cartas: los números, lo que marcan; +2, Salto y Cambio, 20; comodines, 50.",
        "**Ana**: sin cartas · +12 en esta ronda · 12 puntos en total",
        "**Beto**: le queda 1 carta, que vale 1 punto · +0 en esta ronda · 0 puntos en total",
        "**Carla**: le quedan 2 cartas, que valen 11 puntos · +0 en esta ronda · 0 puntos en total",
        "Nadie ha llegado aún a 300 puntos: se reparte la ronda 2.",
    ]


def test_the_same_section_in_english():
    lines = _field(_solo_round_one(), "en", "Scoring of round 1")
    assert lines[0] == (
        "Ana went out (played their last card) and scores the points left in the other hands:"
        " 12 points."
    )
    assert lines[3] == "**Beto**: 1 card left, worth 1 point · +0 this round · 0 points in total"
    assert lines[-1] == "Nobody has reached 300 points yet: round 2 is dealt."


def test_a_team_game_won_by_its_last_round_says_what_decided_it():
    hands = {IDS[0]: ["g1a"], IDS[1]: ["y1a"], IDS[2]: ["r1a"], IDS[3]: ["b2a", "Wa"]}
    state = make_state(
        hands, "g5a", options={"teams": "pairs", "points": "50"}, team_scores=[0, 0], direction=1
    )
    state, _ = GAME.apply(state, IDS[0], GAME.decode_action("p.g1a"))  # 1 + 52 = 53 (Carla's 1 not)
    assert GAME.outcome(state) is not None
    lines = _field(state, "es", "Puntuación de la ronda 1")
    assert lines[0].startswith("Ana se quedó sin cartas: el equipo 1 se anota")
    assert lines[0].endswith(": 53 puntos.")
    assert "**Carla**: le queda 1 carta, que vale 1 punto (compañero: no cuenta)" in lines
    assert "**Dani**: le quedan 2 cartas, que valen 52 puntos" in lines
    assert "Equipo 1 (Ana, Carla): +53 en esta ronda · 53 puntos en total" in lines
    assert "Equipo 2 (Beto, Dani): +0 en esta ronda · 0 puntos en total" in lines
    assert lines[-1] == "El equipo 1 llega a 53 puntos de los 50 necesarios: fin de la partida."


@pytest.mark.parametrize("options", [{}, {"teams": "pairs"}])
def test_single_round_games_and_unscored_points_games_have_no_section(options):
    state = GAME.new(IDS[:4], "no-summary", options)
    assert PRESENTER.summary(GAME.view(state, None), str, translator("es")) is None
    points = GAME.new(IDS[:3], "no-summary", {"points": "150"})
    assert PRESENTER.summary(GAME.view(points, None), str, translator("es")) is None


def test_six_long_named_players_in_english_stay_within_discord_limits():
    from tests.bot.test_messages import _check_limits

    seats = [f"{n}-with-a-name-as-long-as-discord-allows"[:32] for n in NAMES]
    held = [["g1a"], ["rDa", "Wa"], ["rDb", "Wb"], ["yDa", "Wc"], ["yDb", "Wd"], ["gDa", "Fa"]]
    hands = dict(zip(seats, held, strict=True))
    state = make_state(hands, "g5a", options={"teams": "trios", "points": "300"}, direction=1)
    state, _ = GAME.apply(state, seats[0], GAME.decode_action("p.g1a"))
    tr = translator("en")
    summary = PRESENTER.summary(GAME.view(state, None), str, tr)
    assert summary is not None and len(summary[1]) == 2 + 6 + 2 + 1
    table = table_for(GAME, state, 7)
    _check_limits(public_payload(table, PRESENTER, StubService(), tr))
