"""Drive a Triple Triad match through the fake Discord, as its human player would.

The player reads only what Discord shows: the 5-card picker (an ephemeral), the private view
by DM (card buttons ``d:{table}:{version}:c{slot}``, then the 3×3 cell grid ``…:x{cell}``),
the payout pick buttons (``t:{table}:{version}:k.…``) and the public table message. Policy:
the first card offered, then the first free cell; the first card of the loser to take.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tests.fakediscord.model import Message
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.users import FakeUser
from tests.message_text import read_card, text_of

VERSION = re.compile(r"(\d+)\s*$")
CARDS_TITLE = re.compile(r": (\d+) cartas")


def draft_buttons(message: Message, table_id: int, version: int, kind: str) -> list:
    prefix = f"d:{table_id}:{version}:{kind}"
    return [b for b in message.buttons if (b.custom_id or "").startswith(prefix) and not b.disabled]


def pick_buttons(message: Message, table_id: int, version: int) -> list:
    prefix = f"t:{table_id}:{version}:k."
    return [b for b in message.buttons if (b.custom_id or "").startswith(prefix) and not b.disabled]


async def collection_size(user: FakeUser) -> tuple[int, Message]:
    """``/cards``: the number of cards in the title, and the ephemeral message."""
    shown = await (await user.slash("cards"))
    assert shown.ephemeral and shown.visible_to is user.model
    return int(CARDS_TITLE.search(read_card(shown)["title"]).group(1)), shown


@dataclass
class TriadMatch:
    fake: FakeDiscord
    table_id: int
    player: FakeUser
    others: list[FakeUser] = field(default_factory=list)  # more human players, same policy
    moves: list[str] = field(default_factory=list)
    picks: list[str] = field(default_factory=list)

    def public(self) -> Message:
        marker = f"mesa #{self.table_id}"
        for msg in reversed(self.fake.channel_messages()):
            if read_card(msg) and marker in (read_card(msg).get("title") or ""):
                return msg
        raise LookupError(f"no public message for table {self.table_id}")

    def version(self) -> int | None:
        """The public table's version; None while there is none (a table that follows up its
        ``/play``'s own answer is posted just after it)."""
        try:
            footer = (read_card(self.public()).get("footer") or {}).get("text") or ""
        except LookupError:
            return None
        m = VERSION.search(footer)
        return int(m.group(1)) if m and "Versi" in footer else None

    def finished(self) -> bool:
        fields = read_card(self.public()).get("fields") or []
        return any(f["name"] == "Resultado" for f in fields)

    def private_view(self, player: FakeUser | None = None) -> Message | None:
        """The player's latest DM for this table."""
        for msg in reversed((player or self.player).dms()):
            if read_card(msg) and f"#{self.table_id}" in (read_card(msg).get("title") or ""):
                return msg
        return None

    def my_move(self) -> tuple[str, Message, int, FakeUser] | None:
        """("place" | "pick", the DM, version, player) when a player's DM offers a move at the
        table's version."""
        version = self.version()
        for player in (self.player, *self.others):
            dm = self.private_view(player)
            if version is None or dm is None:
                continue
            if draft_buttons(dm, self.table_id, version, "c"):
                return "place", dm, version, player
            if pick_buttons(dm, self.table_id, version):
                return "pick", dm, version, player
        return None

    async def play(self, max_moves: int = 24) -> None:
        """Play until the public message shows the result."""
        for _ in range(max_moves):
            state = await self.fake.wait_until(
                lambda: "over" if self.finished() else self.my_move(),
                timeout=30,
                what="the player's turn or the end",
            )
            if state == "over":
                return
            kind, dm, version, player = state
            if kind == "place":
                card = draft_buttons(dm, self.table_id, version, "c")[0]
                await (await player.click(dm, custom_id=card.custom_id)).acknowledged()
                grid = await self.fake.wait_until(
                    lambda dm=dm, version=version: draft_buttons(dm, self.table_id, version, "x"),
                    what="the cell grid",
                )
                # Only free cells are enabled, and exactly nine cell buttons are shown.
                cells = [
                    b
                    for b in dm.buttons
                    if (b.custom_id or "").startswith(f"d:{self.table_id}:{version}:x")
                ]
                assert len(cells) == 9
                await (await player.click(dm, custom_id=grid[0].custom_id)).acknowledged()
                self.moves.append(f"{card.custom_id.rsplit(':', 1)[1]}{grid[0].custom_id[-2:]}")
            else:
                button = pick_buttons(dm, self.table_id, version)[0]
                await (await player.click(dm, custom_id=button.custom_id)).acknowledged()
                self.picks.append(button.custom_id.split(":", 3)[3])
            await self.fake.wait_until(
                lambda v=version: (self.version() or 0) > v,
                timeout=30,
                what=f"the table past version {version}",
            )
        raise AssertionError("the match did not end")


async def open_against_cpu(fake: FakeDiscord, player: FakeUser, **options) -> tuple[int, Message]:
    """``/play triad`` without an opponent: the reply is the picker (an ephemeral)."""
    picker = await (await player.slash("play triad", **options))
    assert picker.ephemeral and picker.visible_to is player.model
    table_id = int(re.search(r"#(\d+)", text_of(picker)).group(1))
    return table_id, picker


async def pick_five(
    fake: FakeDiscord, player: FakeUser, picker: Message, table_id: int, *, confirm: bool = True
) -> list[str]:
    """Add cards from the first page's select until five are chosen, then confirm."""
    chosen: list[str] = []
    while len(chosen) < 5:
        add = next(s for s in picker.selects if s.custom_id.startswith(f"tts:{table_id}:add"))
        value = add.values[0]
        await (await player.select(picker, [value], custom_id=add.custom_id)).acknowledged()
        chosen.append(value)
        count = len(chosen)
        await fake.wait_until(
            lambda n=count: f"Elegidas ({n}/5)" in picker.text, what=f"{count} cards chosen"
        )
    if confirm:
        await (await player.click(picker, custom_id=f"tt:{table_id}:ok")).acknowledged()
    return chosen
