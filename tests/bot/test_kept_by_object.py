"""Texts kept by the very objects they were written of (issue 29): Ce Amapatolli's card texts
by the card (``Presenter._card_text``) and Macarena's hand lines by the cards' ids
(``Presenter._hand_lines_of``). What is kept reads as what is written afresh; a different
object with the same id, or an equal hand of other card objects, is written for itself."""

from __future__ import annotations

from functools import partial

import pytest

from bot.i18n import LOCALES, translator
from bot.registry import load_games
from bot.ui.amapatolli.presenter import Presenter as AmapatolliPresenter
from bot.ui.macarena.presenter import Presenter as MacarenaPresenter
from games.amapatolli.options import Options
from games.amapatolli.view import card_views
from games.core.cards import PlayingCard

GAMES = load_games()


@pytest.mark.parametrize("locale", LOCALES)
def test_amapatolli_card_texts_kept_by_the_card_read_as_written_afresh(locale):
    presenter = AmapatolliPresenter(GAMES["amapatolli"])
    tr = translator(locale)
    afresh = partial(tr)  # the same words, from a translator that keeps nothing
    kept = presenter._kept_texts(tr)
    for card in card_views(Options()).values():
        written = presenter._card_text(card, afresh, {})
        assert presenter._card_text(card, tr, kept) == written
        assert kept[card.id] == (card, written)  # kept with the card it was written of
        # the same id, another card (what a test or a loaded view may hand over): its own text
        changed = card.model_copy(update={"value": card.value + 1, "margin": "blue"})
        assert presenter._card_text(changed, tr, kept) == presenter._card_text(changed, afresh, {})
        assert kept[card.id][0] is changed
        for shown in (card, changed, card):  # the top card's line: kept by the card too
            line = tr("amapatolli.ui.top", card=presenter._card_text(shown, afresh, {}))
            assert presenter._top_line(shown, tr) == line
    assert presenter._kept_texts(tr) is kept  # one per language
    assert presenter._kept_texts(afresh) == {}  # a stub translator keeps nothing


@pytest.mark.parametrize("locale", LOCALES)
def test_macarena_hand_lines_kept_by_the_cards_read_as_written_afresh(locale):
    presenter = MacarenaPresenter(GAMES["macarena"])
    tr = translator(locale)
    afresh = partial(tr)
    hand = [PlayingCard(rank=r, suit=s) for r, s in ((1, "H"), (7, "S"), (12, "H"), (3, "C"))]
    lines = presenter._hand_lines_of(hand, tr)
    assert list(lines) == list(presenter._hand_lines_of(hand, afresh))
    assert presenter._hand_lines_of(list(hand), tr) is lines  # the same cards: kept
    equal = [card.model_copy() for card in hand]  # equal cards, other objects
    assert presenter._hand_lines_of(equal, tr) == lines
    other = [*hand[:-1], PlayingCard(rank=3, suit="D")]
    assert presenter._hand_lines_of(other, tr) == tuple(presenter._hand_lines_of(other, afresh))
    assert presenter._hand_lines_of(other, tr) != lines
