"""The Macarena rules as pure functions over a state (spec: docs/rules/macarena.md).

``resolve_action`` mutates the private copy that ``Game.apply`` hands it (made by ``copy_state``)
and returns the events; the end of a hand lives in ``endhand.py``, series in ``series.py``, and
the read-only turn questions (who acts, where a series may go) in ``turns.py``.
"""

from __future__ import annotations

from functools import cache

from games.core import Event, IllegalAction, event, shuffled
from games.core.actions import Draw, Pass
from games.core.cards import two_decks
from games.core.engine import opening
from games.core.errors import NOT_YOUR_TURN
from games.core.fast import replace
from games.core.rng import rng_for
from games.macarena import endhand
from games.macarena.actions import BuyElement, GiveElement, MacarenaAction, MoveMaca, Play
from games.macarena.elements import ELEMENTS
from games.macarena.endhand import own_tokens
from games.macarena.options import Options, amulets_target
from games.macarena.series import faces_following, first_of_each_face, resolve_series
from games.macarena.state import (
    MACAS_PER_PLAYER,
    MAX_MACAS_PER_POZO,
    POZOS,
    MacarenaState,
    Phase,
    Tokens,
)
from games.macarena.turns import maca_sources, may_play_on
from games.macarena.turns import to_act as to_act  # the rule, re-exported beside the others
from games.macarena.view import MacarenaOutcome

# Error codes (``IllegalAction``) of this module; bot/i18n translates ``macarena.error.<code>``.
WRONG_PHASE = "wrong_phase"
ELEMENT_NOT_HELD = "element_not_held"
ELEMENT_HELD = "element_held"
POZO_ENCHANTED = "pozo_enchanted"
NOT_A_MACA_SOURCE = "not_a_maca_source"

HAND_SIZE = 7
# The actions each phase accepts (anything else: ``wrong_phase``).
PHASE_ACTIONS: dict[Phase, tuple[type[MacarenaAction], ...]] = {
    "draw": (Draw,),
    "play": (Play, Pass),
    "move_maca": (MoveMaca,),
    "penalty": (GiveElement,),
    "buy": (BuyElement,),
    "over": (),
}


def copy_state(state: MacarenaState) -> MacarenaState:
    """The working copy of a move, copy-on-write (cards and events are immutable and shared).

    The dicts and lists a move assigns into by key or index (hands, collections, pozos) are
    copied one level; the small containers the end of a hand changes in place (macas, pending
    seats) are copied. The lists inside (a hand, a collection, a pozo), the stock, the seats,
    the winners and the count of macarenas are shared and *replaced*, never changed in place,
    by the code that changes them; the log is replaced by the move's events (``_Turn.logged``).
    The tokens and the end-of-hand result change only at the end of a hand: copied for the
    penalty and buy phases here, and by ``endhand.start_end_of_hand`` when a hand ends.
    """
    end_of_hand = state.phase in ("penalty", "buy")
    return replace(
        state,
        {
            "pozos": list(state.pozos),
            "macas": [dict(m) for m in state.macas],
            "hands": dict(state.hands),
            "collections": dict(state.collections),
            "tokens": own_tokens(state) if end_of_hand else state.tokens,
            "penalty_pending": list(state.penalty_pending),
            "buy_pending": list(state.buy_pending),
            "hand_result": (
                state.hand_result.model_copy(deep=True)
                if state.hand_result is not None and end_of_hand
                else state.hand_result
            ),
        },
    )


class _Turn:
    """Collects the events of one action; ``logged`` adds them to the state's log."""

    def __init__(self, state: MacarenaState) -> None:
        self.state = state
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        self.events.append(event)

    def logged(self) -> list[Event]:
        """The action's events, now also at the end of the state's log (new nodes: the
        state before the move keeps its own, see ``copy_state``)."""
        self.state.add_to_log(self.events)
        return self.events

    def deal_next_hand(self) -> None:
        """The ``deal`` callback of ``endhand``: the next hand, its events in this turn."""
        state = self.state
        state.hand_number += 1
        state.starter = (state.starter - 1) % len(state.seats)  # play passes to the right
        deal(state, self)


# ----- creation ------------------------------------------------------------------------------


def new_state(seats: list[str], seed: str, options: Options) -> MacarenaState:
    """The first hand dealt; the first starter is drawn from the seed."""
    starter = rng_for(seed, "starter").randrange(len(seats))
    state = MacarenaState(
        **opening(seats, seed, options),
        starter=starter,
        turn=starter,
        stock=[],
        pozos=[],
        macas=[],
        hands={},
        collections={},
        tokens={s: Tokens() for s in seats},
    )
    turn = _Turn(state)
    deal(state, turn)
    turn.logged()
    return state


def deal(state: MacarenaState, turn: _Turn) -> None:
    deck = shuffled(two_decks(), state.seed, "deal", state.hand_number)
    n = len(state.seats)
    state.hands = {s: deck[i * HAND_SIZE : (i + 1) * HAND_SIZE] for i, s in enumerate(state.seats)}
    rest = deck[n * HAND_SIZE :]
    state.pozos = [[c] for c in rest[:POZOS]]
    state.stock = rest[POZOS:]
    state.macas = [{} for _ in range(POZOS)]
    state.collections = {s: [] for s in state.seats}
    state.turn = state.starter
    state.phase = "draw"
    state.espejo_turn = False
    state.drawn = None
    state.maca_target = None
    state.penalty_pending = []
    state.buy_pending = []
    turn.emit(
        event(
            code="round_started",
            seat=state.seats[state.starter],
            params={"hand": state.hand_number},
        )
    )


# ----- legality ------------------------------------------------------------------------------


# A series is listed by its first card, its longer runs are not
LISTS_EVERY_ACTION = False


def legal_actions(state: MacarenaState, seat: str) -> list[MacarenaAction]:
    """Every action of ``seat`` now. In the play phase a series is listed by its first card
    (``Play(pozo, (card,))``); longer series extend it through ``series_options``."""
    if seat not in to_act(state):
        return []
    if state.phase == "draw":
        return [_DRAW]
    if state.phase == "play":
        plays: list[MacarenaAction] = [_PASS]
        faces = None
        for pozo in range(POZOS):
            if may_play_on(state, seat, pozo):
                if faces is None:  # (the hand read once for every pozo it may play on)
                    faces = first_of_each_face(state.hands[seat])
                for card in faces_following(state.pozos[pozo][-1], faces):
                    plays.append(_first_card(pozo, card.code))
        return plays
    if state.phase == "move_maca":
        return [MoveMaca(source=i) for i in maca_sources(state)]
    if state.phase == "penalty":
        return [GiveElement(element=e) for e in state.tokens[seat].elements]
    if state.phase == "buy":
        return [BuyElement(element=e) for e in ELEMENTS if e not in state.tokens[seat].elements]
    return []


# Legal actions are frozen values: the same instances serve every call (none is validated again).
_DRAW, _PASS = Draw.instance(), Pass.instance()


@cache
def _first_card(pozo: int, face: str) -> Play:
    """The play of a series by its first card (at most 4 pozos x 52 faces)."""
    return Play(pozo=pozo, cards=(face,))


# ----- applying an action --------------------------------------------------------------------


def resolve_action(state: MacarenaState, seat: str, action: MacarenaAction) -> list[Event]:
    """Apply ``action`` of ``seat`` to the private copy ``state``; the events, in order."""
    if seat not in to_act(state):
        raise IllegalAction(NOT_YOUR_TURN)
    if not isinstance(action, PHASE_ACTIONS[state.phase]):
        raise IllegalAction(WRONG_PHASE, phase=state.phase)
    turn = _Turn(state)
    if isinstance(action, Draw):
        _draw(state, turn, seat)
    elif isinstance(action, Pass):
        _pass(state, turn, seat)
    elif isinstance(action, Play):
        _play(state, turn, seat, action)
    elif isinstance(action, MoveMaca):
        _move_choice(state, turn, seat, action)
    elif isinstance(action, GiveElement):
        if action.element not in state.tokens[seat].elements:
            raise IllegalAction(ELEMENT_NOT_HELD, element=action.element)
        endhand.give_element(state, turn.emit, seat, action.element, turn.deal_next_hand)
    elif isinstance(action, BuyElement):
        if action.element in state.tokens[seat].elements:
            raise IllegalAction(ELEMENT_HELD, element=action.element)
        endhand.chosen_buy(state, turn.emit, seat, action.element, turn.deal_next_hand)
    return turn.logged()


def _start_turn(state: MacarenaState, turn: _Turn, index: int, espejo: bool) -> None:
    if not state.stock:  # the player must draw from an empty stock: the hand ends
        endhand.start_end_of_hand(state, turn.emit, "stock_empty", None, turn.deal_next_hand)
        return
    state.turn = index
    state.espejo_turn = espejo
    state.phase = "draw"
    state.drawn = None
    state.maca_target = None
    if espejo:
        turn.emit(event(code="espejo_turn", seat=state.seats[index]))


def _next_player(state: MacarenaState) -> int:
    return (state.turn - 1) % len(state.seats)  # play passes to the right


def _draw(state: MacarenaState, turn: _Turn, seat: str) -> None:
    card = state.stock[-1]
    state.stock = state.stock[:-1]  # copy-on-write (see copy_state)
    state.hands[seat] = [*state.hands[seat], card]
    state.drawn = card
    state.phase = "play"
    turn.emit(event(code="drew", seat=seat, params={"stock": len(state.stock)}))
    turn.emit(event(code="drew_card", seat=seat, params={"card": card.code}, to=(seat,)))


def _pass(state: MacarenaState, turn: _Turn, seat: str) -> None:
    returned = sum(m.pop(seat, 0) for m in state.macas)
    turn.emit(event(code="passed", seat=seat, params={"returned": returned}))
    state.drawn = None
    _start_turn(state, turn, _next_player(state), espejo=False)


def _play(state: MacarenaState, turn: _Turn, seat: str, action: Play) -> None:
    pozo = action.pozo
    if not may_play_on(state, seat, pozo):
        raise IllegalAction(POZO_ENCHANTED, pozo=pozo)
    series = resolve_series(state.pozos[pozo][-1], state.hands[seat], action.cards)
    hand = list(state.hands[seat])  # copy-on-write (see copy_state), as the lists below
    for card in series.cards:
        hand.remove(card)
    state.hands[seat] = hand
    state.collections[seat] = state.collections[seat] + list(series.to_collection)
    if series.new_top is not None:
        state.pozos[pozo] = [*state.pozos[pozo], series.new_top]
    state.drawn = None
    turn.emit(
        event(
            code="espejo_solo" if series.solo else "played",
            seat=seat,
            params={
                "pozo": pozo,
                "cards": [c.code for c in series.cards],
                "collected": len(series.to_collection),
                "espejo": series.espejo,
            },
        )
    )
    if series.espejo:
        _activate_maca(state, turn, seat, pozo)
        if state.phase in ("move_maca", "over"):
            return
    _after_play(state, turn, seat, series.espejo)


def _after_play(state: MacarenaState, turn: _Turn, seat: str, espejo: bool) -> None:
    if not state.hands[seat]:  # se va: the hand ends at once
        endhand.start_end_of_hand(state, turn.emit, "went_out", seat, turn.deal_next_hand)
    elif espejo:  # an espejo turn always follows and cannot be refused
        _start_turn(state, turn, state.turn, espejo=True)
    else:
        _start_turn(state, turn, _next_player(state), espejo=False)


def _activate_maca(state: MacarenaState, turn: _Turn, seat: str, pozo: int) -> None:
    on_pozo = state.macas[pozo]
    if sum(on_pozo.values()) >= MAX_MACAS_PER_POZO:
        turn.emit(event(code="maca_pozo_full", seat=seat, params={"pozo": pozo}))
        return
    if sum(m.get(seat, 0) for m in state.macas) >= MACAS_PER_PLAYER:
        state.phase = "move_maca"
        state.maca_target = pozo
        sources = maca_sources(state)
        if len(sources) == 1:
            _move_maca(state, turn, seat, sources[0], pozo)
        else:
            turn.emit(event(code="maca_move_choice", seat=seat, params={"pozo": pozo}))
        return
    shared_before = len(on_pozo) >= 2
    on_pozo[seat] = on_pozo.get(seat, 0) + 1
    turn.emit(event(code="maca_placed", seat=seat, params={"pozo": pozo, "count": on_pozo[seat]}))
    if len(on_pozo) >= 2 and not shared_before:
        turn.emit(
            event(code="pozo_shared", seat=seat, params={"pozo": pozo, "owners": list(on_pozo)})
        )
    _check_macarena(state, turn, seat)


def _move_maca(state: MacarenaState, turn: _Turn, seat: str, source: int, target: int) -> None:
    state.macas[source][seat] -= 1
    if not state.macas[source][seat]:
        del state.macas[source][seat]
    on_target = state.macas[target]
    shared_before = len(on_target) >= 2
    on_target[seat] = on_target.get(seat, 0) + 1
    state.maca_target = None
    state.phase = "play"
    turn.emit(event(code="maca_moved", seat=seat, params={"from": source, "pozo": target}))
    if len(on_target) >= 2 and not shared_before:
        turn.emit(
            event(
                code="pozo_shared",
                seat=seat,
                params={"pozo": target, "owners": list(on_target)},
            )
        )
    _check_macarena(state, turn, seat)


def _move_choice(state: MacarenaState, turn: _Turn, seat: str, action: MoveMaca) -> None:
    if action.source not in maca_sources(state):
        raise IllegalAction(NOT_A_MACA_SOURCE, pozo=action.source)
    assert state.maca_target is not None
    _move_maca(state, turn, seat, action.source, state.maca_target)
    if not state.finished:
        _after_play(state, turn, seat, espejo=True)


def _check_macarena(state: MacarenaState, turn: _Turn, seat: str) -> None:
    if all(m.get(seat, 0) > 0 for m in state.macas):
        state.phase = "over"
        state.macarena = seat
        state.winners = [seat]
        count = state.macarenas_count  # copy-on-write (see copy_state)
        state.macarenas_count = {**count, seat: count.get(seat, 0) + 1}
        turn.emit(event(code="macarena", seat=seat))


# ----- the end of the game -------------------------------------------------------------------


def outcome(state: MacarenaState) -> MacarenaOutcome | None:
    if not state.finished:
        return None
    if state.macarena is not None:
        others = [s for s in state.seats if s != state.macarena]
        ranking = [[state.macarena]] + endhand.group_by_standing(state, others)
    else:
        ranking = endhand.group_by_standing(state, list(state.seats))
    return MacarenaOutcome(
        ranking=ranking,
        points={s: state.tokens[s].amulets for s in state.seats},
        # leaderboard counters (storage adds them per player): amulets earned in this game
        # (they are never lost) and Macarenas achieved
        stats={
            s: {"amulets": state.tokens[s].amulets, "macarenas": state.macarenas_count.get(s, 0)}
            for s in state.seats
        },
        macarena=state.macarena,
        macarenas={s: state.macarenas_count.get(s, 0) for s in state.seats},
        amulets={s: state.tokens[s].amulets for s in state.seats},
        elements={s: list(state.tokens[s].elements) for s in state.seats},
        coins={s: state.tokens[s].coins for s in state.seats},
        hands=state.hand_number,
        amulets_to_win=amulets_target(state.options, len(state.seats)),
    )
