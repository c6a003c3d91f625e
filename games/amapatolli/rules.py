"""Ce Amapatolli rules (../shared/rules/amapatolli.md).

Decisions of our own, beyond those in the spec:

* Turn flow. A turn is a sequence of actions by the player at turn: ``play`` a matching card
  (or a Tlapiāni, naming the colour); with nothing playable, ``draw`` one card at a time; with
  nothing playable and the stock empty, ``pass`` (the turn ends). Facing a pending bird the only
  actions are ``play`` a skip card (the answer) or ``accept_skip``.
* Skip cards are the birds (unless ``no_birds``) and, with ``powers``, Tochtli. They are
  interchangeable: a pending skip may be answered by any of them. A skip card played anywhere in
  a turn (e.g. the first card of a double play) makes the next player face the skip when the turn
  ends; several skip cards in one turn still skip one player.
* Reversals (Tlapiāni; Ollin with ``powers``) take effect at once. A card turned up at the start
  has no power; a Tlapiāni turned up goes to the bottom of the stock.
* A Tlapiāni may be the card a double play demands (it is "any card, on your turn"); it ends the
  turn. Playing one's last card wins at once, whatever double play or skip it would have caused.
* The inverse of the last card (margin and background swapped) may always be played: the spec's
  double play "for an inverse card" would otherwise never apply to two-colour cards, since an
  inverse matches neither margin to margin nor background to background.
* ``inverse_once``: a player's first inverse play triggers the double play and uses up their
  once; later inverse cards are plain plays. A card that is both a double match and an inverse
  (single-colour on the same single colour) counts as a double match.
* The empty-stock ending: ``passes`` counts players in a row who passed; any card played resets
  it, accepting a skip leaves it unchanged (a pass that ends a double play counts: that player
  could not play on the card in force); when it reaches the number of players the game ends.
* "Ce": the window opens when a player is left with one card by playing, and closes when they
  announce, are called out, hold a different number of cards, or another player takes a turn
  action. Any other seat may call out at once, the next player included (before acting). A
  call-out outside the window is not a legal action. The penalty is 3 cards, or what is left in
  the stock.
* Points: the winner (each of the winners of a tied blocked ending) earns the sum of the hand
  values of every player not in first place.
* Rematch: the player placed last deals and starts (ties: the first of them in seat order).
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from games.amapatolli import ai
from games.amapatolli.actions import (
    ACCEPT_SKIP,
    ANNOUNCE,
    DRAW,
    PASS,
    AcceptSkip,
    Announce,
    CallOut,
    Draw,
    Pass,
    Play,
    decode,
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
from games.amapatolli.state import AmapatolliState, AmapatolliView, CardView
from games.core import Action, Event, Game, IllegalAction, Outcome, rng_for, shuffled
from games.core.engine import Seat
from games.core.errors import BAD_ACTION, GAME_OVER, NOT_A_PLAYER, NOT_YOUR_TURN

LOG_SIZE = 12
PENALTY = 3

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

# Event codes (params in brackets; ``seat`` is the actor unless said otherwise).
# A card is named by [card, name, number] (id, Nahuatl name, sign number; 0 for a Tlapiāni).
#   start [card...] (seat: the dealer, who starts)   tlapiani_returned [card...]
#   play [card..., answer]
#   colour_named [colour]           reverse [direction]            skip_next [target]
#   double_play []                  skipped []                     draw [stock]
#   drew [card...] (private)        pass [passes]                  ce []
#   callout [target, count]         penalty [cards] (private to target)
#   won []                          blocked [hand_values]
EVENT_CODES = (
    "start",
    "tlapiani_returned",
    "play",
    "colour_named",
    "reverse",
    "skip_next",
    "double_play",
    "skipped",
    "draw",
    "drew",
    "pass",
    "ce",
    "callout",
    "penalty",
    "won",
    "blocked",
)

# Every possible action object, built once (actions are immutable).
_PLAYS: dict[tuple[str, str | None], Play] = {}
for _cid, _card in CARDS.items():
    if _card.wild:
        for _colour in COLOURS:
            _PLAYS[(_cid, _colour)] = Play(card=_cid, colour=_colour)
    else:
        _PLAYS[(_cid, None)] = Play(card=_cid)
_CALLOUTS = [CallOut(target=i) for i in range(6)]


def card_params(cid: str) -> dict[str, Any]:
    """Event parameters naming a card: its id, its (Nahuatl) name and its number (0: Tlapiāni)."""
    card = CARDS[cid]
    return {"card": cid, "name": card.name, "number": card.sign}


def skip_signs(options: Options) -> frozenset[int]:
    signs = set() if options.no_birds else set(BIRD_SIGNS)
    if options.powers:
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


@lru_cache(maxsize=8)
def _card_views(no_birds: bool, powers: bool) -> dict[str, CardView]:
    options = Options(no_birds=no_birds, powers=powers)
    signs = skip_signs(options)
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
            skips=is_skip(card, signs),
            reverses=card.wild or (powers and card.sign == OLLIN),
        )
        for cid, card in CARDS.items()
    }


def card_views(options: Options) -> dict[str, CardView]:
    """Every card as presenters see it under these options, by id."""
    return _card_views(options.no_birds, options.powers)


class AmapatolliGame(Game[AmapatolliState, Action, AmapatolliView, Options]):
    key = "amapatolli"
    names = {"es": "Ce Amapatolli", "en": "Ce Amapatolli"}
    min_players = 2
    max_players = 6
    options_model = Options
    state_model = AmapatolliState
    ai_levels = ("easy", "normal", "hard")

    # ----- creation -------------------------------------------------------------------------
    def new(
        self, seats: list[Seat], seed: str, options: Options | dict[str, Any] | None = None
    ) -> AmapatolliState:
        self.check_player_count(seats)
        opts = self.parse_options(options)
        stock = shuffled(deck_ids(not opts.no_tlapiani), seed, "deal")
        hands: list[list[str]] = [[] for _ in seats]
        for _ in range(opts.hand_size):
            for hand in hands:
                hand.append(stock.pop())
        log: list[Event] = []
        top = stock.pop()
        while CARDS[top].wild:  # a Tlapiāni turned up goes back (to the bottom)
            stock.insert(0, top)
            log.append(Event(code="tlapiani_returned", params=card_params(top)))
            top = stock.pop()
        log.append(Event(code="start", seat=seats[0], params=card_params(top)))
        card = CARDS[top]
        return AmapatolliState(
            seed=seed,
            seats=list(seats),
            options=opts,
            hands=hands,
            stock=stock,
            pile=[top],
            margin=card.margin,
            background=card.background,
            announced=[False] * len(seats),
            inverse_used=[False] * len(seats),
            log=log,
        )

    # ----- queries --------------------------------------------------------------------------
    def to_act(self, state: AmapatolliState) -> set[Seat]:
        return set() if state.finished else {state.seats[state.turn]}

    def _playable(self, state: AmapatolliState, i: int) -> list[str]:
        """Ids of seat ``i``'s cards that may be played now (only meaningful on their turn)."""
        hand = state.hands[i]
        if state.skip_pending:
            signs = skip_signs(state.options)
            return [c for c in hand if is_skip(CARDS[c], signs)]
        m, b = state.margin, state.background
        return [c for c in hand if matches(CARDS[c], m, b)]

    def legal_actions(self, state: AmapatolliState, seat: Seat) -> list[Action]:
        if state.finished or seat not in state.seats:
            return []
        i = state.seats.index(seat)
        out: list[Action] = []
        if i == state.turn:
            for c in self._playable(state, i):
                if CARDS[c].wild:
                    out.extend(_PLAYS[(c, colour)] for colour in COLOURS)
                else:
                    out.append(_PLAYS[(c, None)])
            if state.skip_pending:
                out.append(ACCEPT_SKIP)
            elif not out:
                out.append(DRAW if state.stock else PASS)
        if state.ce_window is not None:
            out.append(ANNOUNCE if state.ce_window == i else _CALLOUTS[state.ce_window])
        return out

    # ----- applying -------------------------------------------------------------------------
    def apply(
        self, state: AmapatolliState, seat: Seat, action: Action
    ) -> tuple[AmapatolliState, list[Event]]:
        if seat not in state.seats:
            raise IllegalAction(NOT_A_PLAYER)
        if state.finished:
            raise IllegalAction(GAME_OVER)
        new_state = state.model_copy(
            update={
                "seats": list(state.seats),
                "hands": [list(h) for h in state.hands],
                "stock": list(state.stock),
                "pile": list(state.pile),
                "announced": list(state.announced),
                "inverse_used": list(state.inverse_used),
                "log": list(state.log),
            }
        )
        events = self._apply(new_state, seat, action)
        new_state.version = state.version + 1
        new_state.log = (new_state.log + events)[-LOG_SIZE:]
        return new_state, events

    def _apply(self, state: AmapatolliState, seat: Seat, action: Action) -> list[Event]:
        i = state.seats.index(seat)
        if isinstance(action, Announce):
            return self._announce(state, i)
        if isinstance(action, CallOut):
            return self._callout(state, i, action.target)
        if not isinstance(action, Play | Draw | Pass | AcceptSkip):
            raise IllegalAction(BAD_ACTION)
        if i != state.turn:
            raise IllegalAction(NOT_YOUR_TURN)
        if state.ce_window is not None and state.ce_window != i:
            state.ce_window = None  # the next player acts: the "Ce" window closes
        if isinstance(action, Play):
            return self._play(state, i, action)
        if isinstance(action, Draw):
            return self._draw(state, i)
        if isinstance(action, Pass):
            return self._pass(state, i)
        return self._accept_skip(state, i)

    def _play(self, state: AmapatolliState, i: int, action: Play) -> list[Event]:
        seat = state.seats[i]
        hand = state.hands[i]
        card = CARDS.get(action.card)
        if card is None or action.card not in hand:
            raise IllegalAction(CARD_NOT_IN_HAND, card=action.card)
        if card.wild and action.colour is None:
            raise IllegalAction(COLOUR_REQUIRED, card=card.id)
        if not card.wild and action.colour is not None:
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

        hand.remove(card.id)
        state.pile.append(card.id)
        state.passes = 0
        state.drawn = 0
        params = {**card_params(card.id), "answer": answer}
        events = [Event(code="play", seat=seat, params=params)]
        if card.wild:
            state.margin = state.background = action.colour  # type: ignore[assignment]
            state.named_colour = action.colour
            events.append(Event(code="colour_named", seat=seat, params={"colour": action.colour}))
        else:
            state.margin, state.background = card.margin, card.background
            state.named_colour = None
        if not hand:
            return events + self._win(state, i)
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
                state.direction = -state.direction  # type: ignore[assignment]
                events.append(
                    Event(code="reverse", seat=seat, params={"direction": state.direction})
                )
        if double:
            state.double_play = True
            events.append(Event(code="double_play", seat=seat))
            return events
        return events + self._end_turn(state)

    def _draw(self, state: AmapatolliState, i: int) -> list[Event]:
        if state.skip_pending:
            raise IllegalAction(MUST_ANSWER_SKIP)
        if self._playable(state, i):
            raise IllegalAction(HAS_PLAYABLE_CARD)
        if not state.stock:
            raise IllegalAction(STOCK_EMPTY)
        seat = state.seats[i]
        card = state.stock.pop()
        state.hands[i].append(card)
        state.drawn += 1
        state.announced[i] = False
        if state.ce_window == i:
            state.ce_window = None
        return [
            Event(code="draw", seat=seat, params={"stock": len(state.stock)}),
            Event(code="drew", seat=seat, params=card_params(card), to=(seat,)),
        ]

    def _pass(self, state: AmapatolliState, i: int) -> list[Event]:
        if state.skip_pending:
            raise IllegalAction(MUST_ANSWER_SKIP)
        if self._playable(state, i):
            raise IllegalAction(HAS_PLAYABLE_CARD)
        if state.stock:
            raise IllegalAction(STOCK_NOT_EMPTY)
        state.passes += 1
        events = [Event(code="pass", seat=state.seats[i], params={"passes": state.passes})]
        if state.passes >= len(state.seats):
            return events + self._block(state)
        return events + self._end_turn(state)

    def _accept_skip(self, state: AmapatolliState, i: int) -> list[Event]:
        if not state.skip_pending:
            raise IllegalAction(NO_SKIP_PENDING)
        state.skip_pending = False
        return [Event(code="skipped", seat=state.seats[i])] + self._end_turn(state)

    def _announce(self, state: AmapatolliState, i: int) -> list[Event]:
        if state.ce_window != i:
            raise IllegalAction(CANNOT_ANNOUNCE)
        state.announced[i] = True
        state.ce_window = None
        return [Event(code="ce", seat=state.seats[i])]

    def _callout(self, state: AmapatolliState, i: int, target: int) -> list[Event]:
        if state.ce_window is None or state.ce_window != target or target == i:
            raise IllegalAction(NOTHING_TO_CALL)
        drawn = [state.stock.pop() for _ in range(min(PENALTY, len(state.stock)))]
        state.hands[target].extend(drawn)
        state.ce_window = None
        state.announced[target] = False
        target_seat = state.seats[target]
        return [
            Event(
                code="callout",
                seat=state.seats[i],
                params={"target": target_seat, "count": len(drawn)},
            ),
            Event(code="penalty", seat=target_seat, params={"cards": drawn}, to=(target_seat,)),
        ]

    def _end_turn(self, state: AmapatolliState) -> list[Event]:
        state.turn = (state.turn + state.direction) % len(state.seats)
        state.double_play = False
        state.drawn = 0
        events: list[Event] = []
        if state.skip_next:
            state.skip_next = False
            state.skip_pending = True
            events.append(Event(code="skip_next", params={"target": state.seats[state.turn]}))
        return events

    def _win(self, state: AmapatolliState, i: int) -> list[Event]:
        state.finished = True
        state.winner = i
        state.end_reason = "out"
        state.ce_window = None
        state.double_play = state.skip_pending = state.skip_next = False
        return [Event(code="won", seat=state.seats[i])]

    def _block(self, state: AmapatolliState) -> list[Event]:
        state.finished = True
        state.end_reason = "blocked"
        state.ce_window = None
        values = {s: hand_value(h) for s, h in zip(state.seats, state.hands, strict=True)}
        return [Event(code="blocked", params={"hand_values": values})]

    # ----- information ----------------------------------------------------------------------
    def view(self, state: AmapatolliState, seat: Seat | None) -> AmapatolliView:
        seats = state.seats
        opts = state.options
        i = seats.index(seat) if seat in seats else None
        views = card_views(opts)
        hand = [views[c] for c in state.hands[i]] if i is not None else []
        playable: list[str] = []
        if i is not None and i == state.turn and not state.finished:
            playable = self._playable(state, i)
        outcome = self.outcome(state)
        n = len(seats)
        return AmapatolliView(
            seat=seat if i is not None else None,
            version=state.version,
            seats=list(seats),
            to_act=[] if state.finished else [seats[state.turn]],
            finished=state.finished,
            options=opts,
            hand=hand,
            playable=playable,
            hand_counts={s: len(h) for s, h in zip(seats, state.hands, strict=True)},
            announced={s: a for s, a in zip(seats, state.announced, strict=True)},
            top=views[state.pile[-1]],
            margin=state.margin,
            background=state.background,
            named_colour=state.named_colour,
            turn=None if state.finished else seats[state.turn],
            next_seat=None if state.finished else seats[(state.turn + state.direction) % n],
            direction=state.direction,
            skip_pending=state.skip_pending,
            skip_next=state.skip_next,
            double_play=state.double_play,
            drawn_this_turn=state.drawn,
            stock_count=len(state.stock),
            pile_count=len(state.pile),
            passes_in_row=state.passes,
            ce_window=None if state.ce_window is None else seats[state.ce_window],
            inverse_used={s: u for s, u in zip(seats, state.inverse_used, strict=True)},
            last_events=[e for e in state.log if e.visible_to(seat if i is not None else None)],
            end_reason=state.end_reason,
            winners=outcome.winners if outcome else [],
            hand_values=outcome.details["hand_values"] if outcome else None,
        )

    def outcome(self, state: AmapatolliState) -> Outcome | None:
        if not state.finished:
            return None
        seats = state.seats
        values = {s: hand_value(h) for s, h in zip(seats, state.hands, strict=True)}
        rest = [s for k, s in enumerate(seats) if k != state.winner]
        ranking: list[list[Seat]] = [] if state.winner is None else [[seats[state.winner]]]
        for value in sorted({values[s] for s in rest}):
            ranking.append([s for s in rest if values[s] == value])
        first = set(ranking[0])
        prize = sum(v for s, v in values.items() if s not in first)
        return Outcome(
            ranking=ranking,
            points={s: prize if s in first else 0 for s in seats},
            details={
                "reason": state.end_reason,
                "hand_values": values,
                "cards_left": {s: len(h) for s, h in zip(seats, state.hands, strict=True)},
            },
        )

    def rematch_seats(self, state: AmapatolliState) -> list[Seat]:
        outcome = self.outcome(state)
        if outcome is None:
            return list(state.seats)
        last = outcome.ranking[-1]
        k = min(state.seats.index(s) for s in last)
        return state.seats[k:] + state.seats[:k]

    def default_action(self, state: AmapatolliState, seat: Seat) -> Action:
        """A timed-out turn is played by the ``normal`` computer, moving the game on: a turn
        action (play, draw, pass, accept the skip), never only an optional "Ce" or call-out."""
        legal = [
            a for a in self.legal_actions(state, seat) if not isinstance(a, Announce | CallOut)
        ]
        if not legal:
            raise IllegalAction(NOT_YOUR_TURN)
        choice = self.choose_action(
            self.view(state, seat), legal, "normal", rng_for(state.seed, "timeout", state.version)
        )
        return choice if choice is not None else legal[0]

    # ----- text forms and computer play -----------------------------------------------------
    def decode_action(self, text: str) -> Action:
        return decode(text)

    def choose_action(
        self, view: AmapatolliView, legal: list[Action], level: str, rng: random.Random
    ) -> Action | None:
        return ai.choose_action(view, legal, level, rng)
