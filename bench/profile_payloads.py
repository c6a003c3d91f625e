"""The bot's CPU to build one move's messages, in this process: per game, the public table
payload and each seat's private payload (texts, components, layout, V2 checks, and the request
body discord.py makes of it: ``handle_message_parameters``; no image, no HTTP), on the state of a
short random game. CPU time (``time.process_time``): a shared machine inflates no figure. Also
per move: the objects left in reference cycles (what only the cyclic garbage collector frees)
and the collector's CPU at the bot's thresholds (``bot/ops/collector.py``).

    .venv/bin/python bench/profile_payloads.py [--repeat 30] [--root /path/to/other/checkout]
    .venv/bin/python bench/profile_payloads.py --top 30      # and the top functions (cProfile)
    .venv/bin/python bench/profile_payloads.py --moves 40    # a later state (longer logs)

Also "moves in a row": per game, the messages of ``--row`` consecutive moves of one random game
(each state's public payload and every seat's private one, as a bot shows them move after
move), with a new presenter each round: what a presenter keeps from one move to the next
(event texts) helps as it does in the bot, and no more.

``--root`` builds with another checkout's ``bot`` (before/after). Figures only; nothing is
asserted.

    .venv/bin/python bench/profile_payloads.py --instructions [--root ...] [--games triad]

counts instead valgrind's instructions (callgrind) per move of the moves in a row: the same
process runs ``--few`` then ``--many`` rounds and the difference per move is printed (start-up
and warm-up cancel out): a figure no other process on a loaded machine changes. Needs valgrind.
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--top", type=int, default=0, help="print the top N functions too")
    parser.add_argument("--row", type=int, default=40, help="moves in a row (0: not measured)")
    parser.add_argument(
        "--moves", type=int, default=8, help="random moves before the state measured"
    )
    parser.add_argument(
        "--instructions", action="store_true", help="callgrind instructions per move in a row"
    )
    parser.add_argument("--few", type=int, default=0, help="rounds of the smaller count")
    parser.add_argument("--many", type=int, default=2, help="rounds of the larger count")
    parser.add_argument("--rounds", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument(
        "--games", nargs="+", default=None, help="only these games (keys), e.g. --games triad"
    )
    args = parser.parse_args(argv)
    if args.instructions:
        return print_instructions(args.root, args.row, args.few, args.many, args.games)
    sys.path.insert(0, str(args.root))
    from discord.http import handle_message_parameters

    from bot.i18n import translator
    from bot.ops.collector import THRESHOLDS
    from bot.registry import load_games
    from bot.ui.messages import private_payload, public_payload
    from bot.ui.presenter import presenter_for
    from tests.bot.presenter_kit import StubService, table_for

    tr = translator("es")
    service = StubService()
    jobs: list[tuple[str, Any, Any]] = []
    rows: list[tuple[str, Any, Any, list[Any]]] = []  # (game, its game, presenter class, tables)
    for key, game in chosen(load_games(), args.games):
        presenter_cls = type(presenter_for(game))
        seats = [f"s{i}" for i in range(2 if key == "triad" else max(game.min_players, 3))]
        state = game.new(seats, "payloads", None)
        rng = random.Random(1)
        for _ in range(args.moves):
            movers = [s for s in game.to_act(state) if game.legal_actions(state, s)]
            if not movers or game.outcome(state) is not None:
                break
            seat = rng.choice(movers)
            state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        jobs.append((key, table_for(game, state, 1), presenter_cls(game)))
        rows.append((key, game, presenter_cls, in_a_row(game, seats, args.row, table_for)))

    def sent(payload: Any) -> None:
        """The request body discord.py makes of an edit (where a view becomes dicts)."""
        kwargs = payload.edit_kwargs()
        with handle_message_parameters(
            content=kwargs["content"], embeds=kwargs["embeds"], view=kwargs["view"]
        ):
            pass
        payload.view.stop()

    def public(table: Any, presenter: Any) -> None:
        sent(public_payload(table, presenter, service, tr))

    def private(table: Any, presenter: Any) -> None:
        for seat in table.state.seats:
            sent(private_payload(table, presenter, seat, tr))

    def cycles_per_move(table: Any, presenter: Any) -> float:
        """Objects one move's messages leave in reference cycles."""
        gc.collect()
        gc.disable()
        try:
            for _ in range(args.repeat):
                public(table, presenter)
                private(table, presenter)
            return gc.collect() / args.repeat
        finally:
            gc.enable()

    def collector_ms(table: Any, presenter: Any) -> float:
        """The cyclic collector's CPU per move at the bot's thresholds."""
        spent = [0.0]
        began = [0.0]

        def timing(phase: str, info: dict[str, Any]) -> None:
            if phase == "start":
                began[0] = time.process_time()
            else:
                spent[0] += time.process_time() - began[0]

        old = gc.get_threshold()
        gc.set_threshold(*THRESHOLDS)
        gc.callbacks.append(timing)
        try:
            for _ in range(args.repeat * 5):
                public(table, presenter)
                private(table, presenter)
        finally:
            gc.callbacks.remove(timing)
            gc.set_threshold(*old)
        return spent[0] / (args.repeat * 5) * 1000

    def best_ms(build: Any, table: Any, presenter: Any) -> float:
        for _ in range(3):
            build(table, presenter)  # catalogues, modules warm
        rounds = []
        for _ in range(5):  # the best of five rounds: a shared machine's noise only adds
            start = time.process_time()
            for _ in range(args.repeat):
                build(table, presenter)
            rounds.append((time.process_time() - start) / args.repeat * 1000)
        return min(rounds)

    if args.rounds is not None:  # in valgrind (``print_instructions``): no figure of our own
        return moves_in_a_row_rounds(rows, public, private, args.rounds)

    import bot

    print(f"bot from {Path(bot.__file__).parent}")
    print(
        "| game | public payload ms | every seat's private payload ms | seats "
        "| objects in cycles per move | collector ms per move |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    totals = [0.0, 0.0, 0.0, 0.0]
    for key, table, presenter in jobs:
        pub, priv = best_ms(public, table, presenter), best_ms(private, table, presenter)
        cyclic, collecting = cycles_per_move(table, presenter), collector_ms(table, presenter)
        for i, figure in enumerate((pub, priv, cyclic, collecting)):
            totals[i] += figure
        print(
            f"| {key} | {pub:.3f} | {priv:.3f} | {len(table.state.seats)} | {cyclic:.0f} "
            f"| {collecting:.3f} |"
        )
    mean = [t / len(jobs) for t in totals]
    print(f"| **mean** | {mean[0]:.3f} | {mean[1]:.3f} | | {mean[2]:.0f} | {mean[3]:.3f} |")
    if args.row:
        print_moves_in_a_row(rows, public, private)
    print_translations(jobs, public, private, args.repeat)
    print_buttons(args.repeat)
    print_alt_texts(jobs, service, tr, args.repeat)
    if args.top:
        profile = cProfile.Profile()
        profile.enable()
        for _ in range(args.repeat):
            for _key, table, presenter in jobs:
                public(table, presenter)
                private(table, presenter)
        profile.disable()
        pstats.Stats(profile).sort_stats("cumtime").print_stats(args.top)
    return 0


def chosen(games: dict[str, Any], keys: list[str] | None) -> list[tuple[str, Any]]:
    """The games named by ``keys`` (all when none), by key."""
    return [(k, g) for k, g in sorted(games.items()) if not keys or k in keys]


def in_a_row(game: Any, seats: list[str], moves: int, table_for: Any) -> list[Any]:
    """A table at each of the first ``moves`` states of a random game (fewer if it ends)."""
    state = game.new(seats, "in-a-row", None)
    rng = random.Random(2)
    tables = []
    for _ in range(moves):
        movers = [s for s in game.to_act(state) if game.legal_actions(state, s)]
        if not movers or game.outcome(state) is not None:
            break
        seat = rng.choice(movers)
        state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        table = table_for(game, state, 1)
        if tables:  # one table whose state moves on, as in the bot (its record, its seats)
            table.record = tables[0].record
        tables.append(table)
    return tables


def print_moves_in_a_row(
    rows: list[tuple[str, Any, Any, list[Any]]], public: Any, private: Any
) -> None:
    """Per game, the CPU ms per move of the public payload and every seat's private payload,
    move after move of one game: the fastest of five rounds, each with a new presenter."""
    print("moves in a row: ms of CPU per move, the public payload and every seat's private one")
    cells = []
    total = 0.0
    for key, game, presenter_cls, tables in rows:
        rounds = []
        for _ in range(6):  # the first round warms catalogues and modules: not counted
            presenter = presenter_cls(game)
            start = time.process_time()
            for table in tables:
                public(table, presenter)
                private(table, presenter)
            rounds.append((time.process_time() - start) / len(tables) * 1000)
        total += min(rounds[1:])
        cells.append(f"{key} {min(rounds[1:]):.3f} ({len(tables)} moves)")
    print(", ".join(cells) + f"; mean {total / len(rows):.3f}")


def moves_in_a_row_rounds(
    rows: list[tuple[str, Any, Any, list[Any]]], public: Any, private: Any, rounds: int
) -> int:
    """Two rounds of the moves in a row (warm-up), then ``rounds`` more, each with new
    presenters, the collector off (its runs would differ between counts); prints the moves of
    one round."""
    gc.disable()
    for _ in range(2 + rounds):
        for _key, game, presenter_cls, tables in rows:
            presenter = presenter_cls(game)
            for table in tables:
                public(table, presenter)
                private(table, presenter)
    print(sum(len(tables) for *_, tables in rows))
    return 0


def print_instructions(
    root: Path, row: int, few: int, many: int, games: list[str] | None = None
) -> int:
    """Instructions per move of the moves in a row (``--row`` moves of each game), counted by
    callgrind: ``many`` rounds less ``few`` rounds, per move."""
    from count_request_instructions import callgrind  # (a sibling script: bench/ is on the path)

    counts = []
    moves = 0
    for rounds in (few, many):
        argv = [__file__, "--root", str(root), "--row", str(row), "--rounds", str(rounds)]
        argv += ["--games", *games] if games else []
        counted, stdout = callgrind(argv)
        counts.append(counted)
        moves = int(stdout.split()[-1])
    per_move = (counts[1] - counts[0]) / (moves * (many - few))
    print(
        f"bot from {root}: {per_move:,.0f} instructions per move in a row ({moves} moves a round"
        + (f": {' '.join(games)})" if games else ")")
    )
    return 0


def print_translations(
    jobs: list[tuple[str, Any, Any]], public: Any, private: Any, repeat: int
) -> None:
    """The catalogue lookups of one move's messages (public and every seat's private, the five
    games), replayed through a bound translator: how many, and their CPU."""
    from bot.i18n import BoundTranslator, _render_key, translator

    calls: list[tuple[str, str, dict[str, Any]]] = []
    plain_call = BoundTranslator.__call__

    def recording(self: Any, key: str, /, **params: Any) -> str:
        calls.append((self.locale, key, params))
        return plain_call(self, key, **params)

    BoundTranslator.__call__ = recording  # type: ignore[method-assign]
    try:
        for _key, table, presenter in jobs:
            public(table, presenter)
            private(table, presenter)
    finally:
        BoundTranslator.__call__ = plain_call  # type: ignore[method-assign]
    bound = [(translator(locale), key, params) for locale, key, params in calls]
    rounds = []
    for _ in range(5):
        start = time.process_time()
        for _ in range(repeat):
            for tr, key, params in bound:
                tr(key, **params)
        rounds.append((time.process_time() - start) / repeat * 1e6)
    with_params = [(locale, key, params) for locale, key, params in calls if params]
    fresh = []  # a text rendered anew (a cache miss: a move's version, deadline, counts)
    for _ in range(5):
        start = time.process_time()
        for _ in range(repeat):
            for locale, key, params in with_params:
                _render_key(locale, key, params)
        fresh.append((time.process_time() - start) / repeat / len(with_params) * 1e6)
    print(
        f"translations: {len(calls) / len(jobs):.0f} per game's move ({len(with_params) / len(jobs):.0f} "
        f"with parameters), {min(rounds) / len(jobs):.1f} us of CPU per game's move; "
        f"a text with parameters rendered anew {min(fresh):.2f} us"
    )


def print_buttons(repeat: int) -> None:
    """A table button as a payload makes it: built with its looks and written as Discord reads
    it (``to_component_dict``), CPU us each; and the same button's discord.py component built
    (what a click's dispatch asks for: ``item``)."""
    import discord

    from bot.ui.items import ActionButton, DraftButton

    def written() -> None:
        ActionButton(
            7, 12, "p.r5a", label="5 rojo", style=discord.ButtonStyle.success
        ).to_component_dict()
        DraftButton(7, 12, "sel:3", label="Colección", emoji="📚", row=1).to_component_dict()

    def built() -> None:
        looks = {"label": "5 rojo", "style": discord.ButtonStyle.success}
        components.append(ActionButton(7, 12, "p.r5a", **looks).item)
        components.append(DraftButton(7, 12, "sel:3", label="Colección", emoji="📚", row=1).item)
        components.clear()

    components: list[Any] = []

    cells = []
    for name, make in (("built and written", written), ("with its component", built)):
        rounds = []
        for _ in range(5):
            start = time.process_time()
            for _ in range(repeat * 100):
                make()
            rounds.append((time.process_time() - start) / (repeat * 200) * 1e6)
        cells.append(f"{name} {min(rounds):.2f}")
    print("a table button, us: " + ", ".join(cells))


def print_alt_texts(jobs: list[tuple[str, Any, Any]], service: Any, tr: Any, repeat: int) -> None:
    """The alt text of each game's table image and of every seat's hand image (``describe``, on
    the loop at every image), CPU us per move's images."""
    from bot.ui.alt_text import describe
    from bot.ui.messages import private_payload, public_payload

    cells = []
    for key, table, presenter in jobs:
        payloads = [public_payload(table, presenter, service, tr)]
        payloads += [private_payload(table, presenter, s, tr) for s in table.state.seats]
        requests = [p.image for p in payloads if p.image is not None]
        for p in payloads:
            p.view.stop()
        rounds = []
        for _ in range(5):
            start = time.process_time()
            for _ in range(repeat):
                for request in requests:
                    describe(request)
            rounds.append((time.process_time() - start) / repeat * 1e6)
        cells.append(f"{key} {min(rounds):.1f} ({len(requests)})")
    print("alt texts, us per move's images (images): " + ", ".join(cells))


async def in_a_loop() -> int:
    """As in the bot: discord.py's views make a future when a loop runs."""
    return main()


if __name__ == "__main__":
    raise SystemExit(asyncio.run(in_a_loop()))
