"""Each player's "Ver mi mano" answer at a table, edited again while Discord allows it.

An ephemeral message can only be edited through an interaction it answered (the "Ver mi mano"
click that made it, or a later click on its own buttons), and only for the 15 minutes that
interaction's token lives (memory only: a restart forgets them). The end of the game shows its
final view there (buttons off), and ``/stop`` shows the closing, while the token lives.

Every press gets a new message (the player may not see the old one: dismissed, or dropped by
Discord when the app reloads; pressing again must always show something), and the previous one's
buttons go off. Between presses the live hand follows the table through its token (``update``).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import discord

from bot import metrics
from bot.i18n import Translator
from bot.ui import payload as sending
from bot.ui import v2
from bot.ui.messages import finish
from bot.ui.payload import Payload
from bot.ui.tokens import token_only

log = logging.getLogger(__name__)

TOKEN_LIFETIME = 15 * 60.0  # seconds an interaction token may edit its messages
MARGIN = 60.0  # edit only while at least this much of the token's life is left


@dataclass
class EphemeralView:
    """The one ephemeral view of a player at a table that we may still edit."""

    # The latest interaction that answered on that message, its token only (``token_only``):
    # not its click's gateway event (the clicked message's payload, the clicker: issue 29,
    # ~9 KB a live hand), which nothing here reads.
    interaction: discord.Interaction
    received: float  # clock time the interaction arrived (its token's life started)
    tr: Translator  # the player's language, as their client reported it
    message_id: int | None = None  # a follow-up's id; None: the interaction's own response
    version: int | None = None  # the table version it shows (None: unknown)
    image: str | None = None  # digest of the image it shows
    pressed_at: int | None = None  # the version of the last "Ver mi mano" press it answered
    answer_id: int | None = None  # the interaction's own response's id (a press answered so)
    clicked_id: int | None = None  # the message the interaction's component sat on
    done: bool = False  # shows the final view (or /stop turned it off): never edited again
    busy: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def shown_id(self) -> int | None:
        """The message it edits: the follow-up, the press's own answer, or the message the
        click was on."""
        if self.message_id is not None:
            return self.message_id
        if self.answer_id is not None:
            return self.answer_id
        return self.clicked_id

    async def edit(self, payload: Payload) -> None:
        image = await finish(payload, shown=self.image)
        kwargs = payload.edit_kwargs()
        try:
            # the edited message is not read back: not parsed either (``bot/ui/payload.py``)
            if self.message_id is None:
                await sending.edit_followup(self.interaction, 0, kwargs, ref="@original")
            else:
                await sending.edit_followup(self.interaction, self.message_id, kwargs)
        finally:
            if payload.view is not None:
                payload.view.stop()  # dynamic items route the clicks; keep the view store empty
        self.image = image


class EphemeralViews:
    """The editable ephemeral view of each (table, player); ``clock`` is monotonic seconds."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._views: dict[tuple[int, str], EphemeralView] = {}
        self._tasks: set[asyncio.Task[None]] = set()  # hands being retired

    async def drain(self) -> None:
        """Wait until every replaced hand is retired (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def live(self, table_id: int, seat: str) -> EphemeralView | None:
        """``seat``'s view at ``table_id`` if its token can still edit it."""
        view = self._views.get((table_id, seat))
        if view is None or view.done:
            return None
        if self.clock() - view.received > TOKEN_LIFETIME - MARGIN:
            del self._views[(table_id, seat)]
            return None
        return view

    def remember(
        self,
        table_id: int,
        seat: str,
        interaction: discord.Interaction,
        tr: Translator,
        *,
        message_id: int | None = None,
        version: int | None = None,
        image: str | None = None,
        pressed: bool = False,
        answer_id: int | None = None,
    ) -> None:
        """``interaction`` answered with (or on) ``seat``'s view: edit that message from now on
        (``message_id`` when it is a follow-up, not the interaction's own response; ``pressed``:
        it answered a "Ver mi mano" press; ``answer_id``: the id of its own response, a new
        message, when it was answered with the view)."""
        old = self._views.get((table_id, seat))
        clicked = interaction.message
        view = EphemeralView(token_only(interaction), self.clock(), tr, message_id, version, image)
        view.answer_id = answer_id
        view.clicked_id = clicked.id if clicked is not None else None
        if pressed:
            view.pressed_at = version
        elif old is not None:  # a click on it: a press already answered there still counts
            view.pressed_at = old.pressed_at
        if old is not None:
            view.busy = old.busy  # an edit under way finishes before the next one starts
        self._views[(table_id, seat)] = view
        if old is not None and not old.done and old.shown_id != view.shown_id:
            # A click on another of their hands: that one is live now, the old one retires.
            task = asyncio.get_running_loop().create_task(self.retire(old))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def update(
        self, table_id: int, seat: str, build: Callable[[Translator], Payload], version: int
    ) -> bool:
        """Show the table at ``version`` on ``seat``'s live ephemeral hand (``build(tr)``),
        through its token: channel play follows the table as DM play does. A refused edit
        (token expired early, hand gone) forgets the view: the next press makes a new one.
        Whether it was edited."""
        view = self.live(table_id, seat)
        if view is None:
            return False
        async with view.busy:
            if view.done or (view.version is not None and view.version >= version):
                return False
            try:
                await view.edit(build(view.tr))
                view.version = version
                return True
            except discord.HTTPException as exc:
                log.info(
                    "an ephemeral hand at table %s could not be edited (%s)", table_id, exc.code
                )
                if self._views.get((table_id, seat)) is view:
                    del self._views[(table_id, seat)]
                return False

    def pop(self, table_id: int, seat: str) -> EphemeralView | None:
        """Forget ``seat``'s live hand at ``table_id`` (a new press replaces it), returned."""
        view = self._views.pop((table_id, seat), None)
        return None if view is None or view.done else view

    async def retire(
        self, view: EphemeralView | None, build: Callable[[Translator], Payload] | None = None
    ) -> None:
        """A hand that no longer plays (replaced by a newer one, or its seat taken by the
        computer) shows ``build(tr)`` (by default: "no longer updated", the hand gone), buttons
        off, while its token lives: no live button stays on a version the table leaves, and no
        old hand keeps saying "your turn"."""
        if view is None or self.clock() - view.received > TOKEN_LIFETIME - MARGIN:
            return
        make = build if build is not None else _replaced
        await self._last_edit(view, functools.partial(make, view.tr))

    async def game_over(
        self, table_id: int, seats: Iterable[str], build: Callable[[str, Translator], Payload]
    ) -> None:
        """Show each player's final view (``build(seat, tr)``, no buttons) on their ephemeral
        view, while its token lives (``seats``: the table's)."""
        for seat, view in self._take(table_id, seats):
            await self._last_edit(view, functools.partial(build, seat, view.tr))

    async def table_closed(
        self, table_id: int, seats: Iterable[str], build: Callable[[Translator], Payload]
    ) -> None:
        """/stop (or any closing): every live ephemeral view shows the closing
        (``build(tr)``), buttons off (``seats``: the table's)."""
        for _, view in self._take(table_id, seats):
            await self._last_edit(view, functools.partial(build, view.tr))

    def forget(self, table_id: int, seats: Iterable[str]) -> None:
        """``table_id`` is over and its last views are out (``bot/ui/table_ends.py``): any
        view of it kept since (a click on a hand after the end) goes too."""
        for seat in seats:
            self._views.pop((table_id, seat), None)

    def _take(self, table_id: int, seats: Iterable[str]) -> list[tuple[str, EphemeralView]]:
        """The live views of the table's ``seats``, forgotten at once (their last edit
        follows): looked up by their keys, not found in a walk of every table's views (issue
        29: one at each game's end). Only a seat's own hand is ever kept (``PlayCog``)."""
        taken = []
        for seat in seats:
            view = self.live(table_id, seat)
            self._views.pop((table_id, seat), None)
            if view is not None:
                taken.append((seat, view))
        return taken

    @staticmethod
    async def _last_edit(view: EphemeralView, build: Callable[[], Payload]) -> None:
        async with view.busy:
            if view.done:
                return
            view.done = True
            metrics.count("why.hand_last")  # retired, the game's end, or closed
            try:
                await view.edit(build())
            except discord.HTTPException as exc:
                log.info("could not turn off an ephemeral view: %s", exc)


def _replaced(tr: Translator) -> Payload:
    """A V2 message stays V2: the note is a container too, not plain content."""
    return Payload(view=v2.note_view(tr("views.replaced")))
