"""Issue 30.3 "Provably fair deals", through the fake Discord and the real bot: every table
shows its deal's commitment from its first move (all five games); nobody sees the seed or the
salt before the end (no message, no earlier version of one, no attachment, no log line); the
end reveals them; ``/replay`` says the deal is verified, and a tampered salt is caught; the
export (``python -m bot.deal_export``) passes ``python -m games verify`` in a fresh process."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from pathlib import Path

import pytest

from bot.deal_export import export_json
from games.amapatolli import GAME
from games.core.fairness import commitment, short
from tests.e2e.amapatolli_driver import start_game as start_amapatolli
from tests.e2e.chupate2_driver import start_game as start_chupate2
from tests.e2e.macarena_driver import start_game as start_macarena
from tests.e2e.maquiavelo_driver import start_game as start_maquiavelo
from tests.e2e.triad_driver import TriadMatch, open_against_cpu, pick_five
from tests.fakediscord.model import Message
from tests.message_text import read_card, text_of

REPO = Path(__file__).resolve().parents[2]
SEED = "e2e-0063"  # Ce Amapatolli: 12 moves
SEALED = "🔒 Reparto sellado · "
REVEALED = "🔓 Reparto revelado · "


async def _seal(mesa, table_id: int) -> dict:
    record = await mesa.bot.tables.repo.get(table_id)
    seal = record.meta["fair"]
    assert seal["commitment"] == commitment(record.seed, seal["salt"])
    return {"seed": record.seed, **seal}


def _game_versions(message: Message) -> list[dict]:
    """Every state the public message showed once the game started (its earlier versions
    included): those whose footer reads "Versión N"."""
    shown = [*message.versions, message.snapshot()]
    return [
        s
        for s in shown
        if (card := read_card(s)) is not None
        and ((card.get("footer") or {}).get("text") or "").startswith("Versión")
    ]


def _deal_field(snapshot: dict) -> dict | None:
    card = read_card(snapshot)
    for f in (card.get("fields") if card is not None else None) or ():
        if f["name"].startswith((SEALED, REVEALED)):
            return f
    return None


def assert_sealed_from_the_first_move(message: Message, seal: dict) -> int:
    """Every version of the public table since the start carries the commitment (short in the
    field's name, in full in its value); returns how many versions were checked."""
    versions = _game_versions(message)
    assert versions, "the table never showed a game"
    assert "Versión 0" in read_card(versions[0])["footer"]["text"]
    for snapshot in versions:
        field = _deal_field(snapshot)
        assert field is not None, read_card(snapshot).get("fields")
        assert field["name"].endswith(short(seal["commitment"]))
        if field["name"].startswith(SEALED):
            assert seal["commitment"] in field["value"]
    return len(versions)


def assert_secret_until_the_end(fake, seal: dict, records: list[logging.LogRecord]) -> int:
    """Neither the seed nor the salt is in any message the fake holds (deleted ones, earlier
    versions, ephemerals, DMs, attachments' names, descriptions and bytes) unless that very
    version shows the finished table's reveal; nor in any log line but one logging that reveal
    (discord.py logs request bodies at DEBUG). Returns the states seen."""
    secrets_ = (seal["seed"], seal["salt"])
    seen = 0
    for message in fake.messages.values():
        for snapshot in [*message.versions, message.snapshot()]:
            seen += 1
            text = json.dumps(snapshot, ensure_ascii=False)
            if any(s in text for s in secrets_):
                field = _deal_field(snapshot)
                assert field is not None and field["name"].startswith(REVEALED), text[:500]
        for attachment in message.attachments:
            for s in secrets_:
                assert s not in (attachment.description or "") and s not in attachment.filename
                assert s.encode() not in attachment.data
    for record in records:
        line = record.getMessage()
        if any(s in line for s in secrets_):
            # discord.py's DEBUG log of a request body: only the finished table's reveal
            assert REVEALED in line or REVEALED.encode("unicode_escape").decode() in line, line
    return seen


async def test_a_game_is_sealed_at_its_first_move_revealed_at_its_end_and_verified(
    fake_discord, mesa, caplog, tmp_path
):
    caplog.set_level(logging.DEBUG)
    fake = fake_discord
    mesa.seed = SEED
    # every kind of view: hands by DM (alice, carol), by "Ver mi mano" (bob, DMs closed), a
    # follower's DMs (dora), the /tables listing
    players = [fake.user("alice"), fake.user("bob", dms_open=False), fake.user("carol")]
    dora = fake.user("dora")
    table = await start_amapatolli(fake, players, seed=SEED)
    seal = await _seal(mesa, table.table_id)
    assert seal["seed"] == SEED and len(seal["salt"]) == 64
    listing = await (await dora.slash("tables"))
    await (await dora.click(listing, f"Seguir #{table.table_id}")).acknowledged()
    await fake.wait_until(lambda: bool(dora.dms()), what="the follower's first DM")

    async def still_secret(moves: int) -> None:
        if moves % 4 == 1:
            await table.show_hand(players[1])
        assert_secret_until_the_end(fake, seal, caplog.records)

    await table.play_to_the_end(still_secret)
    await mesa.bot.listener.drain()
    await fake.settle()
    public = table.public()
    assert assert_sealed_from_the_first_move(public, seal) >= 12
    final = _deal_field(public.snapshot())
    assert final["name"] == REVEALED + short(seal["commitment"])
    assert f"`{SEED}`" in final["value"] and f"`{seal['salt']}`" in final["value"]
    assert assert_secret_until_the_end(fake, seal, caplog.records) > 20

    # /replay: the deal is verified (commitment recomputed, the deal re-dealt from the seed)
    replay = await (await players[0].slash("replay", table=table.table_id))
    assert "✅ Reparto verificado" in text_of(replay), text_of(replay)
    assert seal["salt"] in text_of(replay) and short(seal["commitment"]) in text_of(replay)
    stepped = await (await players[0].click(replay, "▶"))
    assert "✅ Reparto verificado" in text_of(stepped)

    # the export (python -m bot.deal_export, from the database), checked by the command line
    # in a fresh process (no bot, no database)
    database = str(mesa.database_url or mesa.db_path)
    exported = subprocess.run(
        [sys.executable, "-m", "bot.deal_export", str(table.table_id), "--database", database],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert exported.returncode == 0, exported.stderr
    text = exported.stdout
    assert text.strip() == await export_json(database, table.table_id)
    export = tmp_path / "deal.json"
    export.write_text(text, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "games", "verify", str(export)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith(f"verified: table #{table.table_id} amapatolli")
    honest = json.loads(text)
    other_deal = GAME.new(honest["seats"], "e2e-0064", honest["options"])
    for change, why in (
        ({"seed": "e2e-0064"}, "✗ commitment"),
        (
            {"first_state": GAME.dump_state(other_deal.model_copy(update={"seed": SEED}))},
            "✗ first_state",
        ),
    ):
        export.write_text(json.dumps({**honest, **change}), encoding="utf-8")
        refused = subprocess.run(
            [sys.executable, "-m", "games", "verify", str(export)],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert refused.returncode == 1, refused.stdout + refused.stderr
        assert refused.stdout.startswith("NOT verified") and why in refused.stdout, refused.stdout

    # a salt changed in the database since: /replay says the deal is NOT verified
    def other_salt(conn):
        record_meta = {**json.loads(_meta_json(conn, table.table_id))}
        record_meta["fair"] = {**record_meta["fair"], "salt": "0" * 64}
        conn.execute(
            "UPDATE tables SET meta = ? WHERE id = ?", (json.dumps(record_meta), table.table_id)
        )

    await mesa.bot.db.write(other_salt)
    mesa.bot.get_cog("ReplayCog")._cache.clear()
    tampered = await (await players[0].slash("replay", table=table.table_id))
    assert "⚠️ Reparto NO verificado" in text_of(tampered), text_of(tampered)
    assert "no dan el compromiso" in text_of(tampered)
    assert fake.violations == []


def _meta_json(conn, table_id: int) -> str:
    return conn.execute("SELECT meta FROM tables WHERE id = ?", (table_id,)).fetchone()[0]


async def test_triad_a_match_with_chosen_hands_is_sealed_and_verified(fake_discord, mesa):
    """Triple Triad deals from the seed and the chosen hands (its setup): the seal and the
    replay's re-deal take both."""
    fake = fake_discord
    alice = fake.user("alice")
    table_id, picker = await open_against_cpu(fake, alice, payout="una", level="easy")
    await pick_five(fake, alice, picker, table_id)
    match = TriadMatch(fake, table_id, alice)
    await fake.wait_until(lambda: match.version() == 0, what="the game started")
    seal = await _seal(mesa, table_id)
    await match.play()
    await mesa.bot.listener.drain()
    await fake.settle()
    assert assert_sealed_from_the_first_move(match.public(), seal) >= 5
    assert_secret_until_the_end(fake, seal, [])
    replay = await (await alice.slash("replay", table=table_id))
    assert "✅ Reparto verificado" in text_of(replay), text_of(replay)


@pytest.mark.parametrize("key", ["chupate2", "macarena", "maquiavelo"])
async def test_every_game_shows_its_commitment_from_the_first_move(fake_discord, mesa, key):
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    if key == "chupate2":
        table = await start_chupate2(fake, [alice, bob], seed=mesa.seed, options={})
    elif key == "macarena":
        table = await start_macarena(fake, [alice, bob], seed=mesa.seed, options={}, cpus=1)
    else:
        table = await start_maquiavelo(fake, [alice, bob], seed=mesa.seed, hand_size=11)
    seal = await _seal(mesa, table.table_id)
    for _ in range(2):
        await table.move()
    await mesa.bot.listener.drain()
    await fake.settle()
    assert assert_sealed_from_the_first_move(table.public(), seal) >= 2
    assert_secret_until_the_end(fake, seal, [])
