"""A table's own options (turn time, computer level and delay) are read from its stored options
once, and again only when the record's options are another dict; the listener's copies of the
table share what was read."""

from bot.registry import load_games
from bot.service.models import Table
from bot.service.notify import as_of
from storage import SeatInfo, TableRecord


def _table(options: dict) -> Table:
    record = TableRecord(
        id=1,
        guild_id="g",
        channel_id="c",
        game="macarena",
        status="playing",
        host_id="1",
        locale="es",
        options=options,
        seats=[SeatInfo(id="1", name="Ana")],
        seed="s",
    )
    return Table(record=record, game=load_games()["macarena"])


def test_table_options_are_read_once_and_again_for_other_stored_options():
    table = _table({"hands": 3, "turn_seconds": 90, "cpu_level": "hard"})
    first = table.table_options()
    assert (first.turn_seconds, first.cpu_level, first.cpu_delay_seconds) == (90, "hard", None)
    assert table.table_options() is first  # read once
    table.record.options = {"turn_seconds": 45}
    again = table.table_options()
    assert again is not first and again.turn_seconds == 45 and again.cpu_level == "normal"


def test_the_listeners_copy_shares_what_was_read():
    table = _table({"turn_seconds": 30})
    read = table.table_options()
    copy = as_of(table)()
    assert copy is not table and copy.table_options() is read


def test_the_listeners_copy_is_the_change_as_posted_with_the_current_message_id():
    table = _table({"turn_seconds": 30})
    table.record.message_id = "10"
    at = as_of(table)
    table.record.version, table.record.meta = 7, {"moved": True}  # a later change, in place
    copy = at()
    assert copy.record is not table.record
    assert (copy.record.message_id, copy.record.version, copy.record.meta) == ("10", 0, {})
    table.record.message_id = "11"  # posted afresh meanwhile: the delivery shows it there
    later = as_of(table)
    table.record.message_id = "12"
    moved = later()
    assert moved.record.message_id == "12" and moved.record.version == 7
    assert table.record.message_id == "12" and copy.record.message_id == "10"
