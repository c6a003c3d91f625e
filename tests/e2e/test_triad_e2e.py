"""Triple Triad end to end: /play triad against the computer under payout Una, picking five
cards, placing them with the card-then-cell buttons, the payout pick, and /cards afterwards."""

from __future__ import annotations

from bot.i18n import tr
from storage import CollectionsRepo
from tests.e2e.triad_driver import TriadMatch, collection_size, open_against_cpu, pick_five

SEED = "triad-e2e-01"


async def test_a_match_against_the_computer_changes_the_collection(fake_discord, mesa):
    fake = fake_discord
    mesa.seed = SEED
    alice = fake.user("alice")
    before, _ = await collection_size(alice)
    assert before == 7  # the starter set, granted on first use

    table_id, picker = await open_against_cpu(fake, alice, payout="una", level="easy")
    assert "Tus cartas para la mesa" in picker.text and "Página 1/1" in picker.text
    chosen = await pick_five(fake, alice, picker, table_id)
    match = TriadMatch(fake, table_id, alice)
    await fake.wait_until(lambda: match.version() == 0, what="the game started")
    public = match.public()
    assert [a.filename for a in public.attachments] == ["table.png"]
    assert "Pago: **Una**" in public.text

    await match.play()

    assert len(match.moves) == 5  # this seed: alice starts, places five cards and wins 6-4
    result = next(f for f in match.public().embeds[0]["fields"] if f["name"] == "Resultado")
    assert "Gana **alice**" in result["value"], result["value"]
    [pick] = match.picks  # payout Una: alice took one card of the computer's, by a button
    card_id = pick.split(":")[2]
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
