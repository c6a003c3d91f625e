"""Maquiavelo's part in the contract test (``tests/games/test_contract.py``).

Play and Arrange are free-form (cards picked in selects, a table typed in a modal), so
``legal_actions`` lists only Draw or Pass and the game does not list every action
(``lists_every_action``, the contract's ``complete_legal``). The policy makes the
playouts meaningful: now and then the best play (the solver), an easy computer play, a random
hand meld (sometimes typed as a whole arrangement), a random card or a wrong arrangement (refused,
or under "estricto" a penalty); only proposals ``apply`` accepts and whose text fits a custom_id
are chosen, anything else falls back to a random legal Draw or Pass.
"""

from __future__ import annotations

import random
from typing import Any

from games.core import GameState, IllegalAction, PlayerView
from games.core.actions import MAX_ACTION_TEXT
from games.maquiavelo import GAME, MaquiaveloState, MaquiaveloView, Play
from games.maquiavelo.cards import NUM_CARDS
from games.maquiavelo.notation import format_arrangement, parse_arrangement
from games.maquiavelo.solver import meld_kind
from tests.games.contract import ContractSpec

# Every option of games/maquiavelo/options.py, alone and combined.
OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"ayuda": True},
    {"estricto": True},
    {"hand_size": 3},
    {"hand_size": 11},
    {"ayuda": True, "estricto": True, "hand_size": 5},
]
PLAYER_COUNTS = (2, 3, 4, 6, 8)
# Fields a view may carry; the stock's order, other hands and the seed are none of them.
VIEW_FIELDS = {
    "seat",
    "version",
    "seats",
    "to_act",
    "finished",
    "hand",
    "table",
    "helpers",
    "stock_count",
    "hand_counts",
    "turn",
    "dealer",
    "passes",
    "options",
    "can_draw",
    "can_pass",
    "last_play",
    "last_events",
    "winners",
    "end_reason",
    "hand_values",
}


def invariant(state: GameState) -> None:
    """104 cards, each exactly once somewhere; every meld on the table a valid set or run."""
    assert isinstance(state, MaquiaveloState)
    every = [c for h in state.hands.values() for c in h] + state.stock + state.helpers
    every += [c for m in state.table for c in m]
    assert sorted(every) == list(range(NUM_CARDS)), "cards lost or duplicated"
    for meld in state.table:
        assert meld_kind([c % 52 for c in meld]) is not None, f"invalid meld {meld}"
    assert set(state.hands) == set(state.seats)


def assert_hidden(state: GameState, viewer: str | None, view: PlayerView) -> None:
    """No other seat's hand, no stock order, no seed; private events only to their seat."""
    assert isinstance(state, MaquiaveloState) and isinstance(view, MaquiaveloView)
    assert set(type(view).model_fields) <= VIEW_FIELDS, "a new view field: check its secrecy"
    if viewer is None:
        assert view.hand is None
    else:
        assert [c.id for c in view.hand or []] == state.hands[viewer]
    shown = {c.id for c in view.hand or []} | {c.id for m in view.table for c in m.cards}
    shown |= {c.id for c in view.helpers} | set(view.last_play)
    for other, hand in state.hands.items():
        if other != viewer:
            assert not shown & set(hand), f"{viewer} sees cards of {other}"
    assert not shown & set(state.stock), f"{viewer} sees stock cards"
    assert view.stock_count == len(state.stock)
    assert all(e.visible_to(viewer) for e in view.last_events), "another seat's private event"
    assert not view.hand_values or state.finished, "hand values before the end"
    assert state.seed not in view.model_dump_json()


def _accepted(state: MaquiaveloState, seat: str, action: Any) -> bool:
    if len(action.encode()) > MAX_ACTION_TEXT:  # a long arrangement only comes from a modal
        return False
    try:
        GAME.apply(state, seat, action)
    except IllegalAction:
        return False
    return True


def _hand_meld(rng: random.Random, hand: list[int]) -> tuple[int, ...] | None:
    for _ in range(12):
        if len(hand) < 3:
            return None
        combo = rng.sample(hand, 3)
        if meld_kind([c % 52 for c in combo]):
            return tuple(combo)
    return None


def _proposal(state: MaquiaveloState, seat: str, rng: random.Random) -> Any:
    hand = state.hands[seat]
    roll = rng.random()
    if roll < 0.25:
        return GAME.suggest(state, seat)
    if roll < 0.35:
        legal = GAME.legal_actions(state, seat)
        return GAME.choose_action(GAME.view(state, seat), legal, rng.choice(["easy", "hard"]), rng)
    if roll < 0.5:
        meld = _hand_meld(rng, hand)
        if meld and rng.random() < 0.3:  # the same play typed as an explicit arrangement
            return parse_arrangement(format_arrangement([*state.table, list(meld)]))
        return Play(cards=meld) if meld else None
    if roll < 0.6 and hand:  # often refused (then a Draw or Pass); under estricto a penalty
        cards = rng.sample(hand, min(len(hand), rng.choice([1, 1, 2])))
        if state.helpers and rng.random() < 0.3:
            cards.append(rng.choice(state.helpers))
        return Play(cards=tuple(cards))
    if roll < 0.63 and state.table and hand:  # a wrong arrangement: a table card left out
        groups = [list(m) for m in state.table]
        groups[0] = groups[0][:-1]
        text = format_arrangement(groups) + " | " + format_arrangement([hand[:1]])
        return parse_arrangement(text)
    return None


def policy(state: GameState, seat: str, legal: list[Any], rng: random.Random) -> Any:
    """A proposal ``apply`` accepts, or None (the contract test then picks a legal action)."""
    assert isinstance(state, MaquiaveloState)
    action = _proposal(state, seat, rng)
    if action is not None and _accepted(state, seat, action):
        return action
    return None


SPEC = ContractSpec(
    game=GAME,
    option_sets=OPTION_SETS,
    player_counts=PLAYER_COUNTS,
    invariant=invariant,
    assert_hidden=assert_hidden,
    max_steps=2_000,
    playouts=1,  # 30 option sets x counts already; the whole contract module keeps to ~60 s
    policy=policy,
)
