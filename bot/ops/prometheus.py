"""The bot's figures as Prometheus metrics, read at scrape time (a custom collector on a
registry of its own, no global state): ``bot.metrics`` counters and phase timings, open
tables, event-loop lag, gateway latency per shard, and log records of WARNING and above."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from prometheus_client import CollectorRegistry
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    Metric,
    SummaryMetricFamily,
)
from prometheus_client.registry import Collector

from bot import metrics

QUANTILES = (0.5, 0.9, 0.99)


@dataclass(frozen=True)
class Sources:
    """Where the figures that are not in ``bot.metrics`` come from (read on every scrape)."""

    open_tables: Callable[[], int]
    gateway_latencies: Callable[[], list[tuple[int, float]]]  # (shard id, seconds)
    log_counts: Callable[[], Mapping[str, int]]  # level name -> records


class MesaCollector(Collector):
    def __init__(self, sources: Sources) -> None:
        self.sources = sources

    def collect(self) -> Iterable[Metric]:
        counters = CounterMetricFamily(
            "mesa_events", "Events counted by the bot (moves, stale moves, ...)", labels=["event"]
        )
        for name, value in sorted(metrics.counters.items()):
            counters.add_metric([name], value)
        yield counters
        phases = SummaryMetricFamily(
            "mesa_phase_milliseconds",
            "Time of each timed phase of a move (lock_wait, apply, persist, notify, db_write, "
            "cpu_search, render, rest); quantiles over the newest samples",
            labels=["phase"],
        )
        lag = GaugeMetricFamily(
            "mesa_event_loop_lag_milliseconds",
            "How late the event loop woke a sleeper, over the newest samples",
            labels=["stat"],
        )
        quantiles = GaugeMetricFamily(
            "mesa_phase_quantile_milliseconds",
            "Quantiles of each phase over the newest samples",
            labels=["phase", "quantile"],
        )
        for name, histogram in sorted(list(metrics.histograms.items())):
            if name == metrics.LOOP_LAG:
                lag.add_metric(["p50"], histogram.quantile(0.5))
                lag.add_metric(["p99"], histogram.quantile(0.99))
                lag.add_metric(["max"], histogram.max)
                continue
            phases.add_metric([name], histogram.count, histogram.total)
            for q in QUANTILES:
                quantiles.add_metric([name, str(q)], histogram.quantile(q))
        yield phases
        yield quantiles
        yield lag
        yield GaugeMetricFamily(
            "mesa_open_tables", "Tables in a lobby or playing", value=self.sources.open_tables()
        )
        gateway = GaugeMetricFamily(
            "mesa_gateway_latency_seconds",
            "Heartbeat latency of each gateway connection",
            labels=["shard"],
        )
        for shard, seconds in self.sources.gateway_latencies():
            if seconds == seconds and seconds != float("inf"):  # nan/inf before the first beat
                gateway.add_metric([str(shard)], seconds)
        yield gateway
        logs = CounterMetricFamily(
            "mesa_log_records", "Records logged at WARNING and above", labels=["level"]
        )
        for level, value in sorted(self.sources.log_counts().items()):
            logs.add_metric([level], value)
        yield logs


def registry_for(sources: Sources) -> CollectorRegistry:
    registry = CollectorRegistry(auto_describe=False)
    registry.register(MesaCollector(sources))
    return registry
