"""Hard computer: Monte Carlo look-ahead to the end of the hand, from the seat's view only.

Near the end of a hand (a short stock) the timing decides most: who holds the most cards (the
penalty), whose MACAS are still active, who takes each element. For a few candidate moves the
hard player samples *worlds* consistent with its view (the unseen cards — the other hands and the
stock; the pozos' piles and what the others collected were all played face up — dealt at
random), plays each world
to the end of the hand with a fast greedy policy, and scores what the engine awards: elements
won or lost count 1, coins ¼. The same worlds serve every candidate (common random numbers).

``ai_search`` drives these worlds and this policy through the shared search
(``games.core.search``); ``best_by_rollouts`` is the former fixed-budget driver (main's ``hard``,
which ``bench/ai_strength.py`` still plays as "before").
"""

from __future__ import annotations

import random
from collections import Counter

from games.core import Game, IllegalAction
from games.core.cards import PlayingCard, two_decks
from games.macarena import endhand
from games.macarena.actions import Draw, GiveElement, MacarenaAction, Pass, Play
from games.macarena.options import Options
from games.macarena.rules import copy_state
from games.macarena.series import enumerate_series
from games.macarena.state import MacarenaState, Tokens
from games.macarena.turns import may_play_on
from games.macarena.view import MacarenaView

# The engine the rollouts play with, passed in by the caller (``MacarenaGame`` is that engine;
# importing it here would close a circle game -> ai -> game).
Engine = Game[MacarenaState, MacarenaAction, MacarenaView, Options]

ROLLOUT_NODES = 40
MAX_ROLLOUT_STEPS = 400
HORIZON_TURNS = 3  # turns per player played out before the hand is scored as it stands


def _face(card: PlayingCard) -> tuple[int, str]:
    return (card.rank, card.suit)


def sample_world(view: MacarenaView, rng: random.Random) -> MacarenaState:
    """A full state that agrees with everything ``view`` shows: the seat's own cards, every
    pozo's pile and every card the others have shown into their collections are where the view
    says; only the other hands and the stock are unseen, dealt at random from what is left."""
    me = view.seat
    assert me is not None and view.hand is not None and view.collection is not None
    others = [p for p in view.players if p.seat != me]
    known = Counter(_face(c) for c in view.hand)
    known.update(_face(c) for c in view.collection)
    for pozo in view.pozos:
        known.update(_face(c) for c in pozo.cards)
    for p in others:
        known.update(_face(c) for c in p.shown)
    pool: list[PlayingCard] = []
    for card in two_decks():
        face = _face(card)
        if known[face] > 0:
            known[face] -= 1
        else:
            pool.append(card)
    rng.shuffle(pool)
    hands: dict[str, list[PlayingCard]] = {me: list(view.hand)}
    for p in others:
        hands[p.seat], pool = pool[: p.hand_count], pool[p.hand_count :]
    stock = pool[: view.stock_count]
    collections = {p.seat: list(p.shown) for p in view.players}  # in the order played
    seats = list(view.seats)
    current = seats.index(view.turn) if view.turn in seats else 0
    return MacarenaState(
        seed=f"rollout{rng.random()}",
        seats=seats,
        options=Options(amulets_to_win=view.amulets_to_win),
        hand_number=view.hand_number,
        starter=seats.index(view.starter),
        turn=current,
        phase=view.phase,
        espejo_turn=view.espejo_turn,
        stock=stock,
        pozos=[list(p.cards) for p in view.pozos],
        macas=[dict(p.macas) for p in view.pozos],
        hands=hands,
        collections=collections,
        drawn=view.drawn,
        tokens={
            p.seat: Tokens(coins=p.coins, elements=list(p.elements), amulets=p.amulets)
            for p in view.players
        },
    )


def greedy_action(
    game: Engine, state: MacarenaState, seat: str, rng: random.Random
) -> MacarenaAction:
    """The rollout policy: the series sending most cards to the collection, espejos first."""
    if state.phase == "draw":
        return Draw.instance()
    if state.phase == "play":
        hand = state.hands[seat]
        best: tuple[float, int, tuple[str, ...]] | None = None
        for pozo in range(7):
            if not may_play_on(state, seat, pozo):
                continue
            top = state.pozos[pozo][-1]
            for series in enumerate_series(top, hand, max_nodes=ROLLOUT_NODES):
                last = series[-1]
                prev = series[-2] if len(series) > 1 else top
                espejo = prev.same_face(last)
                collected = len(series) if espejo and len(series) == 1 else len(series) - 1
                value = collected + 0.4 * len(series) + (2.5 if espejo else 0) + rng.random() * 0.1
                if best is None or value > best[0]:
                    best = (value, pozo, tuple(c.code for c in series))
        if best is None:
            return Pass.instance()
        return Play(pozo=best[1], cards=best[2])
    legal = game.legal_actions(state, seat)
    if state.phase == "penalty":
        return legal[0] if legal else GiveElement(element="earth")
    return legal[0]


def hand_score(state: MacarenaState, seat: str) -> float:
    """What the engine gave ``seat`` at the end of the hand, relative to the others."""
    result = state.hand_result
    if result is None:
        return 0.0

    def value(s: str) -> float:
        r = result.seats[s]
        coins = r.coins_macas + r.coins_collection + r.coins_went_out + r.coins_duplicates
        lost = (1.0 if r.gave_element else 0.0) + 0.25 * r.gave_coins
        return len(r.elements_won) + 0.25 * coins - lost

    others = [s for s in state.seats if s != seat]
    mean_others = sum(value(s) for s in others) / max(1, len(others))
    return value(seat) - mean_others


def play_out(
    game: Engine,
    state: MacarenaState,
    seat: str,
    first: MacarenaAction,
    rng: random.Random,
    horizon: int = MAX_ROLLOUT_STEPS,
) -> float:
    hand_number = state.hand_number
    try:
        state, _ = game.apply(state, seat, first)
    except IllegalAction:  # a candidate the sampled world cannot take
        return -10.0
    for _ in range(horizon):
        if state.macarena is not None:
            return 10.0 if state.macarena == seat else -10.0
        result = state.hand_result
        if result is not None and result.hand == hand_number and result.revealed:
            return hand_score(state, seat)
        if state.finished or state.hand_number != hand_number:
            return hand_score(state, seat)
        actor = sorted(game.to_act(state))[0]
        state, _ = game.apply(state, actor, greedy_action(game, state, actor, rng))
    return forced_end_score(state, seat)


def forced_end_score(state: MacarenaState, seat: str) -> float:
    """Past the horizon: score the hand as if it ended now (penalty choices: the first)."""
    return hand_score(forced_end(state), seat)


def forced_end(state: MacarenaState) -> MacarenaState:
    """The hand of ``state`` ended now, as if the stock were empty (penalty choices: the first
    element held; buys pending stay pending); ``state`` itself is left as it was."""
    if state.phase not in ("draw", "play", "move_maca"):
        return state
    state = copy_state(state)  # the engine's own copy: what the end of a hand changes is copied
    endhand.start_end_of_hand(state, lambda event: None, "stock_empty", None, lambda: None)
    while state.penalty_pending:
        s = state.penalty_pending[0]
        endhand.give_element(
            state, lambda event: None, s, state.tokens[s].elements[0], lambda: None
        )
    return state


def game_result(state: MacarenaState, seat: str) -> float | None:
    """``seat``'s share of the game when the end of this hand ended the game (1 won, ½ shared
    between two, 0 lost), else None."""
    if state.macarena is not None:
        return 1.0 if state.macarena == seat else 0.0
    if not state.finished or not state.winners:
        return None
    return 1.0 / len(state.winners) if seat in state.winners else 0.0


def best_by_rollouts(
    game: Engine,
    view: MacarenaView,
    candidates: list[MacarenaAction],
    rng: random.Random,
    worlds: int,
    horizon: int = MAX_ROLLOUT_STEPS,
) -> tuple[MacarenaAction, list[float]]:
    """The candidate with the best mean end-of-hand score over ``worlds`` sampled worlds."""
    seat = view.seat
    assert seat is not None, "rollouts are played for a seat"
    samples = [sample_world(view, rng) for _ in range(worlds)]
    seeds = [rng.random() for _ in range(worlds)]
    means = []
    for action in candidates:
        total = 0.0
        for world, seed in zip(samples, seeds, strict=True):
            total += play_out(game, world, seat, action, random.Random(seed), horizon)
        means.append(total / worlds)
    best = max(range(len(candidates)), key=lambda i: means[i])
    return candidates[best], means
