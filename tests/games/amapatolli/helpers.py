"""Building Amapatolli states directly, to reach a situation in one step."""

from __future__ import annotations

from games.amapatolli import GAME
from games.amapatolli.actions import Play
from games.amapatolli.cards import CARDS, deck_ids
from games.amapatolli.options import Options
from games.amapatolli.state import AmapatolliState

SEATS = ["ana", "ben", "cy", "dee", "eve", "fay"]


def make(
    hands: list[list[str]],
    top: str,
    stock: list[str] | None = None,
    *,
    turn: int = 0,
    named: str | None = None,
    options: dict | None = None,
    fill_stock: bool = False,
    **fields,
) -> AmapatolliState:
    """A state with the given hands and top card; ``stock`` lists cards top last."""
    opts = Options(**(options or {}))
    used = {c for h in hands for c in h} | {top} | set(stock or [])
    if fill_stock:
        stock = [c for c in deck_ids(not opts.no_tlapiani) if c not in used] + list(stock or [])
    card = CARDS[top]
    margin, background = (named, named) if named else (card.margin, card.background)
    return AmapatolliState(
        seed="test",
        seats=SEATS[: len(hands)],
        options=opts,
        hands=[list(h) for h in hands],
        stock=list(stock or []),
        pile=[top],
        margin=margin,
        background=background,
        named_colour=named,
        turn=turn,
        announced=[False] * len(hands),
        inverse_used=[False] * len(hands),
        **fields,
    )


def play(card: str, colour: str | None = None) -> Play:
    return Play(card=card, colour=colour)


def act(state, seat_index, action):
    new, events = GAME.apply(state, state.seats[seat_index], action)
    return new, events


def codes(events) -> list[str]:
    return [e.code for e in events]


def legal_codes(state, seat_index) -> list[str]:
    return [a.encode() for a in GAME.legal_actions(state, state.seats[seat_index])]
