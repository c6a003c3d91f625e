"""Issue 25, the ack: a click's move starts in the click's own loop turn, up to its first wait
(``bot.ui.items.started``, used by ``bot/cogs/play._within``), not a loop turn later in a task:
its write is queued right behind its intent's, so the writer commits both together and the
click is answered in place with the view after the move more often. Counted in steps, not
timed."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest

from bot.cogs.play import _within
from bot.ui.items import started


async def test_the_work_runs_to_its_first_wait_before_the_caller_goes_on():
    loop = asyncio.get_running_loop()
    steps: list[str] = []
    gate: asyncio.Future[str] = loop.create_future()

    async def work() -> str:
        steps.append("queued its write")
        return f"committed {await gate}"

    outcome = started(work())
    steps.append("caller")
    assert steps == ["queued its write", "caller"]
    assert not outcome.done()
    gate.set_result("v2")
    assert await outcome == "committed v2"


async def test_work_that_never_waits_is_done_with_its_result_or_its_error():
    async def answer() -> int:
        return 7

    async def refused() -> int:
        raise ValueError("stale")

    done = started(answer())
    assert done.done() and done.result() == 7
    failed = started(refused())
    assert failed.done()
    with pytest.raises(ValueError, match="stale"):
        failed.result()


class _Open:
    """A click not answered yet, whose acknowledgement nobody expects here."""

    def is_done(self) -> bool:
        return False

    async def defer(self, **kwargs: object) -> None:
        raise AssertionError("acknowledged although the move was ready in time")


async def test_a_clicks_move_starts_inside_within_and_its_result_comes_back():
    loop = asyncio.get_running_loop()
    steps: list[str] = []
    gate: asyncio.Future[str] = loop.create_future()

    async def move() -> str:
        steps.append("move started")
        return await gate

    interaction = SimpleNamespace(response=_Open(), client=None)
    deadline = loop.time() + 60  # a bound against a hang only; the move is ready long before
    answer = started(_within(interaction, deadline, move()))  # type: ignore[arg-type]
    assert steps == ["move started"]  # in this very step, before any loop turn
    gate.set_result("v3")
    assert await answer == "v3"


async def test_a_move_refused_before_its_first_wait_is_raised_at_once():
    async def stale() -> str:
        raise ValueError("stale")

    interaction = SimpleNamespace(response=_Open(), client=None)
    loop = asyncio.get_running_loop()
    with pytest.raises(ValueError, match="stale"):
        await _within(interaction, loop.time() + 60, stale())  # type: ignore[arg-type]


async def test_the_click_goes_on_in_the_turn_its_move_ends():
    """The move runs in the click's own task: no task of its own whose end the click would
    learn of two loop turns later (each a loop lag under load) before answering in place."""
    loop = asyncio.get_running_loop()
    committed: asyncio.Future[str] = loop.create_future()

    async def move() -> str:
        return await committed  # the writer's commit, handed over

    interaction = SimpleNamespace(response=_Open(), client=None)
    answer = started(_within(interaction, loop.time() + 60, move()))  # type: ignore[arg-type]
    await asyncio.sleep(0)
    committed.set_result("v5")
    turns = 0
    while not answer.done() and turns < 10:
        await asyncio.sleep(0)
        turns += 1
    assert turns == 1 and answer.result() == "v5"


async def test_at_the_deadline_the_click_is_acknowledged_while_its_move_goes_on():
    loop = asyncio.get_running_loop()
    committed: asyncio.Future[str] = loop.create_future()
    acknowledged: list[str] = []

    class _Deferred:
        def is_done(self) -> bool:
            return bool(acknowledged)

        async def defer(self, **kwargs: object) -> None:
            acknowledged.append("deferred")

    async def move() -> str:
        return await committed

    interaction = SimpleNamespace(response=_Deferred(), client=None)
    answer = asyncio.create_task(_within(interaction, loop.time(), move()))  # type: ignore[arg-type]
    async with asyncio.timeout(60):  # a bound against a hang only
        while not acknowledged:  # the deadline has passed: acknowledged in a turn or two
            await asyncio.sleep(0)
    assert not answer.done()  # the move goes on
    committed.set_result("v6")
    assert await answer == "v6"
    assert acknowledged == ["deferred"]


class _Counted:
    """A click not answered yet: in which loop turn its acknowledgement was sent."""

    def __init__(self) -> None:
        self.turn = 0
        self.sent_in: int | None = None

    def is_done(self) -> bool:
        return self.sent_in is not None

    async def defer(self, **kwargs: object) -> None:
        self.sent_in = self.turn


async def test_at_the_deadline_the_acknowledgement_is_sent_in_the_timer_s_own_turn():
    """Not a loop turn later in a task of its own: under load each turn is a loop lag."""
    loop = asyncio.get_running_loop()
    committed: asyncio.Future[str] = loop.create_future()

    async def move() -> str:
        return await committed

    response = _Counted()
    interaction = SimpleNamespace(response=response, client=None)
    answer = started(_within(interaction, loop.time(), move()))  # type: ignore[arg-type]
    while response.sent_in is None and response.turn < 10:
        await asyncio.sleep(0)
        response.turn += 1
    assert response.sent_in == 1  # the timer's turn: the first after the deadline
    committed.set_result("v7")
    assert await answer == "v7"
