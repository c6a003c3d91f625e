"""Hard computer: determinized Monte-Carlo search (``games.core.search``) from the seat's view.

``determinize`` deals the cards the seat has not seen (the deck minus its own hand and the
discard pile, every card of which was played face up) at random into the other hands and the
stock, in the counts the view shows; a +4 waiting for the seat's answer gets the sampled hand of
the player who played it, and a deal where that +4 would be a bluff is kept only with the odds
players bluff (``ai.BLUFF_RATE``, the heuristic's prior), else dealt again: a uniform deal would
make bluffs far likelier than they are. A player who drew on its turn is taken to have held
nothing playable (what ``normal`` and the card counting do; ``hand_slots``): the cards it held
then and still holds are dealt, with odds ``TRUST``, from the unseen cards that would not have
matched the top card and colour of that moment. The others' recent plays are read as
``normal``'s (``ai_infer``): a world's hands are dealt so that none holds a card that missed a
top it then drew on, and the deal is the first of ``INFER_TRIES`` whose hands contradict none of
those plays (or the one that contradicts fewest). Rollouts are
played by the ``normal`` computer of every seat for ``HORIZON`` moves: 1 for the seat (or its
team) going out first within them, else 0, and a rollout stopped at its horizon scores by hand
sizes (short rollouts: less of the noise of the far future, and more worlds for the same time).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, cast

from games.chupate2 import ai_infer
from games.chupate2.actions import Chupate2Action
from games.chupate2.ai import BLUFF_RATE
from games.chupate2.cards import COLOUR_OF, DECK, FACE_OF, matches
from games.chupate2.options import team_groups
from games.chupate2.state import Chupate2State, PlusFour
from games.chupate2.view import Chupate2View, PlusFourInfo
from games.core.engine import Seat
from games.core.search import Budget, determinized_search, engine_step

if TYPE_CHECKING:
    from games.chupate2.game import Chupate2Game

HORIZON = 10
CONFIDENCE = 1.0  # standard errors by which the search must beat the heuristic's choice
OVERRIDE_ROUNDS = 8  # ... and only after this many sampled worlds
REDEALS = 8  # a +4 pending: deals tried before a bluff is accepted anyway
TRUST = 0.9  # odds a world believes that a player who drew held nothing playable
INFER_TRIES = 24  # deals tried for one that explains the others' recent plays

Slot = frozenset[tuple[str, str | None]]  # (top face, colour in force) a hidden card missed
_ACQUIRE = {"drew", "took", "challenge_lost", "caught", "final_draw"}  # public: count, seat
_FOR_TARGET = {"challenge_won", "caught"}  # ... the cards went to ``params["target"]``
_NEW_HANDS = {"round_started", "hands_swapped", "hands_passed"}  # what was known goes


def hand_slots(view: Chupate2View) -> dict[Seat, list[Slot]]:
    """For every other seat, one entry per card it holds (most constrained first): the
    (top face, colour) of each of its turn draws that the card was held through. Public events
    only, and a sound count: after a draw, at least ``held - cards got since`` of the cards held
    now were held then (whichever cards the plays since took)."""
    me = view.seat
    events = view.last_events
    at: list[tuple[str, str | None] | None] = []  # (top face, colour) before each event
    top: tuple[str, str | None] | None = None
    start = 0
    for k, e in enumerate(events):
        at.append(top)
        if e.code in _NEW_HANDS:
            start = k + 1
        if e.code in ("played", "first_card", "jumped_in") and "card" in e.params:
            card = e.params["card"]
            colour = e.params.get("colour", COLOUR_OF.get(card))
            top = (FACE_OF[card], colour)
        elif e.code == "colour_chosen" and top is not None:
            top = (top[0], e.params.get("colour"))
    slots: dict[Seat, list[Slot]] = {}
    for seat, n in view.hand_counts.items():
        if seat == me:
            continue
        got = 0  # cards this seat received after the event looked at (a bound on the new ones)
        held: list[set[tuple[str, str | None]]] = [set() for _ in range(n)]
        for k in range(len(events) - 1, start - 1, -1):
            e = events[k]
            target = e.params.get("target") if e.code in _FOR_TARGET else e.seat
            if e.code not in _ACQUIRE | _FOR_TARGET or target != seat:
                continue
            count = int(e.params.get("count", 0))
            if e.code == "drew" and at[k] is not None:
                for slot in held[: max(0, n - got - count)]:
                    slot.add(at[k])  # type: ignore[arg-type]
            got += count
        slots[seat] = [frozenset(x) for x in held]
    return slots


def _playable_on(card: str, slot: Slot) -> bool:
    return any(matches(card, face, colour) for face, colour in slot)


def _deal(pool: list[str], held: list[Slot], rng: random.Random) -> list[str]:
    """Cards for ``held`` from the shuffled ``pool`` (removed from it): a constrained slot takes
    the first card of the pool its draws allow (any card when none does, or when this world
    doubts the draw, ``1 - TRUST``)."""
    hand: list[str] = []
    for slot in held:
        pick = 0
        if slot and rng.random() < TRUST:
            pick = next((k for k, c in enumerate(pool) if not _playable_on(c, slot)), 0)
        hand.append(pool.pop(pick))
    return hand


def _dealt(pool: list[str], held: list[Slot], n: int, rng: random.Random) -> list[str]:
    """A hidden hand of ``n`` cards from ``pool`` (removed from it): ``_deal`` for the slots its
    draws constrain, the rest off the pool's end."""
    hand = _deal(pool, held[:n], rng)
    hand += [pool.pop() for _ in range(n - len(hand))]
    return hand


def _bluffed(hand: list[str], colour: str) -> bool:
    return any(COLOUR_OF[c] == colour for c in hand)


def _deal_hands(
    view: Chupate2View,
    unseen: list[str],
    known: dict[str, list[str]],
    slots: dict[Seat, list[Slot]],
    rng: random.Random,
    stuck: dict[Seat, list[ai_infer.Top]],
) -> tuple[dict[str, list[str]], list[str]]:
    """The hands of one sampled deal (this seat's own as it is) and the cards left over;
    ``stuck``: the tops each seat had to draw on since it last got a card it kept unseen (none
    of the cards it holds now fits them: ``ai_infer.stuck_tops``)."""
    me = view.seat
    hands: dict[str, list[str]] = {}
    pool: list[str] = []
    for _ in range(REDEALS):
        pool = list(unseen)
        rng.shuffle(pool)
        hands = {}
        for s in view.seats:
            if s == me:
                hands[s] = list(view.hand)
                continue
            hand = known.get(s, [])
            n = view.hand_counts[s] - len(hand)
            if hand:  # a revealed hand: the rest at random
                hands[s], pool = hand + pool[:n], pool[n:]
                continue
            held = slots.get(s, [])
            fits = None
            if stuck.get(s) and rng.random() < TRUST:
                # every card it holds now missed the tops it had to draw on
                fits = [c for c in pool if not any(matches(c, f, col) for f, col in stuck[s])]
            if fits is not None and len(fits) >= n:
                fitting = set(fits)
                rest = [c for c in pool if c not in fitting]
                hands[s] = _dealt(fits, held, n, rng)
                pool = fits + rest
                rng.shuffle(pool)
            else:
                hands[s] = _dealt(pool, held, n, rng)
        if view.plus4 is None or not _bluffed(hands[view.plus4.by], view.plus4.prev_colour):
            break
        if rng.random() < BLUFF_RATE:  # a bluff, as often as players bluff
            break
    return hands, pool


def determinize(
    view: Chupate2View,
    rng: random.Random,
    slots: dict[Seat, list[Slot]] | None = None,
    records: list[ai_infer.Decision] | None = None,
) -> Chupate2State:
    """A full state agreeing with ``view``; the unseen cards shuffled into the hidden places
    (``slots``: ``hand_slots(view)``, ``records``: ``ai_infer.decisions(view)``, computed once
    per search by the caller; with ``records``, the best of ``INFER_TRIES`` deals)."""
    me = view.seat
    assert me is not None, "a world is sampled for a seat"
    seats = list(view.seats)
    remaining = list(view.hand)
    for c in view.discard:
        remaining.append(c)
    counts: dict[str, int] = {}
    for c in remaining:
        counts[c] = counts.get(c, 0) + 1
    pool: list[str] = []
    for c in DECK:  # DECK may hold equal ids more than once: count them off
        if counts.get(c, 0) > 0:
            counts[c] -= 1
        else:
            pool.append(c)
    # a challenge reveal just showed this seat the other hand: those cards are still there
    known: dict[str, list[str]] = {}
    if view.reveal is not None and view.reveal.to == me:
        for c in view.reveal.cards[: view.hand_counts.get(view.reveal.of, 0)]:
            if c in pool:
                pool.remove(c)
                known.setdefault(view.reveal.of, []).append(c)
    unseen = pool
    if slots is None:
        slots = hand_slots(view)
    stuck = ai_infer.stuck_tops(records or [])
    hands, pool = _deal_hands(view, unseen, known, slots, rng, stuck)
    if records:  # deals whose hands explain the others' recent plays, as ``normal``'s
        best = ai_infer.violations(records, hands)
        for _ in range(INFER_TRIES - 1):
            if best == 0:
                break
            other, other_pool = _deal_hands(view, unseen, known, slots, rng, stuck)
            v = ai_infer.violations(records, other)
            if v < best:
                best, hands, pool = v, other, other_pool
    stock = pool[: view.stock_count]
    current = seats.index(view.turn) if view.turn in seats else 0
    drawn = view.drawn_card
    if view.phase == "drawn" and drawn is None and hands[seats[current]]:
        drawn = hands[seats[current]][-1]
    plus4 = None
    if view.plus4 is not None:
        info = view.plus4
        hand = hands[info.by]
        plus4 = PlusFour(
            by=info.by,
            legal=not _bluffed(hand, info.prev_colour),
            prev_colour=info.prev_colour,
            hand=list(hand),
            pending_before=max(0, view.pending_draw - 4),
        )
    groups = view.teams
    return Chupate2State(
        seed=f"world{rng.random()}",
        seats=seats,
        options=view.options,
        round=view.round,
        dealer=seats.index(view.dealer),
        starter=seats.index(view.starter),
        hands=hands,
        stock=stock,
        discard=list(view.discard),
        colour=view.colour,
        direction=view.direction,
        turn=current,
        phase=view.phase,  # type: ignore[arg-type]
        pending=view.pending_draw,
        drawn=drawn,
        plus4=plus4,
        reveal=view.reveal,
        shuffles=0,
        scores=dict(view.scores),
        team_scores=list(view.team_scores or ([0] * len(groups) if groups else [])),
        results=list(view.results),
        called=list(view.last_card_called),
        exposed=view.exposed,
        signals=dict(view.signals),
        log=[],
        log_versions=[],
    )


class _RolloutView:
    """What the ``normal`` computer reads of a view, built cheaply from a sampled world (the
    rollouts only ever play inside worlds the search sampled, never the true state)."""

    __slots__ = ("seat", "to_act", "phase", "hand", "colour", "plus4", "team_of", "exposed")

    def __init__(self, state: Chupate2State, seat: Seat, team_of: dict[str, int] | None) -> None:
        current = state.seats[state.turn]
        self.seat = seat
        self.to_act = [] if state.finished else [current]
        self.phase = state.phase
        self.hand = state.hands[seat]
        self.colour = state.colour
        p4 = state.plus4
        self.plus4 = None
        if p4 is not None and state.phase == "challenge":
            self.plus4 = PlusFourInfo(
                by=p4.by, victim=current, prev_colour=p4.prev_colour, by_hand_count=len(p4.hand)
            )
        self.team_of = team_of
        self.exposed = state.exposed


def _rollout_policy(state: Chupate2State, seat: Seat, legal: list[Any], rng: random.Random) -> Any:
    from games.chupate2 import ai

    groups = team_groups(len(state.seats), state.options)
    team_of = None
    if groups is not None:
        team_of = {state.seats[i]: t for t, g in enumerate(groups) for i in g}
    view = cast(Chupate2View, _RolloutView(state, seat, team_of))
    return ai.choose_action(view, legal, "normal", rng)


class Chupate2Search:
    """The game as the search sees it (``games.core.search.Searchable``): one round."""

    def __init__(self, engine: Chupate2Game, round_number: int) -> None:
        self.engine = engine
        self.policy = _rollout_policy
        self.round = round_number  # the round searched: a rollout ends when it is scored
        self._slots: tuple[Any, dict[Seat, list[Slot]], list[ai_infer.Decision]] | None = None

    def determinize(self, view: Any, rng: random.Random) -> Chupate2State:
        if self._slots is None or self._slots[0] is not view:
            self._slots = (view, hand_slots(view), ai_infer.decisions(view))
        return determinize(view, rng, self._slots[1], self._slots[2])

    def done(self, state: Chupate2State) -> bool:
        return state.finished or state.round != self.round

    def step(self, state: Chupate2State, rng: random.Random) -> Chupate2State:
        optional = state.options.last_card or state.options.jump_in
        out: Chupate2State = engine_step(self.engine, state, rng, self.policy, optional)
        return out

    def play(self, state: Chupate2State, seat: Seat, action: Chupate2Action) -> Chupate2State:
        return self.engine.apply(state, seat, action)[0]

    def value(self, state: Chupate2State, seat: Seat, finished: bool) -> float:
        if finished and state.results and state.results[-1].round == self.round:
            winner = state.results[-1].winner
            return 1.0 if winner == seat or _mates(state, seat, winner) else 0.0
        mine = len(state.hands[seat])
        fewest = min(len(h) for s, h in state.hands.items() if s != seat)
        return 0.5 + 0.05 * max(-9, min(9, fewest - mine))


def _mates(state: Chupate2State, seat: Seat, other: Seat) -> bool:
    groups = team_groups(len(state.seats), state.options)
    if groups is None:
        return False
    i, j = state.seats.index(seat), state.seats.index(other)
    return any(i in g and j in g for g in groups)


def choose_hard(
    view: Chupate2View,
    candidates: list[Chupate2Action],
    cheap: Chupate2Action | None,
    rng: random.Random,
    budget: Budget,
) -> Chupate2Action:
    """The search's choice among ``candidates``; ``cheap`` (the card-counting heuristic's)
    unless clearly worse."""
    from games.chupate2 import GAME

    assert view.seat is not None
    default = candidates.index(cheap) if cheap in candidates else None
    search = Chupate2Search(GAME, view.round)
    result = determinized_search(
        search,
        view,
        view.seat,
        candidates,
        rng,
        budget,
        HORIZON,
        default,
        confidence=CONFIDENCE,
        override_rounds=OVERRIDE_ROUNDS,
    )
    return result.choice
