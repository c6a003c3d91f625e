"""Triple Triad's first games against the computer: how often a new player wins.

A new player (a fresh starter collection: 7 cards of levels 1-2, ``cards.starter_set``) picks
five of their cards at random and places them at random (a random legal move every turn)
against the computer at each difficulty, under the default rules (no capture rule, payout
Una). The computer's five are ``cards.matched_deck`` (this tree: matched to the player's five)
and, for comparison, ``cards.cpu_deck`` (the fixed per-difficulty levels the bot used before).
Each game has its own starter set, picks, seed and first player.

A second player, ``greedy``, always plays the placement that flips most cards now (the AI's
``greedy`` level, which was ``normal`` before issue 31 softened it): how a player who looks for
flips fares against the same computer.

``hard`` searches with a fixed node budget (``--hard-nodes``, default 20,000 per move, instead of
the bot's two seconds) over at most ``--hard-games`` games (default 500), so the run stays within a
bench's few minutes; at the bot's budget it is stronger still.

Prints, per player, deck rule and difficulty, wins / draws / losses of the player and the win rate with
a 95 % Wilson interval; the last line is machine-readable JSON. Issue 31 item 3 asks the
player's win rate against ``normal`` with matched decks to be at least 25 %.

    nice -n 10 .venv/bin/python bench/triad_first_games.py [--games 2000] [--levels easy,normal,hard]

The default run prints random vs easy / normal / hard and greedy vs normal, matched decks
(``--pairs all`` for every player x deck rule x level).
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.core.budget import Budget  # noqa: E402
from games.triad import GAME  # noqa: E402
from games.triad.cards import card, cpu_deck, matched_deck, starter_set  # noqa: E402

PLAYER, CPU = "player", "cpu"


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 0.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def play(
    game: int, level: str, deck_rule: str, player: str = "random", hard_nodes: int = 20_000
) -> int:
    """One game: +1 the player won, 0 a draw, -1 the computer won."""
    rng = random.Random(f"first-games:{game}")
    hand = rng.sample(starter_set(f"starter:bench-{game}"), 5)
    levels = [card(c).level for c in hand]
    seed = f"first-game-{game}"
    if deck_rule == "matched":
        cpu = matched_deck(level, levels, seed, game)
    else:
        cpu = cpu_deck(level, seed, game)
    seats = [PLAYER, CPU] if game % 2 == 0 else [CPU, PLAYER]
    state = GAME.new(seats, seed, {}, hands={PLAYER: hand, CPU: cpu})
    ai_rng = random.Random(f"ai:{game}")
    while GAME.outcome(state) is None:
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, seat)
        if seat == PLAYER and player == "random":
            action = rng.choice(legal)
        elif seat == PLAYER:  # a player who always plays the placement that flips most now
            action = GAME.choose_action(GAME.view(state, seat), legal, "greedy", rng)
        else:
            budget = Budget(iterations=hard_nodes)
            action = GAME.choose_action(GAME.view(state, seat), legal, level, ai_rng, budget=budget)
        state, _ = GAME.apply(state, seat, action)
    winner = GAME.outcome(state).winner
    return 0 if winner is None else (1 if winner == PLAYER else -1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--levels", default="easy,normal,hard")
    parser.add_argument("--decks", default="matched")
    parser.add_argument("--players", default="random,greedy")
    parser.add_argument(
        "--pairs",
        default="issue",
        choices=["issue", "all"],
        help="issue: random vs every level, greedy vs normal only; all: every combination",
    )
    parser.add_argument("--hard-nodes", type=int, default=20_000)
    parser.add_argument(
        "--hard-games", type=int, default=500, help="games against hard (at most --games)"
    )
    args = parser.parse_args()
    results = []
    for player, deck_rule, level in itertools.product(
        args.players.split(","), args.decks.split(","), args.levels.split(",")
    ):
        if args.pairs == "issue" and player != "random" and level != "normal":
            continue
        started = time.perf_counter()
        tally = {1: 0, 0: 0, -1: 0}
        games = min(args.games, args.hard_games) if level == "hard" else args.games
        for game in range(games):
            tally[play(game, level, deck_rule, player, args.hard_nodes)] += 1
        lo, hi = wilson(tally[1], games)
        rate = tally[1] / games
        print(
            f"{player:>6} player, {deck_rule:>7} decks, {level:>6}: {games} games, player won {tally[1]}, "
            f"drew {tally[0]}, lost {tally[-1]}: win rate {rate:.1%} "
            f"[{lo:.1%}, {hi:.1%}] (95 % Wilson)  {time.perf_counter() - started:.1f} s"
        )
        results.append(
            {
                "player": player,
                "decks": deck_rule,
                "level": level,
                "games": games,
                "won": tally[1],
                "drawn": tally[0],
                "lost": tally[-1],
                "win_rate": round(rate, 4),
                "ci95": [round(lo, 4), round(hi, 4)],
            }
        )
    print(json.dumps(results))


if __name__ == "__main__":
    main()
