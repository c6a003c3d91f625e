"""What a seat remembers of a hand: every pile and every card the others collected was played
face up, so the view's ``PozoView.cards`` and ``PlayerInfo.shown`` hold nothing that the public
events of the hand did not show (hard's worlds and its race for the elements rely on them)."""

from __future__ import annotations

import random

from games.macarena import GAME


def _codes(cards) -> list[str]:
    return [c.code for c in cards]  # the events name faces (rank and suit), not the deck


def test_piles_and_shown_cards_are_what_the_public_events_showed():
    seats = ["a", "b", "c"]
    state = GAME.new(seats, "memory-1")
    public = GAME.view(state, None)
    piles = [[p.top.code] for p in public.pozos]
    shown: dict[str, list[str]] = {s: [] for s in seats}
    checked_plays = hands = 0
    n = 0
    while not GAME.is_over(state) and hands < 3:
        seat = sorted(GAME.to_act(state))[0]
        legal = GAME.legal_actions(state, seat)
        action = GAME.choose_action(GAME.view(state, seat), legal, "normal", random.Random(n))
        state, events = GAME.apply(state, seat, action if action is not None else legal[0])
        n += 1
        for e in events:
            if not e.visible_to(None):
                continue
            if e.code == "round_started":  # a new deal: the tops as the public sees them
                hands += 1
                piles = [[p.top.code] for p in GAME.view(state, None).pozos]
                shown = {s: [] for s in seats}
            elif e.code in ("played", "espejo_solo"):
                cards = list(e.params["cards"])
                if e.code == "espejo_solo":
                    shown[e.seat] += cards
                else:
                    shown[e.seat] += cards[:-1]
                    piles[e.params["pozo"]].append(cards[-1])
                checked_plays += 1
        if state.phase not in ("draw", "play", "move_maca"):
            continue
        for viewer in [None, *seats]:
            view = GAME.view(state, viewer)
            assert [_codes(p.cards) for p in view.pozos] == piles
            assert [p.cards[-1] for p in view.pozos] == [p.top for p in view.pozos]
            assert {p.seat: _codes(p.shown) for p in view.players} == shown
            for p in view.players:  # the count stays face down until the reveal
                assert p.collection_count == (len(shown[p.seat]) if p.seat == viewer else None)
    assert checked_plays >= 30 and hands >= 2


def test_a_world_keeps_what_was_shown_and_deals_only_the_other_hands_and_the_stock():
    from games.macarena.ai_rollout import sample_world

    state = GAME.new(["a", "b"], "memory-2")
    n = 0
    while len(state.stock) > 40 or state.phase != "play":
        seat = sorted(GAME.to_act(state))[0]
        legal = GAME.legal_actions(state, seat)
        action = GAME.choose_action(GAME.view(state, seat), legal, "normal", random.Random(n))
        state, _ = GAME.apply(state, seat, action if action is not None else legal[0])
        n += 1
    assert state.collections["b"], "the other seat has collected something to remember"
    view = GAME.view(state, "a")
    unseen = sorted(map(str, state.hands["b"] + state.stock))
    for k in range(5):
        world = sample_world(view, random.Random(k))
        assert world.pozos == state.pozos
        assert world.collections == state.collections
        assert sorted(map(str, world.hands["a"])) == sorted(map(str, state.hands["a"]))
        assert sorted(map(str, world.hands["b"] + world.stock)) == unseen
