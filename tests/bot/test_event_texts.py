"""Event texts written once (``bot/ui/presenter.py``): a presenter keeps each event's text by
the event and the language, while the seat names it asked for read the same; what a message
shows never depends on what was kept (every game, move after move, against a fresh presenter),
and a seat's private event is shown to that seat only, however warm the texts are."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from bot.i18n import translator
from bot.registry import load_games
from bot.ui import messages
from bot.ui.messages import private_payload, public_payload
from bot.ui.presenter import EventTexts, presenter_for
from games.core import Event
from tests.bot.presenter_kit import StubService, table_for, text_presenter
from tests.message_text import text_of

GAMES = load_games()


def _writer(written: list[Event]):
    def write(event, names, tr):
        written.append(event)
        return tr("seat.cpu_name", name=names(event.seat), level=event.code)

    return write


def test_an_events_text_is_written_once_a_language():
    written: list[Event] = []
    texts = EventTexts(_writer(written))
    event = Event("played", "s1")
    names = {"s1": "Ana"}.get
    es, en = translator("es"), translator("en")
    first = texts.text(event, names, es)
    assert texts.text(event, names, es) == first and written == [event]
    assert texts.text(event, names, en) == _writer([])(event, names, en)
    assert len(written) == 2
    twin = Event("played", "s1")  # equal, but another event: written for itself
    assert texts.text(twin, names, es) == first and len(written) == 3


def test_a_seat_named_anew_is_written_anew():
    written: list[Event] = []
    texts = EventTexts(_writer(written))
    event = Event("played", "s1")
    tr = translator("es")
    assert "Ana" in (texts.text(event, {"s1": "Ana"}.get, tr) or "")
    assert "CPU" in (texts.text(event, {"s1": "CPU"}.get, tr) or "")  # the computer took over
    assert len(written) == 2


def test_the_oldest_text_goes_first_beyond_what_is_kept():
    written: list[Event] = []
    texts = EventTexts(_writer(written), kept=2)
    events = [Event("played", f"s{i}") for i in range(3)]
    names = {f"s{i}": f"P{i}" for i in range(3)}.get
    tr = translator("es")
    for event in events:
        texts.text(event, names, tr)
    texts.text(events[2], names, tr)  # kept
    texts.text(events[0], names, tr)  # gone: written again
    assert written == [*events, events[0]]


def test_a_presenter_whose_views_build_their_events_keeps_no_text():
    """Triple Triad's events are made anew from each view (``last_events``): a text kept
    would never be read again, so none is kept."""
    triad = presenter_for(GAMES["triad"])
    assert triad.event_texts_kept == 0
    game = GAMES["triad"]
    state = game.new(["s0", "s1"], "kept-none", None)
    [seat] = game.to_act(state)
    state, _ = game.apply(state, seat, game.legal_actions(state, seat)[0])
    assert triad.last_events(game.view(state, None))  # a placement to write
    public_payload(table_for(game, state, 1), triad, StubService(), translator("es"))
    assert triad.event_texts._texts == {}
    others = [presenter_for(GAMES[k]) for k in sorted(GAMES) if k != "triad"]
    assert {p.event_texts_kept for p in others} == {4096}


@pytest.mark.parametrize("key", sorted(GAMES))
def test_what_a_message_shows_does_not_depend_on_the_texts_kept(key, monkeypatch):
    """Every seat's hand and the public message, move after move with one presenter (its texts
    kept), read exactly as each built by a fresh presenter: a private event's text, kept when
    its seat's hand was built, is in no other seat's hand."""
    # The turn line's deadline is the clock's second plus the turn: both builds of a message
    # read one instant (two readings a second apart made the texts differ now and then).
    monkeypatch.setattr(messages, "time", SimpleNamespace(time=lambda: 1_700_000_000.0))
    game = GAMES[key]
    presenter_cls = type(presenter_for(game))
    kept = text_presenter(presenter_cls, game)
    service, tr = StubService(), translator("es")
    seats = [f"s{i}" for i in range(2 if key == "triad" else max(game.min_players, 3))]
    state = game.new(seats, f"kept-{key}", None)
    rng = random.Random(5)
    private_texts = 0
    for _ in range(60):
        table = table_for(game, state, 1)
        fresh = text_presenter(presenter_cls, game)
        shown = public_payload(table, kept, service, tr)
        assert text_of(shown) == text_of(public_payload(table, fresh, service, tr))
        for seat in seats:
            hand = private_payload(table, kept, seat, tr)
            assert text_of(hand) == text_of(private_payload(table, fresh, seat, tr))
            for e in game.view(state, seat).model_dump().get("last_events") or []:
                private_texts += e["to"] is not None
        if game.outcome(state) is not None:
            break
        movers = [s for s in game.to_act(state) if game.legal_actions(state, s)]
        if not movers:
            break
        seat = rng.choice(movers)
        state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    if key in ("chupate2", "macarena"):
        assert private_texts > 0  # private events were shown (and kept) along the way
