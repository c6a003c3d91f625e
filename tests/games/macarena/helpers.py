"""Builders for Macarena scenario tests: states laid out card by card."""

from __future__ import annotations

from games.core.cards import PlayingCard, parse_card
from games.core.eventlog import EMPTY_LOG
from games.macarena import GAME
from games.macarena.state import MacarenaState, Tokens

SEATS = ["a", "b", "c"]


def cards(text: str) -> list[PlayingCard]:
    """``"5H 6H 10S"`` -> cards (deck 0; a face written twice gets decks 0 and 1)."""
    out: list[PlayingCard] = []
    for word in text.split():
        card = parse_card(word)
        if any(c.same_face(card) for c in out):
            card = parse_card(word, deck=1)
        out.append(card)
    return out


def table(
    hands: dict[str, str],
    tops: str = "2C 5D 9S QH KC 3H 7D",
    stock: str = "4C 4D 4S 8C 8D 8H",
    seats: list[str] | None = None,
    current: str | None = None,
    phase: str = "play",
    espejo_turn: bool = False,
    macas: list[dict[str, int]] | None = None,
    collections: dict[str, str] | None = None,
    tokens: dict[str, Tokens] | None = None,
    hand_number: int = 1,
    **options,
) -> MacarenaState:
    """A state in the middle of a hand (conservation is not kept: only the cards named)."""
    seats = seats or list(hands)
    state = GAME.new(seats, "scenario", options or None)
    state.hands = {s: cards(hands.get(s, "")) for s in seats}
    state.pozos = [[c] for c in cards(tops)]
    assert len(state.pozos) == 7
    state.stock = cards(stock)
    state.turn = seats.index(current or seats[0])
    state.phase = phase  # type: ignore[assignment]
    state.espejo_turn = espejo_turn
    state.macas = macas or [{} for _ in range(7)]
    state.collections = {s: cards((collections or {}).get(s, "")) for s in seats}
    if tokens:
        state.tokens.update(tokens)
    state.hand_number = hand_number
    state.log_raw = EMPTY_LOG
    return state


def act(state: MacarenaState, seat: str, text_or_action):
    action = (
        GAME.decode_action(text_or_action) if isinstance(text_or_action, str) else text_or_action
    )
    return GAME.apply(state, seat, action)


def codes(events) -> list[str]:
    return [e.code for e in events]


def play(state: MacarenaState, seat: str, pozo: int, faces: str):
    from games.macarena import Play

    return GAME.apply(state, seat, Play(pozo=pozo, cards=tuple(faces.split())))
