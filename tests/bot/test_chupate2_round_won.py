"""A one-round Chúpate 2 game's ``round_won`` is shown marked single-round (``last_events``):
one marked copy per logged event, the same object for every view (so its text is written once),
and the kept copies are bounded."""

from __future__ import annotations

from bot.ui.chupate2 import presenter as chupate2_presenter
from bot.ui.chupate2.presenter import SINGLE_ROUND, Presenter
from games.chupate2 import GAME
from tests.bot.presenter_kit import SEAT_IDS
from tests.games.chupate2.helpers import make_state

IDS = SEAT_IDS


def _won_state():
    hands = {IDS[0]: ["g1a"], IDS[1]: ["y1a", "rSa"], IDS[2]: ["r9a", "Wa"]}
    state, _ = GAME.apply(
        make_state(hands, "g5a", direction=1), IDS[0], GAME.decode_action("p.g1a")
    )
    return state


def test_every_view_gets_the_one_marked_copy_of_round_won():
    presenter = Presenter(GAME)
    state = _won_state()
    logged = [e for e in state.log if e.code == "round_won"]
    assert len(logged) == 1
    shown = []
    for seat in (None, *state.seats):
        view = GAME.view(state, seat)
        assert view.target is None  # a one-round game
        won = [e for e in presenter.last_events(view) if e.code == "round_won"]
        assert won == [
            logged[0].model_copy(update={"params": {**logged[0].params, SINGLE_ROUND: True}})
        ]
        shown.append(won[0])
    assert all(e is shown[0] for e in shown)
    assert SINGLE_ROUND not in logged[0].params  # the logged event is left as it was


def test_marked_copies_are_bounded(monkeypatch):
    monkeypatch.setattr(chupate2_presenter, "SINGLE_ROUND_COPIES", 2)
    presenter = Presenter(GAME)
    states = [_won_state() for _ in range(4)]  # four logged events, equal but not the same
    marked = [
        next(e for e in presenter.last_events(GAME.view(s, None)) if e.code == "round_won")
        for s in states
    ]
    assert len({id(e) for e in marked}) == 4
    assert len(presenter._single_round_copies) == 2
