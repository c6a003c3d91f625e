"""The end of a hand: penalty, awards, exchanges and the objective (spec "End of a hand").

Functions here mutate the private state copy that ``rules.resolve_action`` works on and emit
events; ``deal`` is how they start the next hand.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from games.core import Event, event
from games.core.cards import PlayingCard
from games.core.fast import replace
from games.macarena.elements import ELEMENTS, Element, award_rank, element_of, sort_key
from games.macarena.options import amulets_target
from games.macarena.state import EndReason, HandResult, MacarenaState, SeatResult, Tokens

Emit = Callable[[Event], None]
Deal = Callable[[], None]  # deals the next hand (the rules own the deck)


def active_macas(state: MacarenaState, seat: str) -> int:
    return sum(m.get(seat, 0) for m in state.macas)


def standing_key(state: MacarenaState, seat: str) -> tuple[int, int, int]:
    """Tie-break at the end: more amulets, then more element tokens, then more coins."""
    t = state.tokens[seat]
    return (t.amulets, len(t.elements), t.coins)


def group_by_standing(state: MacarenaState, seats: list[str]) -> list[list[str]]:
    ordered = sorted(seats, key=lambda s: standing_key(state, s), reverse=True)
    groups: list[list[str]] = []
    for s in ordered:
        if groups and standing_key(state, groups[-1][0]) == standing_key(state, s):
            groups[-1].append(s)
        else:
            groups.append([s])
    return groups


def own_tokens(state: MacarenaState) -> dict[str, Tokens]:
    """Copies of ``state``'s tokens that the end of a hand may change in place (the working
    copy of a move shares them with the state before it until the hand ends)."""
    return {s: replace(t, {"elements": list(t.elements)}) for s, t in state.tokens.items()}


def start_end_of_hand(
    state: MacarenaState, emit: Emit, reason: EndReason, went_out: str | None, deal: Deal
) -> None:
    """Step 1, the penalty: players holding the most cards give up an element (or all coins)."""
    state.tokens = own_tokens(state)  # changed in place from here on (see rules.copy_state)
    counts = {s: len(state.hands[s]) for s in state.seats}
    most = max(counts.values())
    result = HandResult(
        hand=state.hand_number,
        reason=reason,
        went_out=went_out,
        seats={s: SeatResult(hand_count=counts[s]) for s in state.seats},
    )
    state.hand_result = result
    state.phase = "penalty"
    state.espejo_turn = False
    state.drawn = None
    state.maca_target = None
    state.penalty_pending = []
    emit(
        event(
            code="hand_ended",
            seat=went_out,
            params={"hand": state.hand_number, "reason": reason, "counts": counts},
        )
    )
    for s in state.seats:
        if counts[s] != most:
            continue
        result.seats[s].penalized = True
        tokens = state.tokens[s]
        if len(tokens.elements) >= 2:
            state.penalty_pending.append(s)
        elif len(tokens.elements) == 1:
            give_element(state, emit, s, tokens.elements[0], deal)
        elif tokens.coins > 0:
            result.seats[s].gave_coins = tokens.coins
            emit(event(code="penalty_coins", seat=s, params={"coins": tokens.coins}))
            tokens.coins = 0
        else:
            emit(event(code="penalty_nothing", seat=s))
    if state.penalty_pending:
        emit(event(code="penalty_choice", params={"seats": list(state.penalty_pending)}))
    else:
        give_awards(state, emit, deal)


def give_element(state: MacarenaState, emit: Emit, seat: str, element: Element, deal: Deal) -> None:
    """A penalized player gives up ``element`` (chosen, or their only one)."""
    state.tokens[seat].elements.remove(element)
    assert state.hand_result is not None
    state.hand_result.seats[seat].gave_element = element
    emit(event(code="penalty_element", seat=seat, params={"element": element}))
    if seat in state.penalty_pending:
        state.penalty_pending.remove(seat)
        if not state.penalty_pending:
            give_awards(state, emit, deal)


def element_winner(state: MacarenaState, element: Element) -> str | None:
    """Most cards of the element; ties by highest cards (A, K, Q … 2); a full tie: nobody."""
    return collections_winner({s: state.collections[s] for s in state.seats}, element)


def collections_winner(
    collections: Mapping[str, Sequence[PlayingCard]], element: Element
) -> str | None:
    """``element_winner`` over ``collections`` (seat -> its collection, in seat order)."""
    keys: dict[str, tuple[int, list[int]]] = {}
    for s, collection in collections.items():
        ranks = sorted(
            (award_rank(c) for c in collection if element_of(c) == element),
            reverse=True,
        )
        if ranks:
            keys[s] = (len(ranks), ranks)
    if not keys:
        return None
    best = max(keys.values())
    leaders = [s for s, k in keys.items() if k == best]
    return leaders[0] if len(leaders) == 1 else None


def give_awards(state: MacarenaState, emit: Emit, deal: Deal) -> None:
    """Step 2: collections shown; coins for MACAS, largest collection, going out; elements."""
    result = state.hand_result
    assert result is not None
    result.revealed = True
    state.phase = "buy"
    for s in state.seats:
        result.seats[s].collection = sorted(state.collections[s], key=sort_key)
    emit(
        event(
            code="collections_shown",
            params={"sizes": {s: len(state.collections[s]) for s in state.seats}},
        )
    )
    for s in state.seats:
        n = active_macas(state, s)
        if n:
            state.tokens[s].coins += n
            result.seats[s].coins_macas = n
            emit(event(code="award_macas", seat=s, params={"coins": n}))
    sizes = {s: len(state.collections[s]) for s in state.seats}
    largest = max(sizes.values())
    if largest > 0:
        result.largest_collection = [s for s in state.seats if sizes[s] == largest]
        for s in result.largest_collection:
            state.tokens[s].coins += 1
            result.seats[s].coins_collection = 1
            emit(event(code="award_collection", seat=s, params={"size": largest}))
    if result.went_out is not None:
        state.tokens[result.went_out].coins += 1
        result.seats[result.went_out].coins_went_out = 1
        emit(event(code="award_went_out", seat=result.went_out))
    for element in ELEMENTS:
        winner = element_winner(state, element)
        result.element_winners[element] = winner
        if winner is None:
            emit(event(code="award_element_none", params={"element": element}))
            continue
        tokens = state.tokens[winner]
        if element in tokens.elements:
            tokens.coins += 1
            result.seats[winner].coins_duplicates += 1
            result.seats[winner].duplicates.append(element)
            emit(event(code="award_element_duplicate", seat=winner, params={"element": element}))
        else:
            tokens.elements.append(element)
            result.seats[winner].elements_won.append(element)
            emit(event(code="award_element", seat=winner, params={"element": element}))
    state.buy_pending = []
    for s in state.seats:
        run_exchanges(state, emit, s)
    settle_when_won(state, emit)
    ask_buys(state, emit, list(state.seats))
    if not state.buy_pending:
        finish_hand(state, emit, deal)


def lacking_elements(state: MacarenaState, seat: str) -> list[Element]:
    held = state.tokens[seat].elements
    return [e for e in ELEMENTS if e not in held]


def run_exchanges(state: MacarenaState, emit: Emit, seat: str) -> None:
    """Step 3 for one player: 4 elements -> amulet, 4 coins -> an element (asked if a choice)."""
    tokens = state.tokens[seat]
    result = state.hand_result
    assert result is not None
    while True:
        if len(set(tokens.elements)) == len(ELEMENTS):
            tokens.elements = []
            tokens.amulets += 1
            result.seats[seat].amulets_won += 1
            emit(event(code="amulet", seat=seat, params={"amulets": tokens.amulets}))
            continue
        if tokens.coins >= 4:
            lacking = lacking_elements(state, seat)
            if len(lacking) == 1:
                buy(state, emit, seat, lacking[0])
                continue
            if seat not in state.buy_pending:
                state.buy_pending.append(seat)  # asked by ``ask_buys`` unless the game is won
            return
        return


def buy(state: MacarenaState, emit: Emit, seat: str, element: Element) -> None:
    tokens = state.tokens[seat]
    tokens.coins -= 4
    tokens.elements.append(element)
    assert state.hand_result is not None
    state.hand_result.seats[seat].bought.append(element)
    emit(event(code="buy_element", seat=seat, params={"element": element}))


def chosen_buy(state: MacarenaState, emit: Emit, seat: str, element: Element, deal: Deal) -> None:
    state.buy_pending.remove(seat)
    buy(state, emit, seat, element)
    run_exchanges(state, emit, seat)
    settle_when_won(state, emit)
    ask_buys(state, emit, [seat])
    if not state.buy_pending:
        finish_hand(state, emit, deal)


def objective_reached(state: MacarenaState) -> bool:
    target = amulets_target(state.options, len(state.seats))
    return any(state.tokens[s].amulets >= target for s in state.seats)


def settle_when_won(state: MacarenaState, emit: Emit) -> None:
    """Once a player has reached the objective the game ends with this hand, so nobody (the
    winner included) is asked which element to buy: which one no longer matters, only that the
    4 coins became a token (the standings count tokens). Spec decision: a choice with only one
    possible answer is made for the player. The buys are made in seat order, each buying the
    first element it lacks (earth, air, water, fire), and the exchanges run on."""
    if not objective_reached(state):
        return
    while state.buy_pending:
        seat = state.buy_pending.pop(0)
        buy(state, emit, seat, lacking_elements(state, seat)[0])
        run_exchanges(state, emit, seat)


def ask_buys(state: MacarenaState, emit: Emit, seats: list[str]) -> None:
    """Ask those of ``seats`` still to choose an element to buy."""
    for seat in seats:
        if seat in state.buy_pending:
            coins = state.tokens[seat].coins
            emit(event(code="buy_choice", seat=seat, params={"coins": coins}))


def finish_hand(state: MacarenaState, emit: Emit, deal: Deal) -> None:
    """Step 4: the objective, or the next hand."""
    target = amulets_target(state.options, len(state.seats))
    if objective_reached(state):
        state.phase = "over"
        state.winners = group_by_standing(state, list(state.seats))[0]
        emit(event(code="game_won", params={"winners": list(state.winners), "target": target}))
        return
    deal()
