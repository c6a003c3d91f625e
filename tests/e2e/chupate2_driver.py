"""Drive a game of Chúpate 2 through the fake Discord, as its players would.

The players follow a fixed policy; the engine runs alongside as an oracle (same seed, same
moves): it says who moves next and what. The driver then checks that the bot offers exactly
that move in the player's DM (or their "Ver mi mano" view when their DMs are closed) at the
right version, makes it the way a person would (a wild is two clicks: the card, then its colour
in the picker), and waits for the public table to reach the next version.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from games.chupate2 import GAME
from games.chupate2.cards import COLOUR_OF, COLOURS
from tests.e2e.driver_kit import (
    Offer,
    OracleBase,
    TableOnFake,
    draft_buttons,
    first_views_shown,
    offers_on,
    open_and_start,
    take,
)
from tests.fakediscord.model import Message
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.users import FakeUser, InteractionHandle


def policy(legal: list[str], hand: list[str]) -> str:
    """Always "¡Mentira!" against a +4; else a +4 whenever held (a bluff when it can be), else
    the first coloured card (by id), else a Comodín, naming the colour held most; else
    stack/draw/take; after drawing, play the drawn card."""
    if "chal" in legal:
        return "chal"
    plays = [
        sorted(a for a in legal if a.startswith("p.F")),
        sorted(a for a in legal if a.startswith("p.") and a.count(".") == 1),
        sorted(a for a in legal if a.startswith("p.W")),
    ]
    for options in plays:
        if options:
            card = options[0].split(".")[1]
            if options[0].count(".") == 1:
                return options[0]
            held = [COLOUR_OF[c] for c in hand if COLOUR_OF[c] in COLOURS]
            best = max(COLOURS, key=lambda c: (held.count(c), -COLOURS.index(c)))
            return f"p.{card}.{best}"
    for action in ("col.r", "take", "draw", "pass"):
        if action in legal:
            return action
    raise AssertionError(f"nothing to do: {legal}")


@dataclass
class Oracle(OracleBase):
    game: ClassVar = GAME
    seats: list[str]
    seed: str
    options: dict
    state: object = None
    log: list[tuple[str, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.state = GAME.new(self.seats, self.seed, self.options)

    def next_move(self) -> tuple[str, str]:
        """The "¡Última!" variant: the first player who goes down to one card without calling is
        caught (from the public message); after that, everyone calls in time (from their DM)."""
        caught = any(a == "catch" for _, a in self.log)
        for seat in self.seats:
            if not caught and "catch" in self.legal(seat):
                return seat, "catch"
        seat = next(iter(GAME.to_act(self.state)))
        if caught and "announce" in self.legal(seat):
            return seat, "announce"
        return seat, policy(sorted(self.legal(seat)), self.state.hands[seat])

    def apply(self, seat: str, action: str) -> list:
        self.state, events = GAME.apply(self.state, seat, GAME.decode_action(action))
        self.log.append((seat, action))
        return events

    def outcome(self):
        outcome = GAME.outcome(self.state)
        assert outcome is not None
        return outcome


class HouseRulesOracle(Oracle):
    """The policy for the house rules: whoever holds a card identical to the top jumps in
    (``jump_in``, the first such seat in seat order); after a 7 (``seven_o``) the first seat
    offered is the one to swap with; otherwise ``policy``."""

    def next_move(self) -> tuple[str, str]:
        current = next(iter(GAME.to_act(self.state)))
        for seat in self.seats:
            if seat != current:
                jumps = sorted(a for a in self.legal(seat) if a.startswith("p."))
                if jumps:
                    return seat, jumps[0]
        legal = sorted(self.legal(current))
        swaps = [a for a in legal if a.startswith("swap.")]
        if swaps:
            return current, swaps[0]
        return current, policy(legal, self.state.hands[current])


def play_offline(
    seed: str,
    n: int = 4,
    options: dict | None = None,
    limit: int = 400,
    oracle_class: type[Oracle] = Oracle,
) -> Oracle:
    """The whole game without Discord (to pick a seed whose course shows what a test needs)."""
    oracle = oracle_class([f"s{i}" for i in range(n)], seed, options or {})
    while not oracle.finished and len(oracle.log) < limit:
        oracle.apply(*oracle.next_move())
    return oracle


class Chupate2Table(TableOnFake):
    """One table of Chúpate 2 on the fake, seen by its players."""

    def __init__(
        self,
        fake: FakeDiscord,
        table_id: int,
        players: list[FakeUser],
        seed: str,
        options: dict,
        oracle: type[Oracle] = Oracle,
    ):
        self.fake = fake
        self.table_id = table_id
        self.players = players
        self.by_seat = {str(p.id): p for p in players}
        self.oracle = oracle([str(p.id) for p in players], seed, options)
        self.handles: list[InteractionHandle] = []
        self.pickers: list[Message] = []  # private views showing the colour picker
        self.moves = 0

    # --- what players see --------------------------------------------------------------------
    # --- playing ------------------------------------------------------------------------------
    async def move(self) -> tuple[str, str]:
        seat, action = self.oracle.next_move()
        user = self.by_seat[seat]
        version = self.oracle.version
        await self.wait_version(version)
        if action == "catch":  # a call-out: a public button, clicked where everyone sees it
            return await self._public_move(user, seat, action, version)
        view = await self.private_view(user, version)
        offers: dict[str, Offer] = offers_on(view, self.table_id)
        wild = action.count(".") == 2 and action.startswith("p.")
        # everything the view offers is legal, and every legal move is on it (wilds as picks)
        picks = {op[2:] for op in draft_buttons(view, self.table_id) if op.startswith("w.")}
        shown = set(offers) | {
            a for a in self.oracle.legal(seat) if a.count(".") == 2 and a.split(".")[1] in picks
        }
        assert shown == self.oracle.legal(seat), (sorted(shown), sorted(self.oracle.legal(seat)))
        if wild:
            handle = await self._play_wild(user, view, action, version)
        else:
            assert action in offers, f"{user.name}: {action!r} not offered: {sorted(offers)}"
            handle = await take(user, offers[action])
        await handle.acknowledged()
        self.handles.append(handle)
        self.oracle.apply(seat, action)
        self.moves += 1
        await self.wait_version(self.oracle.version)
        return seat, action

    async def _public_move(
        self, user: FakeUser, seat: str, action: str, version: int
    ) -> tuple[str, str]:
        offers = offers_on(self.public(), self.table_id)
        assert action in offers and offers[action].version == version, sorted(offers)
        handle = await take(user, offers[action])
        await handle.acknowledged()
        self.handles.append(handle)
        self.oracle.apply(seat, action)
        self.moves += 1
        await self.wait_version(self.oracle.version)
        return seat, action

    async def _play_wild(
        self, user: FakeUser, view: Message, action: str, version: int
    ) -> InteractionHandle:
        """Pick the wild, then its colour in the picker that replaces the private view."""
        _, card, colour = action.split(".")
        _, pick_id = draft_buttons(view, self.table_id)[f"w.{card}"]
        await (await user.click(view, custom_id=pick_id)).acknowledged()
        colour_op = f"c.{card}.{colour}"
        await self.fake.wait_until(
            lambda: colour_op in draft_buttons(view, self.table_id),
            what=f"{user.name}'s colour picker",
        )
        ops = draft_buttons(view, self.table_id)
        assert sorted(ops) == sorted([f"c.{card}.{c}" for c in COLOURS] + ["x"]), ops
        assert offers_on(view, self.table_id) == {}
        self.pickers.append(view)
        return await user.click(view, custom_id=ops[colour_op][1])

    async def play_to_the_end(self) -> None:
        while not self.oracle.finished:
            await self.move()


async def start_game(
    fake: FakeDiscord,
    players: list[FakeUser],
    *,
    seed: str,
    options: dict,
    oracle: type[Oracle] = Oracle,
) -> Chupate2Table:
    """`/play chupate2` by the first player with `options`, the others join, the host starts."""
    table_id, _ = await open_and_start(fake, "chupate2", players, **options)
    table = Chupate2Table(fake, table_id, players, seed, options, oracle)
    await table.wait_version(0)
    await first_views_shown(fake, players)
    return table
