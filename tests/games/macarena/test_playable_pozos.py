"""``playable_pozos`` asks the hand's faces as a set: the same pozos as its definition, the pozos
open to the seat on which ``next_options`` (a hand copied and sorted per pozo) finds a card, on
every state of random games, from the state and from each seat's view."""

from __future__ import annotations

import random

from games.macarena import GAME, playable_pozos
from games.macarena.series import _table, next_options


def by_definition(source, seat):
    table = _table(source, seat)
    return [
        i
        for i, top in enumerate(table.tops)
        if table.allowed[i] and next_options(top, table.hand, [])
    ]


def test_playable_pozos_are_those_next_options_finds_a_card_on():
    seats = ["a", "b", "c", "d"]
    compared = playable = 0
    for number in range(6):
        state = GAME.new(seats, f"playable-{number}", None)
        rng = random.Random(number)
        for _ in range(150):
            for seat in seats:
                for source in (state, GAME.view(state, seat)):
                    expected = by_definition(source, seat)
                    assert playable_pozos(source, seat) == expected
                    compared += 1
                    playable += bool(expected)
            movers = sorted(s for s in GAME.to_act(state) if GAME.legal_actions(state, s))
            if not movers or GAME.is_over(state):
                break
            seat = rng.choice(movers)
            state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    assert compared > 1000 and 0 < playable < compared  # both answers were met
