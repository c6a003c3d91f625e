"""The contract spec of the toy game (tests/bot/toy_game.py): proves the contract test itself."""

from __future__ import annotations

from games.core import GameState, PlayerView
from tests.bot.toy_game import TOY, ToyState, ToyView
from tests.games.contract import ContractSpec


def toy_invariant(state: GameState) -> None:
    assert isinstance(state, ToyState)
    assert 0 <= state.pile <= 50
    assert 0 <= state.turn < len(state.seats)
    assert (state.pile == 0) == (state.winner is not None)
    assert state.winner is None or state.winner == state.seats[state.turn]


def toy_nothing_hidden(state: GameState, viewer: str | None, view: PlayerView) -> None:
    # The toy has no secrets: everyone sees the whole pile.
    assert isinstance(state, ToyState) and isinstance(view, ToyView)
    assert view.pile == state.pile


SPEC = ContractSpec(
    game=TOY,
    # {} draws the pile from the seed; 1 ends at once; 50 is the longest game.
    option_sets=[{}, {"pile": 1}, {"pile": 50}],
    # 1 and 5 are outside the toy's 2-4 seats: the contract test leaves them out.
    player_counts=[1, 2, 3, 4, 5],
    invariant=toy_invariant,
    assert_hidden=toy_nothing_hidden,
    max_steps=60,
    playouts=3,
)
