"""Property tests over 1,000 seeded random playouts.

Every move: 104 cards conserved (each id once, so every face exactly twice), the table valid,
no view showing another seat's hand. Every game: it terminates, its state round-trips through
JSON, and replaying its actions from the seed gives the same state; every action's text form
decodes back to it.
"""

from __future__ import annotations

import itertools
import random

from games.core import IllegalAction
from games.maquiavelo import GAME, Arrange, Draw, Pass, Play, format_arrangement
from games.maquiavelo.notation import parse_arrangement
from games.maquiavelo.solver import meld_kind

PLAYOUTS = 1000
MAX_TURNS = 1000


def _random_options(rng: random.Random) -> dict:
    return {
        "ayuda": rng.random() < 0.3,
        "estricto": rng.random() < 0.3,
        "hand_size": rng.choice([0, 0, 3, 5, 8, 11]),
    }


def _hand_meld(rng: random.Random, hand: list[int]) -> tuple[int, ...] | None:
    for _ in range(12):
        if len(hand) < 3:
            return None
        combo = rng.sample(hand, 3)
        if meld_kind([c % 52 for c in combo]):
            return tuple(combo)
    return None


def _choose(rng: random.Random, state, seat: str):
    hand = state.hands[seat]
    fallback = GAME.legal_actions(state, seat)[0]
    roll = rng.random()
    if roll < 0.03 and len(hand) <= 14:
        view = GAME.view(state, seat)
        return GAME.choose_action(view, [fallback], rng.choice(["easy", "normal", "hard"]), rng)
    if roll < 0.35:
        meld = _hand_meld(rng, hand)
        if meld:
            if rng.random() < 0.2:  # the same play typed as an explicit arrangement
                text = format_arrangement([*state.table, list(meld)])
                return parse_arrangement(text)
            return Play(cards=meld)
    if roll < 0.55 and hand:
        cards = rng.sample(hand, min(len(hand), rng.choice([1, 1, 2])))
        if state.helpers and rng.random() < 0.3:
            cards.append(rng.choice(state.helpers))
        return Play(cards=tuple(cards))  # often refused: then the player draws or passes
    if roll < 0.58 and state.table:  # a wrong arrangement (estricto: it costs cards)
        groups = [list(m) for m in state.table]
        groups[0] = groups[0][:-1]
        return parse_arrangement(
            format_arrangement(groups) + " | " + format_arrangement([hand[:1]])
        )
    return fallback


def _check_state(state) -> None:
    every = [c for h in state.hands.values() for c in h] + state.stock + state.helpers
    every += [c for m in state.table for c in m]
    assert sorted(every) == list(range(104))
    for meld in state.table:
        assert meld_kind([c % 52 for c in meld]) is not None
    for seat in [*state.seats, None]:
        view = GAME.view(state, seat)
        shown = {c.id for m in view.table for c in m.cards} | {c.id for c in view.helpers}
        shown |= {c.id for c in view.hand or []}
        for other in state.seats:
            if other != seat:
                assert not shown & set(state.hands[other])
        if seat is None:
            assert view.hand is None
        else:
            assert [c.id for c in view.hand] == state.hands[seat]
        assert all(e.to is None or seat in e.to for e in view.last_events)
        assert view.stock_count == len(state.stock)


def _playout(n: int) -> None:
    rng = random.Random(n)
    seats = [f"s{i}" for i in range(rng.choice([2, 2, 3, 4, 5, 8]))]
    seed = f"playout-{n}"
    options = _random_options(rng)
    state = GAME.new(seats, seed, options)
    _check_state(state)
    log = []
    check_every = 1 if n < 100 else 7
    for turn in itertools.count():
        assert turn < MAX_TURNS, "the game did not terminate"
        if GAME.outcome(state) is not None:
            break
        (seat,) = GAME.to_act(state)
        action = _choose(rng, state, seat)
        text = action.encode()
        assert GAME.decode_action(text) == action
        if not isinstance(action, Arrange):
            assert len(text) <= 60
        try:
            state, _ = GAME.apply(state, seat, action)
        except IllegalAction:
            action = GAME.legal_actions(state, seat)[0]
            assert isinstance(action, Draw | Pass)
            state, _ = GAME.apply(state, seat, action)
        log.append((seat, action))
        if turn % check_every == 0:
            _check_state(state)
    _check_state(state)
    out = GAME.outcome(state)
    assert out.ranking and sum(len(g) for g in out.ranking) == len(seats)
    assert GAME.load_state(GAME.dump_state(state)) == state
    if n % 4 == 0:
        replay = GAME.new(seats, seed, options)
        for seat, action in log:
            replay, _ = GAME.apply(replay, seat, GAME.decode_action(action.encode()))
        assert replay == state


def test_random_playouts():
    for n in range(PLAYOUTS):
        _playout(n)
