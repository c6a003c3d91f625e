"""Drive a game of Ce Amapatolli through the fake Discord, as its players would.

The players follow a fixed policy. The engine runs alongside as an oracle (same seed, same moves):
it says who moves next and what; the test then checks that the bot offers exactly that move, in
the right place (a DM, the public message or a "Ver mi mano" ephemeral), at the right version,
and that the bot's public table reaches the next version.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import ClassVar

from games.amapatolli import GAME
from tests.e2e.driver_kit import (
    Offer,
    OracleBase,
    TableOnFake,
    first_views_shown,
    offers_on,
    open_and_start,
    open_table,
    take,
)
from tests.fakediscord.model import Message
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.users import FakeUser, InteractionHandle


def policy(actions: set[str]) -> str | None:
    """A player's turn: the first playable card (by id), else accept a skip, draw, pass."""
    plays = sorted(a for a in actions if a.startswith("p."))
    if plays:
        return plays[0]
    for action in ("accept", "draw", "pass"):
        if action in actions:
            return action
    return None


@dataclass
class Oracle(OracleBase):
    """The engine in lockstep with the table. The first player left holding one card unannounced
    is called out ("¡Ce!"); after that everyone announces "Ce" in time."""

    game: ClassVar = GAME

    seats: list[str]
    seed: str
    options: dict
    state: object = None
    callouts: int = 0
    log: list[tuple[str, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.state = GAME.new(self.seats, self.seed, self.options)

    def to_act(self) -> set[str]:
        return set(GAME.to_act(self.state))

    def next_move(self) -> tuple[str, str]:
        for seat in self.seats:
            legal = self.legal(seat)
            calls = sorted(a for a in legal if a.startswith("catch."))
            if self.callouts == 0 and calls:
                return seat, calls[0]
            if self.callouts > 0 and "announce" in legal:
                return seat, "announce"
        seat = sorted(GAME.to_act(self.state), key=self.seats.index)[0]
        action = policy(self.legal(seat))
        assert action is not None, f"{seat} has nothing to do: {self.legal(seat)}"
        return seat, action

    def apply(self, seat: str, action: str) -> None:
        self.state, _ = GAME.apply(self.state, seat, GAME.decode_action(action))
        if action.startswith("catch."):
            self.callouts += 1
        self.log.append((seat, action))

    def ranking(self) -> list[list[str]]:
        outcome = GAME.outcome(self.state)
        assert outcome is not None
        return outcome.ranking


class AmapatolliTable(TableOnFake):
    """One table of Ce Amapatolli on the fake, seen by its players."""

    def __init__(
        self,
        fake: FakeDiscord,
        table_id: int,
        players: list[FakeUser],
        seed: str,
        options: dict,
        channel=None,
        seats: list[str] | None = None,
    ):
        """``seats``: every seat in order, computer ones included (default: the players')."""
        self.fake = fake
        self.channel = fake.resolve_channel(channel)
        self.table_id = table_id
        self.players = players
        self.by_seat = {str(p.id): p for p in players}
        self.oracle = Oracle(seats or [str(p.id) for p in players], seed, options)
        self.handles: list[InteractionHandle] = []
        self.moves = 0

    # --- what players see --------------------------------------------------------------------

    def dm_offers(self, user: FakeUser, version: int) -> dict[str, Offer] | None:
        """The moves the latest DM of `user` offers, if that DM shows `version`."""
        for msg in reversed(user.dms()):
            offers = offers_on(msg, self.table_id)
            if offers:
                return offers if all(o.version == version for o in offers.values()) else None
        return None

    async def private_offers(self, user: FakeUser, version: int) -> dict[str, Offer]:
        if user.dms_open:
            return await self.fake.wait_until(
                lambda: self.dm_offers(user, version), what=f"{user.name}'s DM at version {version}"
            )
        view = await self.show_hand(user, version)
        offers = offers_on(view, self.table_id)
        assert offers and all(o.version == version for o in offers.values()), offers
        return offers

    # --- playing ------------------------------------------------------------------------------

    async def move(self) -> tuple[str, str]:
        """Make the oracle's next move through Discord and wait for the table to show it."""
        seat, action = self.oracle.next_move()
        user = self.by_seat[seat]
        version = self.oracle.version
        if self.version() is not None:  # (a deleted public message comes back at the next move)
            await self.wait_version(version)
        if action.startswith("catch."):
            offers = offers_on(self.public(), self.table_id)
        else:
            offers = await self.private_offers(user, version)
            assert set(offers) <= self.oracle.legal(seat), (set(offers), self.oracle.legal(seat))
        assert action in offers, (
            f"{user.name} should be offered {action!r} at version {version}: {sorted(offers)}"
        )
        handle = await take(user, offers[action])
        await handle.acknowledged()
        self.handles.append(handle)
        self.oracle.apply(seat, action)
        self.moves += 1
        await self.wait_version(self.oracle.version)
        return seat, action

    async def play_to_the_end(
        self, between_moves: Callable[[int], Awaitable[None]] | None = None
    ) -> None:
        while not self.oracle.finished:
            if between_moves is not None:
                await between_moves(self.moves)
            await self.move()


async def open_lobby(
    fake: FakeDiscord, host: FakeUser, channel=None, **options
) -> tuple[int, Message]:
    return await open_table(fake, host, "amapatolli", channel=channel, **options)


async def start_game(
    fake: FakeDiscord, players: list[FakeUser], *, seed: str, hand_size: int = 3, channel=None
) -> AmapatolliTable:
    """`/play amapatolli` by the first player, the others join, the host starts."""
    table_id, _ = await open_and_start(
        fake, "amapatolli", players, channel=channel, hand_size=hand_size
    )
    table = AmapatolliTable(
        fake, table_id, players, seed, {"hand_size": hand_size}, channel=channel
    )
    await table.wait_version(0)
    await first_views_shown(fake, players)
    return table
