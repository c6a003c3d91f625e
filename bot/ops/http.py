"""``GET /health`` and ``GET /metrics`` (Prometheus text format) on an aiohttp server, for a
load balancer, Docker's healthcheck and a Prometheus scraper. Started only when METRICS_PORT is
set; it binds METRICS_HOST (127.0.0.1 unless an operator opens it, as docker-compose does)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest

from bot.ops.errors import OpsPortError
from bot.ops.prometheus import Sources, registry_for


@dataclass(frozen=True)
class Health:
    """What ``/health`` reports: 200 once ready with every shard connected, 503 before."""

    ready: Callable[[], bool]
    shards: Callable[[], dict[int, bool]]  # shard id -> connected


class OpsServer:
    def __init__(self, health: Health, sources: Sources, host: str, port: int) -> None:
        self.health = health
        self.registry: CollectorRegistry = registry_for(sources)
        self.host = host
        self.port = port
        self._runner: web.AppRunner | None = None

    async def start(self) -> int:
        """Listen; returns the port (the one chosen when ``port`` is 0)."""
        app = web.Application()
        app.router.add_get("/health", self._health)
        app.router.add_get("/metrics", self._metrics)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        try:
            await site.start()
        except OSError as exc:
            await self._runner.cleanup()
            self._runner = None
            raise OpsPortError(f"{self.host}:{self.port}: {exc.strerror or exc}") from exc
        self.port = self._runner.addresses[0][1]
        return self.port

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _health(self, request: web.Request) -> web.Response:
        shards = self.health.shards()
        ready = self.health.ready() and bool(shards) and all(shards.values())
        body = {
            "status": "ok" if ready else "starting",
            "shards": {str(k): "connected" if v else "down" for k, v in sorted(shards.items())},
        }
        return web.Response(
            status=200 if ready else 503, text=json.dumps(body), content_type="application/json"
        )

    async def _metrics(self, request: web.Request) -> web.Response:
        body = generate_latest(self.registry)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})
