"""Computer-player strength in the hidden-card games: ``hard`` against ``normal``, two players.

    nice -n 10 .venv/bin/python bench/ai_strength.py [--games N] [--iterations K]
        [--processes P] [--only GAME ...] [--before-games N] [--seed-prefix S]

For each game it plays N two-player games of ``hard`` against ``normal`` (the seats alternate
between games, deal ``i`` uses seed ``<prefix><game>-<i>``), once with main's ``hard`` (the
heuristic computer this branch replaced, loaded from ``git show main:games/<game>/ai.py``:
"before") and once with this tree's ``hard`` (the determinized Monte-Carlo search, with an
iteration budget of K rollouts per move: deterministic, the same on a loaded machine: "after").
It prints one JSON line per game and run: wins, draws, the win rate with its 95 % Wilson
interval (draws count half), and the milliseconds per ``hard`` decision (p50 / p95, decisions
with more than one legal action only), side by side. Figures only; nothing is asserted.
``--oracle`` adds the same search cheating on purpose (its worlds are the true state): how much
the hidden cards are worth, an upper bound no fair player reaches; ``--oracle-hands`` the same
cheat seeing the other hands but not the order of the stock. ``--duplicate`` plays every deal
twice, hard in each seat (deal ``i`` uses seed ``<prefix><game>-<i // 2>``): the luck of the
deal cancels out of each pair, so the rate measures the play (normal against itself: exactly
50 %); the Wilson interval, which treats games as independent, is then conservative.

Session 3 (load 3-18; the ms include waiting for the CPU), one seed set (``strength-``),
"before" = main's hard, "after" = session 3's search:

    game        before                    after                               rollouts/move
    amapatolli  50.2 % [48.0, 52.4] 2000  52.9 % [50.7, 55.0] 2000, p50 331 / p95 553 ms   48
    chupate2    52.8 % [50.6, 54.9] 2000  52.7 % [50.5, 54.8] 2000, p50 42 / p95 92 ms     48
    macarena    52.7 % [47.0, 58.3]  300  54.3 % [48.7, 59.9]  300, p50 0.3 / p95 46 ms     32
    maquiavelo  42.8 % [38.0, 47.6]  400  20 % of 10 games only, p50 41 / p95 331 ms        16
    oracle      amapatolli 93.5 % [89.2, 96.2] 200 (64 rollouts, an earlier UCB version)

Session 5 (load 3-8 from four other workers, this bench under ``nice -n 15``: the ms are wall
clock on a crowded machine), ``--duplicate``, ``--processes 1``; "draws read" = the worlds deal
the other hand as its draws allow (``hand_slots``), "last plays" = and as ``normal``'s last play
allows (``last_plays``, amapatolli only):

    game        hard                      rollouts games  win rate [95 %]      ms p50/p95  deals*
    amapatolli  session 3 search               200   300  54.3 % [48.7, 59.9]  144 / 347   -
    amapatolli  + draws read                   200   300  54.7 % [49.0, 60.2]  192 / 670   -
    amapatolli  + draws read                   128   500  57.6 % [53.2, 61.9]  141 / 696  54/180/16
    amapatolli  + draws read + last plays      128  2000  56.6 % [54.4, 58.7]  90 / 152* 207/717/76
    amapatolli  + draws read + last plays      400   500  59.8 % [55.4, 64.0]  261 / 430  76/147/27
    amapatolli  oracle (sees all: cheats)      128   100  95.0 % [88.8, 97.9]  339 / 1154  45/5/0
    amapatolli  oracle-hands (sees the hand)   128   100  84.0 % [75.6, 89.9]  110 / 724   34/16/0
    chupate2    worlds at random (TRUST = 0)    48   200  49.5 % [42.7, 56.4]   94 / 175   11/77/12
    chupate2    + draws read                    48   200  49.0 % [42.2, 55.9]  110 / 257   10/78/12

    * deals (pairs of games): hard won both / split (as normal against itself) / hard lost both;
      four 500-game chunks (seed prefixes ``final-b-`` to ``final-e-``: 55.6, 57.4, 57.4, 55.8 %);
      ms from the two chunks run on a quieter machine (load 2.7; 164-232 / 664-1646 under the
      full test suite); 11,736 searched moves. The 500-game row above is chunk ``final-a-``; the
      400-rollout row replays chunk ``final-b-``'s deals (55.6 % at 128): more of the table's
      think time (2 s buys up to 1,200 rollouts) still pays, not yet shown over 2,000 games.

Amapatolli is decided by the hidden cards far more than by the play: seeing the other hand is
worth 84 %, the whole deal 95 %, while in 3 deals out of 4 ``hard`` and ``normal`` get the same
result from either seat ("split"). Chúpate 2 (one round, two players) is luckier still: 78 %
of the deals split, and 200 deals cannot tell the two searches apart.

Session 6 (load 1.1-4.3 from three other workers; this bench under ``nice -n 15``,
``--processes 1``, ``--duplicate``, 500-game chunks with seed prefixes ``s6a-`` to ``s6d-``;
the ms are wall clock on that machine). Amapatolli's rollouts now move in place (no engine copy
per move: the same moves, about 25 % less time), which made a 2,000-game run at 400 rollouts fit:

    game        hard                       budget   games  win rate [95 %]      ms p50/p95  deals*
    amapatolli  draws read + last plays    400 r     2000  59.8 % [57.6, 61.9]  232-291 /   274/648/78
                                                                                495-547
    amapatolli  the same, as at a table    2 s       12    (timing only)         755 / 1602  -
    chupate2    draws read (session 5)     48 r      2000  50.0 % [47.9, 52.2]  31-59 /     112/777/111
                                                                                46-101
    chupate2    oracle-hands (cheats)      48 r       300  67.0 % [61.5, 72.1]   36 / 84    57/87/6
    macarena    session 4 search           32 r       300  51.5 % [45.9, 57.1]  0.4 / 56    35/85/30
    macarena    oracle-hands (cheats)      32 r       100  48.5 % [38.9, 58.2]  0.4 / 58    10/28/12
    maquiavelo  session 4 search           16 r       150  52.0 % [44.1, 59.9]  0.9 / 195   13/52/10
    maquiavelo  oracle-hands (cheats)      16 r        60  48.3 % [36.2, 60.7]   28 / 199   6/17/7

    * chunks s6a- 60.0 %, s6b- 60.4 %, s6c- 59.8 %, s6d- 59.0 % (ms: each chunk's p50 / p95);
      the deals' own interval (1,000 pairs scored 1, ½, 0) is [58.1, 61.5]. "2 s" is
      ``--think-seconds 2.0``: the table's ``GAME.think_budget`` (at most 1,200 rollouts, stopped at
      2 s of wall clock), load 2.5-2.9. Macarena and Maquiavelo search only some moves (the
      end of a hand; the best play's variants): most of their moves cost under a millisecond.

What the cards leave to the play, two players: Chúpate 2 splits 77 % of its deals (the same
result whichever seat hard takes), and its fair search is level with ``normal`` (50.0 %,
chunks s6a- 49.7 % and s6b- 50.4 %; deals' interval [48.6, 51.5]) although seeing the other hand is worth 67 %: worlds dealt as
the draws allow recover none of that value; reading the last plays as ``normal``'s (what took
Amapatolli from 54 % to 57-60 %) is not built for Chúpate 2. Macarena splits 57 %, Maquiavelo
69 %; over the few hundred games the CPU allowed (seed prefix ``s6a-``), neither is told
apart from 50 %, and neither is the same search seeing the other hand: there what holds
``hard`` back is what it searches (Macarena: only the end of a hand; Maquiavelo: only
variants of the best play), not the hidden cards.

Session 7, Maquiavelo (load 1.4-2.1 from two other workers; this bench under ``nice -n 10``,
``--processes 1``, ``--duplicate``, 500-game chunks ``s7q-a-`` to ``s7q-d-``; ms wall clock).
``hard`` is now ``games/maquiavelo/ai_hoard``: on a shared table that anyone may rearrange, a seat
goes out exactly when the table and its hand together split into melds, which a play leaves
unchanged, so it keeps its cards, draws, and goes out in one play (once the stock is empty it
weighs its smallest plays and passing over worlds from its view). ``normal`` plays all it can
every turn and so feeds the table; kept from it, it rarely goes out first:

    game        hard                       budget   games  win rate [95 %]      ms p50/p95  deals*
    maquiavelo  before (main: session 6)   main's    500   50.0 % [45.6, 54.4]  0.7 / 50    0/250/0
    maquiavelo  keeps its cards (ai_hoard) 16 r     2000  100.0 % [99.8, 100]   0.03-0.04 / 1000/0/0
                                                                                1.9-2.1
    maquiavelo  the same, as at a table    2 s       500  100.0 % [99.2, 100]   0.04 / 2.2  250/0/0

    * the "before" row replays chunk ``s7q-a-``'s deals: every one split (main's hard plays as
      ``normal`` does); each 500-game chunk of the new hard won all 500 games. A game now costs
      0.07-0.08 s of CPU (main's hard: 0.64 s).

Session 7 (Macarena; load 1.9-2.4 from two other workers; ``nice -n 10``, ``--processes 1``,
``--duplicate``). Hard's end-of-hand search now scores a cut-off rollout on the engine's own
state copy (the same choices, a third less time) and scores a rollout whose hand ends the game
by the game's result (won 1, lost 0) instead of the hand's tokens. The final run, 500-game
chunks at 32 rollouts a move (seed prefixes ``s7m-a-`` to ``s7m-d-``):

    chunk    win rate [95 %]        deals won/split/lost   ms p50 / p95 / p99 / max   s/game
    s7m-a-   50.5 % [46.1, 54.9]    61/131/58              0.39 / 31.0 / 44.2 / 458   0.97
    s7m-b-   50.5 % [46.1, 54.9]    55/142/53              0.36 / 31.1 / 44.2 / 1405  0.93
    s7m-c-   52.3 % [47.9, 56.6]    66/129/55              0.32 / 27.3 / 36.6 / 451   0.81
    s7m-d-   50.5 % [46.1, 54.9]    58/137/55              0.33 / 27.3 / 36.6 / 839   0.80
    2,000    51.0 % [48.8, 53.1]    240/539/221            p95 27-31 ms, max 1.4 s    0.88

The deals' own interval (1,000 pairs scored 1, ½, 0) is [48.8, 53.1]; 200,653 hard moves (most
under a millisecond: only the end of a hand is searched). Session 6's figure for main's search
at 32 rollouts was 51.7 % over 1,300 games: the game-result scoring is not told apart from it.
The same search cheating (seed prefix ``s7m-o-``, 300 games each, 32 rollouts): seeing the whole
state (the stock's order too) 85.8 % [81.4, 89.3] (deals 112/35/3), seeing the other hand and the
collections but not the stock's order (``--oracle-hands``) 58.7 % [53.0, 64.1] (deals 47/83/20;
session 6's 48.5 % was 100 games at main's scoring). So the hidden cards are worth something
after all: worlds that deal the other hand and its collection at random from the unseen cards
leave some 8 points on the table, and the order of the draws (luck no fair player knows) most.

Screens on the way (throw-away variants monkeypatched over this tree; duplicate games, ``normal``
as the opponent): with the search off (hard's heuristic alone, 600 games, one seed set) main's
hard 51.1 %; elements weighted by who holds them (winning an element the other lacks denies it)
51.8 %, the same without the denial 48.7 %; more or less weight on shedding cards 50.8-51.8 %
(less: 48.4 %); a larger bonus for going out 51.7 %; espejos worth 3 more 52.1 %, 2 less
51.3 %; tops whose linking cards are unseen avoided 52.8 % (weighted higher: 48.3 %). ``easy``
wins 0.7 % (the play matters a great deal), yet ``normal`` against itself with only its
tie-breaking rng changed splits 56 % of the deals and wins 65 / loses 66 of the others (50.0 %):
the 54-57 % of deals hard splits is the game's own chaos, not hard playing alike. With the search
(200-300 games each, another seed set per row): main's search at 32 rollouts 46.3 %, the same
rolled out by ``normal`` itself 46.8 % (16 rollouts); 64 rollouts 53.3 %; the game's result at
32 rollouts 57.5 % on the seeds ``x4-`` and 49.7 % (48 rollouts) on ``x5-``; a logistic of the
token race for hands that do not end the game 47.0 %. Nothing moved ``hard`` off 50-53 % by more
than the noise of a few hundred games.

Session 7, Chúpate 2 (load 1.8-2.4 from two other workers; ``nice -n 10``, ``--processes 1``,
``--duplicate``; screens on seed prefix ``s7x1-``, 300 games each). "read as normal" = the
worlds' hands explain the other seat's recent public plays as ``normal``'s
(``games/chupate2/ai_infer.py``: each play was its best-scoring playable card, a named colour
its longest, a draw — kept or played at once — means nothing fitted, taking a +2 means no +2 to
stack; cards got unseen since are allowed for); "h" = rollout length in moves (``HORIZON``,
scored by hand sizes when the round is not over), "conf" = standard errors / worlds the search
needs to override the card-counting heuristic:

    hard                                      rollouts games  win rate [95 %]      ms p50/p95  deals*
    read as normal (plays, names), h 300,         48   300  50.3 % [44.7, 56.0]   28 / 64    17/117/16
      conf 2 / 12
    the same, conf 1 / 8                          96   300  50.0 % [44.4, 55.6]   57 / 91    27/96/27
    oracle-hands (sees the hand: cheats)          48   300  77.3 % [72.3, 81.7]   46 / 84    89/54/7
    + kept draws and +2s taken, h 10, conf 1/8    96   300  54.0 % [48.4, 59.6]   24 / 52    39/84/27
    the same                                     192   300  59.7 % [54.0, 65.1]   49 / 99    50/79/21
    the same, h 6                                192   300  52.3 % [46.7, 57.9]   66 / 163   35/87/28
    FINAL: h 10, conf 1 / 8 (commit 2b95132)     192  2000  58.5 % [56.3, 60.6]  40-42 /     297/576/127
                                                                                 82-91

    * chunks ``s7c-a-`` 59.2 %, ``s7c-b-`` 58.6 %, ``s7c-c-`` 59.8 %, ``s7c-d-`` 56.4 % (500
      games each, 5.1-5.5 min each: 2,000 games in 21 min of one core; 30,754 searched moves,
      p95 per chunk 82-91 ms, far under the table's 2 s); the deals' own interval (1,000 pairs
      scored 1, ½, 0) is [56.6, 60.4]. Two more chunks of the
      same frozen hard, ``s7c-e-`` 61.4 % and ``s7c-f-`` 57.6 % (4.8-5.2 min each): over all
      3,000 games 58.8 % [57.1, 60.6] (1,765 wins; deals 451/863/186, their own interval
      [57.2, 60.4]; 45,468 searched moves, p95 per chunk 82-91 ms).

Cheap screens without search (a duplicate harness of policy functions, 4,000 games unless
said; "heuristic" = main's card-counting ``hard``, which the search starts from): normal
against itself 50.0 %; heuristic 52.3 % [50.7, 53.8]; never challenging a +4 52.1 %; keeping
skips/reverses (score -18) 50.7 %, and +2s too 51.3 %; numbers by colour length 52.1 %; a +4
bluffed at once whenever at most 5 cards stay (``normal`` challenges only a +4 from 6 or more)
49.1 %, at most 3: 50.5 %. Leaving a top the opponent cannot follow, read from its TRUE hand
(cheating), 59.7 % [57.5, 61.9] over 2,000; the same rule fed by 32 sampled worlds 52.9 %
(read as normal) against 51.6 % (draws only). How well the worlds know the other hand
(log-loss of "it holds colour c", 60 games): 0.58 with the draws alone, 0.42 read as normal, 0
for the truth. So what ``normal`` gets wrong that hard exploits is mostly what its plays give
away (worlds closer to its hand), and the decisive change was the short rollouts: 10 moves
scored by hand sizes, not whole rounds, whose far-future luck drowned the difference between
candidates (192 rollouts of full rounds would not fit the CPU either).

Session 8, Macarena (``nice -n 10``, ``--processes 1``, ``--duplicate``, two chunks at once on
the two cores; the 64-rollout chunks ``-a-``/``-b-`` beside a full run of the test suite, whose
load shows in their ms). Every card on a pozo and every card a player sends to its collection
is played face up, so the view now carries what a seat that watched every play knows
(``PozoView.cards``, ``PlayerInfo.shown``; the counts of the other collections stay hidden until
the reveal, as the presenters show them). Hard's worlds deal only the other hands and the stock
(session 7's dealt the pozos' covered cards and the other collections at random too); hard
values a collected card by the race for its element's token against the strongest rival's known
collection (``ai.contest_value``: the rise in the chance of out-counting it, a normal curve
whose spread shrinks with the stock, times the token's worth to both: 1 for one lacked, ¼ for
one held); penalized at the end of a hand, it gives up an element it wins back in that hand's
awards (the collections are final then). ``normal`` is unchanged:

    hard (commit)                   rollouts games  win rate [95 %]      ms p50 / p95     deals*
    session 7 (a3e1c16, above)            32  2000  51.0 % [48.8, 53.1]  0.3-0.4 / 27-31  240/539/221
    memory + race (fde1998, s8m-a-)       32   500  57.8 % [53.4, 62.1]  0.32 / 23.6      77/136/37
    + the penalty's element (a6aee67)     32  2000  57.4 % [55.2, 59.6]  0.32-0.34 / 24-25 323/503/174
    the same                              64  2000  61.7 % [59.5, 63.8]  0.38-0.41 / 58-91 370/492/138

    * chunks ``s8n-a-`` 59.4 %, ``-b-`` 57.5 %, ``-c-`` 54.5 %, ``-d-`` 58.2 % (32 rollouts;
      0.71-0.75 s of hard's thinking a game, 197,799 hard moves, max 0.4-1.2 s; the deals' own
      interval [55.3, 59.6]); at 64 rollouts ``s8r-a-`` 61.9 %, ``-b-`` 62.1 % (p95 91 ms,
      p99 120-122, beside the test suite), ``-c-`` 61.0 %, ``-d-`` 61.6 % (p95 58 ms, p99 68-69, alone;
      1.69-2.09 s of hard's thinking a game, 199,688 hard moves, max 0.9 s; the deals' own
      interval [59.5, 63.7])

The table gives hard 2 s (``CPU_THINK_SECONDS``): up to 2,000 rollouts a searched move
(``THINK_RATE`` 1000): the 64-rollout row is well inside the table's budget, and
the table searches with more (32 to 64 rollouts was worth 4 points here). Screens on the way
(a throw-away duplicate harness, ``normal`` as the opponent; the race read from the TRUE other collection, which the view's ``shown`` now gives exactly): hard's
heuristic alone, no search, 51.6 % [49.4, 53.8] over 2,000; + the race 55.1 % (spread
variance 1 + 0.05 × stock, weight 8), 54.9 % (0.02, 12), 52.2 % (no spread), 52.1 % (0.5);
a token that completes the winning amulet weighted 3×, or 1.5× / 2×, a coin that makes 4
worth 2×, a coin worth ½: 53.5-54.5 % (2,000 games each, none better than the plain stakes).
With the search (32 rollouts, 1,000 games, seeds ``t3-``): worlds copied from the truth with
only the other hand and the stock reshuffled (what ``shown`` and ``cards`` make fair) 60.0 %
[56.9, 63.0]; the implementation 57.8 % [54.7, 60.8]; the search from 9 stock cards a player
instead of 6, 57.3 %. So the memory of the hand was worth some 6 points: the other collection
decides the element races (4 tokens a hand, most of what a hand gives), and it was never
secret, only forgotten.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import random
import statistics
import subprocess
import sys
import time
import types
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from games.core import rng_for  # noqa: E402
from games.core.search import Budget  # noqa: E402

GAMES = ("amapatolli", "chupate2", "macarena", "maquiavelo")
ORACLE_STATE: list[Any] = []  # the true state, for the "oracle" ceiling only (never in play)


# ----- the two versions of hard --------------------------------------------------------------


def _main_ai(game: str) -> types.ModuleType:
    """main's ``games/<game>/ai.py`` as a module (the "before" hard)."""
    name = f"_main_ai_{game}"
    if name in sys.modules:
        return sys.modules[name]
    source = subprocess.run(
        ["git", "show", f"main:games/{game}/ai.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    module = types.ModuleType(name)
    module.__dict__["__name__"] = name
    sys.modules[name] = module
    exec(compile(source, f"main:games/{game}/ai.py", "exec"), module.__dict__)
    return module


def _budget(game: str, iterations: int, think_seconds: float | None) -> Budget:
    """K rollouts a move (deterministic), or with ``think_seconds`` (``--think-seconds``) what
    the table gives (``GAME.think_budget`` on ``time.monotonic``, as ``bot/service/cpu.py``
    passes it)."""
    if think_seconds is not None:
        engine = importlib.import_module(f"games.{game}").GAME
        budget: Budget = engine.think_budget(think_seconds, time.monotonic)
        return budget
    return Budget(iterations=iterations)


def _chooser(game: str, version: str, iterations: int, think_seconds: float | None) -> Any:
    engine = importlib.import_module(f"games.{game}").GAME
    if version == "before":
        ai = _main_ai(game)
        if game == "macarena":
            return lambda view, legal, rng: ai.choose_action(engine, view, legal, "hard", rng)
        return lambda view, legal, rng: ai.choose_action(view, legal, "hard", rng)
    budget = _budget(game, iterations, think_seconds)
    if version in ("oracle", "oracle-hands"):  # the search's "sampled worlds" from the truth
        search = importlib.import_module(f"games.{game}.ai_search")

        def world(view: Any, rng: random.Random, *_: Any) -> Any:
            state = engine.copy_state(ORACLE_STATE[0])
            if version == "oracle-hands":  # the hands seen, the stock's order still unknown
                stock = list(state.stock)
                rng.shuffle(stock)
                state.stock = stock
            return state

        def oracle(view: Any, legal: list[Any], rng: random.Random) -> Any:
            search.determinize = world  # type: ignore[attr-defined]
            return engine.choose_action(view, legal, "hard", rng, budget=budget)

        return oracle
    return lambda view, legal, rng: engine.choose_action(view, legal, "hard", rng, budget=budget)


# ----- one game ------------------------------------------------------------------------------


def play_one(
    game: str,
    version: str,
    iterations: int,
    seed: str,
    hard_first: bool,
    think_seconds: float | None = None,
) -> dict:
    engine = importlib.import_module(f"games.{game}").GAME
    hard = _chooser(game, version, iterations, think_seconds)
    seats = ["s0", "s1"]
    hard_seat = seats[0] if hard_first else seats[1]
    state = engine.new(seats, seed)
    times: list[float] = []
    while not engine.is_over(state):
        to_act = engine.to_act(state)
        moved = False
        for only_waited in (False, True):  # the table service's order (bot/service/cpu.py)
            for seat in seats:
                if (seat in to_act) != only_waited:
                    continue
                legal = engine.legal_actions(state, seat)
                if not legal:
                    continue
                view = engine.view(state, seat)
                rng = rng_for(state.seed, "cpu", seat, state.version)
                if seat == hard_seat:
                    ORACLE_STATE[:] = [state]
                    t0 = time.perf_counter()
                    choice = hard(view, legal, rng)
                    if len(legal) > 1 or game == "maquiavelo":
                        times.append(time.perf_counter() - t0)
                else:
                    choice = engine.choose_action(view, legal, "normal", rng)
                if choice is None and only_waited:
                    choice = legal[0]
                if choice is not None:
                    state, _ = engine.apply(state, seat, choice)
                    moved = True
                    break
            if moved:
                break
        if not moved:
            raise RuntimeError(f"{game} {seed}: nobody can move")
    outcome = engine.outcome(state)
    first = outcome.ranking[0] if outcome and outcome.ranking else seats
    score = (1.0 / len(first)) if hard_seat in first else 0.0
    return {"score": score, "times": times}


def _job(args: tuple[str, str, int, str, bool, float | None]) -> dict:
    return play_one(*args)


# ----- figures -------------------------------------------------------------------------------


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = score / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def run(
    game: str,
    version: str,
    games: int,
    iterations: int,
    processes: int,
    prefix: str,
    duplicate: bool = False,
    think_seconds: float | None = None,
) -> dict:
    deal = (lambda i: i // 2) if duplicate else (lambda i: i)
    jobs = [
        (game, version, iterations, f"{prefix}{game}-{deal(i)}", i % 2 == 0, think_seconds)
        for i in range(games)
    ]
    t0 = time.perf_counter()
    if processes > 1:
        with ProcessPoolExecutor(processes) as pool:
            results = list(pool.map(_job, jobs, chunksize=4))
    else:
        results = [_job(j) for j in jobs]
    elapsed = time.perf_counter() - t0
    score = sum(r["score"] for r in results)
    wins = sum(1 for r in results if r["score"] == 1.0)
    draws = sum(1 for r in results if 0.0 < r["score"] < 1.0)
    times = sorted(t for r in results for t in r["times"])
    low, high = wilson(score, games)
    pairs: dict[str, int] = {}
    if duplicate:  # a deal's two games: hard won both, split them (as normal does), lost both
        for k in range(0, games - 1, 2):
            both = results[k]["score"] + results[k + 1]["score"]
            key = "hard_won_both" if both > 1 else "hard_lost_both" if both < 1 else "split"
            pairs[key] = pairs.get(key, 0) + 1
    return {
        "game": game,
        "hard": (
            version
            if version == "before"
            else f"{version} (think {think_seconds} s/move)"
            if think_seconds is not None
            else f"{version} ({iterations} rollouts/move)"
        ),
        "games": games,
        "hard_wins": wins,
        "draws": draws,
        "normal_wins": games - wins - draws,
        "win_rate": round(score / games, 4),
        "ci95": [round(low, 4), round(high, 4)],
        "ms_per_hard_move_p50": round(1000 * statistics.median(times), 2) if times else None,
        "ms_per_hard_move_p95": (
            round(1000 * times[int(0.95 * (len(times) - 1))], 2) if times else None
        ),
        "ms_per_hard_move_p99": (
            round(1000 * times[int(0.99 * (len(times) - 1))], 2) if times else None
        ),
        "ms_per_hard_move_max": round(1000 * times[-1], 2) if times else None,
        "hard_seconds_per_game": round(sum(times) / games, 3),
        "hard_moves": len(times),
        "seconds": round(elapsed, 1),
        "duplicate": duplicate,
        **({"deals": pairs} if duplicate else {}),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--before-games", type=int, default=None)
    parser.add_argument("--iterations", type=int, default=64)
    parser.add_argument(
        "--think-seconds",
        type=float,
        default=None,
        help="hard thinks as at a table (GAME.think_budget on the wall clock) instead of K rollouts",
    )
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--only", nargs="*", default=list(GAMES))
    parser.add_argument("--seed-prefix", default="strength-")
    parser.add_argument("--skip-before", action="store_true")
    parser.add_argument("--skip-after", action="store_true", help="only the oracles asked for")
    parser.add_argument(
        "--duplicate",
        action="store_true",
        help="every deal twice, hard in each seat (deal luck cancels out of the pair)",
    )
    parser.add_argument(
        "--oracle",
        action="store_true",
        help="also the ceiling: the same search seeing the true state (cheating on purpose)",
    )
    parser.add_argument(
        "--oracle-hands",
        action="store_true",
        help="also the same search seeing the other hands but not the stock's order",
    )
    args = parser.parse_args()
    random.seed(0)
    for game in args.only:
        if not args.skip_before:
            before_games = args.before_games or args.games
            line = run(
                game, "before", before_games, 0, args.processes, args.seed_prefix, args.duplicate
            )
            print(json.dumps(line), flush=True)
        if not args.skip_after:
            line = run(
                game,
                "after",
                args.games,
                args.iterations,
                args.processes,
                args.seed_prefix,
                args.duplicate,
                args.think_seconds,
            )
            print(json.dumps(line), flush=True)
        for version in ("oracle", "oracle-hands"):
            if not getattr(args, version.replace("-", "_")):
                continue
            line = run(
                game,
                version,
                args.games,
                args.iterations,
                args.processes,
                args.seed_prefix,
                args.duplicate,
                args.think_seconds,
            )
            print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
