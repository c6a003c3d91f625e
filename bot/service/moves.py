"""THE move path. Every action, a person's, a computer's or a timer's, goes through here:

1. take the table's lock (``act``; the computer and the timer hold it already);
2. check the version the player saw;  3. ``apply`` (the engine validates);
4. persist snapshot + action row (+ standings and card transfers when it ends) in one
   transaction;  5. tell the listener.
Scheduling what comes next (computer turns, the turn timer) is the caller's.
"""

from __future__ import annotations

from bot.errors import TableError
from bot.service.context import ServiceContext
from bot.service.models import Table, is_human_id
from bot.service.results import card_transfers, standing_deltas
from games.core import Event, IllegalAction
from storage import StaleVersion


class Moves:
    def __init__(self, ctx: ServiceContext) -> None:
        self.ctx = ctx

    async def act(
        self, table: Table, seat: str, version: int | None, action_text: str
    ) -> list[Event]:
        async with table.lock:
            info = table.seat(seat)
            if info is not None and info.is_cpu and is_human_id(seat):  # they left or timed out
                raise TableError("seat_played_by_cpu")
            return await self.act_locked(table, seat, version, action_text, by_timer=False)

    async def act_locked(
        self, table: Table, seat: str, version: int | None, action_text: str, *, by_timer: bool
    ) -> list[Event]:
        """Steps 2-5 for a caller holding ``table.lock``; ``version`` None skips the check."""
        events = await self._apply_and_persist(table, seat, version, action_text, by_timer)
        await self.ctx.listener.game_changed(table, events, seat, by_timer)
        return events

    async def _apply_and_persist(
        self, table: Table, seat: str, version: int | None, action_text: str, by_timer: bool
    ) -> list[Event]:
        if table.record.status != "playing" or table.state is None:
            raise TableError("not_playing")
        if table.seat(seat) is None:
            raise IllegalAction("not_a_player")
        if version is not None and version != table.state.version:
            raise TableError("stale", version=version, current=table.state.version)
        game = table.game
        action = game.decode_action(action_text)
        new_state, events = game.apply(table.state, seat, action)
        outcome = game.outcome(new_state)
        meta = dict(table.record.meta)
        if not by_timer:
            meta["timeouts"] = {**meta.get("timeouts", {}), seat: 0}
        state_json = game.dump_state(new_state)
        try:
            await self.ctx.repo.record_action(
                table.record,
                seat=seat,
                action=action.encode(),
                state_json=state_json,
                version=new_state.version,
                by_timer=by_timer,
                meta=meta,
                finished=outcome is not None,
                standings=standing_deltas(table, outcome) if outcome else None,
                transfers=card_transfers(outcome) if outcome else None,
                # A card staked here may have left its owner in another game meanwhile: that
                # transfer is skipped rather than leaving this game unable to finish.
                skip_unheld_cards=True,
            )
        except StaleVersion as exc:  # another process wrote first: refuse
            raise TableError("stale", version=version, current=table.state.version) from exc
        table.state = new_state
        table.last_events = events
        table.record.state = state_json
        table.record.version = new_state.version
        table.record.meta = meta
        if outcome is not None:
            table.record.status = "finished"
        return events
