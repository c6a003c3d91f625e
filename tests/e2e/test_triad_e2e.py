"""Triple Triad end to end: /play triad against the computer under payout Una, picking five
cards, placing them with the card-then-cell buttons, the payout pick, and /cards afterwards."""

from __future__ import annotations

import re

from bot.i18n import tr
from storage import CollectionsRepo
from tests.e2e.endgame_kit import check_the_end
from tests.e2e.triad_driver import TriadMatch, collection_size, open_against_cpu, pick_five
from tests.message_text import read_card

SEED = "triad-e2e-01"


async def test_a_match_against_the_computer_changes_the_collection(fake_discord, mesa):
    fake = fake_discord
    mesa.seed = SEED
    alice = fake.user("alice")
    before, _ = await collection_size(alice)
    assert before == 7  # the starter set, granted on first use

    table_id, picker = await open_against_cpu(fake, alice, payout="una", level="easy")
    assert "Tus cartas para la mesa" in picker.text and "Página 1/1" in picker.text
    chosen = await pick_five(fake, alice, picker, table_id, confirm=False)
    # Change one's mind: remove a chosen card (the add select comes back), add it again.
    assert not any(s.custom_id.startswith(f"tts:{table_id}:add") for s in picker.selects)
    await (await alice.select(picker, [chosen[-1]], custom_id=f"tts:{table_id}:rm0")).acknowledged()
    await fake.wait_until(lambda: "Elegidas (4/5)" in picker.text, what="one card removed")
    await (
        await alice.select(picker, [chosen[-1]], custom_id=f"tts:{table_id}:add0")
    ).acknowledged()
    await fake.wait_until(lambda: "Elegidas (5/5)" in picker.text, what="five again")
    await (await alice.click(picker, custom_id=f"tt:{table_id}:ok")).acknowledged()
    await fake.wait_until(lambda: picker.selects == [], what="the picker confirmed")
    match = TriadMatch(fake, table_id, alice)
    await fake.wait_until(lambda: match.version() == 0, what="the game started")
    public = match.public()
    assert [a.filename for a in public.attachments] == ["table.png"]
    assert "Pago: **Una**" in public.text

    await match.play()

    assert len(match.moves) == 5  # this seed: alice starts, places five cards and wins 6-4
    result = next(f for f in read_card(match.public())["fields"] if f["name"] == "Resultado")
    assert "Gana **alice**" in result["value"], result["value"]
    [pick] = match.picks  # payout Una: alice took one card of the computer's, by a button
    card_id = pick.split(".")[2]
    name = tr("es", f"triad.card.{card_id}")
    assert f"🃏 {name}" in result["value"]

    after, shown = await collection_size(alice)
    assert after == before + 1
    assert name in shown.text
    repo = CollectionsRepo(mesa.bot.db)
    ledger = await repo.ledger(str(alice.id), "triad")
    assert [(r.card_id, r.delta, r.reason) for r in ledger][-1] == (card_id, 1, "payout")
    cards = await repo.cards(str(alice.id), "triad")
    assert sum(r.delta for r in ledger) == sum(cards.values()) == after
    assert set(chosen) <= set(cards)


async def _lobby(fake, table_id):
    return await fake.wait_for_message(
        lambda m: bool(read_card(m)) and f"mesa #{table_id}" in (read_card(m).get("title") or "")
    )


async def test_a_member_declines_then_accepts_and_both_pick_across_a_restart(fake_discord, mesa):
    fake = fake_discord
    mesa.seed = "triad-e2e-pvp"
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")

    sent = await (await alice.slash("play triad", opponent=bob, payout="todas", same=True))
    table_id = int(re.search(r"#(\d+)", sent.content).group(1))
    lobby = await _lobby(fake, table_id)
    await fake.wait_until(
        lambda: "Aceptar" in [b.label for b in lobby.buttons], what="the challenge"
    )
    assert "Igual" in lobby.text and "Todas" in lobby.text and f"<@{bob.id}>" in lobby.text
    refused = await (await carol.click(lobby, "Aceptar"))
    assert refused.ephemeral and "para otra persona" in refused.content
    refused = await (await carol.click(lobby, "Rechazar"))
    assert refused.ephemeral and "para otra persona" in refused.content
    await (await bob.click(lobby, "Rechazar")).acknowledged()
    await fake.wait_until(
        lambda: "cerrada" in (read_card(lobby).get("title") or ""),
        what="the declined challenge closed",
    )

    sent = await (await alice.slash("play triad", opponent=bob, payout="todas"))
    table_id = int(re.search(r"#(\d+)", sent.content).group(1))
    lobby = await _lobby(fake, table_id)
    await fake.wait_until(
        lambda: "Aceptar" in [b.label for b in lobby.buttons], what="the second challenge"
    )
    bob_picker = await (await bob.click(lobby, "Aceptar"))
    assert bob_picker.ephemeral and "Tus cartas para la mesa" in bob_picker.text
    await fake.wait_until(
        lambda: "Elegir mis cartas" in [b.label for b in lobby.buttons], what="the accepted lobby"
    )
    alice_picker = await (await alice.click(lobby, "Elegir mis cartas"))
    await pick_five(fake, alice, alice_picker, table_id)
    await pick_five(fake, bob, bob_picker, table_id, confirm=False)
    await fake.wait_until(lambda: "cartas elegidas" in lobby.text, what="alice ready")

    await mesa.restart()  # picks live in the table's meta; the picker's buttons still work
    await (await bob.click(bob_picker, custom_id=f"tt:{table_id}:ok")).acknowledged()
    match = TriadMatch(fake, table_id, alice, others=[bob])
    await fake.wait_until(lambda: match.version() == 0, what="the game started")
    await match.play()
    assert match.picks == []  # payout Todas: no choice to make
    result = next(f for f in read_card(match.public())["fields"] if f["name"] == "Resultado")
    sizes = {p.name: (await collection_size(p))[0] for p in (alice, bob)}
    assert "Gana" in result["value"]  # this seed has a winner
    # The winner holds 7 + 5; the loser kept 2 and /cards topped them up to 5.
    assert sorted(sizes.values()) == [5, 12] and result["value"].count("🃏") == 5
    await check_the_end(fake, mesa, match.public(), table_id, [alice, bob])
    profile = await (await alice.slash("profile"))
    assert profile.ephemeral and "Partidas: 1" in profile.text
    assert fake.violations == []


async def test_mano_mezclada_against_the_computer_starts_at_once(fake_discord, mesa):
    fake = fake_discord
    mesa.seed = "triad-e2e-random"
    alice = fake.user("alice")
    reply = await (
        await alice.slash("play triad", random_hand=True, level="normal", payout="directo")
    )
    assert reply.ephemeral and not reply.selects  # no picker: the engine draws the five
    table_id = int(re.search(r"#(\d+)", reply.content).group(1))
    match = TriadMatch(fake, table_id, alice)
    await fake.wait_until(lambda: match.version() is not None, what="the game started")
    assert "Mano mezclada" in match.public().text
    dm = await alice.wait_for_dm(lambda m: bool(read_card(m)))
    assert "Tu mano" in dm.text


async def test_rematch_against_the_computer_opens_a_lobby_to_pick_again(fake_discord, mesa):
    fake = fake_discord
    mesa.seed = SEED
    alice = fake.user("alice")
    table_id, picker = await open_against_cpu(fake, alice, payout="directo", level="easy")
    await pick_five(fake, alice, picker, table_id)
    match = TriadMatch(fake, table_id, alice)
    await match.play()
    public = match.public()
    await (await alice.click(public, "Revancha")).acknowledged()
    lobby = await fake.wait_for_message(
        lambda m: (
            bool(read_card(m)) and f"mesa #{table_id + 1}" in (read_card(m).get("title") or "")
        )
    )
    await fake.wait_until(
        lambda: "Elegir mis cartas" in [b.label for b in lobby.buttons], what="the rematch lobby"
    )
    assert "Directo" in lobby.text and "CPU" in lobby.text
    again = await (await alice.click(lobby, "Elegir mis cartas"))
    assert again.ephemeral and f"mesa #{table_id + 1}" in again.text
    await pick_five(fake, alice, again, table_id + 1)
    rematch = TriadMatch(fake, table_id + 1, alice)
    await fake.wait_until(lambda: rematch.version() == 0, what="the rematch started")
