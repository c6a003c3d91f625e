"""A waited seat's legal plays (``rules.legal_actions`` in the play phase) are the first card of
each series ``next_options`` offers on every pozo it may play on, pozo by pozo in a hand's order:
the hand is read once for all pozos (``series.first_of_each_face``), and lists what it listed."""

from __future__ import annotations

import random

from games.core.actions import Pass
from games.macarena import GAME
from games.macarena.actions import Play
from games.macarena.series import next_options
from games.macarena.state import POZOS
from games.macarena.turns import may_play_on


def _by_next_options(state, seat) -> list:
    plays = [Pass()]
    for pozo in range(POZOS):
        if may_play_on(state, seat, pozo):
            for card in next_options(state.pozos[pozo][-1], state.hands[seat], []):
                plays.append(Play(pozo=pozo, cards=(card.code,)))
    return plays


def test_the_legal_plays_are_next_options_first_cards_on_every_pozo_allowed():
    checked = 0
    for number in range(6):
        seats = ["a", "b", "c"][: 2 + number % 2]
        state = GAME.new(seats, f"legal-plays-{number}")
        rng = random.Random(number)
        while not GAME.is_over(state) and checked < 300 * (number + 1):
            seat = sorted(GAME.to_act(state))[0]
            legal = GAME.legal_actions(state, seat)
            if state.phase == "play":
                assert [a.encode() for a in legal] == [
                    a.encode() for a in _by_next_options(state, seat)
                ]
                checked += 1
            state, _ = GAME.apply(state, seat, rng.choice(legal))
    assert checked >= 600
