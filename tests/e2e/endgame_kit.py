"""How the end of a game must read for every person at the table (issue 12, "The end reads like
an end"), checked the same way for every game once it was played to its end.

- The public message shows the result ("Resultado") and offers "Revancha".
- Each person's last private view of the table (their DM, or with DMs closed their "Ver mi
  mano" answer) says the game is over, carries the same result lines, and shows no buttons;
  no DM of that table is left clickable; nobody got more than 3 DMs for the game.
- "Revancha" turns off once used, and a press that raced that edit is told why.
"""

from __future__ import annotations

from tests.e2e.alt_text import assert_alt_text_everywhere
from tests.e2e.dm_count import assert_few_dms
from tests.fakediscord.model import Message
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.users import FakeUser
from tests.message_text import clickable, read_card

RESULTS = "Resultado"
OVER = "La partida terminó."
REMATCH = "Revancha"


def results_of(message: Message) -> str:
    return next(f for f in read_card(message)["fields"] if f["name"] == RESULTS)["value"]


def table_views(user: FakeUser, table_id: int, *, dms: bool) -> list[Message]:
    """The private views (DMs, or ephemeral answers) ``user`` got of table ``table_id``."""
    title = f"#{table_id}"
    shown = user.dms() if dms else user.ephemerals()
    return [
        m
        for m in shown
        if read_card(m)
        and title in (read_card(m).get("title") or "")
        and "—" in read_card(m)["title"]
    ]


async def check_the_end(
    fake: FakeDiscord,
    mesa,
    public: Message,
    table_id: int,
    people: list[FakeUser],
) -> str:
    """Everything above, for the finished table ``table_id`` (its public message ``public``)
    and its ``people``; "Revancha" is pressed by the first of them. Returns the result lines."""
    await mesa.bot.listener.drain()
    await fake.settle()
    results = results_of(public)
    assert [b.label for b in public.buttons] == [REMATCH], [b.label for b in public.buttons]
    for person in people:
        views = table_views(person, table_id, dms=person.dms_open)
        assert views, f"{person.name} never saw a private view"
        final = views[-1]
        assert OVER in final.text, (person.name, final.text)
        assert results_of(final) == results, (person.name, results_of(final), results)
        assert clickable(final) == [], (person.name, clickable(final))
        if person.dms_open:
            # Views sent before a restart too: the bot stores them (bot/ui/shown.py).
            live = [m.text[:60] for m in views if clickable(m)]
            assert live == [], (person.name, live)
    assert_few_dms(fake, people)  # one hand message per player, edited in place (issue 31)
    assert_alt_text_everywhere(fake)  # every image says what it shows (issue 28 item 4)
    host = people[0]
    await (await host.click(public, REMATCH)).acknowledged()
    await fake.wait_until(
        lambda: all(b.disabled for b in public.buttons if b.label == REMATCH),
        what="Revancha disabled",
    )
    late = await (await host.forge_click(public, f"l:{table_id}:rematch"))
    assert late.ephemeral and "La revancha de esta partida ya está abierta" in late.text
    return results
