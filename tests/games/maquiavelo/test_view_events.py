"""A Maquiavelo view's ``last_events`` (read from the log's newest event back) are the events of
the state's log the viewer may see, in order: a seat's own private events, never another
seat's; on every state of random games, built move by move and loaded from their stored JSON."""

from __future__ import annotations

import random

from games.maquiavelo import GAME


def test_last_events_are_the_logs_events_the_viewer_may_see():
    seats = ["a", "b", "c"]
    private_seen = 0
    for number in range(4):
        state = GAME.new(seats, f"view-events-{number}", None)
        rng = random.Random(number)
        for _ in range(80):
            for shown in (state, GAME.load_state(GAME.dump_state(state))):
                for viewer in (None, *seats):
                    events = GAME.view(shown, viewer).last_events
                    assert events == [e for e in shown.log if e.visible_to(viewer)]
                    assert all(e.to is None or viewer in e.to for e in events)
                    private_seen += sum(e.to is not None for e in events)
            movers = sorted(s for s in GAME.to_act(state) if GAME.legal_actions(state, s))
            if not movers or GAME.is_over(state):
                break
            seat = rng.choice(movers)
            state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    assert private_seen  # private events were among those shown
