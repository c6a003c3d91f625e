"""Drive a game of Maquiavelo through the fake Discord, as its players would.

The engine runs alongside as an oracle (same seed, same moves) and decides each move: the best
play (``GAME.suggest``) or a draw. Plays are made the way a player makes them: picking the cards
in the suit selects of the private view (by DM), which builds one selection across selects, then
"Jugar"; or by typing the whole table into the "Escribir la mesa" modal. ``needs_rearranging``
is an independent brute force saying that no arrangement keeps every old meld whole.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from games.maquiavelo import GAME, Play, format_arrangement, parse_arrangement
from games.maquiavelo.cards import face
from tests.e2e.driver_kit import (
    OracleBase,
    TableOnFake,
    first_views_shown,
    open_and_start,
)
from tests.fakediscord.model import Message
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.users import FakeUser
from tests.games.maquiavelo.helpers import brute_partition, valid_meld

SELECTS = "selects"
MODAL = "modal"
MODAL_LABEL = "Toda la mesa + tus cartas, grupos con |"


# ----- the independent check ------------------------------------------------------------------


def _set_partitions(items: list[int]):
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for part in _set_partitions(rest):
        for k in range(len(part)):
            yield part[:k] + [[first, *part[k]]] + part[k + 1 :]
        yield [[first], *part]


def _fit(clusters: list[list[int]], added: list[int]) -> bool:
    """Can each cluster (faces) take some of ``added`` and be a meld, the rest forming melds?"""
    if not clusters:
        return not added or brute_partition([(f, False) for f in added])
    head, tail = clusters[0], clusters[1:]
    seen = set()
    for k in range(len(added) + 1):
        for combo in itertools.combinations(range(len(added)), k):
            extra = tuple(sorted(added[i] for i in combo))
            if extra in seen:
                continue
            seen.add(extra)
            if valid_meld(head + list(extra)):
                rest = [f for i, f in enumerate(added) if i not in combo]
                if _fit(tail, rest):
                    return True
    return False


def needs_rearranging(old_melds: Sequence[Sequence[int]], added: Sequence[int]) -> bool:
    """True when no arrangement of table + ``added`` (faces) keeps every old meld whole inside
    one new meld (grown, or joined with others): the play needs the table rearranged."""
    melds = [list(m) for m in old_melds]
    for part in _set_partitions(list(range(len(melds)))):
        clusters = [[f for i in group for f in melds[i]] for group in part]
        if _fit(clusters, list(added)):
            return False
    return True


# ----- the oracle -----------------------------------------------------------------------------


@dataclass
class Oracle(OracleBase):
    game: ClassVar = GAME
    seats: list[str]
    seed: str
    options: dict
    state: object = None
    log: list[tuple[str, str, str]] = field(default_factory=list)  # (seat, action, path)
    rearranged_by_selects: bool = False

    def __post_init__(self) -> None:
        self.state = GAME.new(self.seats, self.seed, self.options)

    def current(self) -> str:
        return self.state.seats[self.state.turn]

    def next_move(self) -> tuple[str, str, str]:
        """(seat, action, path): the best play — the first one that needs the table rearranged
        by the selects, the first play after it by the modal, the others by the selects — else
        a draw (or a pass)."""
        seat = self.current()
        play = GAME.suggest(self.state, seat)
        if play is None:
            return seat, GAME.legal_actions(self.state, seat)[0].encode(), "button"
        if self.rearranged_by_selects and not any(p == MODAL for _, _, p in self.log):
            after, _ = GAME.apply(self.state, seat, play)
            text = format_arrangement(after.table)
            return seat, parse_arrangement(text).encode(), MODAL
        return seat, play.encode(), SELECTS

    def needs_rearranging(self, seat: str, action: str) -> bool:
        decoded = GAME.decode_action(action)
        if not isinstance(decoded, Play):
            return False
        old = [[face(c) for c in m] for m in self.state.table]
        return needs_rearranging(old, [face(c) for c in decoded.cards])

    def apply(self, seat: str, action: str, path: str) -> list:
        before = self.state
        self.state, events = GAME.apply(self.state, seat, GAME.decode_action(action))
        if path == SELECTS and not self.rearranged_by_selects and events[0].code == "rearranged":
            old = Oracle.__new__(Oracle)
            old.state = before
            if old.needs_rearranging(seat, action):
                self.rearranged_by_selects = True
        self.log.append((seat, action, path))
        return events


# ----- the table as its players see it ---------------------------------------------------------


def selected(msg: Message) -> set[str]:
    """Card ids shown as selected (the selects' defaults) in a private view."""
    return {o["value"] for s in msg.selects for o in s.options if o.get("default")}


def _parts(custom_id: str | None) -> list[str]:
    return (custom_id or "").split(":", 3)


class MaquiaveloTable(TableOnFake):
    def __init__(
        self, fake: FakeDiscord, table_id: int, players: list[FakeUser], seed: str, options: dict
    ):
        self.fake = fake
        self.table_id = table_id
        self.players = players
        self.by_seat = {str(p.id): p for p in players}
        self.oracle = Oracle([str(p.id) for p in players], seed, options)
        self.moves = 0
        self.hints = 0
        self._ephemeral: dict[int, tuple[int, Message]] = {}

    def _builder(self, user: FakeUser, version: int) -> Message | None:
        """The latest DM of ``user`` holding this table's controls at ``version``."""
        for msg in reversed(user.dms()):
            ids = [_parts(c.custom_id) for c in [*msg.buttons, *msg.selects]]
            ours = [p for p in ids if len(p) >= 3 and p[1] == str(self.table_id)]
            if ours:
                return msg if all(p[2] == str(version) for p in ours) else None
        return None

    async def builder(self, user: FakeUser, version: int) -> Message:
        """The private view ``user`` plays from: the latest DM, or (DMs closed) the ephemeral
        answer of "Ver mi mano" on the public message, asked once per version."""
        if user.dms_open:
            return await self.fake.wait_until(
                lambda: self._builder(user, version), what=f"{user.name}'s DM at version {version}"
            )
        cached = self._ephemeral.get(user.id)
        if cached is not None and cached[0] == version:
            return cached[1]
        view = await self.show_hand(user, version)
        assert f"Versión {version}" in view.text
        self._ephemeral[user.id] = (version, view)
        return view

    @staticmethod
    def button(msg: Message, prefix: str, op: str):
        return next(
            b
            for b in msg.buttons
            if (b.custom_id or "").startswith(prefix) and _parts(b.custom_id)[3] == op
        )

    async def hint(self, user: FakeUser, version: int) -> str:
        """Press "Sugerir": the DM now says what it would play (nothing is played)."""
        msg = await self.builder(user, version)
        await (await user.click(msg, custom_id=self.button(msg, "d:", "hint").custom_id))
        self.hints += 1
        await self.fake.wait_until(
            lambda: "Sugerencia" in msg.text or "No puedes" in msg.text, what="the hint"
        )
        return msg.text

    async def select_and_play(self, user: FakeUser, version: int, cards: Sequence[int]) -> None:
        msg = await self.builder(user, version)
        wanted = {str(c) for c in cards}
        for select in list(msg.selects):
            pick = [v for v in select.values if v in wanted]
            if pick:
                handle = await user.select(msg, pick, custom_id=select.custom_id)
                await handle.acknowledged()
                await self.fake.wait_until(
                    lambda pick=pick: set(pick) <= selected(msg), what="the selection shown"
                )
        assert selected(msg) == wanted, (selected(msg), wanted)
        play = self.button(msg, "d:", "play")
        assert play.label == f"Jugar {len(wanted)}" and not play.disabled
        await (await user.click(msg, custom_id=play.custom_id)).acknowledged()

    async def type_table(self, user: FakeUser, version: int, text: str) -> Message:
        msg = await self.builder(user, version)
        opener = next(b for b in msg.buttons if (b.custom_id or "").startswith("mo:"))
        modal = await (await user.click(msg, custom_id=opener.custom_id))
        [field_] = modal.inputs
        current = GAME.view(self.oracle.state, None).table_text()
        assert (field_.get("value") or "") == current  # prefilled with the table as it is
        reply = await (await user.submit_modal({MODAL_LABEL: text}))
        return reply

    async def move(self) -> tuple[str, str, str]:
        seat, action, path = self.oracle.next_move()
        user = self.by_seat[seat]
        version = self.oracle.state.version
        await self.wait_version(version)
        if path == SELECTS:
            await self.select_and_play(user, version, GAME.decode_action(action).cards)
        elif path == MODAL:
            reply = await self.type_table(
                user,
                version,
                format_arrangement(
                    [[c for c in m] for m in _table_after(self.oracle.state, seat, action)]
                ),
            )
            assert reply.ephemeral
        else:
            msg = await self.builder(user, version)
            button = next(
                b
                for b in msg.buttons
                if _parts(b.custom_id)[0] == "t" and _parts(b.custom_id)[3] == action
            )
            await (await user.click(msg, custom_id=button.custom_id)).acknowledged()
        self.oracle.apply(seat, action, path)
        self.moves += 1
        await self.wait_version(self.oracle.state.version)
        return seat, action, path

    async def play_to_the_end(self) -> None:
        while not self.oracle.finished:
            await self.move()


def _table_after(state, seat: str, action: str) -> list[list[int]]:
    after, _ = GAME.apply(state, seat, GAME.decode_action(action))
    return after.table


async def start_game(
    fake: FakeDiscord, players: list[FakeUser], *, seed: str, hand_size: int
) -> MaquiaveloTable:
    """`/play maquiavelo` by the first player, the others join, the host starts."""
    table_id, _ = await open_and_start(fake, "maquiavelo", players, hand_size=hand_size)
    table = MaquiaveloTable(fake, table_id, players, seed, {"hand_size": hand_size})
    await table.wait_version(0)
    await first_views_shown(fake, players)
    return table


def count_faces(table: list[list[int]]) -> Counter:
    return Counter(face(c) for m in table for c in m)
