"""Rebuild a game from its seed, options, setup and action log (history, determinism, replays).

``public_views`` is what ``/replay`` steps through: the public view (``game.view(state, None)``)
at every version, so a replay never shows a card the table did not show. It runs in a worker
process (plain, picklable arguments) and checks the rebuilt final state against the stored
snapshot: a game whose rules changed since it was played either replays to the same end (the
change did not touch it) or is reported as not replayable (``ReplayResult.matches`` False, or
``failed_at`` the first version that no longer applies).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from bot.errors import TableError
from bot.service.choose import GameRef, game_ref, resolve
from bot.service.context import ServiceContext
from bot.service.models import split_options
from games.core import Event, Game, GameState, IllegalAction, PlayerView
from storage import ActionRow, TableRecord


@dataclass(frozen=True)
class Deal:
    """A stored game as it was dealt, in plain picklable values (a worker process rebuilds it):
    its game, seats, seed, options (as stored, house rules included) and setup."""

    game: GameRef
    seat_ids: list[str]
    seed: str
    options: dict[str, Any]
    setup: dict[str, Any]

    @classmethod
    def of(cls, game: Game, record: TableRecord) -> Deal:
        seats = [s.id for s in record.seats]
        return cls(game_ref(game), seats, record.seed, record.options, record.meta.get("setup", {}))

    def first_state(self, engine: Game) -> GameState:
        """The game as it was dealt from its seed (``engine`` is ``resolve(self.game)``)."""
        return engine.new(self.seat_ids, self.seed, split_options(self.options)[0], **self.setup)


def rebuild(game: Game, record: TableRecord, actions: Iterable[ActionRow]) -> GameState:
    state = Deal.of(game, record).first_state(game)
    for row in actions:
        state, _ = game.apply(state, row.seat, game.decode_action(row.action))
    return state


@dataclass
class ReplayResult:
    views: list[PlayerView] = field(default_factory=list)  # the public view at each version
    matches: bool = False  # the rebuilt final state is the stored one
    failed_at: int | None = None  # the first version whose action no longer applies
    first_state: str | None = None  # the first state re-dealt from the seed (fair deals)


def public_views(
    deal: Deal, actions: list[tuple[str, str]], final_state: str | None
) -> ReplayResult:
    """The public view at versions 0..n of a finished game (in a worker process)."""
    engine = resolve(deal.game)
    result = ReplayResult()
    try:
        state = deal.first_state(engine)
    except (IllegalAction, ValueError):
        result.failed_at = 0
        return result
    result.first_state = engine.dump_state(state)
    result.views.append(engine.view(state, None))
    for n, (seat, text) in enumerate(actions, start=1):
        try:
            state, _ = engine.apply(state, seat, engine.decode_action(text))
        except (IllegalAction, ValueError):
            result.failed_at = n
            return result
        result.views.append(engine.view(state, None))
    if final_state is not None:
        result.matches = _ends_as_stored(engine, final_state, state)
    return result


def _ends_as_stored(engine: Game, final_state: str, state: GameState) -> bool:
    """Whether the rebuilt ``state`` is the stored ``final_state`` (not when the state model
    changed since: the stored end cannot be read)."""
    try:
        return bool(engine.same_end(final_state, state))
    except ValueError:
        return False


@dataclass
class Tail:
    """The events of a game's last actions (after version ``since``), as a replay shows them."""

    events: list[Event] = field(default_factory=list)
    actor: str | None = None
    by_timer: bool = False


def tail_events(
    deal: Deal,
    actions: list[tuple[str, str, bool]],
    since: int,
    stored_state: str,
    stored_at: int | None = None,
) -> Tail | None:
    """The events of the actions after version ``since`` (seat, action text, by the timer),
    rebuilt from the seed in a worker process; None when the rebuilt game does not pass
    through the stored ``stored_state`` at its version ``stored_at`` (None: the last one;
    the state is stored every few moves, bot/service/snapshots.py) (a rule changed since: the
    caller shows the table as it is)."""
    engine = resolve(deal.game)
    tail = Tail()
    try:
        state = deal.first_state(engine)
        at_stored = state if state.version == stored_at else None
        for seat, text, by_timer in actions:
            state, events = engine.apply(state, seat, engine.decode_action(text))
            if state.version == stored_at:
                at_stored = state
            if state.version > since:
                tail.events.extend(events)
                tail.actor, tail.by_timer = seat, by_timer
    except (IllegalAction, ValueError):
        return None
    compared = state if stored_at is None else at_stored
    return (
        tail if compared is not None and _ends_as_stored(engine, stored_state, compared) else None
    )


class Replays:
    """Finished and running games rebuilt from their seed and action log (history, /replay)."""

    def __init__(self, ctx: ServiceContext) -> None:
        self._ctx = ctx

    async def replay(self, table_id: int) -> GameState:
        """Rebuild a table's state from its seed and action log (history, determinism)."""
        record = await self._ctx.repo.get(table_id)
        if record is None:
            raise TableError("no_such_table", table=table_id)
        return rebuild(self._ctx.game(record.game), record, await self._ctx.repo.actions(table_id))

    async def replay_views(self, table_id: int) -> tuple[TableRecord, ReplayResult]:
        """A finished table's public view at every version, rebuilt from seed + action log in
        the worker pool and checked against the stored final state (``public_views``)."""
        record = await self._ctx.repo.get(table_id)
        if record is None:
            raise TableError("no_such_table", table=table_id)
        if record.status != "finished":
            raise TableError("replay_not_finished", table=table_id)
        actions = [(a.seat, a.action) for a in await self._ctx.repo.actions(table_id)]
        deal = Deal.of(self._ctx.game(record.game), record)
        return record, await self._ctx.workers.run(public_views, deal, actions, record.state)
