"""``bot/ui/fresh.py`` keeps what it knows of table messages only while their tables are open:
one entry per open table (its current message) plus the messages it replaced, all forgotten at
the table's last word; a long-running bot does not grow with the games played."""

from __future__ import annotations

from bot.ui.fresh import FRESH_SECONDS, TableMessageAges


def _ages():
    now = [0.0]
    return TableMessageAges(lambda: now[0]), now


def test_a_message_about_an_hour_old_is_too_old_and_a_new_one_is_not():
    ages, now = _ages()
    ages.posted("m1", 1)
    assert not ages.too_old("m1", 1)
    now[0] += FRESH_SECONDS
    assert ages.too_old("m1", 1)
    ages.moved("m1", 1)
    ages.posted("m2", 1)
    assert not ages.too_old("m2", 1)
    assert len(ages) == 2  # the table's message and the one it replaced


def test_a_message_first_seen_after_a_restart_counts_from_then():
    ages, now = _ages()
    now[0] = 10 * FRESH_SECONDS
    assert not ages.too_old("m9", 9)  # known from now on
    now[0] += FRESH_SECONDS
    assert ages.too_old("m9", 9)


def test_a_thousand_finished_games_leave_nothing_behind():
    ages, now = _ages()
    for table in range(1000):
        ages.posted(f"a{table}", table)
        for edit in range(3):  # edited, then about an hour old: replaced, and again
            now[0] += FRESH_SECONDS / 2
            if ages.too_old(f"a{table}" if edit < 2 else f"b{table}", table):
                old = f"a{table}"
                ages.moved(old, table)
                ages.posted(f"b{table}", table)
        assert ages.moved_table(None) is None
        assert len(ages) <= 2
        ages.ended(table)
    assert len(ages) == 0


def test_one_message_per_open_table_however_often_each_is_reposted():
    ages, _ = _ages()
    for table in range(50):
        for n in range(20):  # e.g. a deleted message posted anew, again and again
            ages.posted(f"{table}-{n}", table)
    assert len(ages) == 50


def test_the_moved_messages_of_an_open_table_still_say_where_it_went():
    ages, _ = _ages()
    ages.posted("100", 7)
    ages.moved("100", 7)
    ages.posted("101", 7)
    ages.posted("200", 8)
    ages.ended(8)
    assert ages.moved_table(100) == 7  # table 7 still open
    ages.ended(7)
    assert ages.moved_table(100) is None
