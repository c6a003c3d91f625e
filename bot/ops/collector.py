"""Python's garbage collector tuned for a bot holding hundreds of live tables.

A collection of the oldest generation walks every object the collector tracks, so with
Python's defaults (700, 10, 10) its cost grows with the heap: measured by
``bench/profile_scale.py`` (CPU time, 20-s windows), a full collection took ~160 ms at 150 busy
tables (170,000 tracked objects) and 300–420 ms at 600 (360,000–380,000), one every few
seconds, and the collector's share of the bot's CPU went from 13 % to 24–31 %. Two measures,
for the bot's own process only:

- ``tune``: a young generation larger than Python's 700 (3,000 until session 15, 10,000 with
  ``keep_frozen``, 5,000 since session 24; see below), so what a move allocates (views,
  payloads, requests) has more time to die before a collection looks at it, less of it is
  promoted to the old generation, and full collections come about ten times less often;
- ``freeze``: once the bot is connected, what is alive then (modules, catalogues, the games'
  data, discord.py's cache of guilds and channels: ~93,000 objects) moves to the permanent
  generation, which collections never walk again.

Much of what full collections freed was cyclic garbage: discord.py's views, items and
components (each refers back to its parent), ~160 objects per move, alive while a request is
under way, so promoted before they die. Since session 14 a card's message is built as plain
dicts (``bot.ui.v2.CardLayout``): a move's messages leave no object in a reference cycle
(``bench/profile_payloads.py``; 44–115 per move before), so that garbage is freed by reference
counting as soon as its request is sent. Larger young generations were tried: (10,000, 20, 20) brought the
collector down to 3–9 % of the bot's CPU, but with no full collection for minutes that garbage
grew the bot's RSS by ~100 MB in 150 s at 300 tables (146 → 245 MB). With (3,000, 10, 10) at 300
busy tables: two full collections in 90 s (433 ms each), RSS 147 → 189 MB, the collector 13 % of
the bot's CPU (Python's defaults: 13 % at 150 tables, 24–31 % at 600).

- ``keep_frozen`` (session 15): the tables opened after start-up (their states, seats, views'
  bookkeeping) are most of the heap a full collection walks: ~10 % of the bot's CPU at 300 busy
  tables (``bench/profile_live.py``, ``gc.callbacks``). Every minute a full collection of what
  is not frozen yet (what was made since the last one: the garbage among it is freed) then
  freezes the survivors too, so no collection walks them again; what dies later is still freed
  by reference counting. What only the cyclic collector frees among frozen objects (a cycle
  whose members were alive at a freeze) waits for the thaw (every 30 minutes then): one
  full collection of everything. With that minute's collection bounding the garbage a full
  collection used to free, the young generation is the larger one measured above (10,000,
  20, 20): collections of the young generations were ~90 % of the collector's time at 300
  busy tables with (3,000, 10, 10).
- (10,000, 10, 10) since session 16: a generation-1 collection walks what survived up to 10
  young collections instead of 20, and its pause is what a player waits through. At 500 busy
  tables (``bench/profile_live.py --tables 500 --window 40 --gc-thresholds ...``, two runs
  each, a shared machine at load ~10): the slowest generation-1 collection 87 and 101 ms of
  CPU, against 155 and 217 ms with (10,000, 20, 20); the collector's share of the bot's CPU
  7.0 and 4.9 % against 10.2 and 4.0 % (no difference the noise lets through); full
  collections (~210-230 ms) came with both.
- A refreeze every 20 s instead of every minute since session 18: its collection walks what
  was made since the previous one and is the bot's longest pause (a census of every
  collection at 500 busy tables, ``gc.callbacks`` with ``gc.get_objects``, a machine at load
  ~10: generation 0 every 1.4 s, ~21 ms of CPU; generation 1 every ~20 s, ~85 ms, walking
  ~117,000 objects; the minute's refreeze ~225 ms, up to 476 ms, walking ~192,000). Every
  20 s it walks ~110,000 and pauses ~117 ms, at most 175, for the same CPU per second (6.8
  against 6.4 ms/s); at 1,000 tables 146,000 against 268,000 objects, 152 against 344 ms
  (at most 228 against 638). The thaw stays every 30 minutes. A generation-1 threshold of 5
  was tried with it: its pauses hardly shorter (mean 77 against 84 ms, the same slowest) and
  the collector's CPU up (6.7 against 4.2 ms/s in generation-1 collections). Most of what the
  collections free is reference cycles made by discord.py's objects (an interaction and its
  response, its parsed message and components; a ``discord.File``'s buffer once closed):
  freed by reference counting, they would cost the collector nothing
  (``bench/gc_census.py`` lists the garbage by type).
- Frozen at the end of every generation-1 collection since session 19, with no collection of
  its own (a ``gc.callbacks`` hook, ``FreezeAfterCollections``): a generation-1
  collection has just walked every object not frozen (generation 2 is empty, frozen at the
  previous one), so its survivors are what a refreeze's full collection would have kept, and
  freezing them costs a list splice. The refreeze's own collection, the bot's longest pause
  (~117 ms every 20 s at 500 tables, ~152 at 1,000), is gone; the thaw stays every 30 minutes.
  Each object is then walked by at most one older collection whatever the generation-1
  threshold, so that threshold sets the pause, not the CPU: 4 instead of 10. At 500 busy tables
  (``bench/gc_census.py --tables 500 --warmup 50 --window 45 -- --channel-play 0.5``, back to
  back, load ~3-6): the older collections' pause 43 ms mean, 48 at most, walking 80,000
  objects, against the refreeze's 101 and 115 walking 105,000; the collector 0.12 against 0.17
  ms of CPU per move. At 300 (49-51 moves/s, one generation-1 collection in 13 s against a
  refreeze in 20): 41 against 35 ms, no gain there.
- Since session 21 most of that garbage is gone at its source: discord.py's interaction and
  its response refer to each other, so every click (its parsed message, components, users,
  ~45 objects) waited for a collection, and one alive at a freeze (a token hook keeps a click
  for minutes) stayed until the thaw. Once a click or command is answered the response's
  back-reference is dropped (``bot.ui.items.release_answered``) and reference counting frees
  it when nobody holds it. At 300 busy tables (``bench/gc_census.py``, back to back, load
  ~4): young collections 0.27 -> 0.09 a second, older ones 0.04 -> 0.02, the collector's CPU
  0.089 -> 0.050 ms per move, objects only the collector freed 27 -> 4.7 per move (left:
  openskill's and the Maquiavelo solver's closures, lobby views); over a 6-minute run
  (``bench/load.py --tables 300 --window 330``) the bot's RSS grew 11.4 -> 9.7 KB per move,
  10.4 -> 4.6 over its last two minutes, where it had levelled off (340 against 262 MB at
  the end; fewer moves in the second run, on a busier machine).
- Frozen garbage is not what grows the RSS (session 23, ``bench/memory_census.py
  --thaw-probe`` at 300 busy tables after a 90-s window, load ~9): one collection of every
  object, frozen ones included, freed 22,000-30,000 objects and gave back no RSS (Python's
  arenas stay while any block in them lives); glibc's heaps held 5-11 MB free
  (``mallinfo2``) and ``malloc_trim(0)`` gave back under 1 MB, so neither an earlier thaw nor
  ``MALLOC_ARENA_MAX``/trimming is set. What grew was held on purpose: bounded caches filling
  (images, rendered texts, event texts, log dumps) and token hooks (``bench/memory_census.py``).
- A young generation of 5,000 since session 24: at 1,000 busy tables most of what a young
  collection walks survives it (new tables' states, caches filling), so each collection's pause
  grows with the young generation's size, and each object is still walked once by a young
  collection and at most once by a generation-1 one whatever the size. With 10,000 the
  generation-1 collections were the bot's longest pauses and grew as its heap did
  (``bench/tails.py --tables 1000 --window 240``, CPU by the collecting thread's clock, 60-s
  slices, a machine at load 10-14): 84, 120, 118, 126 ms mean (at most 167), the young ones
  20-29 (at most 116); with 5,000: 54, 62, 63, 77 (at most 113), young 13-16 (at most 97),
  twice as many of each; the collector's CPU per second 43 against 41 ms, no generation-2
  collection in either. A pause is what every click waiting on the loop waits through
  (issue 29: ack p99 ≤ 100 ms).
- A thaw every 10 minutes instead of 30 since session 25: what it frees grows with the time
  since the last one, and so do its pause and the memory that garbage holds till then
  (``bench/heap_census.py --thaw-at-start``: a thaw as the window starts; the first
  collection at its end frees the window's frozen garbage; a machine at load ~10). At ~250-280
  busy tables (240-s windows) the bot froze 7.1 objects of cyclic garbage per move; two cycles
  were removed at their source, a closed connection of ``bot.ui.token_wire`` held by its parser
  (~17 objects) and an expired click's failed acknowledgement held by its own traceback
  (``bot.ui.items.acknowledged_meanwhile``, ~25 objects): 3.8 objects (852 bytes) per move
  are left, mostly a dropped view slot with its drain task, last work and table copy
  (``bot.ui.view_kit``) and the turn mentions' closures. At 973 tables (a 180-s window, the
  bot behind at 38 moves/s): 5.7 objects (1.8 KB) per move, unanswered expired clicks'
  interactions most of it; the live heap 537,000 objects, its full collection 880 ms of CPU
  (fastest of 5; 1.6 us an object). At ~140 moves/s that garbage is 32,000-48,000 objects a
  minute: by the 30th minute 1.0-1.4 million (~200-450 MB) beside the live heap, and the thaw
  walks both (~2.5-3.3 s at that machine's speed, a click arriving then near its 3 s); every
  10 minutes a third of it (~1.4-1.7 s), for ~0.007 ms of CPU per move more (0.011 -> 0.018).
- A thaw when the frozen heap has grown by a quarter since the last one (CPython's own rule
  for its full collections), at most every 10 minutes and at least every 6 hours, since the
  rest of that garbage was removed at its source (session 25): a view slot's work closed over
  its slot (every finished table's slots, builders, table and state hung off that cycle: most
  of the 2,575,692 objects a thaw freed after 30 minutes of a 35-minute soak at 1,000 tables,
  in one pause of 9.4 s of CPU on an overloaded machine), the Maquiavelo solver's and
  Macarena's series search's recursive closures. At 300 busy tables
  (``bench/heap_census.py --tables 300 --window 240 --thaw-at-start``, load ~6): 84 objects
  of frozen garbage in 4 minutes, 0.0 per move (3.8 before); the live heap 274,000 objects,
  its thaw 269 ms of CPU. A thaw now walks the live heap, its cost, and so it comes when the
  frozen count says there is garbage to free or the heap grew (tables opening), not by the
  clock; the count includes any frozen garbage, so a cycle that comes back makes thaws come
  back (logged with their CPU and the objects freed), not memory grow. The count is a walk of
  the frozen list (CPython 3.11: ~12 ms at a million objects), once a minute.
- A young collection once the young generation's list holds YOUNG_LIMIT objects (the young
  threshold), checked four times a second (``collect_young_when_grown``), since session 27:
  CPython's own trigger is a count of allocations minus deallocations of tracked-type objects
  of *any* generation, so each older object that dies (a move replaces its table's state,
  views, records: frozen objects) lets one more young survivor in unseen. At 300 busy tables
  (``bench/gc_census.py --tables 300 --window 90 -- --channel-play 0.5``, six runs, a shared
  machine at load 2-10) a young collection came every 3.3-5.6 s and walked 16,000-19,500
  objects (28,000-37,000 at most) with the count at 5,001: 9-12 ms of CPU mean, 12-36 at
  most; generation 1 walked 37,000-43,000, 19-34 ms. Those over 20 ms of wall time (the
  soak's 38-69 ms at 1,000 tables) were preempted, not longer: 11-13 ms of CPU, the core taken
  away 2-7 times meanwhile. With the list measured (~5 ns an object), interleaved runs of the
  same tree (``--young-check 1e9`` for the count alone): young collections walk 5,800-7,600
  objects, 2.3-3.7 ms of CPU mean (4-10 at most), generation 1 20,000 objects, 11-15 ms
  (17-33 at most); the price is that objects have less time to die before a walk: 172-338
  objects walked per move against 99-199, the collector's CPU 0.079-0.197 against
  0.046-0.142 ms per move (the machine's load moves both more than the policy does). Every
  sixth of these collections is of generation 1 (CPython's rule with THRESHOLDS[1]), so the
  older collections, and the freeze after them, keep their cadence. A young collection every
  quarter second whatever its size was tried: 0.8 ms of CPU mean (generation 1: 4.0), 257
  objects walked and 0.102 ms per move; a limit of 10,000: 7.1 ms mean, 260 objects.
- A young collection by the clock since session 28, with no measure of the young list
  (``collect_young_by_pace``): in the live bot that measure cost as much as the collections it
  decided, ~1.0-1.2 ms of CPU each of its four a second at 300 busy tables
  (``bench/probe_calls.py``: ``gc.get_objects`` 1,048 us a call, 0.081 ms per move; its list
  touches every young object with the caches cold, as the collection then does, and each
  object was listed ~4 times before one walked it). A young collection comes 0.25-1 s after
  the last instead, the wait doubled or halved after each so that one takes about 2.5 ms of
  CPU (``YoungPace``; a collection's CPU follows the wait before it). Compared in one bot at
  300 busy tables, the policies taking 15-20-s turns (``bench/gc_census.py --alternate``, five
  runs, load 3-4): the collector's CPU (collections and its own steps) per move 0.173-0.181 ms
  with the measure, 0.118-0.133 aiming at 3 ms, 0.122-0.132 at 2.5, 0.132 every quarter
  second; on an overloaded machine (load ~6, the bot's ack p99 1.5 s) no difference, 0.297
  against 0.299: a collection's CPU grows as the caches are contended, so the pace keeps to
  its shortest wait. The loop's pause, a step's CPU (the measure and the collection it
  started): young 4.5 ms mean, 7.0 p99, 8.5 at most against 2.6, 5.2, 5.6 at 2.5 ms;
  generation 1 (every 3 s, not 5) 17.3, 29.0 at most against 10.7, 15.6. Freezing every 3 s
  rather than 5 freezes a few more cycles alive then (``bench/heap_census.py --tables 300
  --window 200 --thaw-at-start``, load ~8): 196 objects of frozen garbage in 3.3 minutes
  against 39 (0.02 and 0.004 per move: openskill's closures, a few interactions), the bot's
  RSS 178 MB in both. Generation 1 every tenth young collection (threshold 8) instead of every
  sixth was weighed: 0.108 against 0.124 ms per move, but its pause 19.3 ms of CPU mean and
  25.9 at most against 12.7 and 16.6 (it walks what survived 9 young collections, not 5), the
  bot's longest: kept at every sixth. Freezing a young collection's survivors too
  (``--alternate 'bot;bot+freeze'``, one run on the overloaded machine): 0.155 against 0.299
  ms per move, no generation-1 walk, young pauses 3.8 against 5.2 ms mean; not kept: every
  cycle alive at a young collection would wait for a thaw, unmeasured yet (a heap census of it
  was void: ``gc.freeze`` after any young collection also refreezes what a thaw has just
  unfrozen, before its collection runs).
- Frozen at the end of every collection, young ones included, since session 29
  (``FREEZE_FROM`` 0): each object is walked by one young collection at most before a thaw,
  generation 1 stays empty and no generation-1 collection comes at all (a freeze resets
  CPython's counts, so ``collect_young`` never picks one). The hook holds its freezes off
  while a thaw runs (``FreezeAfterCollections.thaw``): a collection between the thaw's
  unfreeze and its own (another thread's, by CPython's count) had frozen everything again.
  Alternated in one bot at 300 busy tables (``bench/gc_census.py --alternate
  'bot;bot+freeze'``, 15-s turns, 210-s windows, four runs, the last 'bot+freeze1;bot' in this
  tree, load 1.3-4): the collector's CPU per move 0.140, 0.142, 0.151, 0.163 ms -> 0.092,
  0.101, 0.110, 0.113 (-0.040 to -0.050); young pauses alike (2.4-2.5 ms of CPU mean, 5.0-5.6
  p99, 5.0-8.0 at most -> 2.4-2.5, 5.1-6.0, 6.2-10.3), generation 1's (10.2-10.4 ms mean,
  17.4-19.9 at most, 0.33-0.38 a second) gone (none at all in the last run's turns of this
  tree). What a cycle alive at a young collection costs (``bench/heap_census.py --tables 300
  --warmup 20 --window 250 --thaw-at-start --freeze-from 0|1 -- --channel-play 0.5``, two runs
  each, 4.2 minutes and ~14,300 moves each, load 2.5-5.5): frozen garbage 58 and 94 objects
  against 0 and 0 (14 and 23 a minute, 0.004-0.007 per move: lobby views, openskill's
  closures); the bot's RSS over the window 123.5 -> 181.5 and 123.1 -> 181.6 MB against 122.9
  -> 180.6 and 123.1 -> 181.7; the live heap 278,000 objects against 275,000-277,000, its thaw
  291 and 307 ms of CPU against 236 and 274 (fastest of 5): more for as many objects, once in
  10 minutes at most (under 0.002 ms per move). That garbage is bounded by the thaw's rule: it
  counts in the frozen heap's growth (a quarter of the heap the last thaw left brings the
  next), and the thaw at least every 6 hours frees it (5,000-8,000 objects by then at the
  rates measured).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

log = logging.getLogger(__name__)

# Python's defaults are (700, 10, 10).
THRESHOLDS = (5_000, 4, 10)
# What survives each collection of this generation or older is frozen (the module's notes):
# young ones included since session 29.
FREEZE_FROM = 0
# One collection walks every object again (a thaw) once the frozen heap grew by a quarter
# since the last one, not within 10 minutes of it and at least every 6 hours; checked every
# minute.
THAW_GROWTH = 0.25
THAW_LEAST_SECONDS = 10 * 60.0
THAW_MOST_SECONDS = 6 * 3600.0
THAW_CHECK_SECONDS = 60.0
# Young collections come by the clock, whatever CPython's count says (the module's notes):
# YOUNG_LEAST_SECONDS to YOUNG_MOST_SECONDS apart, the period adapted after each so that one
# takes about YOUNG_PAUSE_SECONDS of CPU.
YOUNG_PAUSE_SECONDS = 0.0025
YOUNG_LEAST_SECONDS = 0.25
YOUNG_MOST_SECONDS = 1.0


def tune(thresholds: tuple[int, int, int] = THRESHOLDS) -> None:
    gc.set_threshold(*thresholds)


def freeze() -> int:
    """Collect what is garbage now, then keep every surviving object out of later
    collections; returns how many objects were frozen."""
    frozen = refreeze()
    log.info("garbage collector: %d start-up objects frozen", frozen)
    return frozen


def refreeze(*, thaw: bool = False) -> int:
    """Collect the garbage among the objects not frozen yet (only they are walked), then
    freeze the survivors too; with ``thaw``, every object is walked (cycles among objects
    frozen earlier are freed). Returns how many objects are frozen."""
    if thaw:
        gc.unfreeze()
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


@dataclass
class FreezeAfterCollections:
    """A ``gc.callbacks`` hook: freeze what survived each collection of generation ``least`` or
    older, so that no later collection walks it again; none while a thaw is under way. A thaw
    unfreezes every object and then collects them all: a freeze in between (a collection on
    another thread, CPython's count passing its threshold there) would take them out of its
    reach again, and the thaw would free nothing."""

    least: int = field(default_factory=lambda: FREEZE_FROM)
    freeze: Callable[[], None] = gc.freeze
    thawing: bool = False

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "stop" and info["generation"] >= self.least and not self.thawing:
            self.freeze()

    def thaw(self, collect_all: Callable[[], int] = lambda: refreeze(thaw=True)) -> int:
        """One collection of every object, frozen ones included (``refreeze(thaw=True)``),
        with this hook's freezes held off meanwhile; returns how many objects are frozen."""
        self.thawing = True
        try:
            return collect_all()
        finally:
            self.thawing = False


def collect_young() -> tuple[int, float]:
    """A collection of the young generation, or of generation 1 when as many young ones ran
    since the last as its threshold allows (CPython's rule for its own; never once every
    collection's survivors are frozen: a freeze resets the counts); returns the generation
    collected and the CPU seconds it took."""
    generation = 1 if gc.get_count()[1] > gc.get_threshold()[1] else 0
    started = time.thread_time()
    gc.collect(generation)
    return generation, time.thread_time() - started


@dataclass
class YoungPace:
    """How long until the next young collection: ``every`` seconds, from ``least`` to
    ``most``, adapted after each young one so that one takes about ``pause`` seconds of CPU
    (the young list grows about steadily, so a collection's CPU follows the wait before it);
    by half or double at most, so a burst does not swing it."""

    pause: float = YOUNG_PAUSE_SECONDS
    least: float = YOUNG_LEAST_SECONDS
    most: float = YOUNG_MOST_SECONDS
    every: float = YOUNG_LEAST_SECONDS

    def collected(self, generation: int, cpu: float) -> None:
        if generation:  # generation 1 walks more than the young list: it says nothing of it
            return
        ratio = min(2.0, max(0.5, self.pause / max(cpu, 1e-6)))
        self.every = min(self.most, max(self.least, self.every * ratio))


async def collect_young_by_pace(
    pace: YoungPace | None = None,
    sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
) -> None:
    """A young collection every ``pace.every`` seconds, until cancelled: its pause is then
    what the pace allows, not everything kept since CPython's count last passed its threshold,
    and no measure of the young list is paid for (the module's notes)."""
    pace = pace or YoungPace()
    while True:
        await sleep(pace.every)
        pace.collected(*collect_young())


@dataclass
class ThawWhenGrown:
    """When the next thaw is due: the frozen count (live objects frozen, and any cyclic
    garbage among them) grew by ``growth`` since the last thaw and ``least`` seconds passed,
    or ``most`` seconds passed."""

    growth: float = THAW_GROWTH
    least: float = THAW_LEAST_SECONDS
    most: float = THAW_MOST_SECONDS
    frozen_after: int = 0  # the frozen count the last thaw left
    thawed_at: float = 0.0

    def due(self, now: float, frozen: int) -> bool:
        since = now - self.thawed_at
        grown = frozen > self.frozen_after * (1 + self.growth)
        return since >= self.most or (since >= self.least and grown)

    def thawed(self, now: float, frozen: int) -> None:
        self.frozen_after, self.thawed_at = frozen, now


async def keep_frozen(
    policy: ThawWhenGrown | None = None,
    check_every: float = THAW_CHECK_SECONDS,
    sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    clock: Callable[[], float] = time.monotonic,
    hook: FreezeAfterCollections | None = None,
) -> None:
    """Freeze the survivors of collections (``hook``, in ``gc.callbacks`` while this runs) and
    thaw when ``policy`` says so (checked every ``check_every`` seconds), until cancelled."""
    policy = policy or ThawWhenGrown()
    hook = hook or FreezeAfterCollections()
    policy.thawed(clock(), gc.get_freeze_count())  # the start-up heap, frozen
    gc.callbacks.append(hook)
    try:
        while True:
            await sleep(check_every)
            before = gc.get_freeze_count()
            if not policy.due(clock(), before):
                continue
            started = time.thread_time()
            frozen = hook.thaw()
            policy.thawed(clock(), frozen)
            log.info(
                "garbage collector: thawed %d frozen objects in %.0f ms of CPU; %d frozen again",
                before,
                (time.thread_time() - started) * 1000,
                frozen,
            )
    finally:
        gc.callbacks.remove(hook)
