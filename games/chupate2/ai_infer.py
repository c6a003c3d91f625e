"""What the other seats' recent public plays say about their hands, read as ``normal`` plays.

``normal`` (``ai.choose_action``) decides from its hand alone: it plays the playable card of
highest ``POINTS + 0.5 * cards of its colour`` (wilds only when nothing else fits, a +4 only
when it holds no card of the colour in force), names the colour it holds most of, and draws only
when nothing fits. So each of its plays rules out hands: a red 3 played on a red 7 says it held
no red 8, no 7 of another colour, no red or 7-faced action... ``decisions(view)`` walks the
public events back from now, for every other seat, as long as the hand it held at each decision
is known from the hand it holds now (the cards it played since are put back; a draw whose card
it played at once leaves it known; a draw it kept says that nothing it holds now fitted then,
and stops the walk, as does any other card it got), and records each decision; ``violations(records, hands)`` counts how many of them a sampled deal contradicts.
The search's worlds (``ai_search.determinize``) prefer deals with fewer: a world is a guess at
what a player holding those cards would have done, from public events only.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.chupate2.ai import colour_counts, normal_card_score
from games.chupate2.cards import (
    COLOUR_OF,
    COLOURS,
    DRAW_TWO,
    FACE_OF,
    WILD,
    WILD_FOUR,
    matches,
)
from games.chupate2.view import Chupate2View
from games.core.engine import Seat

Top = tuple[str, str | None]  # (top face, colour in force)

_STOP = {"challenge_lost", "caught", "final_draw", "challenge_won"}  # it got cards unseen
_FOR_TARGET = {"challenge_won", "caught"}  # ... the cards went to ``params["target"]``
_NEW_HANDS = {"round_started", "hands_swapped", "hands_passed"}


@dataclass(frozen=True)
class Decision:
    """One recorded decision of ``seat``: its hand then was its hand now plus ``later`` (the
    cards it played since). ``kind``: ``play`` (it played ``card`` on ``top``; ``penalty``:
    answering a draw-two), ``name`` (it named ``colour`` after a wild, ``card`` already gone),
    ``stuck`` (it had to draw on ``top``: nothing fitted)."""

    seat: Seat
    kind: str
    top: Top
    card: str
    colour: str | None
    later: tuple[str, ...]
    unknown: int = 0  # the hand then lacked this many (unknown) of the cards counted
    penalty: bool = False


def _tops(view: Chupate2View) -> list[Top | None]:
    """The (top face, colour) before each of ``view.last_events``."""
    at: list[Top | None] = []
    top: Top | None = None
    for e in view.last_events:
        at.append(top)
        if e.code in ("played", "first_card", "jumped_in") and "card" in e.params:
            card = e.params["card"]
            top = (FACE_OF[card], e.params.get("colour", COLOUR_OF.get(card)))
        elif e.code == "colour_chosen" and top is not None:
            top = (top[0], e.params.get("colour"))
    return at


def supported(view: Chupate2View) -> bool:
    """The rules the records assume: no house rule that moves cards between hands or plays out
    of turn, no +4 stacking."""
    o = view.options
    return not (o.stack_plus4 or o.jump_in or o.seven_o or o.draw_until_playable)


def decisions(view: Chupate2View) -> list[Decision]:
    """Every other seat's recorded decisions, most recent first (public events only)."""
    if not supported(view):
        return []
    events = view.last_events
    at = _tops(view)
    out: list[Decision] = []
    for seat in view.hand_counts:
        if seat == view.seat:
            continue
        later: list[str] = []
        unknown = 0  # cards it got since, unseen: its hand then lacked that many of now's
        k = len(events) - 1
        while k >= 0:
            e = events[k]
            if e.code in _NEW_HANDS:
                break
            target = e.params.get("target") if e.code in _FOR_TARGET else e.seat
            if target != seat:
                k -= 1
                continue
            count = int(e.params.get("count", 0))
            top = at[k]
            if e.code in ("played", "jumped_in") and "card" in e.params:
                card = e.params["card"]
                if top is None:
                    break
                prev = events[k - 1] if k > 0 else None
                if prev is not None and prev.code == "drew" and prev.seat == seat:
                    # it played the card it had just drawn: before the draw nothing fitted
                    before = at[k - 1]
                    if before is not None and int(prev.params.get("count", 0)) == 1:
                        out.append(Decision(seat, "stuck", before, "", None, (*later,), unknown))
                    k -= 2
                    continue
                if COLOUR_OF[card] == WILD and unknown == 0:
                    colour = e.params.get("colour")
                    out.append(Decision(seat, "name", top, card, colour, (*later,)))
                penalty = _answering_penalty(events, k, seat)
                out.append(Decision(seat, "play", top, card, None, (*later,), unknown, penalty))
                later.append(card)
            elif e.code == "drew":
                if (
                    top is not None
                    and count == 1
                    and not (
                        view.phase == "drawn" and view.turn == seat  # still deciding on it
                    )
                ):
                    # it kept the card it drew: that card did not fit either (``normal`` plays
                    # a drawn card that fits), nor did the rest; which card it was is unknown
                    out.append(Decision(seat, "stuck", top, "", None, (*later,), unknown))
                unknown += count
            elif e.code == "took":
                unknown += count
                if top is not None and top[0] == DRAW_TWO:  # it could not stack a draw-two
                    out.append(Decision(seat, "nostack", top, "", None, (*later,), unknown))
            elif e.code in _STOP:
                unknown += count
            k -= 1
    return out


def _answering_penalty(events: list, k: int, seat: Seat) -> bool:
    """Whether the play ``events[k]`` answered a pending draw-two (a ``must_draw`` for ``seat``
    since the play before it)."""
    for j in range(k - 1, -1, -1):
        e = events[j]
        if e.code == "must_draw" and e.seat == seat:
            return True
        if e.code in ("played", "first_card", "jumped_in", "took", "drew"):
            return False
    return False


def _contradicts(d: Decision, hand: list[str]) -> bool:
    """Whether ``hand`` (held now) contradicts ``d``: more cards that would have been played
    instead than the ``d.unknown`` cards it may not have held then."""
    held = hand + list(d.later)
    face, colour = d.top
    u = d.unknown
    if d.kind == "stuck":
        return sum(1 for c in held if matches(c, face, colour)) > u
    if d.kind == "nostack":
        return sum(1 for c in held if FACE_OF[c] == DRAW_TWO) > u
    if d.kind == "name":
        counts = colour_counts(held)
        best = max(COLOURS, key=lambda c: (counts[c], -COLOURS.index(c)))
        return best != d.colour
    held.append(d.card)
    counts = colour_counts(held)
    in_colour = sum(1 for c in held if COLOUR_OF[c] == colour)
    mine = normal_card_score(d.card, counts) + 0.5 * u + 1e-9  # counts then may differ by up to u
    better = 0
    for c in held:
        if d.penalty:
            if FACE_OF[c] != DRAW_TWO:
                continue
        elif not matches(c, face, colour) or (FACE_OF[c] == WILD_FOUR and in_colour > u):
            continue
        if normal_card_score(c, counts) > mine:
            better += 1
    if FACE_OF[d.card] == WILD_FOUR and in_colour > u:
        return True  # ``normal`` plays a +4 only holding nothing of the colour in force
    return better > u


def violations(records: list[Decision], hands: dict[Seat, list[str]]) -> int:
    """How many of ``records`` the sampled ``hands`` contradict."""
    return sum(1 for d in records if _contradicts(d, hands[d.seat]))


def stuck_tops(records: list[Decision]) -> dict[Seat, list[Top]]:
    """Per seat, the tops none of the cards it holds now fits (it drew on them holding them)."""
    out: dict[Seat, list[Top]] = {}
    for d in records:
        if d.kind == "stuck" and d.unknown == 0:
            out.setdefault(d.seat, []).append(d.top)
    return out
