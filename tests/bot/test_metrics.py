"""bot.metrics: phase timings and loop-lag lines in the format bench/load.py parses."""

import asyncio
import logging
import re
import threading

from bot import metrics


def test_phases_are_counted_and_logged(caplog):
    metrics.reset()
    with caplog.at_level(logging.DEBUG, logger="mesa.metrics"):
        with metrics.phase("persist"):
            pass
        metrics.observe("render", 12.5)
        metrics.observe("render", 3.25)
        assert not caplog.records  # logged in batches, not a line per timing
        metrics.flush_log()
        metrics.flush_log()  # nothing new: no line
    lines = [r.getMessage() for r in caplog.records if r.name == "mesa.metrics"]
    assert len(lines) == 2
    assert re.fullmatch(r"phase=persist ms=\d+\.\d+", lines[0])
    assert lines[1] == "phase=render ms=12.500,3.250"
    snap = metrics.snapshot()
    assert snap["persist"]["count"] == 1 and snap["render"]["max"] == 12.5


async def test_loop_lag_monitor_logs_one_line_per_interval(caplog):
    metrics.reset()
    with caplog.at_level(logging.DEBUG, logger="mesa.metrics"):
        task = metrics.start_loop_lag_monitor(0.001)
        while metrics.histograms[metrics.LOOP_LAG].count < 3:
            await asyncio.sleep(0.001)
        task.cancel()
    lines = [r.getMessage() for r in caplog.records if r.name == "mesa.metrics"]
    lags = [m for m in lines if m.startswith("loop_lag_ms=")]
    assert len(lags) >= 3 and all(re.fullmatch(r"loop_lag_ms=\d+\.\d+", m) for m in lags)


def test_a_histograms_quantiles_read_its_newest_values_and_its_reservoir_stays_bounded():
    histogram = metrics.Histogram(keep=10)
    for value in range(1, 101):
        histogram.add(float(value))
        if value % 5 == 0:  # read every few values, as the monitor reads each interval
            assert histogram.count == value
            assert len(histogram.samples) < 2 * histogram.keep
    assert histogram.count == 100 and histogram.max == 100.0
    assert histogram.total == sum(range(1, 101)) and histogram.mean == 50.5
    assert histogram.newest() == [float(v) for v in range(91, 101)]
    assert histogram.quantile(0.0) == 91.0  # the values before the newest ten are out
    assert histogram.quantile(0.99) == 100.0


def test_values_added_from_another_thread_while_read_are_each_counted_once():
    histogram = metrics.Histogram(keep=50)
    values = [float(v % 97) for v in range(20000)]

    def add_all() -> None:
        for value in values:
            histogram.add(value)

    writer = threading.Thread(target=add_all)
    writer.start()
    while writer.is_alive():  # read (and trimmed) meanwhile, as the monitor and an exporter do
        assert histogram.count >= 0
        histogram.unlogged()
    writer.join()
    assert histogram.count == len(values) and histogram.total == sum(values)
    assert histogram.max == 96.0 and len(histogram.samples) < 2 * histogram.keep
    assert histogram.newest() == values[-50:]


def test_a_phase_is_recorded_even_when_its_block_raises():
    metrics.reset()
    try:
        with metrics.phase("apply"):
            raise ValueError("refused")
    except ValueError:
        pass
    assert metrics.histograms["apply"].count == 1


def test_logged_timings_read_as_each_value_formatted_alone():
    values = [0.0, 1.0, 2.5, 0.0004, 0.0005, 12345.6789, 3.14159]
    assert metrics._joined(values) == ",".join(f"{v:.3f}" for v in values)
    assert metrics._joined([7.0]) == "7.000"


def test_only_timings_observed_at_debug_since_the_last_flush_are_logged(caplog):
    metrics.reset()
    with caplog.at_level(logging.INFO, logger="mesa.metrics"):
        metrics.observe("render", 1.0)
        metrics.flush_log()  # not at DEBUG: no line, and the value counts as logged
    with caplog.at_level(logging.DEBUG, logger="mesa.metrics"):
        metrics.histograms[metrics.LOOP_LAG].add(4.0)  # the monitor's own line, not a phase
        metrics.observe("render", 2.0)
        metrics.observe("persist", 0.5)
        metrics.flush_log()
    lines = [r.getMessage() for r in caplog.records if r.name == "mesa.metrics"]
    assert lines == ["phase=render ms=2.000", "phase=persist ms=0.500"]
    assert metrics.histograms["render"].count == 2  # every value still counted
