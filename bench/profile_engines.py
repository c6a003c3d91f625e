"""The engines' and presenters' work of one move as the bot does it, per game, in this process:
a fixed script of moves (random games of each game, as many moves as the game's share of the
load's moves, ``SHARES``; seats as ``bench/load.py`` seats them: two humans and the computers,
Triple Triad one of each) replayed through the calls the bot makes
at every move: the click's action decoded, ``apply``, ``outcome`` and ``dump_state`` (the stored
row), the public table payload, and for every human seat its digest's legal actions and its
private payload, each made into the request body (``bot.ui.payload.edit_parameters``); for every
computer seat with a legal action the search's arguments (its view, its legal actions encoded).
No image is drawn, nothing is sent. Each round replays the script from ``new`` with new
presenters (what a presenter keeps from one move of a table to the next helps, as in the bot).

    .venv/bin/python bench/profile_engines.py [--root /other/checkout] [--rounds 7]
    .venv/bin/python bench/profile_engines.py --instructions [--root ...]   # callgrind
    .venv/bin/python bench/profile_engines.py --top 40 [--games macarena]  # cProfile

Prints per game and for the load's mix (each game weighted by its share of the load's moves,
``SHARES``) the CPU microseconds per move of each stage (the fastest of ``--rounds`` rounds of
``time.process_time``: a shared machine inflates them little), or with ``--instructions`` the
instructions per move of the whole script (the mix; ``--games`` one game's) valgrind's callgrind
counts (``--many`` rounds less ``--few`` rounds, so start-up cancels out: a figure no other
process changes). ``--root`` measures another checkout
(before/after). Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import pstats
import random
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
# Moves per game at ``bench/load.py --tables 100`` (public table edits by game, session 24):
# the weights of the mix.
SHARES = {"amapatolli": 202, "chupate2": 220, "macarena": 224, "maquiavelo": 174, "triad": 224}
# Computer seats beside the humans (``bench/load_driver.py``'s CPUS; Triple Triad: 1 and 1).
HUMANS = {"amapatolli": 2, "chupate2": 2, "macarena": 2, "maquiavelo": 2, "triad": 1}
COMPUTERS = {"amapatolli": 1, "chupate2": 2, "macarena": 1, "maquiavelo": 1, "triad": 1}
STAGES = ("apply", "dump", "public", "private", "computer")


def script(game: Any, key: str, moves: int, seed: int) -> list[list[tuple[str, str]]]:
    """Random games, one after another, until they hold ``moves`` moves: each game's ``(seat,
    action text)`` (a seat the game waits on when there is one, else any seat with a legal
    action)."""
    games: list[list[tuple[str, str]]] = []
    total = 0
    while total < moves:
        number = len(games)
        rng = random.Random(seed * 1000 + number)
        state = game.new(seats_of(key), f"engines-{key}-{number}", None)
        played: list[tuple[str, str]] = []
        while total < moves and not game.is_over(state):
            move = random_move(game, state, rng)
            if move is None:
                break
            seat, action = move
            played.append((seat, action.encode()))
            state, _ = game.apply(state, seat, action)
            total += 1
        games.append(played)
    return games


def random_move(game: Any, state: Any, rng: random.Random) -> tuple[str, Any] | None:
    """A random legal move: of a seat the game waits on when there is one, else of any seat
    with a legal action; None when no seat has one."""
    movers = sorted(s for s in state.seats if game.legal_actions(state, s))
    if not movers:
        return None
    waited = [s for s in movers if s in game.to_act(state)]
    seat = rng.choice(waited or movers)
    return seat, rng.choice(game.legal_actions(state, seat))


def seats_of(key: str) -> list[str]:
    return [f"s{i}" for i in range(HUMANS[key])] + [f"cpu:{i}" for i in range(COMPUTERS[key])]


class Replay:
    """One game's script replayed as the bot's calls, stage by stage."""

    def __init__(self, key: str, game: Any, moves: int, seed: int) -> None:
        from bot.i18n import translator
        from bot.ui.presenter import presenter_for
        from tests.bot.presenter_kit import StubService, table_for

        self.key, self.game = key, game
        self.games = script(game, key, moves, seed)
        self.moves = sum(map(len, self.games))
        self.presenter_cls = type(presenter_for(game))
        self.service, self.tr, self.table_for = StubService(), translator("es"), table_for
        self.humans = seats_of(key)[: HUMANS[key]]
        self.computers = seats_of(key)[HUMANS[key] :]

    def run(self, spent: dict[str, float] | None = None) -> None:
        """The script once, with a new presenter; ``spent`` adds each stage's CPU seconds."""
        presenter = self.presenter_cls(self.game)
        for number, played in enumerate(self.games):
            self._game(number, played, presenter, spent)

    def _game(
        self,
        number: int,
        played: list[tuple[str, str]],
        presenter: Any,
        spent: dict[str, float] | None,
    ) -> None:
        from bot.ui.messages import private_payload, public_payload
        from bot.ui.payload import edit_parameters

        game, clock = self.game, time.process_time
        state = game.new(seats_of(self.key), f"engines-{self.key}-{number}", None)
        table = self.table_for(game, state, 1 + number)

        def sent(payload: Any) -> None:
            edit_parameters(payload.edit_kwargs(), None)
            if payload.view is not None:
                payload.view.stop()

        for seat, text in played:
            marks = [clock()]
            state, _events = game.apply(state, seat, game.decode_action(text))
            marks.append(clock())
            game.outcome(state)
            game.dump_state(state)
            marks.append(clock())
            table.state = state
            sent(public_payload(table, presenter, self.service, self.tr))
            marks.append(clock())
            finished = game.is_over(state)
            for human in self.humans:
                if not finished:
                    game.legal_actions(state, human)  # its digest (private_views._view_digest)
                sent(private_payload(table, presenter, human, self.tr))
            marks.append(clock())
            if not finished:
                to_act = game.to_act(state)
                for computer in self.computers:
                    legal = game.legal_actions(state, computer)
                    if legal and computer in to_act:
                        game.view(state, computer)
                        [a.encode() for a in legal]
            marks.append(clock())
            if spent is not None:
                for stage, begin, end in zip(STAGES, marks, marks[1:], strict=False):
                    spent[stage] += end - begin


def replays(root: Path, keys: list[str] | None, scale: float, seed: int) -> list[Replay]:
    """Each game's replay (``keys``: only those), ``scale`` times its share of moves long."""
    sys.path.insert(0, str(root))
    from bot.registry import load_games

    games = load_games()
    return [
        Replay(k, games[k], max(1, round(SHARES[k] * scale)), seed)
        for k in sorted(SHARES)
        if not keys or k in keys
    ]


def weighted(figures: dict[str, float]) -> float:
    total = sum(SHARES[k] for k in figures)
    return sum(SHARES[k] * f for k, f in figures.items()) / total


def print_cpu(rows: list[Replay], rounds: int) -> None:
    print("| game | moves (games) | " + " | ".join(STAGES) + " | all, us CPU per move |")
    print("|---|---:|" + "---:|" * (len(STAGES) + 1))
    per_game: dict[str, dict[str, float]] = {}
    for row in rows:
        row.run()  # catalogues, modules, per-process caches warm
        best: dict[str, float] | None = None
        for _ in range(rounds):
            spent = dict.fromkeys(STAGES, 0.0)
            row.run(spent)
            if best is None or sum(spent.values()) < sum(best.values()):
                best = spent
        assert best is not None
        figures = {stage: best[stage] / row.moves * 1e6 for stage in STAGES}
        figures["all"] = sum(figures.values())
        per_game[row.key] = figures
        cells = " | ".join(f"{figures[s]:.1f}" for s in (*STAGES, "all"))
        print(f"| {row.key} | {row.moves} ({len(row.games)}) | {cells} |")
    mix = {s: weighted({k: f[s] for k, f in per_game.items()}) for s in (*STAGES, "all")}
    print("| **load's mix** | | " + " | ".join(f"{mix[s]:.1f}" for s in (*STAGES, "all")) + " |")


def print_top(rows: list[Replay], top: int) -> None:
    for row in rows:
        row.run()
    profile = cProfile.Profile(time.thread_time)  # CPU time: a busy machine inflates none
    profile.enable()
    for row in rows:
        for _ in range(5):
            row.run()
    profile.disable()
    pstats.Stats(profile).sort_stats("tottime").print_stats(top)


def print_instructions(args: argparse.Namespace) -> None:
    """Instructions per move: callgrind's count of ``--many`` rounds less ``--few`` rounds of
    every game's script (each as long as its share of the load's moves: their sum is the mix)."""
    sys.path.insert(0, str(HERE))
    from count_request_instructions import callgrind

    counts, moves = [], 0
    for rounds in (args.few, args.many):
        argv = [__file__, "--root", str(args.root), "--scale", str(args.scale)]
        argv += ["--seed", str(args.seed), "--replay", str(rounds)]
        argv += ["--games", *args.games] if args.games else []
        counted, stdout = callgrind(argv)
        counts.append(counted)
        moves = int(stdout.split()[-1])
    per_move = (counts[1] - counts[0]) / (moves * (args.many - args.few))
    which = " ".join(args.games) if args.games else "the load's mix"
    print(f"bot from {args.root}: {per_move:,.0f} instructions per move ({which}, {moves} moves)")


def replay_only(rows: list[Replay], rounds: int) -> None:
    """In valgrind: a warm-up round, then ``rounds`` more, the collector off (its runs would
    differ between counts); prints the moves of one round."""
    gc.disable()
    for _ in range(1 + rounds):
        for row in rows:
            row.run()
    print(sum(row.moves for row in rows))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=HERE.parent)
    parser.add_argument("--games", nargs="+", help="only these games (keys)")
    parser.add_argument(
        "--scale", type=float, default=0.5, help="moves of a game's script per move of SHARES"
    )
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--top", type=int, default=0, help="cProfile's top N functions instead")
    parser.add_argument("--instructions", action="store_true", help="callgrind's counts instead")
    parser.add_argument("--few", type=int, default=1, help="rounds of the smaller count (1)")
    parser.add_argument("--many", type=int, default=3, help="rounds of the larger count (3)")
    parser.add_argument("--replay", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.instructions:
        print_instructions(args)
        return 0
    rows = replays(args.root.resolve(), args.games, args.scale, args.seed)
    if args.replay is not None:
        replay_only(rows, args.replay)
    elif args.top:
        print_top(rows, args.top)
    else:
        print(f"bot from {args.root}: microseconds of CPU per move (fastest of {args.rounds})")
        print_cpu(rows, args.rounds)
    return 0


async def in_a_loop() -> int:
    """As in the bot: discord.py's views make a future when a loop runs."""
    return main()


if __name__ == "__main__":
    raise SystemExit(asyncio.run(in_a_loop()))
