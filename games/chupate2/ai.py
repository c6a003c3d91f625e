"""Computer players for Chúpate 2. They decide from the seat's View and legal actions only.

- ``easy``: a random legal action.
- ``normal``: dumps high-value cards first, keeps wilds (and +4s, played only when honest) for
  when nothing else fits, names the colour it holds most of, stacks draw penalties when it can.
- ``hard``: the optional calls and out-of-turn plays of ``normal``; on its turn (more than one
  legal action), a determinized Monte-Carlo search (``ai_search``, ``games.core.search``):
  worlds sampled from its view (the unseen cards dealt as the others' draws allow; a +4 waiting
  for its answer is a bluff or not as the sampled hand says), played out by ``normal`` players for
  a few moves (the others' recent plays read as ``normal``'s: ``ai_infer``); it plays the choice of its card counting (the former ``hard``, level
  ``HEURISTIC``: the estimate of what the opponents hold from the discard pile and public
  signals, attacks on an opponent close to going out, colours the next opponent lacks,
  challenges by the odds of a bluff, team play) unless another is clearly better over the same
  worlds.
"""

from __future__ import annotations

import random
from math import comb

from games.chupate2.actions import Catch, ChooseColour, Chupate2Action, Play, SwapWith
from games.chupate2.cards import (
    COLOUR_OF,
    COLOURS,
    DECK,
    DRAW_TWO,
    FACE_OF,
    POINTS,
    REVERSE,
    SKIP,
    WILD,
    WILD_FACE,
    WILD_FOUR,
)
from games.chupate2.view import Chupate2View
from games.core.budget import Budget
from games.core.computer import computer_player

HEURISTIC = "hard_heuristic"  # hard's card counting alone: the choice its search starts from
DEFAULT_BUDGET = Budget(iterations=16)  # hard, when the caller gives no think budget
THINK_RATE = 2000  # bench/ai_strength.py: 192 rollouts p95 99 ms (10-move rollouts)


CHALLENGE_THRESHOLD = 0.3  # challenge when P(the +4 was a bluff) exceeds this
BLUFF_RATE = 0.35  # prior: how often a player holding the colour in force plays a +4 anyway


def decide(
    view: Chupate2View, legal: list[Chupate2Action], level: str, rng: random.Random, budget: Budget
) -> Chupate2Action | None:
    my_turn = view.seat in view.to_act
    if level == "easy":
        if not my_turn:
            return rng.choice(legal) if rng.random() < 0.5 else None
        return rng.choice(legal)
    hard = level in ("hard", HEURISTIC)
    kinds = {a.kind: a for a in legal}
    if "announce" in kinds:
        return kinds["announce"]
    catch = next(
        (a for a in legal if isinstance(a, Catch) and not _is_mate(view, _target(view, a))), None
    )
    if catch is not None:
        return catch
    if not my_turn:
        # House rule jump-in: the only play offered out of turn; getting rid of a card is good.
        return next((a for a in legal if isinstance(a, Play)), None)
    if level == "hard" and len(legal) > 1:
        from games.chupate2.ai_search import choose_hard

        cheap = decide(view, legal, HEURISTIC, rng, budget)
        return choose_hard(view, legal, cheap, rng, budget)
    phase = view.phase
    if phase == "swap":
        return _pick_swap(view, [a for a in legal if isinstance(a, SwapWith)])
    if phase == "colour":
        best = _best_colour(view, None, hard)
        return next(a for a in legal if isinstance(a, ChooseColour) and a.colour == best)
    plays = [a for a in legal if isinstance(a, Play)]
    if phase == "challenge":
        return _answer_plus4(view, legal, plays, hard)
    if phase == "penalty":
        return _pick_play(view, plays, hard) or kinds["take"]
    if phase == "drawn":
        # Only an unplayable-hand draws, so the drawn card is needed: play it (an honest +4 too).
        return _with_colour(view, plays, hard) if plays else kinds.get("pass", legal[0])
    choice = _pick_play(view, plays, hard)
    if choice is not None:
        return choice
    return kinds.get("draw", legal[0])


choose_action = computer_player(decide, DEFAULT_BUDGET)


# ----- helpers shared by normal and hard ------------------------------------------------------
def colour_counts(cards: list[str]) -> dict[str, int]:
    """Cards of each colour in ``cards`` (wilds not counted)."""
    counts = dict.fromkeys(COLOURS, 0)
    for c in cards:
        col = COLOUR_OF[c]
        if col != WILD:
            counts[col] += 1
    return counts


def _seat_at(view: Chupate2View, steps: int) -> str:
    seats = view.seats
    origin = view.turn or view.seat
    assert origin is not None, "a computer player decides in a game still going on"
    i = seats.index(origin)
    return seats[(i + steps * view.direction) % len(seats)]


def _target(view: Chupate2View, catch: Catch) -> str | None:
    """The seat a catch is aimed at (no target: the one other player exposed)."""
    if catch.target is None:
        return next((s for s in view.exposed if s != view.seat), None)
    return view.seats[catch.target]


def _is_mate(view: Chupate2View, other: str | None) -> bool:
    if other is None or view.team_of is None or view.seat is None:
        return False
    return view.team_of.get(other) == view.team_of.get(view.seat)


def _pick_swap(view: Chupate2View, swaps: list[SwapWith]) -> SwapWith:
    """House rule 7-0: take the smallest hand, an opponent's before a team-mate's on a tie."""

    def key(action: SwapWith) -> tuple[int, bool, int]:
        seat = view.seats[action.target]
        return (view.hand_counts[seat], _is_mate(view, seat), action.target)

    return min(swaps, key=key)


def _plus4_is_honest(view: Chupate2View) -> bool:
    return not any(COLOUR_OF[c] == view.colour for c in view.hand)


def _with_colour(view: Chupate2View, options: list[Play], hard: bool) -> Play:
    """Among plays of one card, the one naming the best colour (or the only one)."""
    card = options[0].card
    if COLOUR_OF[card] != WILD:
        return options[0]
    rest = list(view.hand)
    if card in rest:
        rest.remove(card)
    best = _best_colour(view, rest, hard)
    return next((a for a in options if a.colour == best), options[0])


def _best_colour(view: Chupate2View, hand: list[str] | None, hard: bool) -> str:
    counts = colour_counts(view.hand if hand is None else hand)
    score = {c: float(counts[c]) for c in COLOURS}
    if hard:
        nxt = _seat_at(view, 1)
        for c in COLOURS:
            if not _is_mate(view, nxt):
                sig = view.signals.get(nxt)
                if sig is not None:
                    if c in sig.lacks:
                        score[c] += 0.4  # tie-breakers: our own colour count comes first
                    if sig.named == c:
                        score[c] -= 0.3
            for mate in view.seats:
                if mate != view.seat and _is_mate(view, mate):
                    sig = view.signals.get(mate)
                    if sig is not None and sig.named == c:
                        score[c] += 0.2
    return max(COLOURS, key=lambda c: (score[c], -COLOURS.index(c)))


def _pick_play(view: Chupate2View, plays: list[Play], hard: bool) -> Play | None:
    if not plays:
        return None
    by_card: dict[str, list[Play]] = {}
    for a in plays:
        by_card.setdefault(a.card, []).append(a)
    honest = _plus4_is_honest(view)
    candidates = []
    for card, options in by_card.items():
        face = FACE_OF[card]
        if face == WILD_FOUR and not honest and not (hard and _worth_bluffing(view)):
            continue
        candidates.append((_card_score(view, card, hard), card, options))
    if not candidates:
        return None
    candidates.sort(key=lambda t: (-t[0], t[1]))
    return _with_colour(view, candidates[0][2], hard)


def normal_card_score(card: str, counts: dict[str, int]) -> float:
    """``normal``'s value of playing ``card`` from a hand of ``counts`` (``colour_counts``): the
    playable card of the highest value is what it plays (``ai_infer`` reads its plays so)."""
    if COLOUR_OF[card] == WILD:
        # keep wilds for need: only when nothing else fits (plain Comodín before the +4)
        return -100.0 if FACE_OF[card] == WILD_FACE else -101.0
    return POINTS[card] + 0.5 * counts[COLOUR_OF[card]]  # dump high values, stay in a long colour


def _card_score(view: Chupate2View, card: str, hard: bool) -> float:
    face = FACE_OF[card]
    colour = COLOUR_OF[card]
    score = normal_card_score(card, colour_counts(view.hand))
    if not hard:
        return score
    nxt = _seat_at(view, 1)
    after = _seat_at(view, 2)
    next_is_opponent = not _is_mate(view, nxt)
    threat = view.hand_counts.get(nxt, 7)
    attack = face in (DRAW_TWO, SKIP, WILD_FOUR) or (face == REVERSE and len(view.seats) == 2)
    if next_is_opponent and attack:
        score += 60.0 if threat <= 2 else (15.0 if threat <= 4 else 0.0)
    if face == SKIP and _is_mate(view, after):
        score += 10.0  # pass the turn on to a team-mate
    if next_is_opponent and colour != WILD:
        sig = view.signals.get(nxt)
        if sig is not None and colour in sig.lacks:
            score += 8.0
        if threat <= 2:
            score += 6.0 * (1.0 - _holds_colour_probability(view, nxt, colour))
    if len(view.hand) == 2 and colour == WILD:
        score += 200.0  # going down to the last card with a wild leaves any colour open
    return score


def _worth_bluffing(view: Chupate2View) -> bool:
    nxt = _seat_at(view, 1)
    return not _is_mate(view, nxt) and view.hand_counts.get(nxt, 7) <= 2


# ----- card counting (hard) -------------------------------------------------------------------
def _unseen(view: Chupate2View) -> list[str]:
    seen = set(view.hand) | set(view.discard)
    return [c for c in DECK if c not in seen]


def _holds_colour_probability(
    view: Chupate2View, seat: str, colour: str, hand_size: int | None = None
) -> float:
    """P(``seat`` holds at least one card of ``colour``), from unseen cards and signals."""
    unseen = _unseen(view)
    total = len(unseen)
    n = view.hand_counts.get(seat, 0) if hand_size is None else hand_size
    k = sum(1 for c in unseen if COLOUR_OF[c] == colour)
    if n <= 0 or k <= 0 or total <= 0:
        return 0.0
    n = min(n, total)
    p = 1.0 - comb(total - k, n) / comb(total, n)
    sig = view.signals.get(seat)
    if sig is not None:
        if colour in sig.lacks:
            p *= 0.3
        elif sig.named == colour:
            p = 1.0 - (1.0 - p) * 0.3
    return p


def _answer_plus4(
    view: Chupate2View, legal: list[Chupate2Action], plays: list[Play], hard: bool
) -> Chupate2Action:
    kinds = {a.kind: a for a in legal}
    info = view.plus4
    if hard and info is not None:
        p_bluff = BLUFF_RATE * _holds_colour_probability(
            view, info.by, info.prev_colour, hand_size=info.by_hand_count
        )
        if p_bluff > CHALLENGE_THRESHOLD and "challenge" in kinds:
            return kinds["challenge"]
    elif info is not None and info.by_hand_count >= 6 and "challenge" in kinds:
        return kinds["challenge"]  # normal: a +4 from a big hand smells of a bluff
    if plays:
        return _with_colour(view, plays, hard)  # stack +4 (variant) and pass the bill on
    return kinds["take"]
