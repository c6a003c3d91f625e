"""Helpers to build Chúpate 2 situations directly (clearer than playing up to them)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

from games.chupate2 import GAME
from games.chupate2.cards import DECK, DECK_SET
from games.chupate2.state import Chupate2State
from games.core.eventlog import EMPTY_LOG


def make_state(
    hands: dict[str, list[str]],
    top: str,
    colour: str | None = None,
    *,
    current: int = 0,
    phase: str = "play",
    pending: int = 0,
    direction: int = -1,
    options: dict[str, Any] | None = None,
    stock_top: Sequence[str] = (),
    stock: list[str] | None = None,
    under: Sequence[str] = (),
    seed: str = "test",
    **extra: Any,
) -> Chupate2State:
    """A state with these hands and this discard pile; every other card is in the stock.

    ``stock_top[0]`` is the next card drawn. ``under`` lies below ``top`` in the discard pile.
    ``stock`` gives the whole stock explicitly (bottom -> top) instead; then cards not placed
    anywhere go under the top of the discard pile.
    """
    base = GAME.new(list(hands), seed, options)
    placed = [c for h in hands.values() for c in h] + [top, *stock_top, *under]
    if stock is not None:
        placed += list(stock)
        rest = [c for c in DECK if c not in set(placed)]
        stock_list = list(stock)
        discard = [*under, *rest, top]
    else:
        rest = [c for c in DECK if c not in set(placed)]
        stock_list = rest + list(reversed(stock_top))
        discard = [*under, top]
    assert not [c for c, k in Counter(placed).items() if k > 1], "card placed twice"
    state = base.model_copy(
        update={
            "hands": {s: list(h) for s, h in hands.items()},
            "stock": stock_list,
            "discard": discard,
            "colour": colour if colour is not None else (top[0] if top[0] in "rygb" else None),
            "turn": current,
            "phase": phase,
            "pending": pending,
            "direction": direction,
            "log_raw": EMPTY_LOG,
            **extra,
        }
    )
    assert_conserved(state)
    return GAME.load_state(GAME.dump_state(state))


def all_cards(state: Chupate2State) -> list[str]:
    return [c for h in state.hands.values() for c in h] + state.stock + state.discard


def assert_conserved(state: Chupate2State) -> None:
    cards = all_cards(state)
    assert len(cards) == 108
    assert sorted(cards) == sorted(DECK)


CARD_ID = re.compile(r'"([rygb][0-9DSR][ab]|[WF][a-d])"')


def card_ids(json_text: str) -> set[str]:
    """Every card id appearing as a JSON string anywhere in a dumped model."""
    found = set(CARD_ID.findall(json_text))
    assert found <= DECK_SET
    return found


def act(state: Chupate2State, seat: str, text: str):
    """Apply the action written in its text form, checking the old state is left unchanged."""
    before = GAME.dump_state(state)
    result = GAME.apply(state, seat, GAME.decode_action(text))
    assert GAME.dump_state(state) == before, "apply changed the old state"
    return result


def codes(events) -> list[str]:
    return [e.code for e in events]


def find_seed(predicate, n_players: int = 4, options: dict | None = None, limit: int = 5000):
    """The first seed ``"s{i}"`` whose new game satisfies ``predicate``."""
    seats = [f"p{i}" for i in range(n_players)]
    for i in range(limit):
        state = GAME.new(seats, f"s{i}", options)
        if predicate(state):
            return state
    raise AssertionError("no seed found")
