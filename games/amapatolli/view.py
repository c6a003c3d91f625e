"""What a seat may see: the card and table view models, and the outcome of a finished game."""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict

from games.amapatolli import rules
from games.amapatolli.cards import CARDS, OLLIN, Colour
from games.amapatolli.options import Options
from games.amapatolli.state import AmapatolliState
from games.core import Event, PlayerView
from games.core.engine import Seat
from games.core.fast import trusted


class CardView(BaseModel):
    """A card as presenters see it. ``name`` is the day sign / Tlapiāni name (Nahuatl)."""

    model_config = ConfigDict(frozen=True)

    id: str
    sign: int  # 1-20; 0 for a Tlapiāni
    name: str
    value: int
    margin: Colour
    background: Colour
    wild: bool = False  # a Tlapiāni
    bird: bool = False  # a bird (Cuauhtli or Cozcacuauhtli) with birds in play
    skips: bool = False  # makes the next player lose their turn (birds; Tochtli with powers)
    reverses: bool = False  # reverses the order (Tlapiāni; Ollin with powers)


class AmapatolliView(PlayerView):
    """What one seat (or the public, ``seat=None``) may see."""

    options: Options
    hand: list[CardView]  # this seat's cards; empty in the public view
    playable: list[str]  # ids of this seat's cards that can be played right now
    hand_counts: dict[Seat, int]
    announced: dict[Seat, bool]  # said "Ce" for the single card they hold
    top: CardView  # the last card played
    margin: Colour  # colours in force
    background: Colour
    named_colour: Colour | None  # colour named with the Tlapiāni on top
    turn: Seat | None
    next_seat: Seat | None  # who plays after the current turn (ignoring skips)
    direction: Literal[1, -1]
    skip_pending: bool  # ``turn`` faces a bird: answer with a bird or accept the skip
    skip_next: bool  # a bird was played this turn: the next player will face it
    double_play: bool  # ``turn`` must play another card
    drawn_this_turn: int
    stock_count: int
    pile_count: int
    passes_in_row: int
    ce_window: Seat | None  # holds one card unannounced: may announce / be called out
    inverse_used: dict[Seat, bool]
    last_events: list[Event]
    end_reason: Literal["out", "blocked"] | None = None
    winners: list[Seat] = []
    hand_values: dict[Seat, int] | None = None  # revealed when the game is over


@lru_cache(maxsize=8)
def _card_views(no_birds: bool, powers: bool) -> dict[str, CardView]:
    signs = rules.skip_signs(Options(no_birds=no_birds, powers=powers))
    return {
        cid: CardView(
            id=cid,
            sign=card.sign,
            name=card.name,
            value=card.value,
            margin=card.margin,
            background=card.background,
            wild=card.wild,
            bird=card.is_bird and not no_birds,
            skips=rules.is_skip(card, signs),
            reverses=card.wild or (powers and card.sign == OLLIN),
        )
        for cid, card in CARDS.items()
    }


def card_views(options: Options) -> dict[str, CardView]:
    """Every card as presenters see it under these options, by id."""
    return _card_views(options.no_birds, options.powers)


def build_view(state: AmapatolliState, seat: Seat | None) -> AmapatolliView:
    """What ``seat`` may see (``None`` or a seat not at the table: the public)."""
    seats = state.seats
    opts = state.options
    i = seats.index(seat) if seat in seats else None
    viewer = seat if i is not None else None
    views = card_views(opts)
    hand = [views[c] for c in state.hands[i]] if i is not None else []
    playable: list[str] = []
    if i is not None and i == state.turn and not state.finished:
        playable = rules.playable(state, i)
    outcome = rules.outcome(state)
    n = len(seats)
    # Built with ``trusted`` (no validation: every value comes from the state, with the field's
    # type; ``tests/games/test_contract.py`` checks a view is what validating its JSON gives).
    return trusted(
        AmapatolliView,
        {
            "seat": viewer,
            "version": state.version,
            "seats": list(seats),
            "to_act": [] if state.finished else [seats[state.turn]],
            "finished": state.finished,
            "options": opts,
            "hand": hand,
            "playable": playable,
            "hand_counts": {s: len(h) for s, h in zip(seats, state.hands, strict=True)},
            "announced": {s: a for s, a in zip(seats, state.announced, strict=True)},
            "top": views[state.pile[-1]],
            "margin": state.margin,
            "background": state.background,
            "named_colour": state.named_colour,
            "turn": None if state.finished else seats[state.turn],
            "next_seat": None if state.finished else seats[(state.turn + state.direction) % n],
            "direction": state.direction,
            "skip_pending": state.skip_pending,
            "skip_next": state.skip_next,
            "double_play": state.double_play,
            "drawn_this_turn": state.drawn,
            "stock_count": len(state.stock),
            "pile_count": len(state.pile),
            "passes_in_row": state.passes,
            "ce_window": None if state.ce_window is None else seats[state.ce_window],
            "inverse_used": {s: u for s, u in zip(seats, state.inverse_used, strict=True)},
            # every event of the log ``viewer`` may see, read from the newest back
            "last_events": state.latest_visible(viewer, state.log_size),
            "end_reason": state.end_reason,
            "winners": outcome.winners if outcome else [],
            "hand_values": outcome.hand_values if outcome else None,
        },
    )
