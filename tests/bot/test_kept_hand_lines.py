"""Chúpate 2's hand lines are kept per hand and language (``bot/ui/chupate2/presenter.py``,
issue 29): what is kept reads as what is written afresh, in every language and for every seat
of a game move after move, and a seat's private message shows its own hand only however warm
the kept lines are."""

from __future__ import annotations

import random
from functools import partial

from bot.i18n import LOCALES, translator
from bot.registry import load_games
from bot.ui.chupate2 import presenter as chupate2
from bot.ui.messages import private_payload
from tests.bot.presenter_kit import table_for
from tests.message_text import text_of

GAME = load_games()["chupate2"]
SEATS = ["s0", "s1", "s2"]


def _states(moves: int = 40):
    state = GAME.new(SEATS, "kept-hands", None)
    rng = random.Random(3)
    for _ in range(moves):
        yield state
        movers = [s for s in GAME.to_act(state) if GAME.legal_actions(state, s)]
        if not movers or GAME.outcome(state) is not None:
            return
        seat = rng.choice(movers)
        state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))


def test_kept_hand_lines_read_as_written_afresh():
    kept_again = 0
    for state in _states():
        for locale in LOCALES:
            tr = translator(locale)
            afresh = partial(tr)  # the same words, from a translator that keeps nothing
            for seat in SEATS:
                hand = GAME.view(state, seat).hand
                if not hand:
                    continue
                lines = chupate2._hand_lines(hand, tr)
                assert lines == chupate2._hand_lines(hand, afresh)
                kept_again += chupate2._hand_lines(list(hand), tr) is lines
    assert kept_again > 0  # hands shown again were kept, not written again


def test_a_private_message_shows_its_own_hand_only():
    presenter = chupate2.Presenter(GAME)
    tr = translator("es")
    for state in _states():
        table = table_for(GAME, state, 1)
        texts = {seat: text_of(private_payload(table, presenter, seat, tr)) for seat in SEATS}
        for seat in SEATS:
            own = chupate2._hand_lines(GAME.view(state, seat).hand, tr)[1:]
            assert all(line in texts[seat] for line in own)
            for other in SEATS:
                theirs = chupate2._hand_lines(GAME.view(state, other).hand, tr)[1:]
                if other != seat and theirs != own:
                    assert theirs[0] not in texts[seat] or theirs[0] in own
