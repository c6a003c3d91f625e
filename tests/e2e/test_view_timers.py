"""discord.py gives an ephemeral message's view a 15-minute timer when the view says
``timeout=None`` (``view.timeout = 15 * 60.0`` in ``InteractionResponse.send_message`` and
``Webhook.send``), then keeps the view alive with an asyncio task until then. Mesa's components
are all ``DynamicItem``s dispatched by their custom ids, so nobody ever dispatches through those
views: at 600 tables ~1,200 such tasks and their views (with every item, the payload's texts)
stayed alive for 15 minutes, more heap for the collector to walk. Views say ``timeout=UNTIMED``
(0.0: no timer, and not None, so discord.py leaves it alone)."""

from __future__ import annotations

import asyncio

from tests.e2e.amapatolli_driver import AmapatolliTable
from tests.e2e.test_channel_play import _from_the_table
from tests.e2e.test_place_question import BY_DM, HERE, SEED, _seat, questions


def view_timers() -> list[asyncio.Task[object]]:
    """The live tasks that are discord.py view timers."""
    return [
        task
        for task in asyncio.all_tasks()
        if getattr(task.get_coro(), "__qualname__", "") == "BaseView.__timeout_task_impl"
    ]


async def test_ephemeral_views_keep_no_timer_task(fake_discord, mesa):
    fake = fake_discord
    mesa.seed = SEED
    alice, bob = fake.user("alice"), fake.user("bob")
    table_id, lobby = await _seat(fake, alice, [bob])
    # two ephemeral questions with buttons (follow-ups of /play and Join)
    await fake.wait_until(lambda: questions(alice, table_id) and questions(bob, table_id))
    assert view_timers() == []
    await (await bob.click(questions(bob, table_id)[0], HERE)).acknowledged()
    await (await alice.click(questions(alice, table_id)[0], BY_DM)).acknowledged()
    await (await alice.click(lobby, "Empezar")).acknowledged()
    table = AmapatolliTable(fake, table_id, [alice, bob], SEED, {"hand_size": 3})
    await table.wait_version(0)
    _from_the_table(table, bob)  # Bob's hand: ephemeral answers to "Ver mi mano", with buttons
    await table.play_to_the_end()
    await mesa.bot.listener.drain()

    assert view_timers() == []
    store = mesa.bot._connection._view_store  # nor does discord.py keep the views for dispatch
    assert store._synced_message_views == {} and store._views == {}
    assert fake.violations == []


async def test_a_click_builds_no_view_of_its_message(fake_discord, mesa, monkeypatch):
    """discord.py rebuilt the whole clicked message as a View/LayoutView (every text, row and
    button, in reference cycles) to find the dynamic item of a click; the bot finds the one
    component clicked (``bot/ui/items.route_by_component``) and builds no view at all."""
    import discord

    rebuilt: list[int] = []
    for cls in (discord.ui.View, discord.ui.LayoutView):
        real = cls.from_message.__func__  # type: ignore[attr-defined]

        def counting(view_cls, message, /, *, timeout=180.0, _real=real):  # type: ignore[no-untyped-def]
            rebuilt.append(message.id)
            return _real(view_cls, message, timeout=timeout)

        monkeypatch.setattr(cls, "from_message", classmethod(counting))
    fake = fake_discord
    mesa.seed = SEED
    alice, bob = fake.user("alice"), fake.user("bob")
    table_id, lobby = await _seat(fake, alice, [bob])
    await fake.wait_until(lambda: questions(alice, table_id) and questions(bob, table_id))
    await (await bob.click(questions(bob, table_id)[0], HERE)).acknowledged()
    await (await alice.click(questions(alice, table_id)[0], BY_DM)).acknowledged()
    await (await alice.click(lobby, "Empezar")).acknowledged()
    table = AmapatolliTable(fake, table_id, [alice, bob], SEED, {"hand_size": 3})
    await table.wait_version(0)
    _from_the_table(table, bob)  # clicks on the table, on ephemeral hands and in a DM
    await table.play_to_the_end()
    await mesa.bot.listener.drain()
    assert table.oracle.finished and table.moves > 3  # every click found its item
    assert rebuilt == []
    assert fake.violations == []
