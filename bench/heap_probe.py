"""``bench/heap_census.py``'s probe, run inside the bot's process (no import of the bench's own
modules): every object the garbage collector tracks, frozen ones included, by type and by owner
(which of the bot's structures reaches it first), and the cost of ``bot.ops.collector``'s thaw
(one collection of every object) on the thread's CPU clock, the fastest of several rounds.

Owners are tried in order, each object counted once, for the first owner that reaches it through
references (modules, classes and their dicts are not followed: a function's globals would reach
everything): the open tables by field and game, the service's, the listener's and the bot's other
attributes, the tasks of the bot's loop by coroutine (what they wait with), then every module's
globals and the classes; what none reaches (kept only by C code: the loop's handles, a
coroutine's frame) is "unreached".
"""

from __future__ import annotations

import asyncio
import collections
import gc
import importlib.util
import sys
import time
import types
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

# Other packages' modules named by their first two parts ("discord.state"): owners stay few.
_MODULE_DEPTH = 2
_OURS = ("bot", "games", "storage")


def label(o: object) -> str:
    kind = type(o)
    if kind.__module__ == "builtins":
        return kind.__qualname__
    return f"{kind.__module__}.{kind.__qualname__}"


def named(o: object) -> str:
    """``label``, with the code a frame, coroutine, traceback, function or method runs (whose
    reference cycle a piece of garbage is)."""
    try:
        if isinstance(o, types.FrameType):
            return "frame " + o.f_code.co_qualname
        if isinstance(o, types.TracebackType):
            return "traceback " + o.tb_frame.f_code.co_qualname
        if isinstance(o, types.CoroutineType):
            return "coroutine " + o.cr_code.co_qualname
        if isinstance(o, types.FunctionType):
            return "function " + o.__qualname__
        if isinstance(o, types.MethodType):
            return "method " + o.__func__.__qualname__
        if isinstance(o, types.CellType):
            return "cell of " + label(o.cell_contents)
        if isinstance(o, BaseException):
            return "exception " + label(o)
    except (AttributeError, ValueError):
        pass
    return label(o)


def _load_walk() -> types.ModuleType:
    """``bench/walk.py``, beside this file (loaded by its path: no import of the bench's own
    package inside the bot)."""
    spec = importlib.util.spec_from_file_location(
        "mesa_bench_walk", Path(__file__).with_name("walk.py")
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_fields = _load_walk().fields


class Owners:
    """Tracked objects attributed to the first owner whose references reach them."""

    def __init__(self, objects: list[object]) -> None:
        self.tracked = {id(o) for o in objects}
        self.counts: collections.Counter[str] = collections.Counter()
        self.types: dict[str, collections.Counter[str]] = collections.defaultdict(
            collections.Counter
        )
        modules = [m for m in list(sys.modules.values()) if isinstance(m, types.ModuleType)]
        # not followed: modules and their dicts (reached from every function's globals), and
        # classes until their own pass
        self.modules_stop = {id(m) for m in modules} | {id(vars(m)) for m in modules}
        self.classes = [o for o in objects if isinstance(o, type)]
        self.stop = self.modules_stop | {id(c) for c in self.classes}
        self.seen: set[int] = set()
        self.modules = modules
        self.holders: collections.Counter[str] = collections.Counter()

    def reserve(self, roots: Iterable[object]) -> None:
        """Owners' roots: not entered from another owner (each structure counted as its own)."""
        self.stop |= {id(r) for r in roots}

    def claim(self, owner: str, roots: Iterable[object]) -> None:
        todo = [r for r in roots if id(r) not in self.seen]
        for r in todo:
            self.seen.add(id(r))
        counts, kinds, seen, stop, tracked = (
            self.counts,
            self.types[owner],
            self.seen,
            self.stop,
            self.tracked,
        )
        while todo:
            o = todo.pop()
            if id(o) in tracked:
                counts[owner] += 1
                kinds[named(o)] += 1
            for child in gc.get_referents(o):
                key = id(child)
                if key not in seen and key not in stop and gc.is_tracked(child):
                    seen.add(key)
                    todo.append(child)

    def claim_modules(self) -> None:
        """Our modules' globals by name (a module-level cache shows by name), the others' by
        package."""
        for module in self.modules:
            ours = module.__name__.split(".")[0] in _OURS
            package = ".".join(module.__name__.split(".")[:_MODULE_DEPTH])
            for key, value in list(vars(module).items()):
                if not key.startswith("__"):
                    owner = f"{module.__name__}.{key}" if ours else f"module {package}"
                    self.claim(owner, [value])

    def claim_classes(self) -> None:
        self.stop = set(self.modules_stop)
        self.claim("classes (their functions, descriptors...)", self.classes)


def _tables(bot: Any) -> list[Any]:
    service = getattr(bot, "tables", None)
    registry = getattr(service, "registry", None)
    return registry.all() if registry is not None else []


def _owner_roots(bot: Any) -> Iterator[tuple[str, list[object]]]:
    """(owner, its roots), in the order objects are attributed."""
    tables = _tables(bot)
    shared = {id(bot), *(id(g) for g in getattr(bot, "games", {}).values())}
    shared |= {id(p) for p in getattr(bot, "_presenters", {}).values()}
    for table in tables:
        game = getattr(table.game, "key", "?")
        for name, value in _fields(table).items():
            if id(value) not in shared and name != "game":
                yield f"table[{game}].{name}", [value]
    yield "tables (Table objects)", list(tables)
    expanded = ("tables", "listener", "_connection")
    for name in expanded:
        holder = getattr(bot, name, None)
        if holder is None:
            continue
        for attr, value in _fields(holder).items():
            yield f"bot.{name}.{attr}", [value]
        yield f"bot.{name}", [holder]
    for name, value in _fields(bot).items():
        if name not in expanded:
            yield f"bot.{name}", [value]
    yield "bot", [bot]


def owners(bot: Any, objects: list[object]) -> Owners:
    found = Owners(objects)
    ordered = list(_owner_roots(bot))
    found.reserve(r for _, roots in ordered for r in roots)
    for owner, roots in ordered:
        found.claim(owner, roots)
    # what the loop alone holds (its handles are C structures the collector cannot see into):
    # the tasks not reached above, by their coroutine
    loop = getattr(bot, "loop", None)
    tasks = list(asyncio.all_tasks(loop)) if loop is not None else []
    for task in tasks:
        coro = task.get_coro()
        found.claim(f"task {getattr(coro, '__qualname__', label(coro))}", [task])
    found.claim_modules()
    found.claim_classes()
    left = [o for o in objects if id(o) not in found.seen]
    found.counts["unreached"] += len(left)
    found.types["unreached"].update(map(label, left))
    found.holders = _holders(objects, left[:: max(len(left) // 2000, 1)])
    return found


def _holders(objects: list[object], sample: list[object]) -> collections.Counter[str]:
    """Who refers to ``sample`` (one pass over every object): for what no owner reached."""
    wanted = {id(o) for o in sample}
    found: collections.Counter[str] = collections.Counter()
    for o in objects:
        for child in gc.get_referents(o):
            if id(child) in wanted:
                found[f"{named(o)} -> {label(child)}"] += 1
    return found


def thaw() -> None:
    """``bot.ops.collector``'s thaw: every object collected, the survivors frozen again."""
    hooks = list(gc.callbacks)
    gc.callbacks.clear()
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    gc.callbacks.extend(hooks)


def _bytes(garbage: list[object]) -> int:
    """The bytes of ``garbage`` and of what only it refers to among untracked objects (the
    strings, bytes and numbers in it; shared ones counted too: an upper bound)."""
    seen = {id(o) for o in garbage}
    total = 0
    for o in garbage:
        total += sys.getsizeof(o)
        for child in gc.get_referents(o):
            if id(child) not in seen and not gc.is_tracked(child):
                seen.add(id(child))
                total += sys.getsizeof(child)
    return total


def census(bot: Any, rounds: int = 5, top: int = 12) -> dict[str, Any]:
    """The heap as the thaw walks it: the objects tracked (frozen ones included), the first
    collection of them all (what it frees: the cyclic garbage frozen since the last one, by
    ``gc.DEBUG_SAVEALL``), what is left by type and owner, then ``rounds`` more collections
    of every object timed on this thread's CPU clock (the fastest: the walk itself, whatever
    the machine's load). The bot's hooks (``bot.ops.collector`` freezes after each older
    collection) are off meanwhile; the bot's loop waits (this thread holds the GIL)."""
    hooks = list(gc.callbacks)
    gc.callbacks.clear()
    frozen = gc.get_freeze_count()
    gc.unfreeze()
    tracked = len(gc.get_objects())
    gc.set_debug(gc.DEBUG_SAVEALL)
    started = time.thread_time()
    freed = gc.collect()
    first_ms = (time.thread_time() - started) * 1000
    gc.set_debug(0)
    garbage = collections.Counter(map(named, gc.garbage)).most_common(40)
    garbage_bytes = _bytes(gc.garbage)
    gc.garbage.clear()
    objects = gc.get_objects()
    found = owners(bot, objects)
    tables = _tables(bot)
    games = collections.Counter(getattr(t.game, "key", "?") for t in tables)
    row = {
        "tracked": tracked,
        "frozen": frozen,
        "live": len(objects),
        "tables": len(tables),
        "games": dict(games),
        "by_type": collections.Counter(map(label, objects)).most_common(60),
        "by_owner": [
            [owner, n, found.types[owner].most_common(top)]
            for owner, n in found.counts.most_common()
        ],
        "unreached_holders": found.holders.most_common(25),
    }
    del objects, found
    timings = []
    for _ in range(rounds):
        started = time.thread_time()
        gc.collect()
        timings.append((time.thread_time() - started) * 1000)
    gc.freeze()
    gc.callbacks.extend(hooks)
    row["thaw"] = {
        "freed": freed,
        "bytes": garbage_bytes,
        "garbage": garbage,
        "first_ms": first_ms,
        "ms": timings,
    }
    return row
