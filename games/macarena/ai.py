"""Computer players for Macarena, deciding from the seat's view and its legal actions only.

- ``easy``: a random legal first card (passing only when nothing links), extended at random.
- ``normal``: searches the series on every open pozo and values cards sent to the collection
  (more for elements it lacks and elements it is piling up), espejos (a MACA and an extra turn,
  more for a pozo it has no MACA on yet: LA MACARENA), emptying the hand and shedding cards.
- ``hard``: a wider search that values collected cards by the race for each element's token
  against the others' collections, known from their plays (``contest_value``), plus a look at
  what the move leaves: identical pairs kept for a later espejo, cards left that mirror a pozo
  top, a card that will still link next turn (a pass would return its MACAS), a race to a small
  hand as the stock runs low (the most cards cost an element), and no unseen twin left on top
  for the next player's espejo. Near the end of a hand (short stock, or a hand of 1–2 cards) a
  determinized Monte-Carlo search (``ai_search``, ``games.core.search``) plays its best few
  candidates (and a pass) out to the end of the hand in worlds sampled from its view
  (``ai_rollout``: only the other hands and the stock are unseen), all on the same worlds, and
  keeps its own heuristic's choice unless another is clearly better. A rollout whose hand ends
  the game is scored by the game's result (won 1, lost 0), not by the hand's tokens. Penalized
  at the end of a hand, it gives up an element it is winning back in that hand's awards. The
  budget is the table's think time (``Game.think_budget``) or, without one, ``DEFAULT_BUDGET``
  rollouts.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence

from games.core.actions import Draw, Pass
from games.core.budget import Budget
from games.core.cards import PlayingCard
from games.core.computer import computer_player
from games.macarena.actions import BuyElement, GiveElement, MacarenaAction, MoveMaca, Play
from games.macarena.ai_rollout import HORIZON_TURNS, Engine
from games.macarena.ai_search import choose_hard
from games.macarena.elements import element_of, link_kind
from games.macarena.endhand import collections_winner
from games.macarena.series import enumerate_series, series_options
from games.macarena.view import MacarenaView, PlayerInfo

SEARCH_NODES = {"normal": 400, "hard": 4000}
ENDGAME_STOCK = 6  # hard: roll out to the end of the hand when the stock is this short per player
ENDGAME_HAND = 2  # ... or when some hand holds this few cards
ROLLOUT_CANDIDATES = 4
CHAIN_WEIGHT = 0.7  # hard: share of the espejo turn's best follow-up counted now
DEFAULT_BUDGET = Budget(iterations=16)  # hard's end-of-hand search, given no think budget
THINK_RATE = 1000  # bench/ai_strength.py: about 1 ms a rollout at the end of a hand


DENIAL = 0.3
CONTEST_WEIGHT = 10.0  # hard: a collected card, per token at stake and unit of win probability
CONTEST_BASE = 0.5  # ... plus this for any collected card (the largest collection, a smaller hand)
CONTEST_SPREAD = 0.03  # the race's uncertainty: variance 1 + this × the cards left in the stock
COIN = 0.25  # a token one already holds is won as a coin (4 coins buy a token)


def decide(
    view: MacarenaView,
    legal: list[MacarenaAction],
    level: str,
    rng: random.Random,
    budget: Budget,
) -> MacarenaAction | None:
    """The choice of ``level`` for the seat of ``view``; ``hard`` searches within ``budget``."""
    if level not in ("easy", "normal", "hard"):
        level = "normal"
    first = legal[0]
    if isinstance(first, Draw):
        return first
    if any(isinstance(a, (Play, Pass)) for a in legal):
        return _choose_play(_engine(), view, legal, level, rng, budget)
    if level == "easy":  # the end-of-hand and MACA choices at random
        return rng.choice(list(legal))
    if isinstance(first, MoveMaca):
        return _choose_move(view, legal)
    if isinstance(first, GiveElement):
        return _choose_give(view, legal, level)
    if isinstance(first, BuyElement):
        return _choose_buy(view, legal)
    return rng.choice(list(legal))


choose_action = computer_player(decide, DEFAULT_BUDGET)


def _engine() -> Engine:
    """The engine the hard rollouts play by (``game.py`` imports this module, hence here)."""
    from games.macarena.game import GAME

    return GAME


# ----- play ------------------------------------------------------------------------------------


def _choose_play(
    engine: Engine,
    view: MacarenaView,
    legal: Sequence[MacarenaAction],
    level: str,
    rng: random.Random,
    budget: Budget,
) -> MacarenaAction:
    plays = [a for a in legal if isinstance(a, Play)]
    pass_action = next((a for a in legal if isinstance(a, Pass)), Pass.instance())
    if not plays or view.hand is None or view.seat is None:
        return pass_action
    if level == "easy":
        first = rng.choice(plays)
        cards = list(first.cards)
        while rng.random() < 0.5:
            options = series_options(view, view.seat, first.pozo, cards)
            if not options:
                break
            cards.append(rng.choice(options).code)
        return Play(pozo=first.pozo, cards=tuple(cards))
    scored: list[tuple[float, float, Play]] = []
    pozos = sorted({a.pozo for a in plays})
    for pozo in pozos:
        top = view.pozos[pozo].top
        for series in enumerate_series(top, view.hand, max_nodes=SEARCH_NODES[level]):
            value = score_series(view, pozo, series, level)
            play = Play(pozo=pozo, cards=tuple(c.code for c in series))
            scored.append((value, rng.random(), play))
    me = _me(view)
    pass_value = -1.0 - 1.5 * (me.active_macas if me else 0)
    if not scored:
        return pass_action
    scored.sort(key=lambda item: (item[0], item[1]), reverse=True)
    if level == "hard" and _endgame(view):
        candidates: list[MacarenaAction] = [item[2] for item in scored[:ROLLOUT_CANDIDATES]]
        candidates.append(pass_action)
        horizon = 2 * HORIZON_TURNS * len(view.seats)  # a draw and a play per turn
        cheap = len(candidates) - 1 if scored[0][0] < pass_value else 0
        return choose_hard(engine, view, candidates, cheap, rng, budget, horizon, game_value=True)
    if scored[0][0] < pass_value:
        return pass_action
    return scored[0][2]


def _endgame(view: MacarenaView) -> bool:
    """The end of the hand is near: a short stock, or a hand close to going out."""
    smallest = min(p.hand_count for p in view.players)
    return view.stock_count <= ENDGAME_STOCK * len(view.seats) or smallest <= ENDGAME_HAND


def _me(view: MacarenaView) -> PlayerInfo | None:
    return next((p for p in view.players if p.seat == view.seat), None)


def score_series(view: MacarenaView, pozo: int, series: list[PlayingCard], level: str) -> float:
    hand = list(view.hand or [])
    top = view.pozos[pozo].top
    previous = [top] + series[:-1]
    espejo = link_kind(previous[-1], series[-1]) == "espejo"
    solo = espejo and len(series) == 1
    collected = series if solo else series[:-1]
    value = contest_value(view, collected) if level == "hard" else _own_value(view, collected)
    value += 0.3 * len(series)
    pozo_view = view.pozos[pozo]
    if espejo:
        value += 3.0
        if view.seat not in pozo_view.macas:
            value += 1.2
            covered = sum(1 for p in view.pozos if view.seat in p.macas)
            value += 0.4 * covered  # closer to LA MACARENA
        if pozo_view.enchanted and view.seat not in pozo_view.macas:
            value += 0.5
    if len(series) == len(hand):
        value += 3.0
    if level == "hard":
        left, tops = _after_move(view, pozo, series, hand, solo)
        value += _lookahead(view, pozo, series, hand, left, tops, espejo)
        if espejo and CHAIN_WEIGHT:
            value += CHAIN_WEIGHT * _espejo_follow_up(left, tops)
    return value


def _own_value(view: MacarenaView, collected: Sequence[PlayingCard]) -> float:
    """Normal: collected cards for this seat alone, more for elements it lacks and elements it
    is piling up."""
    me = _me(view)
    held_elements = set(me.elements) if me else set()
    mine = Counter(element_of(c) for c in (view.collection or []))
    value = 0.0
    for card in collected:
        element = element_of(card)
        weight = 1.0 + (0.5 if element not in held_elements else 0.0)
        weight += 0.08 * min(mine[element], 12)
        value += weight
        mine[element] += 1
    return value


def contest_value(view: MacarenaView, collected: Sequence[PlayingCard]) -> float:
    """Hard: what sending ``collected`` to the collection is worth in the race for each
    element's token. The others' collections are known (every card was played face up:
    ``PlayerInfo.shown``), so a card counts by how much it raises the chance of out-counting
    the strongest rival in its element (a normal curve whose spread shrinks with the stock),
    times what that token is worth to this seat and to that rival (a token one lacks, 1; one
    already held, a coin: ``COIN``). A card in an element already won, or lost for good, is
    worth little more than ``CONTEST_BASE`` (the largest collection's coin, a smaller hand)."""
    me = _me(view)
    rivals = [p for p in view.players if p.seat != view.seat]
    if me is None or not rivals:
        return CONTEST_BASE * len(collected)
    mine = Counter(element_of(c) for c in (view.collection or []))
    shown = [Counter(element_of(c) for c in p.shown) for p in rivals]
    spread = math.sqrt(1.0 + CONTEST_SPREAD * view.stock_count)
    value = 0.0
    for card in collected:
        element = element_of(card)
        leader = max(range(len(rivals)), key=lambda i: (shown[i][element], -i))
        stake = _token_worth(me, element) + _token_worth(rivals[leader], element)
        lead = mine[element] - shown[leader][element]
        gain = _normal_cdf((lead + 1) / spread) - _normal_cdf(lead / spread)
        value += CONTEST_BASE + CONTEST_WEIGHT * stake * gain
        mine[element] += 1
    return value


def _token_worth(player: PlayerInfo, element: str) -> float:
    return COIN if element in player.elements else 1.0


def _normal_cdf(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def _after_move(
    view: MacarenaView, pozo: int, series: list[PlayingCard], hand: list[PlayingCard], solo: bool
) -> tuple[list[PlayingCard], list[PlayingCard]]:
    """The cards left in ``hand`` once ``series`` is played on ``pozo``, and every pozo's top
    then (a lone espejo, ``solo``, collects the top and leaves the pozo as it was)."""
    left = list(hand)
    for c in series:
        left.remove(c)
    tops = [p.top for p in view.pozos]
    if not solo:
        tops[pozo] = series[-1]
    return left, tops


def _espejo_follow_up(left: list[PlayingCard], tops: list[PlayingCard]) -> float:
    """Hard: an espejo earns a turn on any pozo; what could the cards ``left`` do there?"""
    if not left:
        return 0.0
    best = 0.0
    for top in tops:
        for follow in enumerate_series(top, left, max_nodes=60):
            espejo = link_kind(([top] + follow[:-1])[-1], follow[-1]) == "espejo"
            collected = len(follow) if espejo and len(follow) == 1 else len(follow) - 1
            value = 1.2 * collected + 0.3 * len(follow) + (3.0 if espejo else 0.0)
            if len(follow) == len(left):
                value += 3.0
            best = max(best, value)
    return best


def _lookahead(
    view: MacarenaView,
    pozo: int,
    series: list[PlayingCard],
    hand: list[PlayingCard],
    left: list[PlayingCard],
    tops: list[PlayingCard],
    espejo: bool,
) -> float:
    """Hard only: what the move leaves behind for the next turns (``left`` in hand, ``tops``
    on the pozos: ``_after_move``)."""
    me = _me(view)
    # identical pairs kept for a later espejo, cards left that mirror a pozo top
    before = Counter(c.code for c in hand)
    after = Counter(c.code for c in left)
    broken_pairs = sum(1 for code, n in before.items() if n >= 2 and after[code] < 2)
    value = 0.0 if espejo else -0.6 * broken_pairs
    mirrors = {c.code for c in left if any(t.same_face(c) for t in tops)}
    value += 0.7 * len(mirrors)
    # keep a card that will link next turn: a pass would return every active MACA
    open_pozos = [
        i for i, p in enumerate(view.pozos) if not p.enchanted or view.seat in p.macas or i == pozo
    ]
    linking = sum(1 for c in left if any(link_kind(tops[i], c) for i in open_pozos))
    keep = 1 + (me.active_macas if me else 0) + (1 if espejo else 0)
    value += 0.4 * min(linking, 2) * keep
    # race to a small hand: the most cards at the end of the hand cost an element
    others = max((p.hand_count for p in view.players if p.seat != view.seat), default=0)
    urgency = 1.0 if view.stock_count < 12 * len(view.seats) else 0.5
    value += 0.5 * urgency * len(series) * (1.5 if len(hand) >= others else 1.0)
    if not left:
        value += 4.0
    # leaving on top a card whose twin is unseen offers an espejo to the next players
    new_top = tops[pozo]
    mine_after = left + list(view.collection or []) + list(series[:-1])
    seen = sum(1 for c in mine_after if c.same_face(new_top))
    if not espejo and seen == 0:
        value -= DENIAL
    return value


# ----- end-of-hand and MACA choices ------------------------------------------------------------


def _choose_move(view: MacarenaView, legal: Sequence[MacarenaAction]) -> MacarenaAction:
    moves = [a for a in legal if isinstance(a, MoveMaca)]
    seat = view.seat or ""

    def keep_cover(action: MoveMaca) -> tuple[int, int]:
        mine = view.pozos[action.source].macas.get(seat, 0)
        return (mine, -action.source)  # move from where I have the most: keep every pozo covered

    return max(moves, key=keep_cover)


def _choose_give(view: MacarenaView, legal: Sequence[MacarenaAction], level: str) -> MacarenaAction:
    gives = [a for a in legal if isinstance(a, GiveElement)]
    if level == "hard":  # the hand is over: every collection is known (see PlayerInfo.shown)
        collections = {p.seat: p.shown for p in view.players}
        won_back = [a for a in gives if collections_winner(collections, a.element) == view.seat]
        if won_back:  # given up now, won again as a token in a moment instead of as a coin
            return won_back[0]
    mine = Counter(element_of(c) for c in (view.collection or []))
    # Give up the element this hand's collection is most likely to win back.
    return max(gives, key=lambda a: (mine[a.element], -gives.index(a)))


def _choose_buy(view: MacarenaView, legal: Sequence[MacarenaAction]) -> MacarenaAction:
    buys = [a for a in legal if isinstance(a, BuyElement)]
    mine = Counter(element_of(c) for c in (view.collection or []))
    # Buy the element least in reach through collections (the one I collect least).
    return min(buys, key=lambda a: (mine[a.element], buys.index(a)))
