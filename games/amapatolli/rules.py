"""Ce Amapatolli rules (spec: docs/rules/amapatolli.md, with the decisions the engine made
beyond the source under "Decisions the engine made": turn flow, skip cards, reversals, the
inverse card, the empty-stock ending, the "Ce" window, points, rematch order).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Literal

from games.amapatolli.actions import (
    ACCEPT_SKIP,
    ANNOUNCE,
    CATCHES,
    DRAW,
    PASS,
    PLAYS,
    AcceptSkip,
    AmapatolliAction,
    Announce,
    Catch,
    Draw,
    Play,
)
from games.amapatolli.cards import (
    BIRD_SIGNS,
    CARDS,
    COLOURS,
    OLLIN,
    TOCHTLI,
    Card,
    deck_ids,
    hand_value,
)
from games.amapatolli.options import Options
from games.amapatolli.state import AmapatolliState
from games.core import Event, IllegalAction, Outcome, event, shuffled
from games.core.engine import Seat, opening
from games.core.errors import BAD_ACTION, GAME_OVER, NOT_A_PLAYER, NOT_YOUR_TURN
from games.core.fast import replace

PENALTY = 3
FAIR_CE_SECONDS = 5.0  # computers wait this long on a person's open "Ce" window (spec: ¡Ce!)

# Error codes of this game (besides the shared ones).
CARD_NOT_IN_HAND = "card_not_in_hand"
CARD_DOES_NOT_MATCH = "card_does_not_match"
COLOUR_REQUIRED = "colour_required"
COLOUR_NOT_ALLOWED = "colour_not_allowed"
MUST_ANSWER_SKIP = "must_answer_skip"
NOT_A_SKIP_CARD = "not_a_skip_card"
NO_SKIP_PENDING = "no_skip_pending"
HAS_PLAYABLE_CARD = "has_playable_card"
STOCK_EMPTY = "stock_empty"
STOCK_NOT_EMPTY = "stock_not_empty"
CANNOT_ANNOUNCE = "cannot_announce"
NOTHING_TO_CALL = "nothing_to_call"
ERROR_CODES = (
    NOT_YOUR_TURN,
    NOT_A_PLAYER,
    GAME_OVER,
    BAD_ACTION,
    CARD_NOT_IN_HAND,
    CARD_DOES_NOT_MATCH,
    COLOUR_REQUIRED,
    COLOUR_NOT_ALLOWED,
    MUST_ANSWER_SKIP,
    NOT_A_SKIP_CARD,
    NO_SKIP_PENDING,
    HAS_PLAYABLE_CARD,
    STOCK_EMPTY,
    STOCK_NOT_EMPTY,
    CANNOT_ANNOUNCE,
    NOTHING_TO_CALL,
    "player_count",
    "duplicate_seat",
)

# Event codes (params in brackets; ``seat`` is the actor unless said otherwise). Shared events
# have the codes every game gives them (docs/architecture.md "Events"); the former codes of
# stored rows are in ``state.OLD_EVENT_CODES``.
# A card is named by [card, name, number] (id, Nahuatl name, sign number; 0 for a Tlapiāni).
#   dealt [card...] (seat: the dealer, who starts)   first_card_returned [card...] (a Tlapiāni)
#   played [card..., answer]
#   colour_chosen [colour]          reversed [direction]           skip_next [target]
#   double_play []                  skipped []                     drew [stock]
#   drew_card [card...] (private)   passed [passes]                announced []
#   caught [target, count]          penalty_cards [cards] (private to target)
#   game_won []                     blocked [hand_values]
EVENT_CODES = (
    "dealt",
    "first_card_returned",
    "played",
    "colour_chosen",
    "reversed",
    "skip_next",
    "double_play",
    "skipped",
    "drew",
    "drew_card",
    "passed",
    "announced",
    "caught",
    "penalty_cards",
    "game_won",
    "blocked",
)


def card_params(cid: str) -> dict[str, Any]:
    """Event parameters naming a card: its id, its (Nahuatl) name and its number (0: Tlapiāni)."""
    card = CARDS[cid]
    return {"card": cid, "name": card.name, "number": card.sign}


def skip_signs(options: Options) -> frozenset[int]:
    """The signs of the cards that make the next player lose their turn."""
    return _skip_signs(options.no_birds, options.powers)


@lru_cache(maxsize=4)
def _skip_signs(no_birds: bool, powers: bool) -> frozenset[int]:
    signs = set() if no_birds else set(BIRD_SIGNS)
    if powers:
        signs.add(TOCHTLI)
    return frozenset(signs)


def is_skip(card: Card, signs: frozenset[int]) -> bool:
    return not card.wild and card.sign in signs


def matches(card: Card, margin: str, background: str) -> bool:
    """May ``card`` be played on the colours in force (outside a pending skip)?

    Margin to margin or background to background; a Tlapiāni always; and the inverse card (margin
    and background swapped), which the double-play rule names as a play of its own although
    neither of its colours matches the corresponding colour of a two-colour card.
    """
    return (
        card.wild
        or card.margin == margin
        or card.background == background
        or (card.margin == background and card.background == margin)
    )


# ----- dealing --------------------------------------------------------------------------------
def new_state(seats: list[Seat], seed: str, options: Options) -> AmapatolliState:
    """The first state: hands dealt from the shuffled deck, the first card turned up."""
    stock = shuffled(deck_ids(not options.no_tlapiani), seed, "deal")
    hands: list[list[str]] = [[] for _ in seats]
    for _ in range(options.hand_size):
        for hand in hands:
            hand.append(stock.pop())
    log: list[Event] = []
    top = stock.pop()
    while CARDS[top].wild:  # a Tlapiāni turned up goes back (to the bottom)
        stock.insert(0, top)
        log.append(event(code="first_card_returned", params=card_params(top)))
        top = stock.pop()
    log.append(event(code="dealt", seat=seats[0], params=card_params(top)))
    card = CARDS[top]
    state = AmapatolliState(
        **opening(seats, seed, options),
        hands=hands,
        stock=stock,
        pile=[top],
        margin=card.margin,
        background=card.background,
        announced=[False] * len(seats),
        inverse_used=[False] * len(seats),
    )
    state.add_to_log(log)
    return state


def copy_state(state: AmapatolliState) -> AmapatolliState:
    """The working copy of a move: copy-on-write. The list of hands and the two small flag
    lists (``announced``, ``inverse_used``: set by index) are copied; the hand lists, the stock,
    the pile and the log are shared with ``state`` and *replaced*, never changed in place, by
    the code that changes them (cards are strings, events are frozen)."""
    return replace(
        state,
        {
            "hands": list(state.hands),
            "announced": list(state.announced),
            "inverse_used": list(state.inverse_used),
        },
    )


# ----- legality -------------------------------------------------------------------------------
def playable(state: AmapatolliState, i: int) -> list[str]:
    """Ids of seat ``i``'s cards that may be played now (only meaningful on their turn)."""
    hand = state.hands[i]
    if state.skip_pending:
        signs = skip_signs(state.options)
        return [c for c in hand if is_skip(CARDS[c], signs)]
    matching = _MATCHING.get((state.margin, state.background))
    if matching is None:  # colours outside the deck's (a hand-made state): the plain test
        m, b = state.margin, state.background
        return [c for c in hand if matches(CARDS[c], m, b)]
    return [c for c in hand if c in matching]


# (margin, background) in force -> the ids ``matches`` accepts on them (asked every turn)
_MATCHING: dict[tuple[str, str], frozenset[str]] = {
    (m, b): frozenset(c for c, card in CARDS.items() if matches(card, m, b))
    for m in COLOURS
    for b in COLOURS
}


def to_act(state: AmapatolliState) -> set[Seat]:
    """The seat at turn (none once the game is over); "Ce" and call-outs are optional."""
    return set() if state.finished else {state.seats[state.turn]}


def legal_actions(state: AmapatolliState, seat: Seat) -> list[AmapatolliAction]:
    if state.finished:
        return []
    if state.ce_window is None and state.seats[state.turn] != seat:
        return []  # the common case: a seat waiting for its turn (or not at the table)
    if seat not in state.seats:
        return []
    i = state.seats.index(seat)
    out: list[AmapatolliAction] = []
    if i == state.turn:
        for c in playable(state, i):
            if CARDS[c].wild:
                out.extend(PLAYS[(c, colour)] for colour in COLOURS)
            else:
                out.append(PLAYS[(c, None)])
        if state.skip_pending:
            out.append(ACCEPT_SKIP)
        elif not out:
            out.append(DRAW if state.stock else PASS)
    if state.ce_window is not None:
        out.append(ANNOUNCE if state.ce_window == i else CATCHES[state.ce_window])
    return out


def fair_ce_wait(state: AmapatolliState, humans: frozenset[Seat]) -> float:
    """Seconds computers wait on ``state``: ``FAIR_CE_SECONDS`` while a person's "Ce" window is
    open (every computer move then is a call-out or the turn that would close it), else 0."""
    window = state.ce_window
    if window is None or state.finished or state.seats[window] not in humans:
        return 0.0
    return FAIR_CE_SECONDS


def is_optional(action: AmapatolliAction) -> bool:
    """ "Ce" and call-outs: actions a seat may take, never ones the game waits for."""
    return isinstance(action, Announce | Catch)


# ----- applying a move to the working copy ----------------------------------------------------
def resolve_action(state: AmapatolliState, seat: Seat, action: AmapatolliAction) -> list[Event]:
    """The game's ``_apply``: ``action`` of ``seat`` on the working copy, then the events into
    the log (``LoggedState.add_to_log``)."""
    events = make_move(state, state.seats.index(seat), action)
    state.add_to_log(events)
    return events


def make_move(state: AmapatolliState, i: int, action: AmapatolliAction) -> list[Event]:
    """Play ``action`` of seat index ``i`` on ``state`` (a private copy); the events it causes."""
    kind = type(action)  # the commonest moves skip the class checks they would fail
    if kind is not Play and kind is not Draw:
        if isinstance(action, Announce):
            return _announce(state, i)
        if isinstance(action, Catch):
            return _callout(state, i, action.target)
    if i != state.turn:
        raise IllegalAction(NOT_YOUR_TURN)
    if state.ce_window is not None and state.ce_window != i:
        state.ce_window = None  # the next player acts: the "Ce" window closes
    if isinstance(action, Play):  # an exact class is recognised before any metaclass check
        return _play(state, i, action)
    if kind is Draw or isinstance(action, Draw):
        return _draw(state, i)
    if isinstance(action, AcceptSkip):
        return _accept_skip(state, i)
    return _pass(state, i)


def _play(state: AmapatolliState, i: int, action: Play) -> list[Event]:
    seat = state.seats[i]
    hand = state.hands[i]
    card = CARDS.get(action.card)
    if card is None or action.card not in hand:
        raise IllegalAction(CARD_NOT_IN_HAND, card=action.card)
    colour = action.colour
    if card.wild and colour is None:
        raise IllegalAction(COLOUR_REQUIRED, card=card.id)
    if not card.wild and colour is not None:
        raise IllegalAction(COLOUR_NOT_ALLOWED, card=card.id)
    signs = skip_signs(state.options)
    answer = state.skip_pending
    double = False
    if answer:
        if not is_skip(card, signs):
            raise IllegalAction(NOT_A_SKIP_CARD, card=card.id)
    elif not card.wild:
        m, b = state.margin, state.background
        if not matches(card, m, b):
            raise IllegalAction(CARD_DOES_NOT_MATCH, card=card.id)
        if card.margin == m and card.background == b:
            double = True
        elif card.margin == b and card.background == m:
            if not state.options.inverse_once:
                double = True
            elif not state.inverse_used[i]:
                state.inverse_used[i] = True
                double = True

    hand = hand[:]  # copy-on-write (see copy_state)
    hand.remove(card.id)
    state.hands[i] = hand
    state.pile = [*state.pile, card.id]
    # (pydantic assignments are slow: fields already at their value are left alone)
    if state.passes:
        state.passes = 0
    if state.drawn:
        state.drawn = 0
    params = {**card_params(card.id), "answer": answer}
    events = [event(code="played", seat=seat, params=params)]
    if colour is not None:  # a Tlapiāni (checked above)
        state.margin = state.background = colour
        state.named_colour = colour
        events.append(event(code="colour_chosen", seat=seat, params={"colour": colour}))
    else:
        state.margin, state.background = card.margin, card.background
        if state.named_colour is not None:
            state.named_colour = None
    if not hand:
        return events + _win(state, i)
    if len(hand) == 1:
        state.announced[i] = False
        state.ce_window = i
    if answer:
        state.skip_pending = False
        state.skip_next = True
    else:
        if is_skip(card, signs):
            state.skip_next = True
        if card.wild or (state.options.powers and card.sign == OLLIN):
            state.direction = 1 if state.direction == -1 else -1
            events.append(event(code="reversed", seat=seat, params={"direction": state.direction}))
    if double:
        state.double_play = True
        events.append(event(code="double_play", seat=seat))
        return events
    return events + _end_turn(state)


def _draw(state: AmapatolliState, i: int) -> list[Event]:
    if state.skip_pending:
        raise IllegalAction(MUST_ANSWER_SKIP)
    if playable(state, i):
        raise IllegalAction(HAS_PLAYABLE_CARD)
    if not state.stock:
        raise IllegalAction(STOCK_EMPTY)
    seat = state.seats[i]
    card = state.stock[-1]
    state.stock = state.stock[:-1]  # copy-on-write (see copy_state)
    state.hands[i] = [*state.hands[i], card]
    state.drawn += 1
    state.announced[i] = False
    if state.ce_window == i:
        state.ce_window = None
    return [
        event(code="drew", seat=seat, params={"stock": len(state.stock)}),
        event(code="drew_card", seat=seat, params=card_params(card), to=(seat,)),
    ]


def _pass(state: AmapatolliState, i: int) -> list[Event]:
    if state.skip_pending:
        raise IllegalAction(MUST_ANSWER_SKIP)
    if playable(state, i):
        raise IllegalAction(HAS_PLAYABLE_CARD)
    if state.stock:
        raise IllegalAction(STOCK_NOT_EMPTY)
    state.passes += 1
    events = [event(code="passed", seat=state.seats[i], params={"passes": state.passes})]
    if state.passes >= len(state.seats):
        return events + _block(state)
    return events + _end_turn(state)


def _accept_skip(state: AmapatolliState, i: int) -> list[Event]:
    if not state.skip_pending:
        raise IllegalAction(NO_SKIP_PENDING)
    state.skip_pending = False
    return [event(code="skipped", seat=state.seats[i])] + _end_turn(state)


def _announce(state: AmapatolliState, i: int) -> list[Event]:
    if state.ce_window != i:
        raise IllegalAction(CANNOT_ANNOUNCE)
    state.announced[i] = True
    state.ce_window = None
    return [event(code="announced", seat=state.seats[i])]


def _callout(state: AmapatolliState, i: int, target: int) -> list[Event]:
    if state.ce_window is None or state.ce_window != target or target == i:
        raise IllegalAction(NOTHING_TO_CALL)
    keep = len(state.stock) - min(PENALTY, len(state.stock))
    drawn = state.stock[keep:][::-1]  # the top card first
    state.stock = state.stock[:keep]  # copy-on-write (see copy_state)
    state.hands[target] = state.hands[target] + drawn
    state.ce_window = None
    state.announced[target] = False
    target_seat = state.seats[target]
    return [
        event(
            code="caught",
            seat=state.seats[i],
            params={"target": target_seat, "count": len(drawn)},
        ),
        event(code="penalty_cards", seat=target_seat, params={"cards": drawn}, to=(target_seat,)),
    ]


def _end_turn(state: AmapatolliState) -> list[Event]:
    state.turn = (state.turn + state.direction) % len(state.seats)
    if state.double_play:
        state.double_play = False
    if state.drawn:
        state.drawn = 0
    events: list[Event] = []
    if state.skip_next:
        state.skip_next = False
        state.skip_pending = True
        events.append(event(code="skip_next", params={"target": state.seats[state.turn]}))
    return events


def _win(state: AmapatolliState, i: int) -> list[Event]:
    state.finished = True
    state.winner = i
    state.end_reason = "out"
    state.ce_window = None
    state.double_play = state.skip_pending = state.skip_next = False
    return [event(code="game_won", seat=state.seats[i])]


def _block(state: AmapatolliState) -> list[Event]:
    state.finished = True
    state.end_reason = "blocked"
    state.ce_window = None
    return [event(code="blocked", params={"hand_values": hand_values(state)})]


# ----- scoring --------------------------------------------------------------------------------
def hand_values(state: AmapatolliState) -> dict[Seat, int]:
    return {s: hand_value(h) for s, h in zip(state.seats, state.hands, strict=True)}


def ranking(state: AmapatolliState, values: dict[Seat, int]) -> list[list[Seat]]:
    """The winner who went out first, then the others by hand value, lowest first (ties share
    a place; a blocked game has no such winner)."""
    seats = state.seats
    rest = [s for k, s in enumerate(seats) if k != state.winner]
    places: list[list[Seat]] = [] if state.winner is None else [[seats[state.winner]]]
    for value in sorted({values[s] for s in rest}):
        places.append([s for s in rest if values[s] == value])
    return places


def points(seats: list[Seat], places: list[list[Seat]], values: dict[Seat, int]) -> dict[Seat, int]:
    """Each seat in first place earns the hand values of everyone not in first place."""
    first = set(places[0])
    prize = sum(v for s, v in values.items() if s not in first)
    return {s: prize if s in first else 0 for s in seats}


def rematch_order(seats: list[Seat], places: list[list[Seat]]) -> list[Seat]:
    """The player placed last deals and starts (ties: the first of them in seat order)."""
    k = min(seats.index(s) for s in places[-1])
    return seats[k:] + seats[:k]


# ----- the outcome ---------------------------------------------------------------------------
class AmapatolliOutcome(Outcome):
    """The result, with what the presenters show of the hands left."""

    reason: Literal["out", "blocked"] | None  # a player went out / nobody could play on
    hand_values: dict[Seat, int]  # the sum of the values of each seat's cards left
    cards_left: dict[Seat, int]


def outcome(state: AmapatolliState) -> AmapatolliOutcome | None:
    """``None`` while the game goes on."""
    if not state.finished:
        return None
    values = hand_values(state)
    places = ranking(state, values)
    return AmapatolliOutcome(
        ranking=places,
        points=points(state.seats, places, values),
        reason=state.end_reason,
        hand_values=values,
        cards_left={s: len(h) for s, h in zip(state.seats, state.hands, strict=True)},
    )
