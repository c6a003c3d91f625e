"""Macarena's part in the one contract test (``tests/games/test_contract.py``).

Invariant: the 104 cards (each card exactly once per deck) across stock, pozos, hands and
collections. Secrecy: no other hand, no other collection before a hand's collections are shown,
no stock order, no seed, no private event of another seat. Uniform random play over the legal
actions ends (below ~4,200 steps in 40 games of 4–5 players to 3 amulets); the policy also
extends plays into longer series.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from games.core import GameState, PlayerView
from games.core.cards import two_decks
from games.macarena import GAME, MacarenaState, MacarenaView, Play, series_options
from games.macarena.view import collections_revealed
from tests.games.contract import ContractSpec

FULL_DECK = Counter((c.rank, c.suit, c.deck) for c in two_decks())
EXTEND = 0.6  # chance of adding one more card to a series being played


def cards_conserved(state: GameState) -> None:
    assert isinstance(state, MacarenaState)
    cards = list(state.stock)
    for pile in state.pozos:
        cards.extend(pile)
    for s in state.seats:
        cards.extend(state.hands[s])
        cards.extend(state.collections[s])
    assert Counter((c.rank, c.suit, c.deck) for c in cards) == FULL_DECK


def _key(card: Any) -> tuple[str, int, int]:
    return (card.suit, card.rank, card.deck)


def nothing_hidden_shown(state: GameState, viewer: str | None, view: PlayerView) -> None:
    assert isinstance(state, MacarenaState) and isinstance(view, MacarenaView)
    if viewer is None:
        assert view.hand is None and view.collection is None and view.drawn is None
    else:
        assert view.hand is not None and view.collection is not None
        assert sorted(view.hand, key=_key) == sorted(state.hands[viewer], key=_key)
        assert sorted(view.collection, key=_key) == sorted(state.collections[viewer], key=_key)
    revealed = collections_revealed(state)
    for p in view.players:
        assert p.hand_count == len(state.hands[p.seat])
        if p.seat != viewer and not revealed:
            assert p.collection_count is None
    for event in view.last_events:
        assert event.visible_to(viewer)
    if view.hand_result is not None:
        assert view.hand_result.revealed
    text = view.model_dump_json()
    assert state.seed not in text
    assert '"stock":[' not in text


def random_series(state: GameState, seat: str, legal: list[Any], rng: random.Random) -> Any:
    """Uniform over ``legal``, except that a play is often extended into a longer series.

    ``legal_actions`` lists a series by its first card only; extending it card by card through
    ``series_options`` (as the UI does) exercises series, espejos at the end of a series and
    the MACA moves they lead to, which single cards rarely reach.
    """
    assert isinstance(state, MacarenaState)
    action = rng.choice(legal)
    if not isinstance(action, Play):
        return action
    cards = list(action.cards)
    while rng.random() < EXTEND:
        options = series_options(state, seat, action.pozo, cards)
        if not options:
            break
        cards.append(rng.choice(options).code)
    return Play(pozo=action.pozo, cards=tuple(cards))


SPEC = ContractSpec(
    game=GAME,
    option_sets=[{"amulets_to_win": n} for n in (0, 1, 2, 3)],
    player_counts=[2, 3, 4, 5],
    invariant=cards_conserved,
    assert_hidden=nothing_hidden_shown,
    max_steps=10_000,  # uniform play: ~2,600 steps on average with 5 players and 3 amulets
    playouts=1,  # 16 option sets x counts already; the whole contract module keeps to ~60 s
    policy=random_series,
)
