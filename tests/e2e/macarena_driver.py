"""Drive a game of Macarena through the fake Discord, as its players would.

The engine runs alongside as an oracle (same seed, same moves). People follow a fixed policy (the
``normal`` computer's choice, with a seeded rng); computer seats are mirrored exactly as the
table service decides them (``rng_for(seed, "cpu", seat, version)``), so the oracle always knows
the next version the public message must reach.

A person's move is made the way a person makes it, in their DM (or their "Ver mi mano" view when
DMs are closed): a series is built click by click -- the pozo, then each card from the buttons
the builder offers (checked against ``series_options`` at every step), then "Bajar"; a draw, a
pass and the end-of-hand choices are single buttons, checked against ``legal_actions``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import ClassVar

from games.core import IllegalAction, rng_for
from games.macarena import GAME, decode_draft, encode_draft, playable_pozos, series_options
from tests.e2e.driver_kit import (
    QUIET_FOR,
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


@dataclass
class Oracle(OracleBase):
    game: ClassVar = GAME
    seats: list[str]
    seed: str
    options: dict
    cpus: dict[str, str] = field(default_factory=dict)  # seat -> level
    state: object = None
    log: list[tuple[str, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.state = GAME.new(self.seats, self.seed, self.options)
        self.advance_cpus()

    def apply(self, seat: str, action: str) -> None:
        self.state, _ = GAME.apply(self.state, seat, GAME.decode_action(action))
        self.log.append((seat, action))

    def advance_cpus(self) -> None:
        """The computer moves the table service makes on its own (seats waited on, in order)."""
        while not self.finished:
            to_act = GAME.to_act(self.state)
            cpu = next((s for s in self.seats if s in self.cpus and s in to_act), None)
            if cpu is None:
                return
            legal = GAME.legal_actions(self.state, cpu)
            rng = rng_for(self.state.seed, "cpu", cpu, self.state.version)
            choice = GAME.choose_action(GAME.view(self.state, cpu), legal, self.cpus[cpu], rng)
            self.apply(cpu, (choice or legal[0]).encode())

    def next_move(self) -> tuple[str, str]:
        """The next person's move (the computer seats have moved already)."""
        seat = sorted(GAME.to_act(self.state), key=self.seats.index)[0]
        legal = GAME.legal_actions(self.state, seat)
        choice = GAME.choose_action(
            GAME.view(self.state, seat), legal, "normal", random.Random(self.state.version)
        )
        return seat, choice.encode()

    def outcome(self):
        outcome = GAME.outcome(self.state)
        assert outcome is not None
        return outcome


def play_offline(
    seed: str, seats: list[str], cpus: dict[str, str], options: dict, limit: int = 400
) -> Oracle:
    """The whole game without Discord (to pick a seed whose course shows what a test needs)."""
    oracle = Oracle(seats, seed, options, cpus)
    while not oracle.finished and len(oracle.log) < limit:
        oracle.apply(*oracle.next_move())
        oracle.advance_cpus()
    return oracle


class MacarenaTable(TableOnFake):
    """One table of Macarena on the fake, seen by its players."""

    def __init__(
        self,
        fake: FakeDiscord,
        table_id: int,
        players: list[FakeUser],
        seats: list[str],
        seed: str,
        options: dict,
        cpus: dict[str, str],
    ):
        self.fake = fake
        self.table_id = table_id
        self.players = players
        self.by_seat = {str(p.id): p for p in players}
        self.oracle = Oracle(seats, seed, options, cpus)
        self.handles: list[InteractionHandle] = []
        self.series_built: list[tuple[str, str]] = []  # (seat, action) of multi-card series
        self.choices: list[tuple[str, str]] = []  # end-of-hand / MACA choices made by people
        self.moves = 0

    # --- what players see --------------------------------------------------------------------
    # --- playing ------------------------------------------------------------------------------
    async def move(self) -> tuple[str, str]:
        seat, action = self.oracle.next_move()
        user = self.by_seat[seat]
        version = self.oracle.version
        await self.wait_version(version)
        view = await self.private_view(user, version)
        if action.startswith("p."):
            handle = await self._build_series(user, seat, view, action)
        else:
            offers = offers_on(view, self.table_id)
            # the turn's buttons are exactly the seat's legal moves
            assert set(offers) == self.oracle.legal(seat), (sorted(offers), action)
            handle = await take(user, offers[action])
            if action[0] in "gbm":
                self.choices.append((seat, action))
        await handle.acknowledged()
        self.handles.append(handle)
        self.oracle.apply(seat, action)
        self.oracle.advance_cpus()
        self.moves += 1
        await self.wait_version(self.oracle.version)
        return seat, action

    async def _click_op(self, user: FakeUser, view: Message, op: str) -> None:
        ops = draft_buttons(view, self.table_id)
        assert op in ops, (op, sorted(ops))
        await (await user.click(view, custom_id=ops[op][1])).acknowledged()

    def _card_ops(self, view: Message, prefix: str) -> set[str]:
        """The builder's "add a card" ops: the series ``prefix`` plus one card."""
        pozo, so_far = decode_draft(prefix)
        out = set()
        for op in draft_buttons(view, self.table_id):
            try:
                op_pozo, cards = decode_draft(op)
            except IllegalAction:
                continue
            if op_pozo == pozo and cards[:-1] == so_far and len(cards) == len(so_far) + 1:
                out.add(op)
        return out

    async def _build_series(
        self, user: FakeUser, seat: str, view: Message, action: str
    ) -> InteractionHandle:
        """Pick the pozo, add the cards one by one, then "Bajar"."""
        play = GAME.decode_action(action)
        state = self.oracle.state
        offers = offers_on(view, self.table_id)
        assert set(offers) == {"pass"}, sorted(offers)  # "Pasar"; the plays go through the builder
        pozo_ops = {op for op in draft_buttons(view, self.table_id) if re.fullmatch(r"p\.\d", op)}
        assert pozo_ops == {encode_draft(i, []) for i in playable_pozos(state, seat)}
        await self._click_op(user, view, encode_draft(play.pozo, []))
        cards = list(play.cards)
        for k in range(len(cards)):
            prefix = encode_draft(play.pozo, cards[:k])
            expected = {
                encode_draft(play.pozo, [*cards[:k], c.code])
                for c in series_options(state, seat, play.pozo, cards[:k])
            }
            await self.fake.wait_until(
                lambda prefix=prefix, expected=expected: self._card_ops(view, prefix) == expected,
                timeout=QUIET_FOR,
                what=f"{user.name}'s builder after {prefix}",
            )
            await self._click_op(user, view, encode_draft(play.pozo, cards[: k + 1]))
        await self.fake.wait_until(
            lambda: action in offers_on(view, self.table_id),
            timeout=QUIET_FOR,
            what=f"'Bajar' {action}",
        )
        bajar = offers_on(view, self.table_id)[action]
        assert next(b for b in view.buttons if b.custom_id == bajar.custom_id).label == "Bajar"
        if len(cards) > 1:
            self.series_built.append((seat, action))
        return await take(user, bajar)

    async def play_to_the_end(
        self, between_moves: Callable[[], Awaitable[None]] | None = None
    ) -> None:
        while not self.oracle.finished:
            if between_moves is not None:
                await between_moves()
            await self.move()


async def start_game(
    fake: FakeDiscord, players: list[FakeUser], *, seed: str, options: dict, cpus: int = 0
) -> MacarenaTable:
    """`/play macarena` by the first player, the others join, the host adds computer players
    and starts."""
    table_id, _ = await open_and_start(fake, "macarena", players, cpus=cpus, **options)
    seats = [str(p.id) for p in players] + [f"cpu{n}" for n in range(1, cpus + 1)]
    table = MacarenaTable(
        fake,
        table_id,
        players,
        seats,
        seed,
        options,
        {f"cpu{n}": "normal" for n in range(1, cpus + 1)},
    )
    await table.wait_version(table.oracle.version)
    await first_views_shown(fake, players)
    return table
