"""The events a payload shows: the latest ones that have a text, read from the newest (an older
event's text is never built), the same as every text built and the last six kept; and the
public message asks for the seats' legal actions only in games with public actions."""

import random

import pytest

from bot.i18n import translator
from bot.registry import load_games
from bot.ui.messages import EVENTS_SHOWN, _latest_texts, seat_names
from bot.ui.presenter import GamePresenter, presenter_for
from tests.bot.presenter_kit import table_for, text_presenter

GAMES = load_games()


def _every_text_then_the_last_six(events, shown, presenter, names, tr):
    """What the payloads built before: every shown event's text, then the last six kept."""
    return [text for e in events if shown(e) and (text := presenter.event_text(e, names, tr))][
        -EVENTS_SHOWN:
    ]


@pytest.mark.parametrize("key", sorted(GAMES))
def test_latest_texts_are_the_last_six_of_every_text(key):
    game = GAMES[key]
    presenter = text_presenter(type(presenter_for(game)), game)
    tr = translator("es")
    seats = [f"s{i}" for i in range(2 if key == "triad" else max(game.min_players, 3))]
    state = game.new(seats, f"events-{key}", None)
    rng = random.Random(3)
    compared = longest = 0
    for _ in range(120):
        if game.outcome(state) is not None:
            break
        table = table_for(game, state, 1)
        names = seat_names(table, tr)
        for viewer in [None, *seats]:
            events = presenter.last_events(game.view(state, viewer))
            longest = max(longest, len(events))
            public = lambda e: e.visible_to(None)  # noqa: E731
            private = lambda e, v=viewer: e.to is not None and e.visible_to(v)  # noqa: E731
            # the public events (no seat), and those told to the viewer (a seat's private view)
            for seat, shown in [(None, public), *([(viewer, private)] if viewer else [])]:
                got = _latest_texts(events, presenter, names, tr, seat)
                assert got == _every_text_then_the_last_six(events, shown, presenter, names, tr)
                compared += 1
        movers = [s for s in game.to_act(state) if game.legal_actions(state, s)]
        if not movers:
            break
        seat = rng.choice(movers)
        state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    assert compared > 0
    if key != "triad":  # (its view holds one move's events)
        assert longest > EVENTS_SHOWN  # the clipping was exercised


def test_games_with_public_actions_say_so():
    overriding = {
        key
        for key, game in GAMES.items()
        if type(presenter_for(game)).is_public_action is not GamePresenter.is_public_action
    }
    assert overriding  # Chúpate 2's and Amapatolli's call-outs
    for key, game in GAMES.items():
        assert presenter_for(game).has_public_actions == (key in overriding)
