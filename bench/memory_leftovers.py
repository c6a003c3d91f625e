"""What a finished table leaves behind in the bot's memory: the real bot in this process against
the fake Discord (``tests/e2e``'s harness) plays games of three people to their end, one after
another (``--game``: Amapatolli in its own channel each, or Macarena, Chúpate 2, Maquiavelo);
after each game (its views out) the containers reachable from the bot are counted by path
(``[]`` for a container's entries), and the report lists those that grew with the games
played: per-table leftovers (entries of tables that are over), or caches still filling.
``--closed-dms 1`` has the first player play from "Ver mi mano" (ephemeral hands), ``--cpus``
seats computer players (Macarena), and ``--same-players`` seats the same people every game
(per-person caches then stop growing: what grows is per table). ``--per-person`` adds what
the maps kept per person hold (new players each game): entries and bytes per person met, and
the most each keeps (issue 29: ``storage/kept.py``). ``--cycles`` plays with the cyclic
collector off and lists the reference cycles the games left (what the bot's frozen heap keeps
until its thaw: ``bot/ops/collector.py``), by type and one cycle of each of our types, edge by
edge. Counts, not timings: the same on a loaded machine.

    .venv/bin/python bench/memory_leftovers.py --games 6
    .venv/bin/python bench/memory_leftovers.py --game macarena --cpus 1 --closed-dms 1 --same-players
    .venv/bin/python bench/memory_leftovers.py --bot-root ../before-checkout
    .venv/bin/python bench/memory_leftovers.py --per-person --games 8
    .venv/bin/python bench/memory_leftovers.py --game maquiavelo --games 2 --cycles

Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import gc
import importlib.util
import sys
import tempfile
import types
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
LEAVES = (str, bytes, int, float, bool, type(None))
GAMES = ("amapatolli", "macarena", "chupate2", "maquiavelo")


def _parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6, help="games played to their end (6)")
    parser.add_argument("--game", choices=GAMES, default="amapatolli")
    parser.add_argument("--hand-size", type=int, default=3)
    parser.add_argument("--cpus", type=int, default=0, help="computer seats (Macarena only)")
    parser.add_argument(
        "--closed-dms", type=int, default=0, help="players with DMs closed ('Ver mi mano')"
    )
    parser.add_argument(
        "--same-players", action="store_true", help="the same three people at every table"
    )
    parser.add_argument(
        "--per-person",
        action="store_true",
        help="also entries and bytes per person of the per-person maps (new players each game)",
    )
    parser.add_argument("--bot-root", type=Path, default=ROOT, help="the tree measured")
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument(
        "--cycles",
        action="store_true",
        help="also run with the cyclic collector off and list, at the end, the reference cycles"
        " the games left (garbage only the collector frees: by type, and one cycle of each of"
        " our types, edge by edge)",
    )
    return parser.parse_args()


def _load_walk() -> types.ModuleType:
    """``bench/walk.py`` by its path (the bot's tree, put first on the path, may be another
    checkout)."""
    spec = importlib.util.spec_from_file_location("mesa_bench_walk", ROOT / "bench" / "walk.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_walk = _load_walk()
_attributes = _walk.fields


def _label(o: Any) -> str:
    return _walk.label(o, cells=_walk.CELL_FUNCTION)


# What the bot keeps per person it meets, where each tree keeps it (paths from the bot; a
# tree without one has none).
PERSON_MAPS = (
    "_known",
    "_locales",
    "listener.kit._dm_channels",
    "listener.kit.dms._known",
    "listener.kit.places._known",
    "db.players_written",
    "db.ledgers_known",
)


def _deep_bytes(o: Any, seen: set[int]) -> int:
    """``o``'s bytes with what it holds of its own (containers, our small objects)."""
    if id(o) in seen or isinstance(o, (type, type(None), bool)):
        return 0
    seen.add(id(o))
    size = sys.getsizeof(o)
    if isinstance(o, dict):
        return size + sum(_deep_bytes(k, seen) + _deep_bytes(v, seen) for k, v in o.items())
    if isinstance(o, (list, tuple, set, frozenset)):
        return size + sum(_deep_bytes(v, seen) for v in o)
    if isinstance(o, LEAVES):
        return size
    return size + sum(_deep_bytes(v, seen) for v in _attributes(o).values())


def person_maps(bot: Any) -> dict[str, tuple[int, int, int | None]]:
    """(entries, bytes, the most it keeps: None when unbounded) of each per-person map."""
    found = {}
    for path in PERSON_MAPS:
        o = bot
        for name in path.split("."):
            o = getattr(o, name, None)
        if isinstance(o, dict):
            found[path] = (len(o), _deep_bytes(o, set()), getattr(o, "at_most", None))
    return found


def census(root: Any, limit: int = 400_000) -> collections.Counter[str]:
    """Entries of the containers reachable from ``root`` (breadth first), by path."""
    skip = (type(sys), type, type(census), type(len))
    sizes: collections.Counter[str] = collections.Counter()
    seen = {id(root)}
    todo = collections.deque([(root, "bot")])
    while todo and len(seen) < limit:
        o, where = todo.popleft()
        if isinstance(o, (dict, list, set, frozenset, tuple, collections.deque)):
            sizes[where] += len(o)
            inner = where + ("{}" if isinstance(o, dict) else "[]")
            children = [(c, inner) for c in (o.values() if isinstance(o, dict) else o)]
        else:
            children = [(c, f"{where}.{name}") for name, c in _attributes(o).items()]
        for child, place in children:
            if id(child) in seen or isinstance(child, skip) or isinstance(child, LEAVES):
                continue
            seen.add(id(child))
            if place.count(".") + place.count("[") + place.count("{") <= 12:
                todo.append((child, place))
    return sizes


async def _start(fake: Any, args: argparse.Namespace, players: list[Any], seed: str, game: int):
    """A table of ``args.game`` started by ``players`` on the fake, with its driver."""
    if args.game == "amapatolli":
        from tests.e2e import amapatolli_driver

        channel = fake.add_channel(f"game-{game}")
        return await amapatolli_driver.start_game(
            fake, players, seed=seed, hand_size=args.hand_size, channel=channel
        )
    if args.game == "macarena":
        from tests.e2e import macarena_driver

        return await macarena_driver.start_game(
            fake, players, seed=seed, options={}, cpus=args.cpus
        )
    if args.game == "chupate2":
        from tests.e2e import chupate2_driver

        return await chupate2_driver.start_game(fake, players, seed=seed, options={})
    from tests.e2e import maquiavelo_driver

    return await maquiavelo_driver.start_game(fake, players, seed=seed, hand_size=args.hand_size)


async def run(args: argparse.Namespace) -> None:
    from tests.e2e.conftest import Mesa
    from tests.fakediscord.server import FakeDiscord

    if args.cycles:
        gc.disable()  # every cycle the games make stays until the report
    fake = FakeDiscord()
    await fake.start()
    counts: list[collections.Counter[str]] = []
    people: list[dict[str, tuple[int, int, int | None]]] = []
    moves = 0
    with tempfile.TemporaryDirectory() as tmp:
        mesa = Mesa(fake, Path(tmp) / "leftovers.db")
        await mesa.start()
        try:
            for game in range(args.games):
                who = "p" if args.same_players else f"p{game}"
                players = [fake.user(f"{who}{n}", dms_open=n >= args.closed_dms) for n in range(3)]
                mesa.seed = f"leftovers-{game:04d}"  # the bot's next table's seed
                table = await _start(fake, args, players, mesa.seed, game)
                while not table.oracle.finished:
                    await table.move()
                    moves += 1
                await fake.settle()
                await mesa.bot.listener.drain()
                counts.append(census(mesa.bot))
                people.append(person_maps(mesa.bot))
                print(f"game {game + 1} over ({moves} moves so far)", file=sys.stderr)
            if args.cycles:  # the bot still running: what is garbage is the games'
                _cycles_report()
        finally:
            await mesa.stop()
            await fake.stop()
    _report(counts, moves, args)
    if args.per_person:
        _report_people(people, args)


def _edge(parent: Any, child: Any) -> str:
    """How ``parent`` refers to ``child``: an attribute, a key, a closure's cell, or its type."""
    if isinstance(parent, dict):
        for key, value in parent.items():
            if value is child:
                return f"[{key!r}]"[:40]
        return "[key]"
    for name, value in _attributes(parent).items():
        if value is child:
            return f".{name}"
    for name in ("__closure__", "__self__", "__func__", "cr_frame", "f_back", "_coro", "func"):
        value = getattr(parent, name, None)
        if value is child or (isinstance(value, tuple) and any(v is child for v in value)):
            return f".{name}"
    return "->"


def _cycle_through(start: Any, among: set[int]) -> list[Any]:
    """The shortest chain of references from ``start`` back to itself inside ``among``."""
    parents: dict[int, Any] = {}
    queue = collections.deque([start])
    seen = {id(start)}
    while queue:
        node = queue.popleft()
        for child in gc.get_referents(node):
            if child is start:
                chain = [node]
                while chain[-1] is not start:
                    chain.append(parents[id(chain[-1])])
                return [start, *reversed(chain[:-1]), start] if chain[-1] is start else chain
            if id(child) in among and id(child) not in seen:
                seen.add(id(child))
                parents[id(child)] = node
                queue.append(child)
    return []


def _cycles_report() -> None:
    gc.set_debug(gc.DEBUG_SAVEALL)
    gc.collect()
    gc.set_debug(0)
    garbage = list(gc.garbage)
    gc.garbage.clear()
    among = {id(o) for o in garbage}
    kinds = collections.Counter(map(_label, garbage))
    print(
        f"\nreference cycles left by the games: {len(garbage):,} objects only the collector frees"
    )
    for kind, n in kinds.most_common(30):
        print(f"  {n:>8,}  {kind}")
    shown: set[str] = set()
    for o in garbage:
        module = type(o).__module__
        kind = _label(o)
        if kind in shown or not module.startswith(("bot.", "storage.", "games.")):
            continue
        shown.add(kind)
        chain = _cycle_through(o, among)
        if not chain:
            continue
        steps = "".join(
            f" {_edge(a, b)} {_label(b)}" for a, b in zip(chain, chain[1:], strict=False)
        )
        print(f"\n  cycle of {kind}: {kind}{steps}")
    garbage.clear()
    gc.collect()


def _report(counts: list[collections.Counter[str]], moves: int, args: argparse.Namespace) -> None:
    first, last = counts[0], counts[-1]
    games = len(counts) - 1
    grew = sorted(
        ((last[k] - first[k], k) for k in set(first) | set(last) if last[k] > first[k]),
        reverse=True,
    )
    print(
        f"tree {args.bot_root}: {len(counts)} games of {args.game} to their end ({moves} moves;"
        f" {args.cpus} computer seats, {args.closed_dms} players with DMs closed,"
        f" {'the same' if args.same_players else 'new'} players each game); containers"
        f" reachable from the bot that grew from the end of game 1 to the end of game"
        f" {len(counts)}, entries per game (a per-table leftover grows by the same each game):"
    )
    print("| per game | after game 1 | after each game | path |")
    print("|---:|---:|---|---|")
    for delta, key in grew[: args.top]:
        series = ", ".join(str(c[key]) for c in counts)
        print(f"| {delta / max(games, 1):.1f} | {first[key]} | {series} | `{key}` |")


def _report_people(people: list[dict[str, tuple[int, int, int | None]]], args: Any) -> None:
    met = 0 if args.same_players else 3 * (len(people) - 1)
    print(
        f"\nper-person maps, from the end of game 1 to the end of game {len(people)}"
        f" ({met} more people met; bytes: the map and what it holds, sys.getsizeof):"
    )
    print("| map | entries per person | bytes per person | entries at the end | kept at most |")
    print("|---|---:|---:|---:|---:|")
    total = [0.0, 0.0]
    first, last = people[0], people[-1]
    for path, (entries, size, at_most) in last.items():
        entries0, size0, _ = first.get(path, (0, 0, None))
        per = ((entries - entries0) / met, (size - size0) / met) if met else (0.0, 0.0)
        total = [total[0] + per[0], total[1] + per[1]]
        most = "unbounded" if at_most is None else f"{at_most:,}"
        print(f"| `{path}` | {per[0]:.2f} | {per[1]:.0f} | {entries} | {most} |")
    print(f"| all | {total[0]:.2f} | {total[1]:.0f} | | |")


def main() -> None:
    args = _parse()
    sys.path.insert(0, str(args.bot_root.resolve()))
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
