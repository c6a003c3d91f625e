"""Hard computer: determinized Monte-Carlo search (``games.core.search``) from the seat's view.

``determinize`` deals the cards the seat has not seen (the full deck minus its own hand, the card
on top and the cards the view's events show played) at random into the other hands, the stock and
the cards under the top of the pile, in the counts the view shows; everything public is copied.
It reads what the public events say of the other hands (``hand_slots``): a player who drew or
passed held no card matching the colours in force (nor a Tlapiāni), so the cards they held then
and still hold are dealt from the unseen cards that do not match those colours. It also reads
each other player's last play as the choice of the ``normal`` computer (``last_plays``): a
world in which ``normal``, holding that hand, would have played something else is dealt again
(up to ``REDEALS`` times; with odds ``DOUBT`` it is kept anyway, for players who play otherwise).
Rollouts are played by the ``normal`` computer of every seat; a finished game scores 1 for a win
(½ for a shared first place), a rollout stopped at its horizon scores by hand sizes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from games.amapatolli import rules
from games.amapatolli.actions import PLAYS, AmapatolliAction, Announce, Catch, Play
from games.amapatolli.cards import CARDS, COLOURS, deck_ids
from games.amapatolli.state import AmapatolliState
from games.amapatolli.view import AmapatolliView, card_views
from games.core.engine import Seat
from games.core.search import Budget, determinized_search

if TYPE_CHECKING:
    from games.amapatolli.game import AmapatolliGame

HORIZON = 200  # moves per rollout; a 2-player game rarely needs more than 100
REDEALS = 8  # deals tried for a world whose other hands explain their last plays
DOUBT = 0.1  # odds a world is kept although ``normal`` would have played otherwise


Slot = frozenset[tuple[str, str]]  # the colours (margin, background) a hidden card did not match


def hand_slots(view: AmapatolliView) -> dict[Seat, list[Slot]]:
    """For every other seat, one entry per card it holds: the colours in force at each of its
    draws or passes since the card came into its hand (a card it held then matched none of
    them: the rules let a player draw or pass only when nothing in hand was playable). Public
    events only (the view keeps the last few). A play takes the newest card it can be (after a
    draw, the card drawn)."""
    me = view.seat
    events = view.last_events  # the last few moves only: the hands before them are unknown
    held_before: dict[Seat, int] = {s: n for s, n in view.hand_counts.items() if s != me}
    for e in events:  # how many cards each held when the first of these events happened
        if e.seat in held_before and e.code == "played":
            held_before[e.seat] += 1
        elif e.seat in held_before and e.code == "drew":
            held_before[e.seat] -= 1
        elif e.code == "caught" and e.params.get("target") in held_before:
            held_before[e.params["target"]] -= int(e.params.get("count", 0))
    slots: dict[Seat, list[Slot]] = {s: [frozenset()] * max(0, n) for s, n in held_before.items()}
    colours: tuple[str, str] | None = None  # unknown until a card is seen played
    for e in events:
        code, seat = e.code, e.seat
        if code in ("dealt", "played"):
            card = CARDS.get(e.params.get("card", ""))
            if code == "played" and seat in slots and card is not None:
                held = slots[seat]
                fits = [k for k, slot in enumerate(held) if not _matches_any(card.id, slot)]
                if held:
                    held.pop(fits[-1] if fits else len(held) - 1)
            if card is not None and not card.wild:
                colours = (card.margin, card.background)
        elif code == "colour_chosen":
            colour = e.params.get("colour", "")
            colours = (colour, colour)
        elif code in ("drew", "passed") and seat in slots:
            if colours is not None:
                slots[seat] = [slot | {colours} for slot in slots[seat]]
            if code == "drew":
                slots[seat].append(frozenset())
        elif code == "caught":
            target = e.params.get("target")
            if target in slots:
                slots[target].extend([frozenset()] * int(e.params.get("count", 0)))
    for s, held in slots.items():  # the counts the view shows win over the reconstruction
        n = view.hand_counts.get(s, 0)
        held.sort(key=len, reverse=True)
        del held[n:]
        held.extend([frozenset()] * (n - len(held)))
    return slots


@dataclass(frozen=True)
class LastPlay:
    """A seat's last play the view shows: ``card`` (and the colour it named) on ``colours``,
    or as the answer to a bird."""

    seat: Seat
    card: str
    colour: str | None
    colours: tuple[str, str]
    answer: bool
    counts: dict[Seat, int]  # the cards each seat held then (the player's: before the play)


def last_plays(view: AmapatolliView) -> list[LastPlay]:
    """Every other seat's last play among the view's events, when the colours it was played on
    are known and the seat got no card after it."""
    me = view.seat
    colours: tuple[str, str] | None = None
    found: dict[Seat, LastPlay | None] = {}
    events = view.last_events
    for k, e in enumerate(events):
        code, seat = e.code, e.seat
        card = CARDS.get(e.params.get("card", "")) if code in ("dealt", "played") else None
        if code == "played" and card is not None and seat is not None and seat != me:
            named = None
            if k + 1 < len(events) and events[k + 1].code == "colour_chosen":
                named = events[k + 1].params.get("colour")
            answer = bool(e.params.get("answer"))
            if colours is None and not answer:
                found[seat] = None
            else:
                before = colours or (card.margin, card.background)
                counts = _counts_before(view, k)
                found[seat] = LastPlay(seat, card.id, named, before, answer, counts)
        elif code == "caught" and e.params.get("target") in found:
            found[e.params["target"]] = None  # a penalty since: that hand is gone
        elif code == "drew" and seat in found:
            found[seat] = None
        if card is not None and not card.wild:
            colours = (card.margin, card.background)
        elif code == "colour_chosen":
            colour = e.params.get("colour", "")
            colours = (colour, colour)
    return [p for p in found.values() if p is not None]


def _counts_before(view: AmapatolliView, k: int) -> dict[Seat, int]:
    """The hand counts when event ``k`` happened, from the counts now and the moves since."""
    counts = dict(view.hand_counts)
    for e in view.last_events[k:]:
        if e.code == "played" and e.seat in counts:
            counts[e.seat] += 1
        elif e.code == "drew" and e.seat in counts:
            counts[e.seat] -= 1
        elif e.code == "caught" and e.params.get("target") in counts:
            counts[e.params["target"]] -= int(e.params.get("count", 0))
    return counts


class _DecisionView:
    """What ``normal`` read when it made ``play``, rebuilt around a sampled hand."""

    def __init__(self, view: AmapatolliView, play: LastPlay, held: list[str]) -> None:
        seats = view.seats
        i = seats.index(play.seat)
        cards = card_views(view.options)
        self.seat = play.seat
        self.seats = seats
        self.turn = play.seat
        self.direction = view.direction
        self.next_seat = seats[(i + view.direction) % len(seats)]
        self.hand = [cards[c] for c in held]
        self.hand_counts = {**play.counts, play.seat: len(held)}
        self.skip_pending = play.answer
        self.margin, self.background = play.colours
        self.options = view.options
        self.inverse_used = view.inverse_used
        m, b = play.colours
        self.playable = [c for c in held if rules.matches(CARDS[c], m, b)]


def _normal_would_play(view: AmapatolliView, play: LastPlay, hand: list[str]) -> bool:
    """Whether ``normal`` holding ``hand`` and ``play.card`` could have chosen ``play``."""
    from games.amapatolli import ai

    held = [*hand, play.card]
    cards = card_views(view.options)
    if play.answer:
        birds = [cards[c] for c in held if cards[c].skips]
        return max(birds, key=lambda c: (c.value, c.id)).id == play.card
    decision = _DecisionView(view, play, held)
    plays = [
        PLAYS[(c, colour)]
        for c in decision.playable
        for colour in (COLOURS if CARDS[c].wild else (None,))
    ]
    by_id = {c.id: c for c in decision.hand}
    as_view = cast(AmapatolliView, decision)
    scores: dict[tuple[str, str | None], float] = {
        (a.card, a.colour): ai._score(as_view, by_id, a) for a in plays
    }
    chosen = scores.get((play.card, play.colour))
    return chosen is not None and chosen >= max(scores.values())


@dataclass(frozen=True)
class Reading:
    """What the view's events say of the other hands (computed once per search)."""

    slots: dict[Seat, list[Slot]]
    plays: list[LastPlay]


def read_view(view: AmapatolliView) -> Reading:
    return Reading(hand_slots(view), last_plays(view))


def _matches_any(card_id: str, slot: Slot) -> bool:
    card = CARDS[card_id]
    return any(rules.matches(card, m, b) for m, b in slot)


def _deal_hand(pool: list[str], held: list[Slot]) -> list[str]:
    """Cards for ``held`` from the shuffled ``pool`` (removed from it), the most constrained
    slot first, each the first card of the pool its colours allow (any card if none does)."""
    hand: list[str] = []
    for slot in held:
        pick = 0
        if slot:
            pick = next((k for k, c in enumerate(pool) if not _matches_any(c, slot)), 0)
        hand.append(pool.pop(pick))
    return hand


def determinize(
    view: AmapatolliView, rng: random.Random, reading: Reading | None = None
) -> AmapatolliState:
    """A full state agreeing with ``view``; the unseen cards shuffled into the hidden places
    (``reading``: ``read_view(view)``, computed once per search by the caller)."""
    me = view.seat
    assert me is not None, "a world is sampled for a seat"
    seats = list(view.seats)
    own = [c.id for c in view.hand]
    seen = set(own) | {view.top.id}
    seen |= {
        e.params["card"] for e in view.last_events if e.code == "played" and "card" in e.params
    }
    unseen = [c for c in deck_ids(not view.options.no_tlapiani) if c not in seen]
    if reading is None:
        reading = read_view(view)
    for attempt in range(REDEALS):
        pool = list(unseen)
        rng.shuffle(pool)
        hands: list[list[str]] = []
        for s in seats:
            if s == me:
                hands.append(list(own))
            else:
                hands.append(_deal_hand(pool, reading.slots[s]))
        if attempt + 1 == REDEALS or all(
            _normal_would_play(view, p, hands[seats.index(p.seat)]) for p in reading.plays
        ):
            break
        if rng.random() < DOUBT:
            break
    stock = pool[: view.stock_count]
    pool = pool[view.stock_count :]
    # under the top: the cards the events show played, and the rest of the unseen ones
    played = {
        e.params["card"]
        for e in view.last_events
        if e.code == "played" and e.params.get("card") not in (view.top.id, None)
    } - set(own)
    pile = pool + sorted(played)
    pile.append(view.top.id)
    return AmapatolliState(
        seed=f"world{rng.random()}",
        seats=seats,
        hands=hands,
        stock=stock,
        pile=pile,
        turn=seats.index(view.turn) if view.turn in seats else 0,
        **{name: getattr(view, name) for name in _AS_IN_VIEW},
        drawn=view.drawn_this_turn,
        passes=view.passes_in_row,
        ce_window=None if view.ce_window is None else seats.index(view.ce_window),
        announced=[view.announced[s] for s in seats],
        inverse_used=[view.inverse_used[s] for s in seats],
        finished=view.finished,
    )


# the state's fields a sampled world takes from the view as they are (same name, same value)
_AS_IN_VIEW = (
    "options",
    "margin",
    "background",
    "named_colour",
    "direction",
    "skip_pending",
    "skip_next",
    "double_play",
)


class _RolloutView:
    """What the ``normal`` computer reads of a view, built cheaply from a sampled world (the
    rollouts only ever play inside worlds the search sampled, never the true state)."""

    __slots__ = (
        "seat",
        "seats",
        "turn",
        "next_seat",
        "direction",
        "hand",
        "playable",
        "hand_counts",
        "skip_pending",
        "margin",
        "background",
        "options",
        "inverse_used",
    )

    def __init__(self, state: AmapatolliState, i: int) -> None:
        seats = state.seats
        n = len(seats)
        views = card_views(state.options)
        self.seat = seats[i]
        self.seats = seats
        self.turn = seats[state.turn]
        self.next_seat = seats[(state.turn + state.direction) % n]
        self.direction = state.direction
        self.hand = [views[c] for c in state.hands[i]]
        self.playable = rules.playable(state, i) if i == state.turn else []
        self.hand_counts = {s: len(h) for s, h in zip(seats, state.hands, strict=True)}
        self.skip_pending = state.skip_pending
        self.margin = state.margin
        self.background = state.background
        self.options = state.options
        self.inverse_used = dict(zip(seats, state.inverse_used, strict=True))


def _rollout_policy(
    state: AmapatolliState, seat: Seat, legal: list[Any], rng: random.Random
) -> Any:
    from games.amapatolli import ai

    view = cast(AmapatolliView, _RolloutView(state, state.seats.index(seat)))
    return ai.choose_action(view, legal, "normal", rng)


def _rollout_choice(
    state: AmapatolliState, i: int, legal: list[AmapatolliAction], rng: random.Random
) -> AmapatolliAction | None:
    """``normal``'s choice for seat index ``i`` (``_rollout_policy``), without building its view
    where ``normal`` needs none: an optional "Ce" or call-out is said at once, and a turn
    without a card to play (draw, pass, accept the skip) has one move; neither draws on
    ``rng``, so the rollout is the same move for move."""
    if any(isinstance(a, Announce | Catch) for a in legal):
        return next(a for a in legal if isinstance(a, Announce | Catch))
    if not any(isinstance(a, Play) for a in legal):
        return legal[0] if i == state.turn else None
    return _rollout_policy(state, state.seats[i], legal, rng)


class AmapatolliSearch:
    """The game as the search sees it (``games.core.search.Searchable``)."""

    def __init__(self, engine: AmapatolliGame) -> None:
        self.engine = engine
        self.policy = _rollout_policy
        self._reading: tuple[Any, Reading] | None = None

    def determinize(self, view: Any, rng: random.Random) -> AmapatolliState:
        if self._reading is None or self._reading[0] is not view:
            self._reading = (view, read_view(view))
        return determinize(view, rng, self._reading[1])

    def done(self, state: AmapatolliState) -> bool:
        return state.finished

    def step(self, state: AmapatolliState, rng: random.Random) -> AmapatolliState:
        """One move of the rollout, made *in place* on ``state`` (a rollout's own copy, from
        ``play``): the moves ``engine_step`` would make (the optional "Ce" and call-outs of the
        seats not at turn first, then the seat at turn, each chosen by ``normal`` with the same
        draws of ``rng``), through ``rules.make_move`` without the engine's copy, version and
        event log (no rule and no ``normal`` choice reads them)."""
        if state.ce_window is not None:  # only then may a seat not at turn move
            for k, seat in enumerate(state.seats):
                if k == state.turn:
                    continue
                legal = rules.legal_actions(state, seat)
                if legal and (choice := _rollout_choice(state, k, legal, rng)) is not None:
                    rules.make_move(state, k, choice)
                    return state
        k = state.turn
        legal = rules.legal_actions(state, state.seats[k])
        choice = _rollout_choice(state, k, legal, rng)
        rules.make_move(state, k, choice if choice is not None else legal[0])
        return state

    def play(self, state: AmapatolliState, seat: Seat, action: AmapatolliAction) -> AmapatolliState:
        return self.engine.apply(state, seat, action)[0]

    def value(self, state: AmapatolliState, seat: Seat, finished: bool) -> float:
        if finished:
            outcome = self.engine.outcome(state)
            if outcome is None or not outcome.ranking:
                return 0.5
            first = outcome.ranking[0]
            return (1.0 / len(first)) if seat in first else 0.0
        i = state.seats.index(seat)
        mine = len(state.hands[i])
        fewest = min(len(h) for j, h in enumerate(state.hands) if j != i)
        return 0.5 + 0.05 * max(-9, min(9, fewest - mine))


def choose_hard(
    view: AmapatolliView,
    candidates: list[AmapatolliAction],
    cheap: AmapatolliAction | None,
    rng: random.Random,
    budget: Budget,
) -> AmapatolliAction:
    """The search's choice among ``candidates``; ``cheap`` (``normal``'s) unless clearly worse."""
    from games.amapatolli import GAME

    assert view.seat is not None
    default = candidates.index(cheap) if cheap in candidates else None
    result = determinized_search(
        AmapatolliSearch(GAME), view, view.seat, candidates, rng, budget, HORIZON, default
    )
    return result.choice
