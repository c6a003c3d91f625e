"""The global request pacer (bot/ui/pacer.py): never more than ``per_second`` bot-token calls
starting in any window, first come first served, no wait while there is room."""

from __future__ import annotations

import asyncio
import heapq

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.ui.pacer import RequestPacer
from tests.fakediscord.ratelimit import GLOBAL_PER_SECOND, GLOBAL_WINDOW, SlidingWindow


def test_calls_within_the_limit_do_not_wait_and_the_next_one_waits_for_the_window():
    pacer = RequestPacer(3)
    for at in (0.0, 0.1, 0.2):
        assert pacer.free_in(at) == 0.0
        pacer.take(at)
    assert pacer.free_in(0.25) == pytest.approx(0.75)  # until the first call leaves the window
    pacer.take(1.0)
    assert pacer.free_in(1.0) == pytest.approx(0.1)  # then the second one


def test_pacing_off_never_waits():
    pacer = RequestPacer(0)
    for _ in range(1000):
        pacer.take(0.0)
    assert pacer.free_in(0.0) == 0.0


def test_the_window_property_is_judged_without_a_clock():
    """The property below is checked on generated examples; how long one takes on a loaded
    machine is no failure of it (``tests/conftest.py``'s Hypothesis profile)."""
    assert settings.default.deadline is None
    assert HealthCheck.too_slow in settings.default.suppress_health_check


@given(
    per_second=st.integers(1, 8),
    gaps=st.lists(st.floats(0, 0.6, allow_nan=False), min_size=1, max_size=60),
    stalls=st.lists(st.floats(0, 0.8, allow_nan=False), min_size=60, max_size=60),
)
def test_no_window_ever_holds_more_call_starts_than_allowed(
    per_second: int, gaps: list[float], stalls: list[float]
):
    """Callers arrive one after another; each starts once there is room, possibly late (a
    stalled event loop wakes it after its wait): no window holds more starts than allowed, and
    no call waits while there is room."""
    pacer = RequestPacer(per_second, window=0.5)
    starts: list[float] = []
    arrival = 0.0
    for gap, stall in zip(gaps, stalls, strict=False):
        arrival += gap
        at = max(arrival, starts[-1] if starts else 0.0)  # first come, first served
        while (wait := pacer.free_in(at)) > 0:
            at += wait + stall  # woken late
        pacer.take(at)
        starts.append(at)
    assert starts == sorted(starts)
    for i in range(len(starts) - per_second):
        assert starts[i + per_second] - starts[i] >= 0.5 - 1e-9


async def test_waiting_callers_start_in_arrival_order_and_within_the_limit():
    """Six callers at once through ``acquire``, on a fake clock that their waits advance."""
    now = [0.0]

    async def sleep(seconds: float) -> None:
        now[0] += seconds
        await asyncio.sleep(0)  # let the others queue meanwhile

    pacer = RequestPacer(2, window=0.5, clock=lambda: now[0], sleep=sleep)
    started: list[tuple[int, float]] = []

    async def call(n: int) -> None:
        await pacer.acquire()
        started.append((n, now[0]))

    await asyncio.gather(*(call(n) for n in range(6)))
    assert started == [(0, 0.0), (1, 0.0), (2, 0.5), (3, 0.5), (4, 1.0), (5, 1.0)]


def test_shard_processes_split_the_global_limit_by_the_shards_they_run():
    from bot.settings import Settings

    def budget(**kw: object) -> int:
        return Settings(_env_file=None, discord_token="t", **kw).request_budget()  # type: ignore[arg-type]

    assert budget() == 45  # one process, not sharded
    assert budget(shard_count=4) == 45  # one process runs every shard
    assert budget(shard_count=4, shard_ids="0-1") + budget(shard_count=4, shard_ids="2-3") == 44
    assert budget(shard_count=4, shard_ids="3", global_requests_per_second=2) == 1  # never 0
    assert budget(shard_count=4, shard_ids="3", global_requests_per_second=0) == 0  # unpaced


class FakeTime:
    """A clock that only the pacer's sleeps move (no real waiting)."""

    def __init__(self) -> None:
        self.now = 0.0

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds
        await asyncio.sleep(0)


async def test_a_turn_taken_ahead_counts_when_its_request_is_sent_and_a_released_one_frees_its_place():
    t = FakeTime()
    pacer = RequestPacer(2, window=1.0, clock=t.clock, sleep=t.sleep)
    await pacer.acquire()  # a public table's worker waits for its turn ahead of its edit
    t.now = 0.4
    await pacer.sending()  # its edit goes out now: it is counted at 0.4, not at 0.0
    assert pacer.sent == 1
    assert pacer.free_in(0.4) == 0.0
    pacer.take(0.5)
    assert pacer.free_in(1.0) == pytest.approx(0.4)  # the first call leaves the window at 1.4

    await pacer.acquire()  # t = 1.4: a turn, then nothing needed the bot token
    assert t.now == pytest.approx(1.4)
    pacer.release()
    assert pacer.free_in(t.now) == 0.0  # its place is free again at once


async def test_a_request_without_a_turn_waits_at_the_gate_and_a_global_429_pauses_everyone():
    t = FakeTime()
    pacer = RequestPacer(2, window=1.0, clock=t.clock, sleep=t.sleep)
    sent: list[float] = []

    async def send() -> None:
        await pacer.sending()
        sent.append(t.now)
        pacer.landed()  # answered at once

    await asyncio.gather(*(send() for _ in range(4)))
    assert sent == [0.0, 0.0, 1.0, 1.0]
    pacer.pause(3.0)  # Discord said: global 429, retry after 3 s
    await send()
    assert sent[-1] == pytest.approx(4.0)
    assert pacer.sent == 5


async def test_held_turns_and_sends_together_never_exceed_the_limit():
    """Turns taken ahead but not yet used hold their place: no one else gets it meanwhile."""
    t = FakeTime()
    pacer = RequestPacer(3, window=1.0, clock=t.clock, sleep=t.sleep)
    holders = []

    async def hold() -> None:
        await pacer.acquire()
        holders.append(t.now)
        await asyncio.Event().wait()  # never sends, never releases: expires with the window

    tasks = [asyncio.create_task(hold()) for _ in range(3)]
    await asyncio.sleep(0)
    await pacer.sending()  # must wait for a held place to expire
    assert t.now == pytest.approx(1.0)
    assert holders == [0.0, 0.0, 0.0]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


async def test_a_task_started_while_holding_a_turn_does_not_inherit_it():
    """A worker that spawns a task after its turn (the task copies its context) keeps its turn:
    the child neither uses it nor gives it back."""
    t = FakeTime()
    pacer = RequestPacer(1, window=1.0, clock=t.clock, sleep=t.sleep)
    await pacer.acquire()

    async def child() -> None:
        pacer.release()  # not its turn: nothing given back

    await asyncio.create_task(child())
    assert pacer.free_in(t.now) == pytest.approx(1.0)  # the parent's turn still holds the place
    await pacer.sending()  # the parent's request uses it, at once
    assert t.now == 0.0 and pacer.sent == 1


async def test_a_spread_pacer_sends_a_second_s_calls_in_parts_not_in_one_burst():
    t = FakeTime()
    pacer = RequestPacer(8, window=1.0, spread=4, clock=t.clock, sleep=t.sleep)
    sent: list[float] = []

    async def send() -> None:
        await pacer.sending()
        sent.append(round(t.now, 6))
        pacer.landed()  # answered at once

    await asyncio.gather(*(send() for _ in range(8)))
    assert sent == [0.0, 0.0, 0.25, 0.25, 0.5, 0.5, 0.75, 0.75]  # 2 per quarter, 8 a second
    await send()
    assert sent[-1] == 1.0


def _paced_arrivals(
    pacer: RequestPacer, now: list[float], calls: list[tuple[float, float, float]]
) -> list[float]:
    """Send ``calls`` (gap after the previous caller, answer delay, where in that delay the
    request reaches Discord: 0 at the send, 1 with the answer) through ``pacer`` on the clock
    ``now``, first come first served; each answer lands when due. The arrival times."""
    landings: list[float] = []  # answers not landed yet (heap)
    arrivals: list[float] = []
    wanted = 0.0

    def advance(to: float) -> None:
        while landings and landings[0] <= to:
            now[0] = heapq.heappop(landings)
            pacer.landed()
        now[0] = to

    for gap, delay, where in calls:
        wanted += gap
        at = max(wanted, now[0])
        advance(at)
        while (wait := pacer.free_in(at)) > 0:
            at = min(at + wait, landings[0]) if landings else at + wait
            advance(at)
        pacer.take(at)
        pacer.set_off()
        heapq.heappush(landings, at + delay)
        arrivals.append(at + delay * where)
    return sorted(arrivals)


def _global_429s(arrivals: list[float]) -> int:
    """What the fake Discord says of these arrivals: its own global window, on its clock."""
    clock = [0.0]
    window = SlidingWindow(GLOBAL_PER_SECOND, GLOBAL_WINDOW, lambda: clock[0])
    refused = 0
    for at in arrivals:
        clock[0] = at
        refused += window.try_take() > 0
    return refused


def test_requests_held_on_their_way_and_arriving_together_get_no_global_429():
    """A loaded host holds a second's 45 requests and lets them reach Discord together, just as
    the next second's 45 go out: 90 in one second of the fake's clock. Counted until their
    answers land, the next ones wait for the held ones."""
    held = [(1 / 45, 1.2 - i / 45, 1.0) for i in range(45)]  # all arrive at ~1.2 s
    prompt = [(1 / 45, 0.01, 0.0) for _ in range(45)]
    now = [0.0]
    sends_only = RequestPacer(45, spread=4, ceiling=10**6, clock=lambda: now[0])
    assert _global_429s(_paced_arrivals(sends_only, now, held + prompt)) > 30  # the old pacer
    now = [0.0]
    pacer = RequestPacer(45, spread=4, clock=lambda: now[0])
    assert pacer.ceiling == GLOBAL_PER_SECOND
    assert _global_429s(_paced_arrivals(pacer, now, held + prompt)) == 0


@given(
    calls=st.lists(
        st.tuples(
            st.floats(0, 0.08, allow_nan=False),  # demand above the limit most of the time
            st.floats(0.001, 1.5, allow_nan=False),  # the answer's delay
            st.floats(0, 1, allow_nan=False),  # where in it the request reaches Discord
        ),
        min_size=1,
        max_size=160,
    )
)
def test_the_fake_discord_never_sees_more_than_its_limit_whatever_the_delays(
    calls: list[tuple[float, float, float]],
):
    now = [0.0]
    pacer = RequestPacer(45, spread=4, clock=lambda: now[0])
    assert _global_429s(_paced_arrivals(pacer, now, calls)) == 0


def _room_by_merging(pacer: RequestPacer, now: float, allowed: int, span: float) -> float:
    """``RequestPacer._room_in`` as it was written before its bisection (issue 29): every start
    and held turn merged, those inside the span counted."""
    edge = now - span
    merged = heapq.merge(pacer._starts, (t.granted for t in pacer._held))
    times = [t for t in merged if t > edge]
    over = len(times) - allowed
    if over < 0:
        return 0.0
    return max(0.0, times[over] + span - now)


# On a grid of eighths: times fall exactly on a span's edge too (not counted inside it).
_EIGHTHS = st.integers(0, 24).map(lambda i: i / 8)


@given(
    starts=st.lists(_EIGHTHS, max_size=60),
    held=st.lists(_EIGHTHS, max_size=8),
    now=_EIGHTHS,
    allowed=st.integers(1, 50),
    span=st.sampled_from([0.25, 0.5, 1.0]),
)
def test_the_room_found_by_bisection_is_the_room_found_by_merging(
    starts: list[float], held: list[float], now: float, allowed: int, span: float
):
    """Sends and held turns are kept oldest first; the room left is what merging them all and
    counting those inside the span finds, for the whole window and a spread's part alike."""
    pacer = RequestPacer(50)
    for at in sorted(starts):
        pacer.take(at)
    for at in sorted(held):
        pacer._grant(at)
    assert pacer._room_in(now, allowed, span) == _room_by_merging(pacer, now, allowed, span)


class _Budget:
    """A shared budget that says whether it ran short (``storage/token_budget.py`` on a real
    PostgreSQL has its own tests)."""

    def __init__(self) -> None:
        self.short = False

    async def take(self) -> None:
        return None

    def strained(self) -> bool:
        return self.short

    async def close(self) -> None:
        return None


async def test_the_budget_is_strained_from_a_share_of_the_window_or_while_callers_queue():
    """What a played table's bot-token edits ask before they coalesce (``ViewKit._coalesce``):
    an idle budget is not contested, one whose last window used the share is, until those calls
    leave the window; callers queueing for a turn always are; share 0: always; pacing off: never."""
    t = FakeTime()
    pacer = RequestPacer(10, window=1.0, clock=t.clock, sleep=t.sleep)
    assert not pacer.strained(0.5)
    assert pacer.strained(0.0)  # "always coalesce"
    for i in range(4):
        pacer.take(i * 0.1)
    t.now = 0.35
    assert not pacer.strained(0.5)  # 4 of 10
    pacer.take(0.4)
    assert pacer.strained(0.5)  # 5 of 10 in the last second
    t.now = 1.05  # the first call left the window
    assert not pacer.strained(0.5)

    await pacer.acquire()  # a turn held ahead counts like a call
    assert pacer.strained(0.5)
    pacer.release()
    assert not pacer.strained(0.5)

    for _ in range(10):  # the window full: the next caller queues
        pacer.take(t.now)
    queued = asyncio.get_running_loop().create_task(pacer.acquire())
    await asyncio.sleep(0)
    assert pacer.strained(1.0)  # a caller waits: contested whatever the share
    await queued
    pacer.release()

    unpaced = RequestPacer(0)
    for _ in range(100):
        unpaced.take(0.0)
    assert not unpaced.strained(0.5)  # nothing to contest


def test_a_shared_budget_that_ran_short_strains_every_process_pacer():
    """Shard processes share one budget: a process that calls little itself still sees the
    budget contested when the shared bucket ran short (the others' calls)."""
    budget = _Budget()
    pacer = RequestPacer(45, shared=budget, clock=lambda: 0.0)
    assert not pacer.strained(0.5)
    budget.short = True
    assert pacer.strained(0.5)
