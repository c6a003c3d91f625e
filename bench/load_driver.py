"""The simulated players of `bench/load.py`: one table per channel of the fake Discord, humans
who think 3–10 s and click a legal action from their DM (or their "Ver mi mano" view), computer
seats the bot plays. Everything is seen through the fake's observers (no polling), so the driver
stays cheap at a thousand tables; what it measures goes to `LoadStats`."""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import time
import weakref
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from tests.fakediscord.model import Channel, Guild, Message
from tests.fakediscord.ratelimit import BOT, edit_kind
from tests.fakediscord.server import FakeDiscord, RequestRecord
from tests.fakediscord.users import FakeUser, InteractionHandle
from tests.message_text import Card, read_card

TABLE_MARK = re.compile(r"mesa #(\d+)")
FOOTER_VERSION = re.compile(r"Versi\S*\s+(\d+)\s*$")
ACTION_ID = re.compile(r"^t:(\d+):(\d+):(.+)$")
SELECT_ID = re.compile(r"^ts:(\d+):(\d+):")
DRAFT_ID = re.compile(r"^d:(\d+):(\d+):(.+)$")
CALLBACK_PATH = re.compile(r"^/interactions/(\d+)/")
HAND_BUTTON = "Ver mi mano"
PLACE_HERE = "Aquí, en la mesa"  # the answer to "where do you play" (bot/ui/place_question.py)
GAMES = ("amapatolli", "chupate2", "triad", "macarena", "maquiavelo")
# Computer seats added to each game's table (beside its two humans; Triple Triad: one human)
CPUS = {"amapatolli": 1, "chupate2": 2, "macarena": 1, "maquiavelo": 1}
EXEMPT_PREFIXES = ("/interactions/", "/webhooks/")  # outside Discord's 50/s global limit
# Draft buttons that only change what a view shows (Macarena's "Ver mi colección", op "v"): a
# view offering nothing else does not let its reader act.
VIEW_TOGGLES = {"macarena": {"v"}}
CHANNEL_PATH = re.compile(r"^/channels/(\d+)")


def is_exempt(template: str) -> bool:
    return template.startswith(EXEMPT_PREFIXES)


def peak_per_window(times: list[float], window: float = 1.0) -> int:
    """The most calls in any ``window`` seconds (times ascending)."""
    peak, start = 0, 0
    for end, t in enumerate(times):
        while t - times[start] >= window:
            start += 1
        peak = max(peak, end - start + 1)
    return peak


def table_of(msg: Message) -> int | None:
    return _table_on(read_card(msg))  # a classic embed or a Components V2 table (bot/ui/v2.py)


def version_of(msg: Message) -> int | None:
    return _version_on(read_card(msg))


def _table_on(card: Card | None) -> int | None:
    if card is None:
        return None
    m = TABLE_MARK.search(card.get("title") or "")
    return int(m.group(1)) if m else None


def _version_on(card: Card | None) -> int | None:
    if card is None:
        return None
    m = FOOTER_VERSION.search((card.get("footer") or {}).get("text") or "")
    return int(m.group(1)) if m else None


class Reader:
    """What the players read off a message (its card, table, version, choices), kept until the
    message's content changes (``Message.revision``): every change at a table wakes each
    player waiting there, who reads the same messages again, and reading a card walks its
    components (session 26: 1,700 component steps per move in the driver, most of them
    re-reading unchanged messages)."""

    def __init__(self) -> None:
        self._cards: weakref.WeakKeyDictionary[Message, tuple[int, Card | None]] = (
            weakref.WeakKeyDictionary()
        )
        self._choices: weakref.WeakKeyDictionary[Message, tuple[int, int, list[Choice]]] = (
            weakref.WeakKeyDictionary()
        )

    def card(self, msg: Message | None) -> Card | None:
        if msg is None:
            return None
        kept = self._cards.get(msg)
        if kept is not None and kept[0] == msg.revision:
            return kept[1]
        card = read_card(msg)
        self._cards[msg] = (msg.revision, card)
        return card

    def table(self, msg: Message) -> int | None:
        return _table_on(self.card(msg))

    def version(self, msg: Message) -> int | None:
        return _version_on(self.card(msg))

    def choices(self, msg: Message, table_id: int) -> list[Choice]:
        kept = self._choices.get(msg)
        if kept is not None and kept[0] == msg.revision and kept[1] == table_id:
            return kept[2]
        found = choices_on(msg, table_id)
        self._choices[msg] = (msg.revision, table_id, found)
        return found


@dataclass(frozen=True)
class Choice:
    """One thing a view lets its reader click: a move (`t:`/`ts:`) or a draft step (`d:`)."""

    custom_id: str
    value: str | None  # a select's option value
    version: int
    draft: bool

    @property
    def kind(self) -> str:
        """A draft step's kind: its op's leading letters (``c2`` -> ``c``, ``w.Wb`` -> ``w``)."""
        op = self.custom_id.split(":", 3)[-1]
        return re.match(r"[a-z]*", op).group(0)  # type: ignore[union-attr]


def choices_on(msg: Message, table_id: int) -> list[Choice]:
    found: list[Choice] = []
    for button in msg.buttons:
        cid = button.custom_id or ""
        if button.disabled:
            continue
        m = ACTION_ID.match(cid)
        if m and int(m[1]) == table_id:
            found.append(Choice(cid, None, int(m[2]), False))
            continue
        m = DRAFT_ID.match(cid)
        if m and int(m[1]) == table_id and m[3] != "x":  # "x": cancel the draft
            found.append(Choice(cid, None, int(m[2]), True))
    for select in msg.selects:
        m = SELECT_ID.match(select.custom_id)
        if m and int(m[1]) == table_id and not select.disabled:
            found.extend(Choice(select.custom_id, v, int(m[2]), False) for v in select.values)
    return found


def percentiles(values: list[float]) -> dict[str, float | int | None]:
    if not values:
        return {"n": 0, "p50": None, "p99": None, "max": None}
    ordered = sorted(values)

    def at(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)

    return {"n": len(ordered), "p50": at(0.50), "p99": at(0.99), "max": round(ordered[-1], 1)}


def action_kind(choice: Choice) -> str:
    """What a click does, for the slowest-samples listing: the action's (or draft op's) leading
    word (``t:7:12:d`` -> ``d``, ``ts:...`` -> the option's value's word)."""
    text = choice.value if choice.value is not None else choice.custom_id.split(":", 3)[-1]
    word = re.match(r"[A-Za-z_]*", text).group(0) or text[:8]  # type: ignore[union-attr]
    return f"draft {word}" if choice.draft else word


@dataclass(frozen=True)
class Sample:
    """One latency sample and what it was of (to find which game and move a tail comes from)."""

    ms: float
    game: str
    kind: str  # the action kind (``action_kind``)
    table_id: int
    clicked_version: int  # the version the click was made on
    shown_version: int  # the version that resolved it
    via: str  # "dm" or "hand" (an ephemeral "Ver mi mano" view)
    clicked_at: str  # wall clock (UTC, to find the click in the bot's log)
    interaction_id: int


@dataclass
class Pending:
    """A move clicked in the window, waiting for the public message to show a later version."""

    clicked_at: float
    version: int
    interaction_id: int
    kind: str
    via: str


@dataclass
class LoadStats:
    """What the window measured. Latencies in ms; only clicks made inside the window count."""

    ack_ms: list[float] = field(default_factory=list)
    # The ack split where the fake hands the click's INTERACTION_CREATE to the bot's socket:
    # before it the fake's own queueing (its loop runs the players too), after it the bot's
    # answer (and the fake reading it).
    ack_in_fake_ms: list[float] = field(default_factory=list)
    ack_from_event_ms: list[float] = field(default_factory=list)
    public_ms: list[float] = field(default_factory=list)
    dm_ms: list[float] = field(default_factory=list)
    own_ms: list[float] = field(default_factory=list)  # the mover's own view: DM or hand
    # click -> the first view of the table (any human's) that lets its reader act at a later
    # version: directly (the next version) or after computer seats moved (their delay included)
    next_ms: list[float] = field(default_factory=list)
    next_after_cpu_ms: list[float] = field(default_factory=list)
    next_samples: list[Sample] = field(default_factory=list)
    # bot-token calls in the window by what they served: "play" (a table being played, its
    # end included), "setup" (a table being opened: lobby, joins, start), "other" (no table)
    bot_calls: Counter[str] = field(default_factory=Counter)
    # "play" bot-token calls and human moves by how the table is played ("dm", "channel")
    bot_calls_by_mode: Counter[str] = field(default_factory=Counter)
    human_moves_by_mode: Counter[str] = field(default_factory=Counter)
    bot_routes_by_mode: Counter[str] = field(default_factory=Counter)  # "mode METHOD route"
    # The same by mode and game: a table's first game in the run, or a later one (its players
    # have played before: a channel player's first DM is behind them)
    bot_calls_by_mode_game: Counter[str] = field(default_factory=Counter)
    human_moves_by_mode_game: Counter[str] = field(default_factory=Counter)
    routes: Counter[str] = field(default_factory=Counter)
    # message edits of tables being played, by "game view via": view "public" (the table's
    # message), "dm" (a DM hand), "hand" (an ephemeral "Ver mi mano"); via BOT or INTERACTION
    edits_by_view: Counter[str] = field(default_factory=Counter)
    # bot-token calls on DMs (open a DM channel, post to one, edit or delete there) from the
    # start of the run (set-up included) to the end of the window, by how the table they
    # served is played: a new channel player's first-game DMs, whenever they happen
    dm_calls_run_by_mode: Counter[str] = field(default_factory=Counter)
    non_exempt_at: list[float] = field(default_factory=list)  # monotonic times, bot-token calls
    statuses: Counter[int] = field(default_factory=Counter)
    clicks: int = 0
    human_moves: int = 0
    version_steps: int = 0  # every move the public messages showed (humans and computers)
    tables_started: int = 0
    games_finished: int = 0
    click_errors: int = 0
    refused: int = 0  # move clicks answered with a private notice instead of a move
    private_steps: int = 0  # draft steps that changed only the clicker's view (not measured)
    public_samples: list[Sample] = field(default_factory=list)  # public_ms, with what they were
    dm_samples: list[Sample] = field(default_factory=list)


class Human:
    def __init__(self, world: World, user: FakeUser, table: LoadTable) -> None:
        self.world = world
        self.user = user
        self.table = table
        self.dm: Message | None = None  # the latest DM of this table
        self.hand_view: Message | None = None  # the latest "Ver mi mano" answer
        self.acted_version = -1
        self.dm_wait: Pending | None = None  # the move clicked, until the DM moves on
        self.last_click: int | None = None  # this move's previous click (a draft step)
        # Plays from the table's ephemeral "Ver mi mano" hand, not from a DM: a guest whose DMs
        # are closed, or everyone at a channel-play table (``World(channel_play=…)``).
        self.channel = table.channel_play or not user.dms_open

    @property
    def name(self) -> str:
        return self.user.name

    def view(self) -> Message | None:
        return self.hand_view if self.channel else self.dm

    def my_turn_in_public(self) -> bool:
        public = self.table.public
        card = self.world.read.card(public)
        if card is None:
            return False
        text = card.get("description") or ""
        return any(line.startswith("▶") and self.name in line for line in text.splitlines())

    async def play(self) -> None:
        world, table, rng = self.world, self.table, self.world.rng
        await world.go.wait()
        while world.running:
            if not self.channel:
                await table.until(self._has_fresh_choices)
            else:
                await table.until(
                    lambda: (table.version or -1) > self.acted_version and self.my_turn_in_public()
                )
            await asyncio.sleep(rng.uniform(*world.think))
            if not world.running:
                return
            if self.channel:
                view = await self._open_hand()
                if view is None:
                    self.acted_version = table.version or -1
                    continue
            kinds: set[str] = set()  # the draft steps taken: each step is of a new kind
            self.last_click = None
            for _step in range(4):  # a move, or draft steps (card, then colour or cell)
                view = self.view()
                if view is None:
                    break
                version = world.read.version(view)
                options = world.read.choices(view, table.table_id)
                if version is None or not options:
                    break
                moves = [c for c in options if not c.draft]
                drafts = [c for c in options if c.draft and c.kind not in kinds]
                if not moves and not drafts:
                    break
                choice = rng.choice(moves or drafts)
                before = view.snapshot()
                handle = await self._click(view, choice)
                if handle is None:
                    break
                self.acted_version = choice.version
                if not choice.draft:
                    break
                kinds.add(choice.kind)
                # a draft step changes this view; then the next step, quickly
                with contextlib.suppress(TimeoutError):
                    await table.until_changed(view, before, timeout=20)
                if handle.interaction.completed and world.read.version(view) == choice.version:
                    self._private_step(handle)
                await asyncio.sleep(rng.uniform(0.3, 1.0))

    def _private_step(self, handle: InteractionHandle) -> None:
        """A draft step answered with the same version: it changed only this player's view (a
        step of a move being built, or a view toggle such as Macarena's "Ver mi colección",
        which a player may press on another seat's turn), so no public message will show it.
        Measuring it as a move would count the wait for the NEXT seat's move (their 3-10 s
        think time) as the bot's latency: the tail issue 15 found. If the move is completed by
        a later step, that step is measured (from its own click)."""
        inter_id = handle.interaction.id
        if self.table.refused(inter_id):
            self.world.stats.private_steps += 1
        if self.last_click == inter_id:
            self.last_click = None
        if self.dm_wait is not None and self.dm_wait.interaction_id == inter_id:
            self.dm_wait = None

    def _has_fresh_choices(self) -> bool:
        dm = self.dm
        if dm is None:
            return False
        version = self.world.read.version(dm)
        return (
            version is not None
            and version > self.acted_version
            and bool(self.world.read.choices(dm, self.table.table_id))
        )

    async def _open_hand(self) -> Message | None:
        public = self.table.public
        if public is None:
            return None
        button = next((b for b in public.buttons if b.label == HAND_BUTTON), None)
        if button is None:
            return None
        try:
            handle = await self.user.click(public, custom_id=button.custom_id)
        except (LookupError, PermissionError, TypeError):
            self.world.stats.click_errors += 1
            return None
        self.world.track(handle, self.table)
        with contextlib.suppress(TimeoutError):
            self.hand_view = await self.world.reply_to(handle, timeout=30)
        return self.hand_view

    async def _click(self, view: Message, choice: Choice) -> InteractionHandle | None:
        world, table = self.world, self.table
        try:
            if choice.value is not None:
                handle = await self.user.select(view, [choice.value], custom_id=choice.custom_id)
            else:
                handle = await self.user.click(view, custom_id=choice.custom_id)
        except (LookupError, PermissionError, TypeError, ValueError):
            world.stats.click_errors += 1
            return None
        world.track(handle, table)
        now = time.monotonic()
        if world.measuring:
            world.stats.clicks += 1
            if (
                self.last_click is not None
            ):  # a draft step: the move's time runs from its last click
                table.refused(self.last_click)
            if (table.version or 0) <= choice.version:  # else the click is stale already
                via = "hand" if self.channel else "dm"
                pending = Pending(
                    now, choice.version, handle.interaction.id, action_kind(choice), via
                )
                table.pending.append(pending)
                self.last_click = handle.interaction.id
                self.dm_wait = pending  # the mover's own view: their DM, or their hand
                table.awaiting_next.append(pending)
        return handle

    def dm_changed(self, msg: Message) -> None:
        self.dm = msg
        self._own_view_changed(msg)

    def hand_changed(self, msg: Message) -> None:
        self.hand_view = msg
        self._own_view_changed(msg)

    def _own_view_changed(self, msg: Message) -> None:
        version = self.world.read.version(msg)
        wait = self.dm_wait
        if wait is not None and version is not None and version > wait.version:
            if self.world.measuring_or_draining:
                sample = self.table.sample(wait, version)
                self.world.stats.own_ms.append(sample.ms)
                if msg.channel.is_dm:
                    self.world.stats.dm_ms.append(sample.ms)
                    self.world.stats.dm_samples.append(sample)
            self.dm_wait = None

    def can_act_at(self) -> int | None:
        """The version at which this human's view lets them act (None: it does not)."""
        table = self.table
        if self.channel:  # they open their hand once the public table names them
            return table.version if self.my_turn_in_public() else None
        dm = self.dm
        version = self.world.read.version(dm) if dm is not None else None
        if dm is None or version is None:
            return None
        toggles = VIEW_TOGGLES.get(table.game, set())
        for choice in self.world.read.choices(dm, table.table_id):
            if not (choice.draft and choice.kind in toggles):
                return version
        return None


class LoadTable:
    """One channel and the table that lives in it (a new one when a game ends)."""

    def __init__(
        self,
        world: World,
        channel: Channel,
        game: str,
        humans: list[FakeUser],
        channel_play: bool = False,
    ):
        self.world = world
        self.channel_play = channel_play  # its players play from the table, not from DMs
        self.channel = channel
        self.game = game
        self.users = humans
        self.humans: list[Human] = []
        self.table_id = -1
        self.public: Message | None = None
        self.version: int | None = None
        self.pending: list[Pending] = []  # moves waiting for the public message
        self.awaiting_next: list[Pending] = []  # moves waiting for a view that lets someone act
        self.opening = False  # being set up (bot-token calls for it count as set-up)
        self.games = 0  # tables opened in this channel so far
        self._changed = asyncio.Event()

    def bump(self) -> None:
        event, self._changed = self._changed, asyncio.Event()
        event.set()

    async def until(self, predicate: Callable[[], Any], timeout: float | None = None) -> Any:
        # One deadline over the loop (asyncio.timeout), not a wait_for per wake-up: wait_for
        # wraps each wait in a task of its own, a dozen a move at load.
        try:
            async with asyncio.timeout(timeout):
                while True:
                    value = predicate()
                    if value:
                        return value
                    await self._changed.wait()
        except TimeoutError:
            raise TimeoutError(f"table in #{self.channel.name}: timed out") from None

    async def until_shown(self, fragment: str, message: Message | None = None) -> None:
        """Until `message` (default: the public message) shows `fragment`."""

        def shown() -> bool:
            return fragment in (message.text if message is not None else self._text())

        await self.until(shown, 30)

    async def until_changed(self, message: Message, before: dict[str, Any], timeout: float) -> None:
        await self.until(lambda: message.snapshot() != before, timeout)

    def finished(self) -> bool:
        public = self.public
        card = self.world.read.card(public)
        if card is None:
            return False
        return any(f.get("name") == "Resultado" for f in card.get("fields") or [])

    def public_changed(self, msg: Message) -> None:
        table_id = self.world.read.table(msg)
        if table_id is None or table_id < self.table_id:
            return
        if table_id > self.table_id:  # a new table opened in this channel
            self.adopt(table_id)
        self.public = msg
        version = self.world.read.version(msg)
        if version is None:
            return
        world = self.world
        if self.version is not None and version > self.version and world.measuring:
            world.stats.version_steps += version - self.version
        self.version = max(version, self.version or 0)
        self.opening = False
        still = []
        for pending in self.pending:
            if version > pending.version:
                if world.measuring_or_draining:
                    sample = self.sample(pending, version)
                    world.stats.public_ms.append(sample.ms)
                    world.stats.public_samples.append(sample)
                    world.stats.human_moves += 1
                    world.stats.human_moves_by_mode[self.mode] += 1
                    world.stats.human_moves_by_mode_game[self.mode_game] += 1
            else:
                still.append(pending)
        self.pending = still

    @property
    def mode(self) -> str:
        """How this table is played: "channel" (from the table's ephemeral hands) or "dm"."""
        return "channel" if self.channel_play else "dm"

    @property
    def mode_game(self) -> str:
        """The mode, and whether this is the channel's first game of the run or a later one."""
        return f"{self.mode} {'first game' if self.games <= 1 else 'later games'}"

    def sample(self, pending: Pending, shown_version: int) -> Sample:
        """The latency of `pending`, resolved now by `shown_version`."""
        elapsed = time.monotonic() - pending.clicked_at
        wall = time.time() - elapsed
        return Sample(
            round(elapsed * 1000, 1),
            self.game,
            pending.kind,
            self.table_id,
            pending.version,
            shown_version,
            pending.via,
            time.strftime("%H:%M:%S", time.gmtime(wall)) + f".{int(wall % 1 * 1000):03d}",
            pending.interaction_id,
        )

    def refused(self, inter_id: int) -> bool:
        """The bot answered a move with a private notice (stale, not legal any more), or the
        click was a private draft step: it moved nothing, so it waits for no public message.
        False when it was no pending move."""
        kept = [p for p in self.pending if p.interaction_id != inter_id]
        found, self.pending = len(kept) != len(self.pending), kept
        self.awaiting_next = [p for p in self.awaiting_next if p.interaction_id != inter_id]
        return found

    def next_view_changed(self) -> None:
        """A view of this table changed: the moves it now lets someone act after are resolved."""
        if not self.awaiting_next:
            return
        # (version, the view: "dm" or "table" when they act from the public table)
        ready = [
            (v, "table" if h.channel else "dm")
            for h in self.humans
            if (v := h.can_act_at()) is not None
        ]
        if not ready:
            return
        still, stats = [], self.world.stats
        for pending in self.awaiting_next:
            later = [r for r in ready if r[0] > pending.version]
            if not later:
                still.append(pending)
                continue
            if self.world.measuring_or_draining:
                shown, view = min(later)
                sample = self.sample(pending, shown)
                if shown == pending.version + 1:
                    stats.next_ms.append(sample.ms)
                    # via: the mover's view -> the next player's ("dm", "table")
                    stats.next_samples.append(replace(sample, via=f"{sample.via}->{view}"))
                else:
                    stats.next_after_cpu_ms.append(sample.ms)
        self.awaiting_next = still

    def adopt(self, table_id: int) -> None:
        """The table now in this channel, and its players (before any DM of it arrives)."""
        if table_id == self.table_id:
            return
        world = self.world
        world.by_table.pop(self.table_id, None)
        self.games += 1
        self.table_id, self.version, self.pending, self.public = table_id, None, [], None
        self.awaiting_next = []
        world.by_table[table_id] = self
        self.humans = [Human(world, u, self) for u in self.users]
        for human in self.humans:
            world.by_user[human.user.id] = human

    # --- opening a table ---------------------------------------------------------------------

    async def open(self) -> None:
        """Open this channel's game and sit everyone down; then play, again and again."""
        world = self.world
        fresh = True
        while world.running:
            try:
                if fresh or not world.rematch or self.game == "triad":
                    await self._open_once()
                else:
                    await self._rematch_once()
                fresh = False
            except (TimeoutError, LookupError, PermissionError, ValueError) as exc:
                world.setup_errors[type(exc).__name__] += 1
                await asyncio.sleep(5)
                if self.version is None or self.finished():  # else it started after all: play
                    await self._abandon()
                    fresh = True
                    continue
            if world.measuring:
                world.stats.tables_started += 1
            players = [asyncio.create_task(h.play()) for h in self.humans]
            try:
                await self.until(lambda: self.finished() or not world.running)
            finally:
                for task in players:
                    task.cancel()
                await asyncio.gather(*players, return_exceptions=True)
            if world.measuring:
                world.stats.games_finished += 1
            await asyncio.sleep(world.rng.uniform(1, 3))  # the host reads the result

    async def _open_once(self) -> None:
        world = self.world
        self.opening = True
        host, *guests = self.users
        options: dict[str, Any] = {"channel": self.channel}
        if self.game == "triad":
            options["level"] = "easy"
        async with world.setup_slots:
            reply = await world.reply_to(
                await host.slash(f"play {self.game}", **options), timeout=30
            )
            found = re.search(r"#(\d+)", reply.text or "")
            if found is None:
                raise LookupError(f"no table number in {reply.text!r}")
            self.adopt(int(found.group(1)))
            await self._answer_place(host)
            if self.game == "triad":
                await self._pick_five(host, reply)
            else:
                await self.until(lambda: self.public is not None, 30)
                for n, guest in enumerate(guests, start=2):
                    await self._click(guest, "Unirse")
                    await self.until_shown(f"{n}. {guest.name}")
                    await self._answer_place(guest)
                cpus = CPUS[self.game]
                for n in range(len(self.users) + 1, len(self.users) + 1 + cpus):
                    await self._click(host, "Añadir CPU")
                    await self.until_shown(f"{n}. ")
                await self._start(host)
            await self.until(lambda: self.version is not None, 60)

    async def _start(self, host: FakeUser, tries: int = 3) -> None:
        """Press "Empezar" until the game shows; a press the bot could not finish (it was
        restarted meanwhile) is simply pressed again, as a person would."""
        for _ in range(tries):
            await self._click(host, "Empezar")
            try:
                await self.until(lambda: self.version is not None, 20)
                return
            except TimeoutError:
                if self.public is None or not any(
                    b.label == "Empezar" and not b.disabled for b in self.public.buttons
                ):
                    raise

    async def _rematch_once(self) -> None:
        """ "Revancha" on the finished table; the host starts the new lobby (same seats)."""
        host = self.users[0]
        public, old = self.public, self.table_id
        button = None
        if public is not None:
            button = next(
                (b for b in public.buttons if b.label == "Revancha" and not b.disabled), None
            )
        if button is None:
            await self._open_once()
            return
        async with self.world.setup_slots:
            for attempt in range(3):  # a press a restart ate is pressed again, as a person would
                self.world.track(await host.click(public, custom_id=button.custom_id), self)
                try:
                    await self.until(lambda: self.table_id > old, 15)  # the lobby, shown
                    break
                except TimeoutError:
                    if attempt == 2 or not any(
                        b.label == "Revancha" and not b.disabled for b in public.buttons
                    ):
                        raise
            await self.until(
                lambda: (
                    self.public is not None
                    and any(b.label == "Empezar" for b in self.public.buttons)
                ),
                30,
            )
            await self._start(host)
            await self.until(lambda: self.version is not None, 60)

    async def _abandon(self) -> None:
        """A lobby that opened too late for its host: cancel it, so the channel is free again."""
        public = self.public
        if public is None or self.version is not None:
            return
        cancel = next((b for b in public.buttons if b.label == "Cancelar" and not b.disabled), None)
        if cancel is None:
            return
        with contextlib.suppress(LookupError, PermissionError, TypeError):
            self.world.track(await self.users[0].click(public, custom_id=cancel.custom_id), self)
        with contextlib.suppress(TimeoutError):
            await self.until(lambda: not any(b.label == "Cancelar" for b in public.buttons), 30)

    def _text(self) -> str:
        return self.public.text if self.public is not None else ""

    async def _answer_place(self, user: FakeUser) -> None:
        """A player of the table (a channel-play table, or DMs closed) asked where they play
        (a new player, bot/ui/place_question.py) answers "here"; a DM player lets it be (they
        play from their DMs, as before). A bot that does not ask: nothing to answer."""
        if not (self.channel_play or not user.dms_open) or not self.world.answer_place:
            return
        marker = f"#{self.table_id}"

        def question() -> Message | None:
            return next(
                (
                    m
                    for m in reversed(user.ephemerals())
                    if marker in (m.content or "") and any(b.label == PLACE_HERE for b in m.buttons)
                ),
                None,
            )

        deadline = time.monotonic() + 3.0
        while (asked := question()) is None:
            if time.monotonic() > deadline:
                return  # known already (or an older bot): nothing asked
            await asyncio.sleep(0.05)
        with contextlib.suppress(LookupError, PermissionError, TypeError):
            self.world.track(await user.click(asked, PLACE_HERE), self)

    async def _click(self, user: FakeUser, label: str) -> InteractionHandle:
        assert self.public is not None
        handle = await user.click(self.public, label)
        self.world.track(handle, self)
        return handle

    async def _pick_five(self, host: FakeUser, picker: Message) -> None:
        for n in range(1, 6):
            add = next(
                s for s in picker.selects if s.custom_id.startswith(f"tts:{self.table_id}:add")
            )
            handle = await host.select(picker, [add.values[0]], custom_id=add.custom_id)
            self.world.track(handle, self)
            await self.until_shown(f"({n}/5)", picker)
        handle = await host.click(picker, custom_id=f"tt:{self.table_id}:ok")
        self.world.track(handle, self)


class World:
    """The fake Discord's side of a load run: the tables, their players, the observers."""

    def __init__(
        self,
        fake: FakeDiscord,
        tables: int,
        *,
        seed: int = 1,
        think: tuple[float, float] = (3.0, 10.0),
        closed_dms: float = 0.1,
        setup_concurrency: int = 16,
        guilds: list[Guild] | None = None,
        rematch: bool = False,
        channel_play: float = 0.0,
        answer_place: bool = True,
    ) -> None:
        """``guilds``: the tables' channels go round-robin into these (the default guild
        only when None); every player joins their table's guild. ``rematch``: after a game
        (but Triple Triad's) the host presses "Revancha" and starts that lobby, instead of
        opening a new table with /play. ``channel_play``: the share of tables whose players
        all play from the table's ephemeral hands ("Ver mi mano") instead of their DMs; when
        ``answer_place``, those players answer "here" when the bot asks a new player where they
        play (else they leave it unanswered, as a bot that does not ask would have them)."""
        self.fake = fake
        self.answer_place = answer_place
        self.rematch = rematch
        self.rng = random.Random(seed)
        self.think = think
        self.stats = LoadStats()
        self.read = Reader()
        self.running = True
        self.measuring = False
        # Humans start thinking once this is set (bench/load.py: when every table is open, so
        # setting up 1,000 tables does not compete with the ones already playing).
        self.go = asyncio.Event()
        self.go.set()
        self.draining = False
        self.window_over = False  # the measured window ended (bench/load.py)
        self.setup_slots = asyncio.Semaphore(setup_concurrency)
        self.setup_errors: Counter[str] = Counter()
        self.tables: list[LoadTable] = []
        self.by_channel: dict[int, LoadTable] = {}
        self.by_table: dict[int, LoadTable] = {}
        self.by_user: dict[int, Human] = {}
        self._handles: dict[int, LoadTable] = {}  # interaction id -> its table
        self._replies: dict[int, asyncio.Future[Message]] = {}
        for index in range(tables):
            game = GAMES[index % len(GAMES)]
            guild = guilds[index % len(guilds)] if guilds else fake.guild
            channel = fake.add_channel(f"mesa-{index}", guild=guild)
            humans = 1 if game == "triad" else 2
            users = []
            for seat in range(humans):
                closed = seat > 0 and self.rng.random() < closed_dms
                users.append(fake.user(f"p{index}s{seat}", dms_open=not closed))
                if guild is not fake.guild:
                    users[-1].join(guild)
            at_table = self.rng.random() < channel_play if channel_play > 0 else False
            table = LoadTable(self, channel, game, users, channel_play=at_table)
            self.tables.append(table)
            self.by_channel[channel.id] = table
        fake.message_observers.append(self._message)
        fake.request_observers.append(self._request)

    @property
    def measuring_or_draining(self) -> bool:
        return self.measuring or self.draining

    def track(self, handle: InteractionHandle, table: LoadTable) -> None:
        self._handles[handle.interaction.id] = table

    async def reply_to(self, handle: InteractionHandle, timeout: float) -> Message:
        """The message answering an interaction (a deferred one once it has its content)."""
        inter = handle.interaction
        result = inter.result if inter.completed else None
        if isinstance(result, Message) and not result.loading:
            return result
        future: asyncio.Future[Message] = asyncio.get_running_loop().create_future()
        self._replies[inter.id] = future
        try:
            async with asyncio.timeout(timeout):
                return await future
        finally:
            self._replies.pop(inter.id, None)

    # --- observers (called by the fake, synchronously) ---------------------------------------

    def _message(self, msg: Message, event: str) -> None:
        inter = msg.interaction
        if inter is not None and not msg.loading:
            future = self._replies.get(inter.id)
            if future is not None and not future.done():
                future.set_result(msg)
        channel = msg.channel
        if channel.is_dm:
            table_id = self.read.table(msg)
            recipient = channel.recipient
            human = self.by_user.get(recipient.id) if recipient is not None else None
            table = self.by_table.get(table_id) if table_id is not None else None
            if human is None or table is None or human.table is not table:
                return
            if human.dm is None or msg.id >= human.dm.id:
                human.dm_changed(msg)
                table.next_view_changed()
            table.bump()
            return
        table = self.by_channel.get(channel.id)
        if table is None:
            return
        if msg.visible_to is None:
            table.public_changed(msg)
            table.next_view_changed()
        elif inter is not None:
            human = self.by_user.get(inter.user.id)
            if human is not None and human.table is table and human.hand_view is not None:
                if msg.id == human.hand_view.id:
                    human.hand_changed(msg)
        table.bump()

    def _request(self, record: RequestRecord) -> None:
        m = CALLBACK_PATH.match(record.path)
        if m is not None:
            inter = self.fake.interactions.all.get(int(m.group(1)))
            if inter is not None:
                if inter.answered_after is not None and self.measuring:
                    self.stats.ack_ms.append(inter.answered_after * 1000)
                    if inter.dispatched_real is not None:
                        queued = inter.dispatched_real - inter.created_real
                        self.stats.ack_in_fake_ms.append(queued * 1000)
                        self.stats.ack_from_event_ms.append((inter.answered_after - queued) * 1000)
                table = self._handles.pop(inter.id, None)
                if table is not None:
                    if inter.callback_type == 4 and inter.original is not None:
                        if inter.original.ephemeral and table.refused(inter.id):
                            self.stats.refused += 1
                    table.bump()
        if record.kind == BOT and not self.window_over:
            self._count_dm_call(record)
        if self.measuring:
            route = record.template or record.path
            self.stats.routes[f"{record.method} {route}"] += 1
            if not is_exempt(route):
                self.stats.non_exempt_at.append(time.monotonic())
            self._count_edit(record)
            if record.kind == BOT:
                table = self._table_of(record)
                purpose = "other" if table is None else "setup" if table.opening else "play"
                self.stats.bot_calls[purpose] += 1
                if purpose == "play" and table is not None:
                    self.stats.bot_calls_by_mode[table.mode] += 1
                    self.stats.bot_calls_by_mode_game[table.mode_game] += 1
                    where = "user"
                    if (found := CHANNEL_PATH.match(record.path)) is not None:
                        channel = self.fake.channels.get(int(found.group(1)))
                        where = "dm" if channel is not None and channel.is_dm else "table"
                    self.stats.bot_routes_by_mode[
                        f"{table.mode} {record.method} {route} ({where})"
                    ] += 1
            if record.status is not None:
                self.stats.statuses[record.status] += 1

    def _count_edit(self, record: RequestRecord) -> None:
        """A message edit of a table being played: by its game, the view it edits and whether
        an interaction token or the bot token carried it (issue 25: where the bot token is
        still used)."""
        via = edit_kind(record.method, record.template, record.body)
        if via is None or (record.status or 0) >= 300:
            return
        message = self._edited(record)
        if message is None:
            return
        channel = message.channel
        if channel.is_dm:
            recipient = channel.recipient
            human = self.by_user.get(recipient.id) if recipient is not None else None
            table, view = (human.table if human is not None else None), "dm"
        else:
            table = self.by_channel.get(channel.id)
            view = "public" if message.visible_to is None else "hand"
        if table is not None and not table.opening:
            self.stats.edits_by_view[f"{table.game} {view} {via}"] += 1

    def _edited(self, record: RequestRecord) -> Message | None:
        """The message an edit request changed (already changed: the fake answered it)."""
        parts = record.path.split("/")
        interactions = self.fake.interactions
        if record.path.startswith("/interactions/"):  # an UPDATE_MESSAGE callback
            inter = interactions.all.get(int(parts[2]))
            return inter.message if inter is not None else None
        if record.path.startswith("/channels/"):
            return self.fake.messages.get(int(parts[4]))
        if parts[-1] == "@original":  # /webhooks/{app}/{token}/messages/@original
            inter = interactions.by_token.get(parts[3])
            return None if inter is None else inter.original or inter.message
        return self.fake.messages.get(int(parts[-1]))

    def _count_dm_call(self, record: RequestRecord) -> None:
        on_dm = record.path == "/users/@me/channels"
        if (found := CHANNEL_PATH.match(record.path)) is not None:
            channel = self.fake.channels.get(int(found.group(1)))
            on_dm = channel is not None and channel.is_dm
        if on_dm and (table := self._table_of(record)) is not None:
            self.stats.dm_calls_run_by_mode[table.mode] += 1

    def _table_of(self, record: RequestRecord) -> LoadTable | None:
        """The table a bot-token call served (by the channel or DM it touches), if any."""
        table: LoadTable | None = None
        m = CHANNEL_PATH.match(record.path)
        if m is not None:
            channel_id = int(m.group(1))
            table = self.by_channel.get(channel_id)
            if table is None:
                channel = self.fake.channels.get(channel_id)
                recipient = channel.recipient if channel is not None else None
                human = self.by_user.get(recipient.id) if recipient is not None else None
                table = human.table if human is not None else None
        elif record.path == "/users/@me/channels" and isinstance(record.body, dict):
            human = self.by_user.get(int(record.body.get("recipient_id") or 0))
            table = human.table if human is not None else None
        return table

    # --- running -----------------------------------------------------------------------------

    async def open_all(self) -> list[asyncio.Task[None]]:
        return [asyncio.create_task(t.open(), name=f"table-{i}") for i, t in enumerate(self.tables)]

    def started(self) -> int:
        return sum(1 for t in self.tables if t.version is not None)

    def unresolved(self) -> int:
        return sum(len(t.pending) for t in self.tables)

    def describe_unresolved(self) -> list[str]:
        """Moves clicked in the window that no public message showed (to see why)."""
        lines = []
        for table in self.tables:
            for pending in table.pending:
                inter = self.fake.interactions.all[pending.interaction_id]
                lines.append(
                    f"{table.game} #{table.table_id} clicked {inter.data.get('custom_id')} at "
                    f"v{pending.version}, public at v{table.version}, callback {inter.callback_type}"
                )
        return lines
