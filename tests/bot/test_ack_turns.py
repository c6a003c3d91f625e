"""Issue 25, the ack: a deferred click is acknowledged once its intent is written
(``storage/intents.py``). Under load every turn of the event loop costs a loop lag, so the wait
for the write resumes in the loop's next turn after the writer thread hands the commit over,
not three turns later (``asyncio.wait`` on a task around the write, as before), and not at all
when the write is already done. Counted in loop turns, not timed."""

from __future__ import annotations

import asyncio

from storage.intents import written_within


async def _turns_until_done(task: asyncio.Task[None]) -> int:
    turns = 0
    while not task.done():
        await asyncio.sleep(0)
        turns += 1
    return turns


async def test_a_written_intent_is_not_waited_for():
    write = asyncio.get_running_loop().create_future()
    write.set_result(None)
    coroutine = written_within(write, 1.0)
    try:
        coroutine.send(None)  # runs to its end without giving the loop a turn
    except StopIteration:
        return
    raise AssertionError("waited for a write already done")


async def test_the_ack_resumes_in_the_turn_after_the_writer_hands_the_commit_over():
    loop = asyncio.get_running_loop()
    write = loop.create_future()
    waiting = asyncio.create_task(written_within(write, 1.0))
    await asyncio.sleep(0)  # it waits
    loop.call_soon(write.set_result, None)  # as the writer thread does (call_soon_threadsafe)
    assert await _turns_until_done(waiting) == 2  # the hand-over, then the waiter


async def test_a_slow_write_goes_on_and_a_failed_one_is_not_the_ack_s_to_raise():
    loop = asyncio.get_running_loop()
    slow = loop.create_future()
    await written_within(slow, 0.01)  # gave up waiting: the click is acknowledged anyway
    failed = loop.create_future()
    failed.set_exception(OSError("disk full"))
    failed.exception()  # (its starter's done-callback reports it)
    await written_within(failed, 1.0)
    late = loop.create_future()
    waiting = asyncio.create_task(written_within(late, 1.0))
    await asyncio.sleep(0)
    late.set_exception(OSError("disk full"))
    await waiting  # returns, does not raise
