"""Series: validation for ``apply`` and the step-by-step builder helpers for a UI.

A series c1 … cn laid on a pozo whose top is t is valid when every consecutive pair
(t, c1), (c1, c2), … is an escalera or igual-número link, except that two identical cards in a
row are an espejo, which ends the series: a first card identical to t is an espejo solo (alone),
and a later card identical to the one before it must be the last card.

The UI builds one series per turn: pick a pozo from ``playable_pozos``, then add cards one at a
time from ``series_options`` (each button adds one face), and "Bajar" sends
``Play(pozo, cards)`` once ``series_status(...).playable`` holds. ``apply`` validates it again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from games.core.cards import PlayingCard, parse_card
from games.core.errors import IllegalAction
from games.macarena.elements import FOLLOWERS, canonical_face, link_kind, sort_key
from games.macarena.state import MacarenaState
from games.macarena.turns import may_play_on
from games.macarena.view import MacarenaView

# Error codes (``IllegalAction``) of this module; bot/i18n translates ``macarena.error.<code>``.
EMPTY_SERIES = "empty_series"
AFTER_ESPEJO = "after_espejo"
CARD_NOT_IN_HAND = "card_not_in_hand"
NO_LINK = "no_link"

CardLike = PlayingCard | str


@dataclass(frozen=True)
class Series:
    """A resolved series: the hand cards (with their decks) and what kind of play it is."""

    cards: list[PlayingCard]
    espejo: bool  # ends in an espejo (solo or at the end of a series)
    solo: bool  # an espejo solo: the one card goes to the collection, the top stays

    @property
    def to_collection(self) -> list[PlayingCard]:
        return list(self.cards) if self.solo else list(self.cards[:-1])

    @property
    def new_top(self) -> PlayingCard | None:
        return None if self.solo else self.cards[-1]


def _faces(cards: Sequence[CardLike]) -> list[str]:
    return [canonical_face(c) for c in cards]


def resolve_series(
    top: PlayingCard, hand: Sequence[PlayingCard], cards: Sequence[CardLike]
) -> Series:
    """Check ``cards`` against the pozo ``top`` and the ``hand``; raise ``IllegalAction`` if bad.

    Codes: ``empty_series``, ``card_not_in_hand`` (card), ``no_link`` (card, after),
    ``after_espejo`` (card).
    """
    faces = _faces(cards)
    if not faces:
        raise IllegalAction(EMPTY_SERIES)
    left = list(hand)
    chosen: list[PlayingCard] = []
    prev = top
    espejo = solo = False
    for i, face in enumerate(faces):
        if espejo:
            raise IllegalAction(AFTER_ESPEJO, card=face)
        wanted = parse_card(face)
        pick = next((c for c in left if c.rank == wanted.rank and c.suit == wanted.suit), None)
        if pick is None:
            raise IllegalAction(CARD_NOT_IN_HAND, card=face)
        kind = link_kind(prev, pick)
        if kind is None:
            raise IllegalAction(NO_LINK, card=face, after=prev.code)
        if kind == "espejo":
            espejo = True
            solo = i == 0
        left.remove(pick)
        chosen.append(pick)
        prev = pick
    return Series(cards=chosen, espejo=espejo, solo=solo)


def next_options(
    top: PlayingCard, hand: Sequence[PlayingCard], so_far: Sequence[CardLike]
) -> list[PlayingCard]:
    """Distinct hand faces that may follow ``so_far`` (one card per face), sorted."""
    if so_far:
        try:
            series = resolve_series(top, hand, so_far)
        except IllegalAction:
            return []
        if series.espejo:
            return []
        left = list(hand)
        for c in series.cards:
            left.remove(c)
        prev = series.cards[-1]
    else:
        left = list(hand)
        prev = top
    return faces_following(prev, first_of_each_face(left))


def first_of_each_face(hand: Sequence[PlayingCard]) -> dict[tuple[int, str], PlayingCard]:
    """The first card of each face (rank and suit) of ``hand``, by face, in the hand's order
    (read once, it serves every pozo a seat may play on: ``rules.legal_actions``)."""
    first: dict[tuple[int, str], PlayingCard] = {}
    for card in hand:
        fields = card.__dict__
        first.setdefault((fields["rank"], fields["suit"]), card)
    return first


def faces_following(
    prev: PlayingCard, faces: dict[tuple[int, str], PlayingCard]
) -> list[PlayingCard]:
    """The cards of ``faces`` (``first_of_each_face``) that may follow ``prev``, sorted."""
    follows = FOLLOWERS[prev.rank, prev.suit]  # ``link_kind(prev, c) is not None``, tabulated
    out = [card for face, card in faces.items() if face in follows]
    if len(out) > 1:
        out.sort(key=sort_key)
    return out


# ----- state-or-view adapters --------------------------------------------------------------------


@dataclass(frozen=True)
class _Table:
    hand: list[PlayingCard]
    tops: list[PlayingCard]
    allowed: list[bool]


def _table(source: MacarenaState | MacarenaView, seat: str) -> _Table:
    if isinstance(source, MacarenaState):
        return _Table(
            hand=list(source.hands.get(seat, [])),
            tops=[p[-1] for p in source.pozos],
            allowed=[may_play_on(source, seat, i) for i in range(len(source.pozos))],
        )
    if source.seat != seat or source.hand is None:
        return _Table(hand=[], tops=[p.top for p in source.pozos], allowed=[False] * 7)
    return _Table(
        hand=list(source.hand),
        tops=[p.top for p in source.pozos],
        allowed=[p.playable for p in source.pozos],
    )


def series_options(
    source: MacarenaState | MacarenaView, seat: str, pozo: int, cards_so_far: Sequence[CardLike]
) -> list[PlayingCard]:
    """Hand cards (one per face) that may come next in ``seat``'s series on ``pozo``.

    Empty when it is not that seat's play, the pozo is closed to it, the series so far is
    invalid, or it already ended in an espejo.
    """
    table = _table(source, seat)
    if not 0 <= pozo < len(table.tops) or not table.allowed[pozo]:
        return []
    return next_options(table.tops[pozo], table.hand, cards_so_far)


@dataclass(frozen=True)
class SeriesStatus:
    playable: bool  # "Bajar" may be pressed: a valid non-empty series on an open pozo
    complete: bool  # nothing more may be added (it ended in an espejo, or no card links)
    espejo: bool
    solo: bool
    to_collection: int  # cards that would go to the collection
    error: str | None = None  # IllegalAction code when not playable
    params: dict[str, Any] = field(default_factory=dict)


def series_status(
    source: MacarenaState | MacarenaView, seat: str, pozo: int, cards_so_far: Sequence[CardLike]
) -> SeriesStatus:
    table = _table(source, seat)
    if not 0 <= pozo < len(table.tops) or not table.allowed[pozo]:
        return SeriesStatus(
            False, True, False, False, 0, error="pozo_closed", params={"pozo": pozo}
        )
    try:
        series = resolve_series(table.tops[pozo], table.hand, cards_so_far)
    except IllegalAction as exc:
        if exc.code == "empty_series":
            more = bool(next_options(table.tops[pozo], table.hand, []))
            return SeriesStatus(False, not more, False, False, 0, error=exc.code)
        return SeriesStatus(False, True, False, False, 0, error=exc.code, params=exc.params)
    more = not series.espejo and bool(next_options(table.tops[pozo], table.hand, cards_so_far))
    return SeriesStatus(True, not more, series.espejo, series.solo, len(series.to_collection))


def playable_pozos(source: MacarenaState | MacarenaView, seat: str) -> list[int]:
    """Pozos on which ``seat`` could lay at least one card now."""
    table = _table(source, seat)
    # ``next_options(top, hand, [])`` non-empty, asked of the hand's faces as a set: one set
    # per call instead of a hand copied and sorted per pozo (the play menu asks at every view)
    faces = {(c.rank, c.suit) for c in table.hand}
    return [
        i
        for i, top in enumerate(table.tops)
        if table.allowed[i] and not FOLLOWERS[top.rank, top.suit].isdisjoint(faces)
    ]


def enumerate_series(
    top: PlayingCard, hand: Sequence[PlayingCard], max_nodes: int = 2000, max_len: int = 60
) -> list[list[PlayingCard]]:
    """Valid series on ``top`` by depth-first search (faces, one per distinct path), bounded."""
    out: list[list[PlayingCard]] = []
    _walk_series(top, sorted(hand, key=sort_key), [], out, [max_nodes], max_len)
    return out


def _walk_series(
    prev: PlayingCard,
    left: list[PlayingCard],
    path: list[PlayingCard],
    out: list[list[PlayingCard]],
    budget: list[int],
    max_len: int,
) -> None:
    """``enumerate_series``'s search from ``prev`` (a module function, not a closure: a
    recursive closure refers to itself, a reference cycle that kept ``out`` for the collector)."""
    seen: set[str] = set()
    for c in left:
        if budget[0] <= 0:
            return
        if c.code in seen:
            continue
        kind = link_kind(prev, c)
        if kind is None:
            continue
        seen.add(c.code)
        budget[0] -= 1
        new_path = path + [c]
        out.append(new_path)
        if kind == "espejo" or len(new_path) >= max_len:
            continue
        rest = list(left)
        rest.remove(c)
        _walk_series(c, rest, new_path, out, budget, max_len)
