"""The Chúpate 2 rules (spec: docs/rules/chupate2.md) as pure functions over the state.

``copy_state`` (``games.chupate2.state``) is a shallow copy of the state whose containers are
copy-on-write, so the functions that apply an action to that working copy replace every
container they change (hands, stock, discard, scores, logs) instead of mutating it; the old
state is never touched. Nested models (``PlusFour``, ``Reveal``, ``RoundResult``, ``Signals``,
events) are frozen and replaced, never mutated.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, TypeVar

from games.chupate2 import actions as A
from games.chupate2.actions import (
    Announce,
    Catch,
    Challenge,
    ChooseColour,
    Chupate2Action,
    Draw,
    Pass,
    Play,
    SwapWith,
    Take,
)
from games.chupate2.cards import (
    COLOUR_OF,
    COLOURS,
    DECK,
    DRAW_TWO,
    FACE_KEY,
    FACE_OF,
    REVERSE,
    SKIP,
    SORT_KEY,
    WILD,
    WILD_FACE,
    WILD_FOUR,
    hand_points,
    is_wild,
    matches,
    sort_hand,
)
from games.chupate2.events import EVENT_CODES as EVENT_CODES  # re-exported: the catalogue tests
from games.chupate2.events import LOG_SIZE
from games.chupate2.options import ALLOWED_PLAYER_COUNTS, TEAM_PLAYER_COUNTS, Options, team_groups
from games.chupate2.state import (
    NO_SIGNALS,
    SIGNALS,
    Chupate2State,
    PlusFour,
    Reveal,
    RoundResult,
    Signals,
    signals_for,
    trusted_state,
)
from games.chupate2.state import copy_state as copy_state  # the working copy, re-exported
from games.chupate2.view import Chupate2Outcome
from games.core import Event, IllegalAction, event, eventlog, rng_for, shuffled
from games.core.engine import Seat, opening
from games.core.errors import BAD_ACTION, GAME_OVER, NOT_A_PLAYER, NOT_YOUR_TURN
from games.core.fast import trusted

HAND_SIZE = 7
DIRECTION_NAMES = {1: "cw", -1: "ccw"}
LAST_CARD_PENALTY = 2

# Error codes raised by this engine (besides the shared ones of games.core.errors).
NOT_IN_HAND = "not_in_hand"
CARD_DOES_NOT_MATCH = "card_does_not_match"
COLOUR_REQUIRED = "colour_required"
COLOUR_NOT_ALLOWED = "colour_not_allowed"
MUST_ANSWER_DRAW = "must_answer_draw"
ONLY_DRAWN_CARD = "only_drawn_card"
CANNOT_PASS = "cannot_pass"
NOTHING_TO_TAKE = "nothing_to_take"
NO_CHALLENGE = "no_challenge"
CHOOSE_COLOUR_FIRST = "choose_colour_first"
NO_COLOUR_TO_CHOOSE = "no_colour_to_choose"
ALREADY_DREW = "already_drew"
CANNOT_CALL = "cannot_call"
NOTHING_TO_CATCH = "nothing_to_catch"
PLAYER_COUNT = "player_count"
TEAM_PLAYER_COUNT = "team_player_count"
CHOOSE_SWAP_FIRST = "choose_swap_first"
NOTHING_TO_SWAP = "nothing_to_swap"
BAD_SWAP_TARGET = "bad_swap_target"
SEVEN, ZERO = "7", "0"  # the faces of the ``seven_o`` house rule

ERROR_CODES = (
    NOT_YOUR_TURN,
    NOT_A_PLAYER,
    GAME_OVER,
    BAD_ACTION,
    NOT_IN_HAND,
    CARD_DOES_NOT_MATCH,
    COLOUR_REQUIRED,
    COLOUR_NOT_ALLOWED,
    MUST_ANSWER_DRAW,
    ONLY_DRAWN_CARD,
    CANNOT_PASS,
    NOTHING_TO_TAKE,
    NO_CHALLENGE,
    CHOOSE_COLOUR_FIRST,
    NO_COLOUR_TO_CHOOSE,
    ALREADY_DREW,
    CANNOT_CALL,
    NOTHING_TO_CATCH,
    PLAYER_COUNT,
    TEAM_PLAYER_COUNT,
    CHOOSE_SWAP_FIRST,
    NOTHING_TO_SWAP,
    BAD_SWAP_TARGET,
    "duplicate_seat",
)


# ----- creation ---------------------------------------------------------------------------
def check_table(n: int, opts: Options) -> None:
    """Refuse a seat count these rules do not deal for (5 players; teams that do not fit)."""
    if n not in ALLOWED_PLAYER_COUNTS:
        raise IllegalAction(
            PLAYER_COUNT,
            count=n,
            min=min(ALLOWED_PLAYER_COUNTS),
            max=max(ALLOWED_PLAYER_COUNTS),
            allowed=list(ALLOWED_PLAYER_COUNTS),
        )
    if opts.teams != "off" and n not in TEAM_PLAYER_COUNTS[opts.teams]:
        raise IllegalAction(
            TEAM_PLAYER_COUNT,
            count=n,
            teams=opts.teams,
            allowed=list(TEAM_PLAYER_COUNTS[opts.teams]),
        )


def new_state(seats: list[Seat], seed: str, opts: Options) -> Chupate2State:
    """A fresh game: the starter drawn from the seed, the first round dealt."""
    n = len(seats)
    check_table(n, opts)
    groups = team_groups(n, opts)
    starter = rng_for(seed, "starter").randrange(n)
    fields = dict(
        **opening(seats, seed, opts),
        dealer=(starter + 1) % n,  # the starter sits counter-clockwise of the dealer
        starter=starter,
        hands={s: [] for s in seats},
        stock=[],
        discard=[],
        colour=None,
        turn=starter,
        phase="play",
        scores={s: 0 for s in seats} if opts.target is not None else {},
        team_scores=[0] * len(groups) if (groups and opts.target is not None) else [],
        signals={s: NO_SIGNALS for s in seats},
    )
    if all(type(s) is str for s in seats) and type(seed) is str and type(opts) is Options:
        state = trusted_state(fields)  # what validating would give (no playout pays for it)
    else:
        state = Chupate2State(**fields)  # type: ignore[arg-type]  # validation refuses it
    events: list[Event] = []
    _deal(state, events)
    state.log_raw = eventlog.from_events(events, 0, LOG_SIZE)
    return state


def _deal(st: Chupate2State, events: list[Event]) -> None:
    """Deal a round: 7 cards each, turn the first card and apply its effect."""
    seats = st.seats
    n = len(seats)
    deck = shuffled(DECK, st.seed, "deal", st.round)
    st.hands = {s: deck[i * HAND_SIZE : (i + 1) * HAND_SIZE] for i, s in enumerate(seats)}
    stock = deck[n * HAND_SIZE :]
    first = stock.pop()
    redraw = 0
    while FACE_OF[first] == WILD_FOUR:  # Decision: a first +4 goes back, reshuffle, turn again
        events.append(event(code="first_card_returned", params={"card": first}))
        stock.append(first)
        stock = shuffled(stock, st.seed, "first", st.round, redraw)
        redraw += 1
        first = stock.pop()
    st.stock = stock
    st.discard = [first]
    st.direction = -1
    st.pending = 0
    st.drawn = None
    st.plus4 = None
    st.reveal = None
    st.called = []
    st.exposed = []
    st.signals = {s: NO_SIGNALS for s in seats}
    starter = st.starter
    events.append(
        event(
            code="round_started",
            seat=seats[starter],
            params={"round": st.round, "dealer": seats[st.dealer]},
        )
    )
    events.append(event(code="first_card", params={"card": first}))
    face = FACE_OF[first]
    st.colour = None if face == WILD_FACE else COLOUR_OF[first]
    st.turn = starter
    st.phase = "play"
    if face == WILD_FACE:
        st.phase = "colour"
    elif face == DRAW_TWO:
        st.phase = "penalty"
        st.pending = 2
        events.append(event(code="must_draw", seat=seats[starter], params={"count": 2}))
    elif face == SKIP:
        events.append(event(code="skipped", seat=seats[starter]))
        st.turn = (starter + st.direction) % n
    elif face == REVERSE:
        events.append(event(code="skipped", seat=seats[starter]))
        st.direction = 1
        events.append(event(code="reversed", params={"direction": "cw"}))
        st.turn = (starter + 1) % n


# ----- turn structure ----------------------------------------------------------------------
def to_act(state: Chupate2State) -> set[Seat]:
    if state.finished:
        return set()
    return {state.seats[state.turn]}


def legal_actions(state: Chupate2State, seat: Seat) -> list[Chupate2Action]:
    """Every action ``seat`` may take now; a card interchangeable with another is offered once."""
    hand = state.hands.get(seat)
    if hand is None or state.finished:
        return []
    out: list[Chupate2Action] = []
    seats = state.seats
    is_current = seats[state.turn] == seat
    options = state.options
    if options.last_card:
        exposed = state.exposed
        if seat in exposed:
            out.append(A.ANNOUNCE)  # calling late still closes the window
        catchable = [s for s in exposed if s != seat]
        if len(catchable) == 1:
            out.append(A.CATCH)  # the one player to catch
        elif catchable:
            out.extend(A.CATCH_TO[seats.index(s)] for s in catchable)
        if (
            is_current
            and seat not in exposed
            and len(hand) == 2
            and seat not in state.called
            and state.phase not in ("colour", "swap")
        ):
            out.append(A.ANNOUNCE)
    if not is_current:
        if options.jump_in:
            jump = jump_in_card(state, hand)
            if jump is not None:
                out.append(A.PLAY[jump])
        return out
    phase = state.phase
    if phase == "play":  # the common case first
        playable = _PLAYABLE_ON[state.discard[-1]][state.colour]  # ``cards.matches``
        _add_plays(out, [c for c in hand if c in playable])
        out.append(A.DRAW)
        return out
    if phase == "colour":
        out.extend(A.CHOOSE_COLOUR.values())
        return out
    if phase == "swap":
        out.extend(A.SWAP_TO[i] for i in range(len(state.seats)) if i != state.turn)
        return out
    if phase == "drawn":
        _add_play(out, state.drawn)
        out.append(A.PASS)
        return out
    top_face = FACE_OF[state.discard[-1]]
    # penalty / challenge: stack, (challenge,) or take
    if phase == "challenge":
        out.append(A.CHALLENGE)
    stacking = _STACKABLE[top_face == DRAW_TWO, options.stack_plus4]  # ``stackable``, tabulated
    _add_plays(out, [c for c in hand if c in stacking])
    out.append(A.TAKE)
    return out


def jump_in_card(state: Chupate2State, hand: list[str]) -> str | None:
    """The card of ``hand`` identical to the top of the discard pile (same colour and face,
    never a wild) that may jump in now (house rule ``jump_in``): not while a draw penalty, a
    challenge, a colour or a 7's swap is pending."""
    if state.phase not in ("play", "drawn"):
        return None
    top = state.discard[-1]
    if is_wild(top):
        return None
    key = FACE_KEY[top]
    return next((c for c in hand if FACE_KEY[c] == key), None)


def _add_play(out: list[Chupate2Action], card: str | None) -> None:
    if card is None:
        return
    if is_wild(card):
        out.extend(A.PLAY_WILD[card])
    else:
        out.append(A.PLAY[card])


def _add_plays(out: list[Chupate2Action], cards: list[str]) -> None:
    """The plays of ``cards`` in hand order (by colour, then face), one per interchangeable
    pair (``r7a`` and ``r7b`` play alike: only the first is offered)."""
    if len(cards) < 2:
        if cards:
            out.extend(_PLAYS_OF[cards[0]])
        return
    cards.sort(key=_RANK.__getitem__)  # interchangeable cards end up side by side
    last = ""
    for card in cards:
        key = FACE_KEY[card]
        if key != last:
            last = key
            out.extend(_PLAYS_OF[card])


# Tables for the legal moves (they run on every turn of every playout):
# (top face, colour in force) -> the cards ``cards.matches`` accepts on it
_PLAYABLE: dict[tuple[str, str | None], frozenset[str]] = {
    (face, colour): frozenset(c for c in DECK if matches(c, face, colour))
    for face in set(FACE_OF.values())
    for colour in (*COLOURS, None)
}
# top card -> colour in force -> the same sets (one lookup less on every turn)
_PLAYABLE_ON: dict[str, dict[str | None, frozenset[str]]] = {
    top: {colour: _PLAYABLE[FACE_OF[top], colour] for colour in (*COLOURS, None)} for top in DECK
}
# (top card is a Chúpate 2, the +4 stacks) -> the cards that answer a pending draw
_STACKABLE: dict[tuple[bool, bool], frozenset[str]] = {
    (on_draw_two, plus4): frozenset(
        c
        for c in DECK
        if (FACE_OF[c] == DRAW_TWO and on_draw_two) or (FACE_OF[c] == WILD_FOUR and plus4)
    )
    for on_draw_two in (False, True)
    for plus4 in (False, True)
}
_RANK: dict[str, int] = {c: i for i, c in enumerate(sorted(DECK, key=SORT_KEY.__getitem__))}
# card -> its plays: one for a coloured card, one per colour named for a wild
_PLAYS_OF: dict[str, tuple[Play, ...]] = {
    c: A.PLAY_WILD[c] if is_wild(c) else (A.PLAY[c],) for c in DECK
}


def stackable(state: Chupate2State, card: str, top_face: str) -> bool:
    """Whether ``card`` answers a pending draw: a Chúpate 2 on a Chúpate 2, a +4 (variant)."""
    face = FACE_OF[card]
    if face == DRAW_TWO:
        return top_face == DRAW_TWO
    return face == WILD_FOUR and state.options.stack_plus4


# ----- applying an action to the working copy ---------------------------------------------
def resolve_action(state: Chupate2State, seat: Seat, action: Chupate2Action) -> list[Event]:
    """The game's ``_apply``: the action on the working copy (``_resolve``), then the events
    into the log."""
    st = state
    if st.reveal is not None:
        st.reveal = None  # the challenge reveal is shown once, right after challenging
    handler = _ON_TURN.get(type(action))
    if handler is not None and st.seats[st.turn] == seat and not st.exposed:
        phase = st.phase
        if phase == "colour" and not isinstance(action, ChooseColour):
            raise IllegalAction(CHOOSE_COLOUR_FIRST)
        if phase == "swap" and not isinstance(action, SwapWith):
            raise IllegalAction(CHOOSE_SWAP_FIRST)
        events: list[Event] = []
        handler(st, seat, action, events)
    else:
        events = _resolve(st, seat, action)
    if events:  # new nodes on the log (``games.core.eventlog``): the old state's is unchanged
        log = st.log_raw
        count = log[1] if len(log) == 4 else 0
        n = len(events)
        if count + n > _LOG_LIMIT or n > 2:
            st.log_raw = eventlog.extend(log, st.version, events, LOG_SIZE)
        elif n == 1:  # the common cases, as ``extend`` makes them
            st.log_raw = (log, count + 1, st.version, events[0])
        else:
            v = st.version
            st.log_raw = ((log, count + 1, v, events[0]), count + 2, v, events[1])
    return events


_LOG_LIMIT = eventlog.max_nodes(LOG_SIZE)  # ``eventlog.extend`` cuts a chain longer than this

# ``Event(code, seat, params, to)`` for the commonest events, without a Python call: an event is
# a tuple of those four fields (``games.core.engine.Event``), built here with every field given.
_event = tuple.__new__


def _resolve(st: Chupate2State, seat: Seat, action: Chupate2Action) -> list[Event]:
    """Apply ``action`` by ``seat`` to the working copy ``st``; the events it produced."""
    events: list[Event] = []
    handler = _ON_TURN.get(type(action))  # the common case first: one of the turn's actions
    if handler is None:
        if isinstance(action, Announce):
            _call_last(st, seat, events)
            return events
        if isinstance(action, Catch):
            _catch(st, seat, action, events)
            return events
    if st.seats[st.turn] != seat:
        if isinstance(action, Play) and st.options.jump_in:
            _jump_in(st, seat, action, events)
            return events
        raise IllegalAction(NOT_YOUR_TURN)
    phase = st.phase
    if phase == "colour" and not isinstance(action, ChooseColour):
        raise IllegalAction(CHOOSE_COLOUR_FIRST)
    if phase == "swap" and not isinstance(action, SwapWith):
        raise IllegalAction(CHOOSE_SWAP_FIRST)
    if st.exposed and seat in st.exposed:  # their own next action closes their catch window
        st.exposed = [s for s in st.exposed if s != seat]
    if handler is None:  # a subclass of an action class (forged): the slow way
        handler = next(h for t, h in _ON_TURN.items() if isinstance(action, t))
    handler(st, seat, action, events)
    return events


def _play(st: Chupate2State, seat: Seat, action: Play, events: list[Event]) -> None:
    card = action.card
    hand = st.hands[seat]
    if card not in hand:
        raise IllegalAction(NOT_IN_HAND, card=card)
    named = action.colour
    own = COLOUR_OF[card]
    wild = own == WILD
    if wild:
        if named not in COLOURS:
            raise IllegalAction(COLOUR_REQUIRED, card=card)
        colour: str = named  # a colour letter: checked just above
    elif named is not None:
        raise IllegalAction(COLOUR_NOT_ALLOWED, card=card)
    else:
        colour = own
    discard = st.discard
    top_face = FACE_OF[discard[-1]]
    phase = st.phase
    prev_colour = st.colour
    face = FACE_OF[card]
    if phase == "play":
        if not (wild or own == prev_colour or face == top_face):  # ``cards.matches``
            raise IllegalAction(CARD_DOES_NOT_MATCH, card=card)
    elif phase == "drawn":
        if card != st.drawn:
            raise IllegalAction(ONLY_DRAWN_CARD, card=card)
    elif not stackable(st, card, top_face):  # penalty / challenge
        raise IllegalAction(MUST_ANSWER_DRAW, card=card, count=st.pending)
    legal_plus4 = True
    if face == WILD_FOUR:  # legal only without a card of the colour in force
        legal_plus4 = not any(COLOUR_OF[c] == prev_colour for c in hand if c != card)
    hand = hand[:]  # copy-on-write (see copy_state)
    hand.remove(card)
    st.hands[seat] = hand
    st.discard = [*discard, card]
    st.drawn = None
    st.colour = colour
    signals = st.signals[seat]
    if colour in signals.lacks or (wild and named != signals.named):
        _signal(st, seat, played=colour, named=named if wild else None)
    events.append(_event(Event, ("played", seat, {"card": card, "colour": colour}, None)))
    seats = st.seats
    n = len(seats)
    if not hand:  # out: a last Chúpate 2 / +4 still makes the next player draw
        if face == DRAW_TWO:
            st.pending += 2
        elif face == WILD_FOUR:
            st.pending += 4
        if st.pending:
            victim = seats[(st.turn + st.direction) % n]
            got = _draw(st, victim, st.pending, events)
            events.append(event(code="final_draw", seat=victim, params={"count": len(got)}))
        _end_round(st, seat, events)
        return
    if len(hand) == 1 and st.options.last_card:
        if seat in st.called:
            st.called = [s for s in st.called if s != seat]  # the call is used up
        elif seat not in st.exposed:
            st.exposed = [*st.exposed, seat]
    if face == DRAW_TWO:
        st.pending += 2
        st.plus4 = None
        st.phase = "penalty"
        _advance(st, 1)
        events.append(_event(Event, ("must_draw", seats[st.turn], {"count": st.pending}, None)))
    elif face == WILD_FOUR:
        st.plus4 = trusted(
            PlusFour,
            {
                "by": seat,
                "legal": legal_plus4,
                "prev_colour": prev_colour or colour,
                "hand": list(hand),
                "pending_before": st.pending,
            },
        )
        st.pending += 4
        st.phase = "challenge"
        _advance(st, 1)
        events.append(_event(Event, ("must_draw", seats[st.turn], {"count": st.pending}, None)))
    else:
        st.phase = "play"
        if face == SKIP:
            _advance(st, 1)
            events.append(event(code="skipped", seat=seats[st.turn]))
            _advance(st, 1)
        elif face == REVERSE:
            if n == 2:  # Decision: with 2 players a Cambio de sentido acts as a Salto
                _advance(st, 1)
                events.append(event(code="skipped", seat=seats[st.turn]))
                _advance(st, 1)
            else:
                st.direction = -st.direction
                events.append(
                    event(code="reversed", params={"direction": DIRECTION_NAMES[st.direction]})
                )
                _advance(st, 1)
        elif face == SEVEN and st.options.seven_o:
            st.phase = "swap"  # the player now names whom to swap hands with
        elif face == ZERO and st.options.seven_o:
            _pass_hands(st, seat, events)
            _advance(st, 1)
        else:
            st.turn = (st.turn + st.direction) % n  # ``_advance``, inlined


def _jump_in(st: Chupate2State, seat: Seat, action: Play, events: list[Event]) -> None:
    """House rule ``jump_in``: an identical card played out of turn; play continues from the
    jumper, the card's effect applying as if played on their own turn."""
    hand = st.hands.get(seat, [])
    if action.colour is not None or action.card not in hand or jump_in_card(st, hand) is None:
        raise IllegalAction(NOT_YOUR_TURN)
    if FACE_KEY[action.card] != FACE_KEY[st.discard[-1]]:
        raise IllegalAction(NOT_YOUR_TURN)
    if seat in st.exposed:
        st.exposed = [s for s in st.exposed if s != seat]
    st.turn = st.seats.index(seat)
    st.phase = "play"
    st.drawn = None
    events.append(event(code="jumped_in", seat=seat, params={"card": action.card}))
    _play(st, seat, action, events)


def _swap(st: Chupate2State, seat: Seat, action: SwapWith, events: list[Event]) -> None:
    """House rule ``seven_o``: after a 7, swap hands with the chosen seat."""
    if st.phase != "swap":
        raise IllegalAction(NOTHING_TO_SWAP)
    target_index = action.target
    if not 0 <= target_index < len(st.seats) or target_index == st.turn:
        raise IllegalAction(BAD_SWAP_TARGET)
    target = st.seats[target_index]
    hands = st.hands  # the working copy's own dict (see copy_state); the lists move as they are
    hands[seat], hands[target] = hands[target], hands[seat]
    signals = dict(st.signals)  # what the table knows of a hand goes with the hand
    signals[seat], signals[target] = st.signals[target], st.signals[seat]
    st.signals = signals
    events.append(event(code="hands_swapped", seat=seat, params={"target": target}))
    _after_exchange(st, [seat, target])
    st.phase = "play"
    _advance(st, 1)


def _pass_hands(st: Chupate2State, seat: Seat, events: list[Event]) -> None:
    """House rule ``seven_o``: after a 0 every hand goes to the next player in direction."""
    seats = st.seats
    n = len(seats)
    d = st.direction
    old_hands, old_signals = st.hands, st.signals
    st.hands = {s: old_hands[seats[(i - d) % n]] for i, s in enumerate(seats)}
    st.signals = {s: old_signals[seats[(i - d) % n]] for i, s in enumerate(seats)}
    events.append(event(code="hands_passed", seat=seat, params={"direction": DIRECTION_NAMES[d]}))
    _after_exchange(st, list(seats))


def _after_exchange(st: Chupate2State, involved: list[Seat]) -> None:
    """ "¡Última!" after hands changed owners (variant ``last_card`` only): calls made for the
    old hands lapse, and every player left with one card by the exchange is exposed (an exposed
    player whose new hand has more cards is not any more)."""
    if not st.options.last_card:
        return
    hands = st.hands
    st.called = [s for s in st.called if s not in involved]
    exposed = [s for s in st.exposed if s not in involved or len(hands[s]) == 1]
    exposed += [s for s in involved if len(hands[s]) == 1 and s not in exposed]
    st.exposed = exposed


def _pass(st: Chupate2State, seat: Seat, action: Chupate2Action, events: list[Event]) -> None:
    if st.phase != "drawn":
        raise IllegalAction(CANNOT_PASS)
    st.drawn = None
    st.phase = "play"
    events.append(_event(Event, ("passed", seat, {}, None)))
    _advance(st, 1)


def _take(st: Chupate2State, seat: Seat, action: Chupate2Action, events: list[Event]) -> None:
    if st.phase not in ("penalty", "challenge"):
        raise IllegalAction(NOTHING_TO_TAKE)
    got = _draw(st, seat, st.pending, events)
    events.append(_event(Event, ("took", seat, {"count": len(got)}, None)))
    st.pending = 0
    st.plus4 = None
    st.phase = "play"
    _advance(st, 1)


def _choose_colour(
    st: Chupate2State, seat: Seat, action: ChooseColour, events: list[Event]
) -> None:
    if st.phase != "colour":
        raise IllegalAction(NO_COLOUR_TO_CHOOSE)
    if action.colour not in COLOURS:  # a forged, unvalidated action
        raise IllegalAction(BAD_ACTION)
    st.colour = action.colour
    st.phase = "play"
    _signal(st, seat, named=action.colour)
    events.append(event(code="colour_chosen", seat=seat, params={"colour": action.colour}))


def _draw_turn(st: Chupate2State, seat: Seat, action: Chupate2Action, events: list[Event]) -> None:
    phase = st.phase
    if phase == "drawn":
        raise IllegalAction(ALREADY_DREW)
    if phase != "play":
        raise IllegalAction(MUST_ANSWER_DRAW, count=st.pending)
    colour = st.colour
    top_face = FACE_OF[st.discard[-1]]
    if colour is not None and colour not in st.signals[seat].lacks:
        _signal(st, seat, lacks=colour)
    if st.options.draw_until_playable:  # house rule: one at a time until a playable card
        got = _draw(st, seat, len(DECK), events, until=lambda c: matches(c, top_face, colour))
    else:
        got = _draw(st, seat, 1, events)
    if not got:
        events.append(event(code="draw_skipped", seat=seat))
        _advance(st, 1)
        return
    events.append(_event(Event, ("drew", seat, {"count": len(got)}, None)))
    card = got[-1]
    if card in _PLAYABLE[top_face, colour]:  # ``cards.matches``
        st.phase = "drawn"
        st.drawn = card
    else:
        _advance(st, 1)


def _challenge(st: Chupate2State, seat: Seat, action: Chupate2Action, events: list[Event]) -> None:
    if st.phase != "challenge" or st.plus4 is None:
        raise IllegalAction(NO_CHALLENGE)
    p4 = st.plus4
    st.plus4 = None
    st.reveal = Reveal(to=seat, of=p4.by, cards=sort_hand(p4.hand), legal=p4.legal)
    events.append(
        event(
            code="challenge_reveal",
            seat=p4.by,
            params={"cards": sort_hand(p4.hand), "legal": p4.legal},
            to=(seat,),
        )
    )
    if not p4.legal:
        got = _draw(st, p4.by, 4, events)
        events.append(
            event(code="challenge_won", seat=seat, params={"target": p4.by, "count": len(got)})
        )
        st.pending = p4.pending_before  # an earlier part of a +4 stack still stands
        st.phase = "penalty" if st.pending else "play"
        if st.pending:
            events.append(event(code="must_draw", seat=seat, params={"count": st.pending}))
    else:
        got = _draw(st, seat, st.pending + 2, events)
        events.append(
            event(code="challenge_lost", seat=seat, params={"target": p4.by, "count": len(got)})
        )
        st.pending = 0
        st.phase = "play"
        _advance(st, 1)


# ----- the "¡Última!" variant -----------------------------------------------------------
def _call_last(st: Chupate2State, seat: Seat, events: list[Event]) -> None:
    if not st.options.last_card:
        raise IllegalAction(CANNOT_CALL)
    if seat in st.exposed:  # a late call still closes the window
        st.exposed = [s for s in st.exposed if s != seat]
    elif (
        st.seats[st.turn] == seat
        and len(st.hands[seat]) == 2
        and seat not in st.called
        and st.phase not in ("colour", "swap")
    ):
        st.called = [*st.called, seat]
    else:
        raise IllegalAction(CANNOT_CALL)
    events.append(event(code="announced", seat=seat))


def _catch(st: Chupate2State, seat: Seat, action: Catch, events: list[Event]) -> None:
    """Catch an exposed player: ``catch`` names nobody when only one other player is exposed,
    ``catch.<seat index>`` names them when several are (see ``legal_actions``)."""
    catchable = [s for s in st.exposed if s != seat]
    if not st.options.last_card or not catchable:
        raise IllegalAction(NOTHING_TO_CATCH)
    if action.target is None:
        target = catchable[0] if len(catchable) == 1 else None
    elif len(catchable) > 1 and 0 <= action.target < len(st.seats):
        target = st.seats[action.target]
    else:
        target = None
    if target is None or target not in catchable:
        raise IllegalAction(NOTHING_TO_CATCH)
    st.exposed = [s for s in st.exposed if s != target]
    got = _draw(st, target, LAST_CARD_PENALTY, events)
    events.append(event(code="caught", seat=seat, params={"target": target, "count": len(got)}))


# ----- helpers --------------------------------------------------------------------------
def _advance(st: Chupate2State, steps: int) -> None:
    st.turn = (st.turn + steps * st.direction) % len(st.seats)


def _signal(
    st: Chupate2State,
    seat: Seat,
    *,
    lacks: str | None = None,
    played: str | None = None,
    named: str | None = None,
) -> None:
    old = st.signals[seat]
    new = _SIGNAL_AFTER.get((id(old), lacks, played, named))
    if new is None:  # a signals value outside the shared table (a hand-made state)
        new = _signal_after(old, lacks, played, named)
    if new is not old:
        st.signals = {**st.signals, seat: new}


def _signal_after(
    old: Signals, lacks: str | None, played: str | None, named: str | None
) -> Signals:
    """What the table knows of a seat after it drew (``lacks``) or played a colour (``played``,
    with the colour it ``named``), or named one."""
    new_lacks = old.lacks
    if lacks is not None and lacks not in new_lacks:
        new_lacks = [*new_lacks, lacks]
    if played is not None and played in new_lacks:
        new_lacks = [c for c in new_lacks if c != played]
    new_named = named if named is not None else old.named
    if new_lacks is not old.lacks or new_named != old.named:
        return signals_for(new_lacks, new_named)
    return old


# (id of a shared Signals, lacks, played, named) -> ``_signal_after`` of them, for every shared
# value (``state.SIGNALS``, kept alive there: their ids stay theirs) and every call the rules make
_SIGNAL_AFTER: dict[tuple[int, str | None, str | None, str | None], Signals] = {
    (id(old), *call): _signal_after(old, *call)
    for old in SIGNALS.values()
    for call in (
        *((c, None, None) for c in COLOURS),  # a draw in colour c
        *((None, c, n) for c in COLOURS for n in (None, *COLOURS)),  # a play (a wild names n)
        *((None, None, n) for n in COLOURS),  # a first-card Comodín named
    )
}


def _refill(st: Chupate2State, events: list[Event]) -> bool:
    """Shuffle the discard pile except its top card into a new stock."""
    rest = st.discard[:-1]
    if not rest:
        return False
    st.discard = st.discard[-1:]
    st.stock = shuffled(rest, st.seed, "refill", st.round, st.shuffles)
    st.shuffles += 1
    events.append(event(code="refilled", params={"count": len(rest)}))
    return True


def _draw(
    st: Chupate2State,
    seat: Seat,
    count: int,
    events: list[Event],
    until: Callable[[str], bool] | None = None,
) -> list[str]:
    """Move up to ``count`` cards from the stock to ``seat`` (refilling it as needed), stopping
    after the first card ``until`` accepts."""
    stock = st.stock
    if count == 1 and stock and until is None:  # the commonest draw: one card, no refill
        got = [stock[-1]]
        st.stock = stock[:-1]  # copy-on-write (see copy_state)
    else:
        got = _draw_cards(st, count, events, until)
    if got:
        st.hands[seat] = st.hands[seat] + got
        events.append(_event(Event, ("drew_cards", seat, {"cards": got}, (seat,))))
        if seat in st.called:
            st.called = [s for s in st.called if s != seat]
        if seat in st.exposed:
            st.exposed = [s for s in st.exposed if s != seat]
    return got


def _draw_cards(
    st: Chupate2State, count: int, events: list[Event], until: Callable[[str], bool] | None
) -> list[str]:
    """The cards of a draw, taken from the stock (refilled as needed): see ``_draw``."""
    got: list[str] = []
    stock = st.stock[:]  # copy-on-write (see copy_state)
    for _ in range(count):
        if not stock:
            st.stock = stock
            if not _refill(st, events):
                break  # Decision: nothing left anywhere, the draw is skipped
            stock = st.stock
        card = stock.pop()
        got.append(card)
        if until is not None and until(card):
            break
    st.stock = stock
    return got


def _end_round(st: Chupate2State, winner: Seat, events: list[Event]) -> None:
    seats = st.seats
    n = len(seats)
    groups = team_groups(n, st.options)
    team = None
    mates = {winner}
    if groups is not None:
        team = next(t for t, g in enumerate(groups) if seats.index(winner) in g)
        mates = {seats[i] for i in groups[team]}
    left = {s: hand_points(st.hands[s]) for s in seats}
    points = sum(p for s, p in left.items() if s not in mates)
    st.results = [
        *st.results,
        trusted(
            RoundResult,
            {
                "round": st.round,
                "winner": winner,
                "team": team,
                "points": points,
                "left": left,
                "cards_left": {s: len(h) for s, h in st.hands.items()},
            },
        ),
    ]
    events.append(
        event(
            code="round_won",
            seat=winner,
            params={"round": st.round, "points": points, "team": team},
        )
    )
    st.pending = 0
    st.plus4 = None
    st.drawn = None
    st.exposed = []
    target = st.options.target
    if target is not None:
        st.scores = dict(st.scores)
        st.team_scores = list(st.team_scores)
        if team is None:
            st.scores[winner] += points
            total = st.scores[winner]
        else:
            st.team_scores[team] += points
            total = st.team_scores[team]
            for s in mates:
                st.scores[s] = total
        if total < target:
            st.round += 1
            st.dealer = (st.dealer + 1) % n  # the dealer advances one seat
            st.starter = (st.dealer - 1) % n  # the dealer's counter-clockwise neighbour
            st.shuffles = 0
            _deal(st, events)
            return
        points = total
    st.phase = "over"
    events.append(event(code="game_won", seat=winner, params={"team": team, "points": points}))


# The handlers of the actions of the seat whose turn it is (see ``_resolve``).
_ON_TURN: dict[type, Callable[[Chupate2State, Seat, Chupate2Action, list[Event]], None]] = {
    Play: _play,  # type: ignore[dict-item]  # each handler takes its own action class
    Draw: _draw_turn,
    Pass: _pass,
    Take: _take,
    Challenge: _challenge,
    SwapWith: _swap,  # type: ignore[dict-item]
    ChooseColour: _choose_colour,  # type: ignore[dict-item]
}


# ----- the result -------------------------------------------------------------------------
def outcome(state: Chupate2State) -> Chupate2Outcome | None:
    """Ranking and points of a finished game (``None`` while it goes on).

    Single round: the winner (or its team) scores the points left in the other hands; the others
    are ranked by the points left in their hands (fewer is better). Points game: by score.
    """
    if not state.finished:
        return None
    seats = state.seats
    groups = team_groups(len(seats), state.options)
    last = state.results[-1]
    target = state.options.target
    mode: Literal["single", "points"] = "single" if target is None else "points"
    rounds = list(state.results)
    if groups is None:
        if target is None:
            points = {s: (last.points if s == last.winner else 0) for s in seats}
            order = {s: -last.left[s] for s in seats if s != last.winner}
            ranking = [[last.winner], *_group_desc(order)]
        else:
            points = dict(state.scores)
            ranking = _group_desc(points)
        return Chupate2Outcome(
            ranking=ranking, points=points, mode=mode, target=target, rounds=rounds
        )
    teams = [[seats[i] for i in g] for g in groups]
    winning_team = last.team
    assert winning_team is not None  # a team game's rounds are won by a team
    if target is None:
        team_scores = [last.points if t == winning_team else 0 for t in range(len(teams))]
        key = {
            t: -sum(last.left[s] for s in teams[t]) for t in range(len(teams)) if t != winning_team
        }
        team_order = [[winning_team], *_group_desc(key)]
    else:
        team_scores = list(state.team_scores)
        team_order = _group_desc(dict(enumerate(team_scores)))
    return Chupate2Outcome(
        ranking=[[s for t in grp for s in teams[t]] for grp in team_order],
        points={s: team_scores[t] for t, members in enumerate(teams) for s in members},
        team_winners=list(teams[winning_team]),  # storage counts these as team wins
        mode=mode,
        target=target,
        rounds=rounds,
        teams=teams,
        winning_team=winning_team,
        team_scores=team_scores,
    )


K = TypeVar("K")


def _group_desc(values: dict[K, int]) -> list[list[K]]:
    """Keys grouped by equal value, highest value first (ties share a group)."""
    groups: dict[int, list[K]] = {}
    for k, v in values.items():
        groups.setdefault(v, []).append(k)
    return [groups[v] for v in sorted(groups, reverse=True)]
