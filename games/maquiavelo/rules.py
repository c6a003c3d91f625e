"""The rules of Maquiavelo as pure functions (spec: docs/rules/maquiavelo.md).

``deal`` makes a new game; ``resolve_action`` applies one move to the engine's private working copy
(``copy_state``), raising ``IllegalAction`` for what the rules refuse; ``outcome`` scores the end.
Play and Arrange are free-form (the cards come from selects, the arrangement from a modal), so
``legal_actions`` lists only Draw or Pass and ``resolve_action`` validates the rest.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence

from games.core import Event, IllegalAction, event
from games.core.engine import opening
from games.core.errors import GAME_OVER, NOT_YOUR_TURN
from games.core.fast import replace
from games.core.rng import rng_for, shuffled
from games.maquiavelo import solver
from games.maquiavelo.actions import AnyAction, Arrange, Draw, Pass, Play
from games.maquiavelo.arrange import PlannedMeld, arrange_play
from games.maquiavelo.cards import (
    NUM_CARDS,
    face,
    face_from_code,
    face_pretty,
    hand_value,
    pretty,
    sort_key,
)
from games.maquiavelo.options import NUM_HELPERS, Options
from games.maquiavelo.state import MaquiaveloState
from games.maquiavelo.view import MaquiaveloOutcome

# Reason codes (IllegalAction); the starred ones are "rejected proposals" that cost 3 cards in the
# "estricto" variant instead of being refused.
STOCK_EMPTY = "stock_empty"  # draw with an empty stock
STOCK_NOT_EMPTY = "stock_not_empty"  # pass while the stock still has cards (draw instead)
EMPTY_PLAY = "empty_play"  # play/arrange adding no card
CARD_NOT_IN_HAND = "card_not_in_hand"  # card: not in the hand (nor among the helpers)
NO_HAND_CARD = "no_hand_card"  # only helpers: a play needs at least one hand card
NO_ARRANGEMENT = "no_arrangement"  # * table + these cards cannot be arranged in valid melds
HELPER_NOT_IN_SET = "helper_not_in_set"  # * possible only with a helper outside a set
INVALID_MELD = "invalid_meld"  # * group (1-based), cards: that group is no set or run
TABLE_CARD_MISSING = "table_card_missing"  # * cards: table cards the arrangement leaves out
PENALISED = {NO_ARRANGEMENT, HELPER_NOT_IN_SET, INVALID_MELD, TABLE_CARD_MISSING}
ESTRICTO_PENALTY = 3


# ----- creation -------------------------------------------------------------------------------
def new_state(seats: Sequence[str], seed: str, opts: Options) -> MaquiaveloState:
    """A new game (the seat count already checked): the dealer, the hands, the helpers."""
    n = len(seats)
    dealer = rng_for(seed, "dealer").randrange(n)
    deck = shuffled(range(NUM_CARDS), seed, "deck")
    per = opts.cards_per_player(n)
    hands: dict[str, list[int]] = {s: [] for s in seats}
    for _ in range(per):
        for k in range(n):
            hands[seats[(dealer + 1 + k) % n]].append(deck.pop())
    helpers = [deck.pop() for _ in range(NUM_HELPERS)] if opts.ayuda else []
    state = MaquiaveloState(
        **opening(seats, seed, opts),
        dealer=dealer,
        turn=(dealer + 1) % n,
        hands={s: sorted(h, key=sort_key) for s, h in hands.items()},
        stock=deck,
        helpers=helpers,
        table=[],
    )
    _log(
        state,
        [
            event(
                code="dealt",
                seat=seats[dealer],
                params={"cards": per, "first": seats[state.turn]},
            )
        ],
    )
    return state


# ----- turn structure -------------------------------------------------------------------------
def to_act(state: MaquiaveloState) -> set[str]:
    return set() if state.finished else {state.seats[state.turn]}


# Play and Arrange are free-form: Draw or Pass alone is not the only choice
LISTS_EVERY_ACTION = False


def legal_actions(state: MaquiaveloState, seat: str) -> list[AnyAction]:
    """Draw (or Pass once the stock is empty) for the seat to act.

    Play and Arrange are free-form and validated by ``resolve_action``; ``ai.best_play_action``
    gives the best Play."""
    if state.finished or seat != state.seats[state.turn]:
        return []
    return [_DRAW] if state.stock else [_PASS]


_DRAW, _PASS = Draw.instance(), Pass.instance()  # legal_actions hands out these


def copy_state(state: MaquiaveloState) -> MaquiaveloState:
    """The working copy for ``resolve_action``: copy-on-write. Only the hands dict is copied (a
    seat's new hand is assigned into it); every other container (hand lists, stock, helpers,
    table, winners, last play, log) is shared with ``state`` and *replaced*, never changed in
    place, by the code that changes it. Cards, events and options are immutable values."""
    return replace(state, {"hands": dict(state.hands)})


def resolve_action(state: MaquiaveloState, seat: str, action: AnyAction) -> list[Event]:
    """Apply ``action`` by ``seat`` (a seat of the game, which is not over) to the working copy
    ``state``; raise ``IllegalAction`` (the copy is then thrown away) for a refused move."""
    if seat != state.seats[state.turn]:
        raise IllegalAction(NOT_YOUR_TURN)
    if isinstance(action, Draw):
        events = _draw(state, seat)
    elif isinstance(action, Pass):
        events = _pass(state, seat)
    elif isinstance(action, Play):
        events = _play_cards(state, seat, action)
    else:
        events = _arrange(state, seat, action)
    state.turns += 1
    _log(state, events)
    return events


def check_proposal(state: MaquiaveloState, seat: str, action: Play | Arrange) -> None:
    """Dry run: raise the reason ``action`` would be refused, without any "estricto" cost
    (for a warning before submitting). Returns None if it would be accepted."""
    if state.finished:
        raise IllegalAction(GAME_OVER)
    strict_off = state.model_copy(
        update={"options": state.options.model_copy(update={"estricto": False})}, deep=True
    )
    resolve_action(strict_off, seat, action)


# ----- the end --------------------------------------------------------------------------------
def outcome(state: MaquiaveloState) -> MaquiaveloOutcome | None:
    if not state.finished:
        return None
    counts = {s: len(h) for s, h in state.hands.items()}
    values = {s: hand_value(h) for s, h in state.hands.items()}
    winners = [s for s in state.seats if s in state.winners]
    others = [s for s in state.seats if s not in state.winners]
    ranking = [winners]
    for key in sorted({(counts[s], values[s]) for s in others}):
        ranking.append([s for s in others if (counts[s], values[s]) == key])
    won_points = sum(values[s] for s in others)
    points = {s: (won_points if s in winners else 0) for s in state.seats}
    return MaquiaveloOutcome(
        ranking=ranking,
        points=points,
        reason=state.end_reason,
        hand_counts=counts,
        hand_values=values,
    )


# ----- the moves ------------------------------------------------------------------------------
def _draw(state: MaquiaveloState, seat: str) -> list[Event]:
    if not state.stock:
        raise IllegalAction(STOCK_EMPTY)
    card_id = state.stock[-1]
    state.stock = state.stock[:-1]  # copy-on-write (see copy_state)
    _give(state, seat, [card_id])
    state.passes = 0
    events = [
        event(code="drew", seat=seat, params={"stock": len(state.stock)}),
        event(code="drew_card", seat=seat, params={"card": pretty(card_id)}, to=(seat,)),
    ]
    _next(state)
    return events


def _pass(state: MaquiaveloState, seat: str) -> list[Event]:
    if state.stock:
        raise IllegalAction(STOCK_NOT_EMPTY)
    return [event(code="passed", seat=seat), *_count_pass(state)]


def _count_pass(state: MaquiaveloState) -> list[Event]:
    state.passes += 1
    if state.passes >= len(state.seats):
        return _finish_blocked(state)
    _next(state)
    return []


def _play_cards(state: MaquiaveloState, seat: str, action: Play) -> list[Event]:
    hand_ids, helper_ids = _split_played(state, seat, action.cards)
    old_faces = [[face(c) for c in m] for m in state.table]
    plan = arrange_play(old_faces, [face(c) for c in hand_ids], [face(c) for c in helper_ids])
    if plan is None:
        code = NO_ARRANGEMENT
        if helper_ids and solver.is_partitionable(
            [f for m in old_faces for f in m] + [face(c) for c in hand_ids + helper_ids]
        ):
            code = HELPER_NOT_IN_SET
        return _reject(state, seat, IllegalAction(code))
    table = _assign_ids(state.table, plan, hand_ids, helper_ids)
    return _commit(state, seat, table, hand_ids, helper_ids)


def _arrange(state: MaquiaveloState, seat: str, action: Arrange) -> list[Event]:
    groups = [[face_from_code(code) for code in g] for g in action.groups]
    hand = state.hands[seat]
    for i, g in enumerate(groups, start=1):
        if solver.meld_kind(g) is None:
            return _reject(
                state,
                seat,
                IllegalAction(INVALID_MELD, group=i, cards=" ".join(face_pretty(f) for f in g)),
            )
    wanted = Counter(f for g in groups for f in g)
    on_table = Counter(face(c) for m in state.table for c in m)
    missing = on_table - wanted
    if missing:
        cards = " ".join(face_pretty(f) for f in sorted(missing.elements()))
        return _reject(state, seat, IllegalAction(TABLE_CARD_MISSING, cards=cards))
    extra = wanted - on_table
    if not extra:
        raise IllegalAction(EMPTY_PLAY)
    by_face_hand: dict[int, list[int]] = defaultdict(list)
    for c in hand:
        by_face_hand[face(c)].append(c)
    by_face_helper: dict[int, list[int]] = defaultdict(list)
    for c in state.helpers:
        by_face_helper[face(c)].append(c)
    hand_ids: list[int] = []
    helper_ids: list[int] = []
    for f, n in sorted(extra.items()):
        from_hand = by_face_hand[f][:n]
        from_helpers = by_face_helper[f][: n - len(from_hand)]
        if len(from_hand) + len(from_helpers) < n:
            raise IllegalAction(CARD_NOT_IN_HAND, card=face_pretty(f))
        hand_ids += from_hand
        helper_ids += from_helpers
    if not hand_ids:
        raise IllegalAction(NO_HAND_CARD)
    # helpers must sit in sets
    helper_faces = Counter(face(c) for c in helper_ids)
    set_slots = Counter(f for g in groups if solver.meld_kind(g) == "set" for f in g)
    if any(helper_faces[f] > set_slots[f] for f in helper_faces):
        return _reject(state, seat, IllegalAction(HELPER_NOT_IN_SET))
    plan = []
    for g in groups:
        ordered = solver.normalise_meld(g)
        plan.append(PlannedMeld(ordered, ["a"] * len(ordered), None, False))
    # helper copies go to set slots first
    budget = Counter(helper_faces)
    for pm in plan:
        if solver.meld_kind(pm.faces) == "set":
            for k, f in enumerate(pm.faces):
                if budget[f]:
                    pm.tags[k] = "h"
                    budget[f] -= 1
    # an unchanged old meld keeps its ids
    old = {tuple(sorted(face(c) for c in m)): i for i, m in enumerate(state.table)}
    used_old: set[int] = set()
    for pm in plan:
        kept_index = old.get(tuple(sorted(pm.faces)))
        if kept_index is not None and kept_index not in used_old and "h" not in pm.tags:
            pm.origin, pm.kept = kept_index, True
            used_old.add(kept_index)
    table = _assign_ids(state.table, plan, hand_ids, helper_ids)
    return _commit(state, seat, table, hand_ids, helper_ids)


# ----- helpers of the moves -------------------------------------------------------------------
def _split_played(
    state: MaquiaveloState, seat: str, cards: Sequence[int]
) -> tuple[list[int], list[int]]:
    if not cards:
        raise IllegalAction(EMPTY_PLAY)
    hand = set(state.hands[seat])
    helpers = set(state.helpers)
    hand_ids: list[int] = []
    helper_ids: list[int] = []
    for c in cards:
        if c in hand:
            hand_ids.append(c)
        elif c in helpers:
            helper_ids.append(c)
        else:
            raise IllegalAction(CARD_NOT_IN_HAND, card=pretty(c))
    if not hand_ids:
        raise IllegalAction(NO_HAND_CARD)
    return hand_ids, helper_ids


def _assign_ids(
    old_table: list[list[int]],
    plan: list[PlannedMeld],
    hand_ids: list[int],
    helper_ids: list[int],
) -> list[list[int]]:
    """Physical cards for every planned slot: kept melds keep theirs; helpers go to the
    slots reserved for them; other slots take table cards (those of the meld they grew
    from first), then hand cards."""
    kept = {p.origin for p in plan if p.kept}
    pool: dict[int, list[int]] = defaultdict(list)
    for i, m in enumerate(old_table):
        if i not in kept:
            for c in m:
                pool[face(c)].append(c)
    for c in hand_ids:
        pool[face(c)].append(c)
    helpers: dict[int, list[int]] = defaultdict(list)
    for c in helper_ids:
        helpers[face(c)].append(c)
    out: list[list[int]] = []
    for p in plan:
        if p.kept and p.origin is not None:
            out.append(list(old_table[p.origin]))
            continue
        own = [c for c in old_table[p.origin]] if p.origin is not None else []
        meld = []
        for f, tag in zip(p.faces, p.tags, strict=True):
            if tag == "h":
                meld.append(helpers[f].pop())
                continue
            choice = next((c for c in own if face(c) == f and c in pool[f]), None)
            if choice is None:
                choice = pool[f][0]
            pool[f].remove(choice)
            meld.append(choice)
        out.append(meld)
    assert not any(pool.values()) and not any(helpers.values())
    return out


def _commit(
    state: MaquiaveloState,
    seat: str,
    table: list[list[int]],
    hand_ids: list[int],
    helper_ids: list[int],
) -> list[Event]:
    assert all(solver.meld_kind([face(c) for c in m]) for m in table)
    played = set(hand_ids)
    # "rearranged": some meld that was on the table is not whole inside one meld any more
    new_melds = [set(m) for m in table]
    rearranged = any(not any(set(m) <= n for n in new_melds) for m in state.table)
    state.hands[seat] = [c for c in state.hands[seat] if c not in played]
    state.table = table
    state.last_play = sorted(hand_ids + helper_ids, key=sort_key)
    state.passes = 0
    events = [
        event(
            code="rearranged" if rearranged else "played",
            seat=seat,
            params={
                "cards": " ".join(pretty(c) for c in sorted(hand_ids, key=sort_key)),
                "count": len(hand_ids),
                "left": len(state.hands[seat]),
            },
        )
    ]
    if helper_ids:
        used = set(helper_ids)
        state.helpers = [c for c in state.helpers if c not in used]  # a new list: ours
        events.append(
            event(
                code="used_helpers",
                seat=seat,
                params={"cards": " ".join(pretty(c) for c in sorted(helper_ids, key=sort_key))},
            )
        )
        while len(state.helpers) < NUM_HELPERS and state.stock:
            new = state.stock[-1]
            state.stock = state.stock[:-1]  # copy-on-write (see copy_state)
            state.helpers.append(new)
            events.append(event(code="helper_added", params={"card": pretty(new)}))
    if not state.hands[seat]:
        state.finished = True
        state.end_reason = "out"
        state.winners = [seat]
        events.append(event(code="game_won", seat=seat))
    else:
        _next(state)
    return events


def _reject(state: MaquiaveloState, seat: str, error: IllegalAction) -> list[Event]:
    """A rule-breaking proposal: refused, or in "estricto" it costs up to 3 cards and the
    turn (the table stays as it was)."""
    if not state.options.estricto or error.code not in PENALISED:
        raise error
    keep = len(state.stock) - min(ESTRICTO_PENALTY, len(state.stock))
    drawn = state.stock[keep:][::-1]  # the top card first
    state.stock = state.stock[:keep]  # copy-on-write (see copy_state)
    _give(state, seat, drawn)
    events = [
        event(
            code="penalty",
            seat=seat,
            params={"reason": error.code, "count": len(drawn), "stock": len(state.stock)},
        )
    ]
    if drawn:
        events.append(
            event(
                code="penalty_cards",
                seat=seat,
                params={"cards": " ".join(pretty(c) for c in drawn)},
                to=(seat,),
            )
        )
        state.passes = 0
        _next(state)
    else:  # nothing to draw: the turn ends as a pass would
        events += _count_pass(state)
    return events


def _give(state: MaquiaveloState, seat: str, cards: list[int]) -> None:
    state.hands[seat] = sorted(state.hands[seat] + cards, key=sort_key)


def _next(state: MaquiaveloState) -> None:
    state.turn = (state.turn + 1) % len(state.seats)


def _finish_blocked(state: MaquiaveloState) -> list[Event]:
    state.finished = True
    state.end_reason = "blocked"
    key = {s: (len(h), hand_value(h)) for s, h in state.hands.items()}
    best = min(key.values())
    state.winners = [s for s in state.seats if key[s] == best]
    return [event(code="blocked", params={"winners": list(state.winners)})]


def _log(state: MaquiaveloState, events: list[Event]) -> None:
    state.add_to_log(events)
