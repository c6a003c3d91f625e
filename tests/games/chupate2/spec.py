"""What Chúpate 2 declares for the one contract test (``tests/games/test_contract.py``).

Option sets: every value of every option at least once (points off/50/150/300, teams
off/pairs/trios, ``stack_plus4``, ``last_card``, the house rules ``jump_in``, ``seven_o``,
``draw_until_playable``), not their whole product. Uniformly random
players draw voluntarily and make games of ~900 actions, so the policy lets the ``normal``
computer choose most turns (the rest stay uniform, so every rule still gets exercised).
"""

from __future__ import annotations

import random
from typing import Any

from games.chupate2 import GAME
from games.chupate2.actions import Chupate2Action
from games.chupate2.rules import LOG_SIZE
from games.chupate2.state import Chupate2State
from games.chupate2.view import Chupate2View
from games.core import GameState, PlayerView
from tests.games.chupate2.helpers import assert_conserved, card_ids
from tests.games.contract import ContractSpec

COMPUTER_SHARE = 0.7  # turns chosen by the normal computer player; the rest uniformly


def invariant(state: GameState) -> None:
    """The 108 cards are all there exactly once; hands are the seats'; the log is in step."""
    assert isinstance(state, Chupate2State)
    assert_conserved(state)
    assert list(state.hands) == state.seats
    assert len(state.log) == len(state.log_versions) <= LOG_SIZE
    assert state.pending >= 0


def assert_hidden(state: GameState, viewer: str | None, view: PlayerView) -> None:
    """A view shows its own hand (none for the public), a reveal only to its challenger, events
    only to those they are meant for, and no card id the viewer has not legitimately seen."""
    assert isinstance(state, Chupate2State) and isinstance(view, Chupate2View)
    own = [] if viewer is None else state.hands[viewer]
    assert sorted(view.hand) == sorted(own)
    if viewer is None:
        assert view.drawn_card is None
    assert view.reveal is None or view.reveal.to == viewer
    assert view.hand_counts == {s: len(h) for s, h in state.hands.items()}
    assert all(e.visible_to(viewer) for e in view.last_events)
    seen = set(own) | set(state.discard)
    if view.reveal is not None:
        seen |= set(view.reveal.cards)
    for event in view.last_events:  # cards it drew (since played or shuffled back), reveals
        seen |= card_ids(event.model_dump_json())
    shown = card_ids(view.model_dump_json())
    assert shown <= seen, (viewer, sorted(shown - seen))


def policy(
    state: GameState, seat: str, legal: list[Chupate2Action], rng: random.Random
) -> Chupate2Action | None:
    """Mostly the normal computer player; ``None`` leaves the turn to a uniform choice."""
    assert isinstance(state, Chupate2State)
    if rng.random() >= COMPUTER_SHARE:
        return None
    return GAME.choose_action(GAME.view(state, seat), legal, "normal", rng)


OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"stack_plus4": True},
    {"last_card": True},
    {"points": "50", "stack_plus4": True, "last_card": True},
    {"points": "150"},
    {"teams": "pairs"},
    {"teams": "pairs", "points": "300", "last_card": True},
    {"teams": "trios", "points": "50", "stack_plus4": True},
    # house rules, alone and together with the variants they interact with
    {"jump_in": True},
    {"seven_o": True},
    {"draw_until_playable": True},
    {"jump_in": True, "seven_o": True, "last_card": True, "stack_plus4": True},
    {"seven_o": True, "teams": "pairs", "last_card": True, "draw_until_playable": True},
    {"jump_in": True, "points": "50", "teams": "trios", "draw_until_playable": True},
]

SPEC = ContractSpec(
    game=GAME,
    option_sets=OPTION_SETS,
    player_counts=(2, 3, 4, 6),
    invariant=invariant,
    assert_hidden=assert_hidden,
    max_steps=5_000,
    playouts=2,
    policy=policy,
)
