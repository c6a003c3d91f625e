"""What every game's end-to-end driver needs: finding a table's public message and its version
on the fake Discord, and reading the draft buttons of a private view."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar

from games.core import Game
from tests.fakediscord.model import CB_DEFER_UPDATE, Message
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.users import FakeUser, InteractionHandle
from tests.message_text import clickable, read_card

VERSION = re.compile(r"(\d+)\s*$")
DRAFT_ID = re.compile(r"^d:(\d+):(\d+):(.+)$")
HAND_BUTTON = "Ver mi mano"
# How long the fake may stay quiet (no request, message or interaction) before a driver's wait
# gives up: a hang bound, not a speed (``FakeDiscord.wait_until``). On a loaded machine a game's
# start (render workers starting, four players' first views) went 15 s without a request.
QUIET_FOR = 60.0
FIRST_VIEWS = "the first private views by DM"


ACTION_ID = re.compile(r"^t:(\d+):(\d+):(.+)$")
SELECT_ID = re.compile(r"^ts:(\d+):(\d+):")


@dataclass(frozen=True)
class Offer:
    """One move a message lets its reader make."""

    action: str
    version: int
    message: Message
    custom_id: str
    select: bool


def offers_on(message: Message, table_id: int) -> dict[str, Offer]:
    found: dict[str, Offer] = {}
    for button in message.buttons:
        m = ACTION_ID.match(button.custom_id or "")
        if m and int(m[1]) == table_id and not button.disabled:
            found[m[3]] = Offer(m[3], int(m[2]), message, button.custom_id or "", False)
    for select in message.selects:
        m = SELECT_ID.match(select.custom_id)
        if m and int(m[1]) == table_id and not select.disabled:
            for value in select.values:
                found[value] = Offer(value, int(m[2]), message, select.custom_id, True)
    return found


async def take(user: FakeUser, offer: Offer) -> InteractionHandle:
    if offer.select:
        return await user.select(offer.message, [offer.action], custom_id=offer.custom_id)
    return await user.click(offer.message, custom_id=offer.custom_id)


def draft_buttons(message: Message, table_id: int) -> dict[str, tuple[int, str]]:
    """op -> (version, custom_id) of the enabled draft buttons of a private view."""
    found = {}
    for button in message.buttons:
        m = DRAFT_ID.match(button.custom_id or "")
        if m and int(m[1]) == table_id and not button.disabled:
            found[m[3]] = (int(m[2]), button.custom_id or "")
    return found


class OracleBase:
    """The reference engine, run beside the bot on the same seed and moves; subclasses set
    ``game`` and hold ``state``."""

    game: ClassVar[Game]
    state: Any

    @property
    def finished(self) -> bool:
        return self.game.outcome(self.state) is not None

    @property
    def version(self) -> int:
        return self.state.version

    def legal(self, seat: str) -> set[str]:
        return {a.encode() for a in self.game.legal_actions(self.state, seat)}


class TableOnFake:
    """A table as the channel shows it: its public message (``mesa #N`` in the title) and the
    version in that message's footer."""

    fake: FakeDiscord
    table_id: int
    channel = None

    def public(self) -> Message:
        marker = f"mesa #{self.table_id}"
        for msg in reversed(self.fake.channel_messages(self.channel)):
            if read_card(msg) and marker in (read_card(msg).get("title") or ""):
                return msg
        raise LookupError(f"no public message for table {self.table_id}")

    def version(self) -> int | None:
        try:
            footer = (read_card(self.public()).get("footer") or {}).get("text") or ""
        except LookupError:
            return None
        m = VERSION.search(footer)
        return int(m.group(1)) if m and "Versi" in footer else None

    async def wait_version(self, version: int, timeout: float = QUIET_FOR) -> None:
        await self.fake.wait_until(
            lambda: self.version() == version, timeout=timeout, what=f"table version {version}"
        )

    def latest_dm(self, user: FakeUser, version: int) -> Message | None:
        """The DM holding ``user``'s private view at ``version`` (its buttons carry it)."""
        for msg in reversed(user.dms()):
            offers = offers_on(msg, self.table_id)
            drafts = draft_buttons(msg, self.table_id)
            if offers or drafts:
                versions = {o.version for o in offers.values()} | {v for v, _ in drafts.values()}
                return msg if versions == {version} else None
        return None

    async def private_view(self, user: FakeUser, version: int) -> Message:
        """The user's view at ``version``: their DM, or "Ver mi mano" when DMs are closed."""
        if user.dms_open:
            return await self.fake.wait_until(
                lambda: self.latest_dm(user, version),
                timeout=QUIET_FOR,
                what=f"{user.name}'s DM at version {version}",
            )
        shown = self._hand_at(user, version)  # their view shows it already: no press
        if shown is None and any(clickable(m) for m in self.hand_views(user)):
            # their live hand follows the table (through its token): watch it a moment
            try:
                shown = await self.fake.wait_until(
                    lambda: self._hand_at(user, version), timeout=3.0, what="the live hand"
                )
            except TimeoutError:
                shown = None  # expired or refused: press again
        return shown if shown is not None else await self.show_hand(user, version)

    def hand_views(self, user: FakeUser) -> list[Message]:
        """The ephemeral private views ``user`` was shown of this table, oldest first."""
        title = f"#{self.table_id}"
        return [
            m
            for m in user.ephemerals()
            if read_card(m)
            and title in (read_card(m).get("title") or "")
            and "—" in read_card(m)["title"]
        ]

    def _hand_at(self, user: FakeUser, version: int) -> Message | None:
        shown = [m for m in self.hand_views(user) if view_version(m) == version]
        return shown[-1] if shown else None

    async def show_hand(self, user: FakeUser, version: int | None = None) -> Message:
        """Press "Ver mi mano" on the public message; the view at ``version`` (by default the
        public message's). The bot answers the press with the hand as a new ephemeral message,
        or (the table's token near its end) acknowledges it with a deferred update of the
        table and posts the hand as a follow-up; the previous hand retires."""
        version = self.version() if version is None else version
        before = {m.id for m in self.hand_views(user)}
        handle = await user.click(self.public(), HAND_BUTTON)
        if await handle.acknowledged() != CB_DEFER_UPDATE:
            view = await handle
        else:

            def new_hand() -> Message | None:
                fresh = [m for m in self.hand_views(user) if m.id not in before]
                return fresh[-1] if fresh and view_version(fresh[-1]) == version else None

            view = await self.fake.wait_until(
                new_hand, timeout=QUIET_FOR, what=f"{user.name}'s new hand at version {version}"
            )
        assert view.ephemeral and view.visible_to is user.model
        return view


def view_version(message: Message | dict) -> int | None:
    """The version in a private view's footer ("Versión N"); of one of its earlier states too
    (``message.versions[n]``)."""
    footer = ((read_card(message) or {}).get("footer") or {}).get("text") or ""
    m = VERSION.search(footer)
    return int(m.group(1)) if m and "Versi" in footer else None


async def open_table(
    fake: FakeDiscord,
    host: FakeUser,
    game: str,
    *,
    channel=None,
    by_response: bool = False,
    **options: Any,
) -> tuple[int, Message]:
    """``/play <game>`` by ``host`` with ``options``: the table's id and its lobby message.
    ``by_response``: ``channel`` is a place where the bot may not post (a group DM, a server
    without the bot: ``tests/e2e/anywhere_kit.py``), so the lobby must be the command's own
    public response."""
    reply = await (await host.slash(f"play {game}", channel=channel, **options))
    if by_response:
        assert not reply.ephemeral and reply.interaction is not None, reply.text
    # (the lobby itself, inline: issue 25; the host's private note when it opened in a thread)
    opened = re.search(r"#(\d+)", reply.text)
    assert opened, f"/play answered {reply.text!r}"
    table_id = int(opened.group(1))
    lobby = await fake.wait_for_message(
        lambda m: bool(read_card(m)) and f"mesa #{table_id}" in (read_card(m).get("title") or ""),
        channel=channel,
    )
    return table_id, lobby


async def seat_and_start(
    fake: FakeDiscord, lobby: Message, host: FakeUser, guests: list[FakeUser], cpus: int = 0
) -> None:
    """The ``guests`` join ``lobby`` in turn, the host adds ``cpus`` computer players, then
    starts the game."""
    for n, guest in enumerate(guests, start=2):
        await (await guest.click(lobby, "Unirse")).acknowledged()
        await fake.wait_until(
            lambda n=n, guest=guest: f"{n}. {guest.name}" in lobby.text, what=f"{guest.name} seated"
        )
    for n in range(1, cpus + 1):
        await (await host.click(lobby, "Añadir CPU")).acknowledged()
        await fake.wait_until(lambda n=n: f"CPU {n}" in lobby.text, what=f"CPU {n} seated")
    await (await host.click(lobby, "Empezar")).acknowledged()


async def open_and_start(
    fake: FakeDiscord,
    game: str,
    players: list[FakeUser],
    *,
    cpus: int = 0,
    channel=None,
    by_response: bool = False,
    **options: Any,
) -> tuple[int, Message]:
    """``open_table`` by the first player, then ``seat_and_start`` the others (and ``cpus``
    computer players): the table's id and its lobby message (the table from now on)."""
    host, *guests = players
    table_id, lobby = await open_table(
        fake, host, game, channel=channel, by_response=by_response, **options
    )
    await seat_and_start(fake, lobby, host, guests, cpus)
    return table_id, lobby


async def first_views_shown(fake: FakeDiscord, players: list[FakeUser]) -> None:
    """Every player with open DMs got their first private view by DM."""
    await fake.wait_until(
        lambda: all(p.dms() for p in players if p.dms_open), timeout=QUIET_FOR, what=FIRST_VIEWS
    )


class HandlersDone:
    """Counts the bot's interaction handlers that returned: every command and click handler
    ends by settling its trace (``PendingCommands.settle``), so a test can wait for a handler's
    tail (what it does after its answer and views are out) before it measures or moves the
    clocks."""

    def __init__(self, pending, monkeypatch) -> None:
        self.count = 0
        self.ids: set[int] = set()  # the interactions whose handler returned
        real = pending.settle

        async def settle(interaction):
            try:
                return await real(interaction)
            finally:
                self.count += 1
                self.ids.add(interaction.id)

        monkeypatch.setattr(pending, "settle", settle)

    def all_done(self, fake: FakeDiscord, kind: int = 3) -> bool:
        """Every interaction of ``kind`` (3: component clicks) the fake delivered so far has had
        its handler return."""
        return all(
            inter.id in self.ids
            for inter in fake.interactions.by_token.values()
            if inter.type == kind
        )
