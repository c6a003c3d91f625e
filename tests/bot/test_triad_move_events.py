"""Triple Triad's presenter keeps a move's events by what they say (``last_events``): every view
of a move (the public one, each seat's) gets the very same event objects, so their texts are
written once; and they are the events the view's last move and pending pick say, for every
state of random games (payout picks included)."""

from __future__ import annotations

from bot.ui.presenter import presenter_for
from bot.ui.triad import presenter as triad_presenter
from games.triad import GAME
from tests.games.triad.randomgames import random_game


def test_every_view_of_a_move_shares_the_events_it_says():
    presenter = presenter_for(GAME)
    codes: set[str] = set()
    for n in range(40):
        for state in random_game(n).states:
            views = [GAME.view(state, seat) for seat in (None, *state.seats)]
            first = presenter.last_events(views[0])
            for view in views:
                events = presenter.last_events(view)
                assert events is first  # the same objects: their texts are kept
                assert events == triad_presenter._move_events(view)
            codes.update(e.code for e in first)
    assert {"played", "flipped", "game_won", "pick_required"} <= codes


def test_kept_events_are_bounded(monkeypatch):
    monkeypatch.setattr(triad_presenter, "MOVE_EVENTS_KEPT", 50)
    presenter = presenter_for(GAME)
    presenter._move_events.clear()
    for n in range(20):
        for state in random_game(n).states:
            presenter.last_events(GAME.view(state, None))
    assert len(presenter._move_events) == 50  # more moves than that: the oldest went
