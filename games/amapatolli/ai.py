"""Computer players. They decide from the seat's view and its legal actions only.

* ``easy``: a random legal action (optional "Ce" / call-out half of the time).
* ``normal``: always says "Ce" and calls out whoever forgot; answers a bird with a bird; keeps
  birds and Tlapiāni for when they matter (an opponent close to going out, nothing else
  playable), prefers double plays it can follow up, sheds high-value cards and names the colour
  that suits its own hand.
* ``hard``: says "Ce" and calls out like ``normal``; on its turn, a determinized Monte-Carlo
  search (``ai_search``, ``games.core.search``) over its legal actions: worlds sampled from its
  view (the unseen cards dealt as the other players' draws and last plays allow), each played
  out by ``normal`` players to the end; it plays ``normal``'s choice unless another is clearly
  better over the same worlds. The budget is the table's think time (``Game.think_budget``) or,
  without one, ``DEFAULT_BUDGET`` rollouts.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from games.amapatolli.actions import AmapatolliAction, Announce, Catch, Play
from games.amapatolli.cards import COLOUR_LETTER
from games.core.budget import Budget
from games.core.computer import computer_player

if TYPE_CHECKING:
    from games.amapatolli.view import AmapatolliView, CardView

DEFAULT_BUDGET = Budget(iterations=16)  # hard, when the caller gives no think budget
THINK_RATE = 600  # bench/ai_strength.py: about 1.5 ms a rollout


DANGER = 2  # an opponent with this many cards or fewer is close to going out


def decide(
    view: AmapatolliView,
    legal: list[AmapatolliAction],
    level: str,
    rng: random.Random,
    budget: Budget,
) -> AmapatolliAction | None:
    my_turn = view.turn is not None and view.turn == view.seat
    optional = [a for a in legal if isinstance(a, Announce | Catch)]
    turn_actions = [a for a in legal if a not in optional]
    if level == "easy":
        if not my_turn:
            return rng.choice(optional) if rng.random() < 0.5 else None
        return rng.choice(legal)
    if optional:
        return optional[0]  # say "Ce" at once / catch whoever forgot
    if not my_turn or not turn_actions:
        return None
    plays = [a for a in turn_actions if isinstance(a, Play)]
    if not plays:
        return turn_actions[0]  # draw, pass or accept the skip: the only choice
    if level == "hard":
        from games.amapatolli.ai_search import choose_hard

        cheap = decide(view, legal, "normal", rng, budget)
        return choose_hard(view, turn_actions, cheap, rng, budget)
    hand = {c.id: c for c in view.hand}
    if view.skip_pending:  # a bird matters now: answer, shedding the highest value
        return max(plays, key=lambda a: (hand[a.card].value, a.card))
    # Ties are broken in the order of the action texts ("p.<card>[.<colour letter>]"), without
    # building the texts.
    scored = [(_score(view, hand, a), _text_order(a), a) for a in plays]
    best = max(s for s, _, _ in scored)
    return rng.choice([a for s, _, a in sorted(scored, key=lambda t: t[1]) if s == best])


choose_action = computer_player(decide, DEFAULT_BUDGET)


def _text_order(play: Play) -> tuple[str, str]:
    return play.card, COLOUR_LETTER[play.colour] if play.colour else ""


def _colours_after(card: CardView, colour: str | None) -> tuple[str, str]:
    return (colour, colour) if card.wild and colour else (card.margin, card.background)


def _follows(cards: list[CardView], margin: str, background: str) -> list[CardView]:
    return [
        c
        for c in cards
        if c.wild
        or c.margin == margin
        or c.background == background
        or (c.margin == background and c.background == margin)
    ]


def _triggers_double(view: AmapatolliView, card: CardView, margin: str, background: str) -> bool:
    if card.wild:
        return False
    if card.margin == margin and card.background == background:
        return True
    if card.margin == background and card.background == margin:
        return not (view.options.inverse_once and view.seat and view.inverse_used[view.seat])
    return False


def _score(
    view: AmapatolliView,
    hand: dict[str, CardView],
    action: Play,
) -> float:
    card = hand[action.card]
    colour = action.colour
    rest = [c for c in hand.values() if c.id != card.id]
    if not rest:
        return 10_000.0  # going out wins
    me = view.seat
    assert me is not None  # only a seat at turn scores its plays
    opponents = {s: n for s, n in view.hand_counts.items() if s != me}
    danger = min(opponents.values()) <= DANGER
    next_close = view.next_seat is not None and opponents.get(view.next_seat, 99) <= DANGER
    prev_seat = view.seats[(view.seats.index(me) - view.direction) % len(view.seats)]
    prev_count = opponents.get(prev_seat, 99)
    margin, background = _colours_after(card, colour)
    others_playable = [
        c
        for c in hand.values()
        if c.id in view.playable and not c.wild and not c.skips and c.id != card.id
    ]

    score = float(card.value)  # shed high values first
    # Keep options open: cards of mine that will still match what I leave on top.
    score += 1.5 * len(
        [c for c in rest if not c.wild and (c.margin == margin or c.background == background)]
    )
    if _triggers_double(view, card, view.margin, view.background):
        score += 18 if _follows(rest, margin, background) else -12
    if card.wild:
        score -= 40  # keep the wild card for when it matters
        if not others_playable and not any(c.skips for c in rest if c.id in view.playable):
            score += 45  # nothing else plays
        if danger:
            score += 30
        if next_close and prev_count > opponents.get(view.next_seat or "", 0):
            score += 20  # the reversal keeps the turn away from the player about to go out
        # Name the colour that suits my hand, valuing the cards I would like to shed.
        score += 0.3 * sum(c.value for c in rest if colour in (c.margin, c.background))
    elif card.skips:
        score -= 25  # a bird is worth keeping to answer one
        if next_close or len(view.seats) == 2 and danger:
            score += 45  # stop the player close to going out
        elif not others_playable:
            score += 20
    if card.reverses and not card.wild:  # Ollin with powers
        if next_close and len(view.seats) > 2 and prev_count > opponents[view.next_seat or ""]:
            score += 25
    return score
