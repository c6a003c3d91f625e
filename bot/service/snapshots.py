"""A table's state as stored: written every ``SNAPSHOT_EVERY`` moves, not at every one (issue 29).

Every move writes its action row in its own transaction (persist before show: a move a player
saw survives ``kill -9``), and the state only when it is a snapshot: at the game's start, every
``SNAPSHOT_EVERY`` moves after the stored one, at the game's end (ratings, rematches, exports
and fairness read the final state) and when a table is closed mid-game. Between snapshots the
stored row says which version its state is (``TableRecord.state_version``) and the engines,
pure with seeded chance, rebuild the rest: ``restored`` loads the stored state and replays the
logged actions after it. Dumping a ~2-9 KB state on the event loop cost the bot ~90 us a move
live (``bench/probe_calls.py``), its deflate and write the writer thread ~5 us more; a restore
replays at most ``SNAPSHOT_EVERY - 1`` moves (``bench/snapshot_restore.py``).
"""

from __future__ import annotations

from collections.abc import Iterable

from games.core import Game, GameState
from storage import ActionRow, TableRecord, TablesRepo

# moves between two stored states: a restore replays at most SNAPSHOT_EVERY - 1 of them
SNAPSHOT_EVERY = 8


class UnrestorableState(Exception):
    """The stored state and the actions after it do not rebuild the table's version."""


def stores_state(record: TableRecord, version: int, finished: bool) -> bool:
    """Whether the move to ``version`` stores the state (a game's end always does)."""
    return finished or version - record.stored_version >= SNAPSHOT_EVERY


def replayed(game: Game, state: GameState, rows: Iterable[ActionRow]) -> GameState:
    """``state`` with the logged moves ``rows`` applied, in order."""
    for row in rows:
        state, _ = game.apply(state, row.seat, game.decode_action(row.action))
    return state


async def restored(repo: TablesRepo, game: Game, record: TableRecord) -> GameState | None:
    """The table's state at ``record.version``: the stored one, with the logged moves after it
    replayed (none when it is current); None for a table without a state (a lobby)."""
    if not record.state:
        return None
    if record.stored_version >= record.version:
        return game.load_state(record.state)
    return rebuilt(game, record, await repo.actions(record.id, after=record.stored_version))


def rebuilt(game: Game, record: TableRecord, rows: Iterable[ActionRow]) -> GameState:
    """The state at ``record.version`` from the stored one (``record.state``, not None) and
    the logged moves ``rows`` (those after it up to the record's version are replayed: not a
    move logged since the row was read, another process's on shared tables)."""
    assert record.state is not None
    since, upto = record.stored_version, record.version
    state = game.load_state(record.state)
    state = replayed(game, state, (row for row in rows if since < row.version <= upto))
    if state.version != record.version:
        raise UnrestorableState(
            f"table {record.id}: the state stored at version {record.stored_version} and its"
            f" logged moves reach version {state.version}, not {record.version}"
        )
    return state
