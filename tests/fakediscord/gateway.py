"""The gateway side of the fake: sessions, sequence numbers, replay on RESUME, shards.

Each IDENTIFY names its shard (``shard: [id, count]``, ``[0, 1]`` when absent); a session per
shard id. A guild's events go to the session of shard ``(guild_id >> 22) % count``, DMs (and DM
interactions) to shard 0 only, as Discord does.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from .errors import json_bytes

if TYPE_CHECKING:
    from .server import FakeDiscord

log = logging.getLogger(__name__)

OP_DISPATCH, OP_HEARTBEAT, OP_IDENTIFY, OP_PRESENCE, OP_VOICE = 0, 1, 2, 3, 4
OP_RESUME, OP_RECONNECT, OP_REQUEST_MEMBERS, OP_INVALID_SESSION, OP_HELLO, OP_HEARTBEAT_ACK = (
    6,
    7,
    8,
    9,
    10,
    11,
)
HEARTBEAT_INTERVAL_MS = 41250
# Discord answers a heartbeat after a network round trip, not at once: discord.py's keep-alive
# thread stores a heartbeat's send time only once the loop has sent it, so an ACK read before
# that is measured from the previous heartbeat ("Can't keep up ... 41.3 s behind") although the
# loop is on time. 40 ms still lost that race now and then on a loaded machine (the thread waits
# for the GIL and a core); 100 ms did not. Nothing waits for the ACK: it slows no test.
HEARTBEAT_ACK_DELAY_SECONDS = 0.1
GATEWAY_SENDS_PER_MINUTE = 120

INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12


@dataclass(eq=False)
class Connection:
    ws: web.WebSocketResponse
    path: str
    # A frame, or a frame and what to call as it is written (the bench's "when the event left
    # the fake": its own queueing is not the bot's), or None to end the connection.
    outbox: asyncio.Queue[str | tuple[str, Callable[[], None]] | None] = field(
        default_factory=asyncio.Queue
    )
    received: list[float] = field(default_factory=list)  # monotonic times of the client's frames


@dataclass(eq=False)
class Session:
    """One IDENTIFYed bot session; it outlives its connections so a RESUME can replay."""

    id: str
    intents: int
    shard_id: int = 0
    shard_count: int = 1
    seq: int = 0
    events: list[tuple[int, str]] = field(default_factory=list)  # (seq, frame)
    connection: Connection | None = None
    resumes: int = 0
    resumable: bool = True  # a clean close (1000/1001) by the client ends the session
    replay_from: int = 0  # the oldest frame kept for a RESUME once older ones are forgotten

    def receives(self, guild_id: int | None) -> bool:
        """Whether this shard gets a guild's events (None: a DM, shard 0's alone)."""
        if guild_id is None:
            return self.shard_id == 0
        return shard_of(guild_id, self.shard_count) == self.shard_id


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord routes a guild to."""
    return (guild_id >> 22) % shard_count


class Gateway:
    def __init__(self, fake: FakeDiscord):
        self.fake = fake
        self.sessions: dict[int, Session] = {}  # by shard id
        self.connections: list[Connection] = []
        self.identifies = 0
        self.resume_paths: list[str] = []
        self.resume_gate: asyncio.Event | None = (
            None  # while unset, RESUMEs wait (events keep queueing)
        )
        self.pending_resumes = 0
        self.refuse_until = 0.0  # time.monotonic(): an outage refuses connections until then
        self.outages = 0
        self.refused = 0  # connections refused during outages
        # Frames queued ahead of each heartbeat's ACK (its connection's outbox when the heartbeat
        # came): a bot that reads its gateway slowly sees its ACK, and every interaction, late.
        self.backlog_at_heartbeat: list[int] = []
        self.heartbeat_ack_delay = HEARTBEAT_ACK_DELAY_SECONDS

    # --- dispatching -------------------------------------------------------------------------

    @property
    def session(self) -> Session | None:
        """Shard 0's session (the only one of an unsharded bot)."""
        return self.sessions.get(0)

    def dispatch(
        self,
        event: str,
        data: dict[str, Any],
        *,
        intent: int | None = None,
        guild_id: int | None = None,
        on_written: Callable[[], None] | None = None,
    ) -> None:
        """Send a DISPATCH to the session of the shard that owns ``guild_id`` (None: a DM,
        shard 0), queued for replay if that session is disconnected; ``on_written`` is called
        when the frame is handed to the connection's socket (not on a replay)."""
        for session in list(self.sessions.values()):
            if session.receives(guild_id):
                self._send(session, event, data, intent, on_written)

    def _send(
        self,
        session: Session,
        event: str,
        data: dict[str, Any],
        intent: int | None,
        on_written: Callable[[], None] | None = None,
    ) -> None:
        if intent is not None and not session.intents & intent:
            return
        session.seq += 1
        frame = json_bytes({"op": OP_DISPATCH, "t": event, "s": session.seq, "d": data}).decode()
        session.events.append((session.seq, frame))
        if session.connection is not None:
            session.connection.outbox.put_nowait(
                frame if on_written is None else (frame, on_written)
            )

    @property
    def connected(self) -> bool:
        """Shard 0 is connected (an unsharded bot's one connection)."""
        return self.shard_connected(0)

    def shard_connected(self, shard_id: int) -> bool:
        session = self.sessions.get(shard_id)
        return session is not None and session.connection is not None

    async def close(self, code: int = 4000, *, shard_id: int = 0) -> None:
        """Close one shard's current connection with `code` (the session stays resumable)."""
        session = self.sessions.get(shard_id)
        if session is None or session.connection is None:
            raise RuntimeError("the bot is not connected to the gateway")
        connection = session.connection
        session.connection = None
        connection.outbox.put_nowait(None)
        await connection.ws.close(code=code, message=b"fake close")

    def down(self) -> bool:
        """Within an outage (``outage``): connections are refused."""
        return time.monotonic() < self.refuse_until

    async def outage(self, seconds: float, *, resumable: bool = True) -> None:
        self.refuse_until = time.monotonic() + seconds
        self.outages += 1
        for session in self.sessions.values():
            if not resumable:
                session.resumable = False
        for connection in list(self.connections):
            for session in self.sessions.values():
                if session.connection is connection:
                    session.connection = None
            connection.outbox.put_nowait(None)
            await connection.ws.close(code=4000, message=b"fake outage")
        self.fake._bump()

    async def shutdown(self) -> None:
        for connection in list(self.connections):
            connection.outbox.put_nowait(None)
            await connection.ws.close(code=1001, message=b"fake shutting down")

    # --- the websocket handler -----------------------------------------------------------------

    async def handle(self, request: web.BaseRequest) -> web.StreamResponse:
        if self.down():
            self.refused += 1
            return web.Response(status=503, text="gateway unavailable (fake outage)")
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        connection = Connection(ws=ws, path=request.path)
        self.connections.append(connection)
        writer = asyncio.create_task(self._writer(connection))
        try:
            connection.outbox.put_nowait(
                json.dumps({"op": OP_HELLO, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}})
            )
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                self._count_frame(connection)
                frame = json.loads(msg.data)
                await self._on_frame(connection, frame)
        finally:
            self.connections.remove(connection)
            for session in self.sessions.values():
                if session.connection is connection:
                    session.connection = None
                    if ws.close_code in (1000, 1001):
                        session.resumable = False
            connection.outbox.put_nowait(None)
            await writer
            self.fake._bump()
        return ws

    def _count_frame(self, connection: Connection) -> None:
        """Discord allows 120 gateway sends per 60 s per connection."""
        now = time.monotonic()
        connection.received = [t for t in connection.received if now - t < 60.0]
        connection.received.append(now)
        if len(connection.received) == GATEWAY_SENDS_PER_MINUTE + 1:
            self.fake.violate(
                "gateway_rate_limit",
                f"the bot sent over {GATEWAY_SENDS_PER_MINUTE} gateway frames in 60 s",
            )

    async def _writer(self, connection: Connection) -> None:
        while True:
            item = await connection.outbox.get()
            if item is None or connection.ws.closed:
                return
            frame, written = (item, None) if isinstance(item, str) else item
            if written is not None:
                written()
            try:
                await connection.ws.send_str(frame)
            except ConnectionError:
                return

    async def _on_frame(self, connection: Connection, frame: dict[str, Any]) -> None:
        op = frame.get("op")
        data = frame.get("d")
        if op == OP_HEARTBEAT:
            self.backlog_at_heartbeat.append(connection.outbox.qsize())
            asyncio.get_running_loop().call_later(
                self.heartbeat_ack_delay,
                connection.outbox.put_nowait,
                json.dumps({"op": OP_HEARTBEAT_ACK}),
            )
        elif op == OP_IDENTIFY:
            await self._identify(connection, data or {})
        elif op == OP_RESUME:
            await self._resume(connection, data or {})
        elif op in (OP_PRESENCE, OP_VOICE, OP_REQUEST_MEMBERS):
            pass
        else:
            log.warning("fake gateway: unknown op %r", op)

    async def _identify(self, connection: Connection, data: dict[str, Any]) -> None:
        fake = self.fake
        if data.get("token") != fake.token:
            await connection.ws.close(code=4004, message=b"Authentication failed.")
            return
        shard = data.get("shard") or [0, 1]
        if not _valid_shard(shard):
            await connection.ws.close(code=4010, message=b"Invalid shard.")
            return
        shard_id, shard_count = int(shard[0]), int(shard[1])
        if shard_count < fake.shard_count:
            await connection.ws.close(code=4011, message=b"Sharding required.")
            return
        self.identifies += 1
        previous = self.sessions.get(shard_id)
        if previous is not None and previous.connection is not None:
            previous.connection.outbox.put_nowait(None)
        session = Session(
            id=uuid.uuid4().hex,
            intents=int(data.get("intents", 0)),
            shard_id=shard_id,
            shard_count=shard_count,
        )
        session.connection = connection
        self.sessions[shard_id] = session
        guilds = [g for g in fake.guilds if session.receives(g.id)]
        self._send(
            session,
            "READY",
            {
                "v": 10,
                "user": {
                    **fake.bot_user.payload(),
                    "verified": True,
                    "mfa_enabled": False,
                    "bot": True,
                },
                "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
                "session_id": session.id,
                "resume_gateway_url": fake.resume_gateway_url,
                "application": {"id": str(fake.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "guild_join_requests": [],
                "user_settings": {},
                "shard": [shard_id, shard_count],
                "_trace": ["fakediscord"],
            },
            None,
        )
        for guild in guilds:
            self._send(session, "GUILD_CREATE", guild.payload(), None)
        fake._bump()

    async def _resume(self, connection: Connection, data: dict[str, Any]) -> None:
        if self.resume_gate is not None and not self.resume_gate.is_set():
            self.pending_resumes += 1
            self.fake._bump()
            try:
                await self.resume_gate.wait()
            finally:
                self.pending_resumes -= 1
        session = next((s for s in self.sessions.values() if s.id == data.get("session_id")), None)
        if (
            session is None
            or not session.resumable
            or data.get("token") != self.fake.token
            or data.get("session_id") != session.id
        ):
            connection.outbox.put_nowait(json.dumps({"op": OP_INVALID_SESSION, "d": False}))
            return
        if session.connection is not None and session.connection is not connection:
            session.connection.outbox.put_nowait(None)
        session.connection = connection
        seq = data.get("seq") or 0
        if session.replay_from and seq < session.replay_from - 1:  # frames it missed are gone
            connection.outbox.put_nowait(json.dumps({"op": OP_INVALID_SESSION, "d": False}))
            return
        for event_seq, frame in session.events:
            if event_seq > seq:
                connection.outbox.put_nowait(frame)
        session.resumes += 1
        self.resume_paths.append(connection.path)
        session.seq += 1
        frame = json.dumps(
            {"op": OP_DISPATCH, "t": "RESUMED", "s": session.seq, "d": {"_trace": ["fakediscord"]}}
        )
        session.events.append((session.seq, frame))
        connection.outbox.put_nowait(frame)
        self.fake._bump()


def _valid_shard(shard: object) -> bool:
    """``[id, count]`` with 0 <= id < count."""
    if not isinstance(shard, list | tuple) or len(shard) != 2:
        return False
    shard_id, count = shard
    return isinstance(shard_id, int) and isinstance(count, int) and 0 <= shard_id < count
