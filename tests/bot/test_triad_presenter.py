"""Triple Triad payloads: Discord limits, only legal moves offered, hidden cards never shown."""

from __future__ import annotations

import json
import random
import time
from functools import partial

import pytest

from bot.i18n import translator
from bot.registry import load_games
from bot.service import ServiceConfig, TableService
from bot.ui.messages import private_payload, public_payload
from bot.ui.presenter import presenter_for
from bot.ui.triad.lobby import lobby_payload, picker_payload
from games.core import IllegalAction
from games.triad.cards import ids_of_levels
from storage import CollectionsRepo, open_database
from tests.bot.lobby_kit import open_lobby
from tests.bot.test_messages import _check_limits
from tests.bot.test_tables import RecordingListener
from tests.message_text import clickable
from tests.waiting import computer_idle

GAME = load_games(("triad",))["triad"]
PRESENTER = presenter_for(GAME)
HANDS = {"1": ids_of_levels((1,))[:5], "2": ids_of_levels((9,))[:5]}


def _everything(payload) -> str:
    """All text a payload carries: content, embeds, component labels, options, custom_ids."""
    parts = [payload.content or ""]
    parts += [json.dumps(e.to_dict(), ensure_ascii=False) for e in payload.embeds]
    if payload.view is not None:
        parts.append(json.dumps(payload.view.to_components(), ensure_ascii=False))
    return "\n".join(parts)


async def _holding(db, hands) -> None:
    """The players hold the cards they pick (a start stakes them from their collections)."""
    repo = CollectionsRepo(db)
    for user, cards in hands.items():
        if user.isdigit():
            await repo.grant(user, "triad", list(cards), "admin")


async def _table(db_target, **options):
    db = await open_database(db_target)
    await _holding(db, HANDS)
    service = TableService(
        db, {"triad": GAME}, RecordingListener(), ServiceConfig(cpu_delay_seconds=0)
    )
    table = await open_lobby(service, "triad", host=("1", "Ana"), seed="pres-1", options=options)
    await service.lobby.join(table.id, "2", "Beto")
    await service.lobby.start(table.id, "1", setup={"hands": HANDS})
    return db, service, table


def _hidden_of(table, seat: str) -> set[str]:
    """Card ids of the other seat that ``seat`` must not see (in hand, never on the board)."""
    state = table.state
    other = 1 - state.seats.index(seat)
    seen = {c.card for c in state.board if c is not None} | {c.card for c in state.hands[1 - other]}
    return {c.card for c in state.hands[other]} - seen


@pytest.mark.parametrize("open_rule", [False, True])
async def test_payloads_offer_only_legal_moves_and_hide_the_other_hand(db_target, open_rule):
    db, service, table = await _table(db_target, open=open_rule, elemental=True, same=True)
    tr = translator("es")
    rng = random.Random(3)
    while table.record.status == "playing":
        public = public_payload(table, PRESENTER, service, tr)
        _check_limits(public)
        text = _everything(public)
        for seat in table.state.seats:
            legal = {a.encode() for a in GAME.legal_actions(table.state, seat)}
            payload = private_payload(table, PRESENTER, seat, tr)
            _check_limits(payload, legal)
            mine = _everything(payload)
            for card in _hidden_of(table, seat):
                name = tr(f"triad.card.{card}")
                assert (name in mine) == open_rule, (seat, card)
                assert card not in mine or open_rule
            for card in _hidden_of(table, seat):  # the public message: both hands if Abierto
                assert (tr(f"triad.card.{card}") in text) == open_rule, (card, open_rule)
        seat = sorted(GAME.to_act(table.state))[0]
        legal = GAME.legal_actions(table.state, seat)
        view = GAME.view(table.state, seat)
        if legal[0].kind == "play":
            # Build the move with the draft: card, then a cell. Only free cells are enabled.
            action = rng.choice(legal)
            items, rest = PRESENTER.private_components(table.id, view, legal, {}, str, tr)
            assert rest == [] and {i.custom_id for i in items} == {
                f"d:{table.id}:{view.version}:c{a.slot}" for a in legal
            }
            draft, done = PRESENTER.draft_step(view, legal, {}, f"c{action.slot}", [])
            assert done is None and draft == {"slot": action.slot}
            items, _ = PRESENTER.private_components(table.id, view, legal, draft, str, tr)
            enabled = {
                i.custom_id.rsplit(":", 1)[1]
                for i in items
                if i.custom_id.split(":")[3].startswith("x") and not i.item.disabled
            }
            assert enabled == {f"x{a.cell}" for a in legal if a.slot == action.slot}
            assert len([i for i in items if ":x" in i.custom_id]) == 9
            _, text_action = PRESENTER.draft_step(view, legal, draft, f"x{action.cell}", [])
            assert text_action == action.encode()
            taken = next((c for c in range(9) if table.state.board[c] is not None), None)
            if taken is not None:
                with pytest.raises(IllegalAction):
                    PRESENTER.draft_step(view, legal, draft, f"x{taken}", [])
        else:
            action = legal[0]
        await service.act(table.id, seat, table.version, action.encode())
        if table.state.last_move is not None and action.kind == "play":
            placed = tr(f"triad.card.{action.card}")
            line = tr(
                "triad.event.played",
                player={"1": "Ana", "2": "Beto"}[seat],
                card=placed,
                cell=tr(f"triad.cell.{action.cell}"),
            )
            assert line in _everything(public_payload(table, PRESENTER, service, tr))
    assert table.record.status == "finished"
    await service.close()
    await db.close()


async def test_payout_pick_buttons_and_outcome_lines(db_target):
    db, service, table = await _table(db_target, payout="una")
    tr = translator("en")
    # Seat "2" holds level-9 cards: play greedily until the end, then "2" must pick.
    while table.state.phase == "play":
        seat = sorted(GAME.to_act(table.state))[0]
        await service.act(
            table.id, seat, table.version, GAME.legal_actions(table.state, seat)[0].encode()
        )
    winner = GAME.view(table.state, None).pick.winner
    # The public message tells who won and who is choosing (from the view, not an event log).
    public = _everything(public_payload(table, PRESENTER, service, tr))
    assert "wins" in public and "chooses 1 card from" in public
    payload = private_payload(table, PRESENTER, winner, tr)
    picks = {a.encode() for a in GAME.legal_actions(table.state, winner)}
    _check_limits(payload, picks)
    offered = {b["custom_id"].split(":", 3)[3] for b in clickable(payload)}
    assert offered == picks and len(picks) == 5
    loser = next(s for s in table.state.seats if s != winner)
    assert private_payload(table, PRESENTER, loser, tr).view is None or not any(
        c["custom_id"].startswith("t:")
        for c in clickable(private_payload(table, PRESENTER, loser, tr))
    )
    taken = sorted(picks)[0]
    await service.act(table.id, winner, table.version, taken)
    outcome = GAME.outcome(table.state)
    lines = PRESENTER.outcome_lines(outcome, {"1": "Ana", "2": "Beto"}.get, tr)
    card = taken.split(".")[2]
    name = tr(f"triad.card.{card}")
    assert any(name in line and "from Ana to Beto" in line for line in lines) or any(
        name in line and "from Beto to Ana" in line for line in lines
    )
    events = [PRESENTER.event_text(e, {"1": "Ana", "2": "Beto"}.get, tr) for e in table.last_events]
    assert any(name in (t or "") for t in events)
    assert "Payout (One): 1 card changes hands." in events
    await service.close()
    await db.close()


def test_triad_takes_a_custom_play_command():
    assert PRESENTER.custom_play_command is True


def test_picker_pages_and_limits():
    tr = translator("es")
    cards = {c: 2 for c in ids_of_levels((1, 2, 3))}  # 33 distinct cards: 4 pages of 10
    picks = [ids_of_levels((3,))[0]] * 2
    first = picker_payload(7, cards, picks, 0, False, tr)
    _check_limits(first)
    ids = [c["custom_id"] for c in clickable(first)]
    assert "tts:7:add0" in ids and "tts:7:rm0" in ids and "tt:7:pg1" in ids
    assert "Página 1/4" in _everything(first) and "Elegidas (2/5)" in _everything(first)
    add = next(c for c in clickable(first) if c["custom_id"] == "tts:7:add0")
    assert len(add["options"]) == 9  # the card chosen twice (both copies) can't be added again
    last = picker_payload(7, cards, picks, 9, False, tr)
    assert "Página 4/4" in _everything(last)
    full = picker_payload(7, cards, ids_of_levels((1,))[:5], 0, False, tr)
    _check_limits(full)
    ok = next(c for c in clickable(full) if c["custom_id"] == "tt:7:ok")
    assert not ok.get("disabled")
    assert not any(c["custom_id"].startswith("tts:7:add") for c in clickable(full))
    assert clickable(picker_payload(7, cards, picks, 0, True, tr)) == []  # ready: nothing to press


async def test_challenge_lobby_shows_rules_payout_and_accept(tmp_path):
    db = await open_database(tmp_path / "l.db")
    service = TableService(
        db, {"triad": GAME}, RecordingListener(), ServiceConfig(cpu_delay_seconds=0)
    )
    table = await service.lobby.open(
        guild_id="g",
        channel_id="c",
        game_key="triad",
        host_id="1",
        host_name="Ana",
        locale="en",
        options={"same": True, "payout": "todas"},
        seed="l",
    )
    table.record.meta = {"triad": {"opponent": "2"}}
    tr = translator("en")
    payload = lobby_payload(table, service, tr)
    _check_limits(payload)
    text = _everything(payload)
    assert "Same" in text and "All" in text and "<@2>" in text
    assert {c["custom_id"] for c in clickable(payload)} == {
        f"tt:{table.id}:accept",
        f"tt:{table.id}:decline",
        f"tt:{table.id}:cancel",
        f"l:{table.id}:rules",
    }
    await service.lobby.join(table.id, "2", "Beto")
    after = lobby_payload(table, service, tr)
    assert f"tt:{table.id}:cards" in _everything(after) and "choosing cards (0/5)" in _everything(
        after
    )
    await service.close()
    await db.close()


async def test_the_service_gives_the_computer_the_think_budget(tmp_path):
    db = await open_database(tmp_path / "h.db")
    await _holding(db, {"1": HANDS["1"]})
    asked = []

    def clock() -> float:  # what the service's think budget runs on
        asked.append(1)
        return time.monotonic()

    service = TableService(
        db,
        {"triad": GAME},
        RecordingListener(),
        ServiceConfig(cpu_delay_seconds=0, cpu_think_seconds=0.05),
        think_clock=clock,
    )
    table = await open_lobby(
        service, "triad", host=("1", "Ana"), seed="think", options={"cpu_level": "hard"}
    )
    await service.lobby.add_cpu(table.id, "1")
    await service.lobby.start(table.id, "1", setup={"hands": {"1": HANDS["1"], "cpu1": HANDS["2"]}})
    while table.record.status == "playing":
        if "1" in GAME.to_act(table.state):
            await service.act(
                table.id, "1", table.version, GAME.legal_actions(table.state, "1")[0].encode()
            )
        await computer_idle(service, table.id)
    assert asked  # hard searched on the service's clock
    await service.close()
    await db.close()


def test_cards_pages_show_name_level_element_values_and_quantity():
    from bot.ui.answer_layout import answer_view
    from bot.ui.profile_view import profile_answer
    from bot.ui.triad.lobby import cards_payload
    from games.triad.cards import card

    tr = translator("en")
    cards = {c: 1 for c in ids_of_levels((1, 2, 3))}
    cards["c001"] = 3
    first = cards_payload("55", "Ana", cards, 0, tr)
    _check_limits(first)
    text = _everything(first)
    assert "Ana's collection: 35 cards (33 different)" in text and "Page 1/4" in text
    ids = [c["custom_id"] for c in clickable(first)]
    assert ids == ["tk:55:0", "tk:55:1"]
    assert "Page 4/4" in _everything(cards_payload("55", "Ana", cards, 9, tr))  # clamped
    last = _everything(cards_payload("55", "Ana", cards, 2, tr))
    assert "×3" in last and "Page 3/4" in last  # strongest first: level 1 from page 3
    c = card("c001")
    assert tr("triad.card.c001") in last and f"Lv. {c.level}" in last
    assert "-".join("A" if v == 10 else str(v) for v in c.edges) in last
    profile = json.dumps(
        answer_view(
            profile_answer(
                "Ana",
                {
                    "played": 3,
                    "won": 1,
                    "drawn": 1,
                    "lost": 1,
                    "cards_won": 2,
                    "cards_lost": 1,
                    "cards": 8,
                },
                [("Macarena", 2, 5)],
                "Macarena: rating **1040** (5 games)",
                tr,
            )
        ).to_components(),
        ensure_ascii=False,
    )
    assert "wins 1, draws 1, losses 1" in profile and "Cards won: 2" in profile
    assert "Macarena: 2 wins in 5 games" in profile


def test_card_labels_and_faces_written_once_read_as_written_afresh():
    """A card's label and a face's text are kept per card, level, element and language: the
    same as written afresh (through a translator that keeps nothing) for every catalogue card,
    and another translator gets its own words."""
    from types import SimpleNamespace

    from bot.i18n import LOCALES
    from bot.ui.triad import text
    from games.triad.cards import ELEMENTS, cards_by_id

    for locale in LOCALES:
        tr = translator(locale)
        afresh = partial(tr)  # the same words, from a translator that keeps nothing
        for card_id, card in cards_by_id().items():
            label = text.card_label(card_id, afresh)
            assert text.card_label(card_id, tr) == text.card_label(card_id, tr) == label
            for level, element in ((card.level, card.element), (card.level + 1, ELEMENTS[0])):
                face = SimpleNamespace(card=card_id, level=level, element=element)
                written = text.face_text(face, afresh)
                assert text.face_text(face, tr) == text.face_text(face, tr) == written
    card_id = next(iter(cards_by_id()))
    assert text.card_label(card_id, lambda key, **_: f"<{key}>").startswith(
        f"<triad.card.{card_id}>"
    )
