"""Ce Amapatolli in the one contract test (``tests/games/test_contract.py``)."""

from __future__ import annotations

import json
import re
from typing import Any

from games.amapatolli import GAME
from games.amapatolli.cards import deck_ids
from games.amapatolli.state import AmapatolliState
from games.amapatolli.view import AmapatolliView
from games.core import GameState, PlayerView
from tests.games.contract import ContractSpec

FULL = frozenset(deck_ids(True))
NO_WILD = frozenset(deck_ids(False))
CARD_ID = re.compile(r'"([a-d](?:0[1-9]|1[0-9]|20)|t[wrkb])"')

# Every option of games/amapatolli/options.py is played, alone and all together, and every hand
# size from 3 to 7 appears.
OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"hand_size": 3},
    {"hand_size": 4, "inverse_once": True},
    {"hand_size": 5, "no_birds": True},
    {"hand_size": 6, "no_tlapiani": True},
    {"powers": True},
    {
        "hand_size": 3,
        "inverse_once": True,
        "no_birds": True,
        "no_tlapiani": True,
        "powers": True,
    },
]


def cards_conserved(state: GameState) -> None:
    """Hands, stock and pile hold the whole deck, each card once (84, or 80 without Tlapiāni)."""
    assert isinstance(state, AmapatolliState)
    cards = [c for h in state.hands for c in h] + state.stock + state.pile
    deck = NO_WILD if state.options.no_tlapiani else FULL
    assert len(cards) == len(deck) and set(cards) == deck


def nothing_hidden_shown(state: GameState, viewer: str | None, view: PlayerView) -> None:
    """A view shows its own hand only: no card of another hand or of the stock, nor the seed."""
    assert isinstance(state, AmapatolliState) and isinstance(view, AmapatolliView)
    # A Tlapiāni turned up at the start is seen by everyone before it goes back into the stock.
    public = set(state.pile) | {
        e.params["card"] for e in state.log if e.code == "first_card_returned"
    }
    own = state.hands[state.seats.index(viewer)] if viewer in state.seats else []
    text = view.model_dump_json()
    assert [c.id for c in view.hand] == own
    assert set(CARD_ID.findall(text)) <= set(own) | public
    assert json.dumps(state.seed) not in text
    assert view.stock_count == len(state.stock)


SPEC = ContractSpec(
    game=GAME,
    option_sets=OPTION_SETS,
    player_counts=[2, 3, 4, 5, 6],
    invariant=cards_conserved,
    assert_hidden=nothing_hidden_shown,
)
