"""The global request pacer (bot/ui/pacer.py): never more than ``per_second`` bot-token calls in
any window, first come first served, no wait while there is room. A fake clock; no sleeping."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.ui.pacer import RequestPacer


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_calls_within_the_limit_do_not_wait_and_the_next_one_waits_for_the_window():
    clock = Clock()
    pacer = RequestPacer(3, clock=clock)
    assert [pacer.reserve() for _ in range(3)] == [0.0, 0.0, 0.0]
    assert pacer.reserve() == 1.0  # the 4th waits until the 1st leaves the window
    clock.now = 0.25
    assert pacer.reserve() == 0.75  # ... and the 5th goes with it (first come, first served)


def test_pacing_off_never_waits():
    pacer = RequestPacer(0, clock=Clock())
    assert all(pacer.reserve() == 0.0 for _ in range(1000))


@given(
    per_second=st.integers(1, 8),
    gaps=st.lists(st.floats(0, 0.6, allow_nan=False), min_size=1, max_size=60),
)
def test_no_window_ever_holds_more_calls_than_allowed(per_second: int, gaps: list[float]):
    clock = Clock()
    pacer = RequestPacer(per_second, window=0.5, clock=clock)
    moments: list[float] = []
    for gap in gaps:
        clock.now += gap
        wait = pacer.reserve()
        assert wait >= 0
        moments.append(clock.now + wait)
    assert moments == sorted(moments)  # in arrival order
    for i in range(len(moments) - per_second):
        assert moments[i + per_second] - moments[i] >= 0.5 - 1e-9
    # ... and no call waited longer than needed: each starts at its arrival or when the call
    # ``per_second`` before it leaves the window, or right after the one before it.
    arrivals = []
    t = 0.0
    for gap in gaps:
        t += gap
        arrivals.append(t)
    for i, moment in enumerate(moments):
        bounds = [arrivals[i]]
        if i >= per_second:
            bounds.append(moments[i - per_second] + 0.5)
        if i:
            bounds.append(moments[i - 1])
        assert abs(moment - max(bounds)) < 1e-9
