"""Macarena on Discord: payload limits in every phase, the series builder (a draft) against
``apply``, the end-of-hand choice buttons, the collection button, names (never ids) in texts."""

from __future__ import annotations

import random

import pytest

from bot.i18n import translator
from bot.service import Table
from bot.ui.macarena.presenter import Presenter
from bot.ui.messages import private_payload, public_payload
from games.core import IllegalAction
from games.macarena import GAME, Play, encode_draft, playable_pozos
from games.macarena.state import Tokens
from tests.bot.presenter_kit import (
    SEAT_IDS,
    SEAT_NAMES,
    StubService,
    components,
    table_for,
    text_presenter,
)
from tests.bot.test_messages import _check_limits
from tests.games.macarena.helpers import play, table
from tests.message_text import read_card

TABLE_ID = 4242
IDS = SEAT_IDS
NAMES = SEAT_NAMES
TR = translator("es")


PRESENTER = text_presenter(Presenter, GAME)
_Service = StubService
_components = components


def _table(state) -> Table:
    return table_for(GAME, state, TABLE_ID)


def _actions(payload) -> dict[str, dict]:
    """Action text -> button, for the t: buttons."""
    return {
        c["custom_id"].split(":", 3)[3]: c
        for c in _components(payload)
        if c["type"] == 2 and c["custom_id"].startswith("t:")
    }


def _ops(payload) -> dict[str, dict]:
    """Draft op -> button, for the d: buttons."""
    return {
        c["custom_id"].split(":", 3)[3]: c
        for c in _components(payload)
        if c["type"] == 2 and c["custom_id"].startswith("d:")
    }


def _private(state, seat, draft=None):
    return private_payload(_table(state), PRESENTER, seat, TR, draft=draft)


def _step(state, seat, draft, op):
    return PRESENTER.draft_step(
        GAME.view(state, seat), GAME.legal_actions(state, seat), draft, op, []
    )


def _applies(state, seat, text) -> bool:
    try:
        GAME.apply(state, seat, GAME.decode_action(text))
    except IllegalAction:
        return False
    return True


def _walk_series(state, seat, pozo, rng, check=None):
    """Build a series on ``pozo`` through the draft, one random card at a time, checking each
    view; returns the draft and the private payload at the end."""
    draft, action = _step(state, seat, {}, encode_draft(pozo, []))
    assert action is None and draft == {"series": f"p.{pozo}"}
    payload = _private(state, seat, draft)
    while True:
        if check:
            check(payload)
        adds = {
            op: b
            for op, b in _ops(payload).items()
            if op.startswith("p") and len(op) > len(draft["series"])
        }
        if not adds or (len(draft["series"]) > 5 and rng.random() < 0.15):  # 2+ cards
            return draft, payload
        op = rng.choice(sorted(adds))
        draft, action = _step(state, seat, draft, op)
        assert action is None and draft["series"] == op
        payload = _private(state, seat, draft)


def _check_seat(state, seat, rng) -> None:
    """Every private payload of ``seat`` (and a series walk on each pozo) is within limits, and
    every action it offers is one ``apply`` accepts."""
    legal = {a.encode() for a in GAME.legal_actions(state, seat)}

    def check(payload):
        _check_limits(payload)
        for text in _actions(payload):
            assert text in legal or (text.startswith("p") and _applies(state, seat, text)), text

    payload = _private(state, seat)
    check(payload)
    if state.phase != "play" or state.seats[state.turn] != seat:
        assert set(_actions(payload)) == legal
        return
    pozo_ops = {op for op in _ops(payload) if op.startswith("p")}
    assert pozo_ops == {f"p.{i}" for i in playable_pozos(state, seat)}
    assert "pass" in _actions(payload)
    for op in sorted(pozo_ops):
        _walk_series(state, seat, int(op[2]), rng, check)


def _playout(n: int, rng: random.Random, steps: int, options=None):
    state = GAME.new(IDS[:n], f"pres-{n}-{rng.random()}", options or {})
    yield state
    for _ in range(steps):
        if GAME.outcome(state) is not None:
            return
        seat = sorted(GAME.to_act(state))[0]
        legal = GAME.legal_actions(state, seat)
        view = GAME.view(state, seat)
        action = GAME.choose_action(view, legal, "normal", rng)
        state, _ = GAME.apply(state, seat, action)
        yield state


@pytest.mark.parametrize("n", [2, 3, 5])
def test_payloads_of_played_states_stay_within_limits_and_offer_what_apply_accepts(n):
    rng = random.Random(n)
    tr = TR
    phases = set()
    checked = 0
    for i, state in enumerate(_playout(n, rng, 400, {"amulets_to_win": 1})):
        if i % 7 and state.phase in ("draw", "play"):
            continue
        phases.add(state.phase)
        checked += 1
        table = _table(state)
        _check_limits(public_payload(table, PRESENTER, _Service(), tr))
        for seat in state.seats:
            _check_seat(state, seat, rng)
    assert {"draw", "play", "over"} <= phases and checked >= 25


def test_the_first_cards_the_builder_offers_are_exactly_the_legal_single_plays():
    rng = random.Random(11)
    for state in _playout(3, rng, 120):
        if state.phase != "play":
            continue
        seat = state.seats[state.turn]
        singles = {a.encode() for a in GAME.legal_actions(state, seat) if a.kind == "play"}
        offered = set()
        for pozo in playable_pozos(state, seat):
            draft, _ = _step(state, seat, {}, encode_draft(pozo, []))
            offered |= {
                op
                for op in _ops(_private(state, seat, draft))
                if op.startswith("p") and len(op) == 5  # p.<pozo>.<one face>
            }
        assert offered == singles


def test_the_draft_builds_exactly_the_series_apply_accepts():
    rng = random.Random(5)
    built = 0
    for state in _playout(3, rng, 200):
        if state.phase != "play":
            continue
        seat = state.seats[state.turn]
        for pozo in playable_pozos(state, seat):
            draft, payload = _walk_series(state, seat, pozo, rng)
            faces = GAME.decode_action(draft["series"])
            lay = encode_draft(pozo, list(faces.cards))
            assert set(_actions(payload)) == {lay, "pass"}  # "Bajar" sends the series as built
            assert _actions(payload)[lay]["label"] == "Bajar"
            new_state, events = GAME.apply(state, seat, GAME.decode_action(lay))
            laid = next(e for e in events if e.code in ("played", "espejo_solo"))
            assert laid.params["cards"] == list(faces.cards) and laid.params["pozo"] == pozo
            built += len(faces.cards) > 1
    assert built >= 10


def _long_series_state():
    """Every heart twice, on a pozo topped by 2♥: a series of 24 cards, then an espejo."""
    hearts = " ".join(
        f"{r}H" for r in ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    )
    return table(
        {"a": f"{hearts} {hearts}", "b": "5S"}, seats=["a", "b"], tops="2H 5D 9S QC KC 3C 7D"
    )


def test_a_long_series_stays_within_limits_and_is_laid_as_built():
    state = _long_series_state()
    up = ["3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH"]
    path = up + up[-2::-1]  # up to the ace (the order wraps), then down again: 23 cards
    draft = {}
    series: list[str] = []
    for card in path:
        offered = _ops(_private(state, "a", draft)) if draft else {}
        series.append(card)
        op = encode_draft(0, series)
        assert not draft or op in offered, card
        draft, action = _step(state, "a", draft, op)
        assert action is None
        payload = _private(state, "a", draft)
        _check_limits(payload)
    lay = encode_draft(0, series)
    assert lay in _actions(payload) and len(series) == 23
    text = read_card(payload).description
    assert "Serie en el pozo 1" in text and "22 cartas irán a tu colección" in text
    new_state, events = GAME.apply(state, "a", GAME.decode_action(lay))
    assert len(new_state.collections["a"]) == 22 and new_state.pozos[0][-1].code == "3H"


def test_undo_and_change_pozo_and_espejo_mark():
    state = table({"a": "3C 3C 4C 9H", "b": "5S"}, seats=["a", "b"])  # pozo 1 top: 2C
    draft, _ = _step(state, "a", {}, "p.0")
    ops = _ops(_private(state, "a", draft))
    assert ops[encode_draft(0, ["3C"])]["label"] == "Añadir 3♣"
    draft, _ = _step(state, "a", draft, encode_draft(0, ["3C"]))
    ops = _ops(_private(state, "a", draft))
    assert ops[encode_draft(0, ["3C", "3C"])]["label"] == "Añadir 3♣ (espejo)"
    assert ops["p.0"]["label"] == "Deshacer" and ops["c"]["label"] == "Cambiar de pozo"
    draft, _ = _step(state, "a", draft, encode_draft(0, ["3C", "3C"]))
    payload = _private(state, "a", draft)
    assert "¡Espejo! La serie termina aquí." in read_card(payload).description
    assert not [op for op in _ops(payload) if len(op) > len("p.0.ff")]  # nothing after an espejo
    draft, _ = _step(state, "a", draft, "p.0")  # undo twice
    assert draft["series"] == "p.0"
    draft, _ = _step(state, "a", draft, "c")
    assert "series" not in draft
    assert "Elige un pozo" in read_card(_private(state, "a", draft)).description


@pytest.mark.parametrize(
    "op,code",
    [
        (encode_draft(0, ["9H"]), "no_link"),  # held, but 9♥ does not link to 2♣
        (encode_draft(0, ["5C"]), "card_not_in_hand"),
        (encode_draft(0, ["3C", "3C"]), "card_not_in_hand"),  # only one 3♣ held
        ("p.4", "pozo_closed"),  # no card of a's links to K♣
        ("zz", "bad_action"),
        ("p.9", "bad_action"),
    ],
)
def test_a_forged_draft_step_is_refused(op, code):
    state = table({"a": "3C 4C 9H", "b": "5S"}, seats=["a", "b"])
    with pytest.raises(IllegalAction) as err:
        _step(state, "a", {}, op)
    assert err.value.code == code


def test_a_draft_step_out_of_turn_is_refused():
    state = table({"a": "3C 4C", "b": "3C"}, seats=["a", "b"])
    with pytest.raises(IllegalAction) as err:
        _step(state, "b", {}, "p.0")
    assert err.value.code == "not_your_turn"


def _end_of_hand(tokens):
    """Seat a ends the hand (empty stock); b holds the most cards."""
    s = table(
        {"a": "3C 9D", "b": "5S 6S 8H", "c": "6S"},
        stock="",
        hand_number=2,
        tokens=tokens,
        collections={"c": "4D 4H 4S 4C 5C", "a": "JD JS"},
    )
    return play(s, "a", 0, "3C")[0]


def test_the_element_to_give_up_is_asked_with_buttons():
    state = _end_of_hand({"b": Tokens(elements=["earth", "water"])})
    assert state.phase == "penalty" and GAME.to_act(state) == {"b"}
    payload = _private(state, "b")
    _check_limits(payload)
    buttons = _actions(payload)
    assert set(buttons) == {"g.e", "g.w"}
    assert buttons["g.e"]["label"] == "Entregar tierra" and buttons["g.e"]["emoji"]["name"] == "🌍"
    assert "elige el elemento que entregas" in read_card(payload).description
    public = read_card(public_payload(_table(state), PRESENTER, _Service(), TR))
    assert "Esperando a que b entregue un elemento" in public.description
    assert _actions(_private(state, "a")) == {}


def test_the_element_to_buy_is_asked_with_buttons():
    # c: the largest collection (+1 coin = 4), wins earth and water; air and fire go to a
    state = _end_of_hand({"c": Tokens(coins=3)})
    assert state.phase == "buy" and GAME.to_act(state) == {"c"}
    payload = _private(state, "c")
    _check_limits(payload)
    buttons = _actions(payload)
    assert set(buttons) == {"b.a", "b.f"}
    assert buttons["b.f"]["label"] == "Comprar fuego (4 monedas)"
    for text in buttons:
        assert _applies(state, "c", text)
    assert "Tienes 4 monedas" in read_card(payload).description


def test_the_maca_to_move_is_asked_with_buttons():
    macas = [{"a": 2}, {"a": 2}, {}, {"a": 3}, {}, {}, {}]
    s = table({"a": "9S 4C", "b": "5S"}, seats=["a", "b"], macas=macas)
    state, _ = play(s, "a", 2, "9S")
    assert state.phase == "move_maca"
    payload = _private(state, "a")
    _check_limits(payload)
    buttons = _actions(payload)
    assert set(buttons) == {"m.0", "m.1", "m.3"}
    assert buttons["m.3"]["label"] == "Mover la MACA del pozo 4"
    assert "elige cuál mover al pozo 3" in read_card(payload).description


def test_the_collection_is_private_and_shown_on_demand():
    state = table(
        {"a": "3C 4C", "b": "5S"}, seats=["a", "b"], collections={"a": "7H 8H 9D", "b": "KS"}
    )
    plain = _private(state, "a")
    text = read_card(plain).description
    assert "Tu colección: 3 (🌍 0 · 💨 0 · 💧 2 · 🔥 1)" in text and "7♥" not in text
    ops = _ops(plain)
    assert ops["v"]["label"] == "Ver mi colección"
    draft, action = _step(state, "a", {}, "v")
    assert action is None and draft == {"collection": True}
    shown = _private(state, "a", draft)
    text = read_card(shown).description
    assert "**Tu colección** (3)" in text and "💧 agua: 7♥ 8♥" in text
    assert "🔥 fuego: 9♦" in text and "K♠" not in text
    assert _ops(shown)["v"]["label"] == "Ocultar mi colección"
    # the collection button keeps its place while a series is built
    draft, _ = _step(state, "a", draft, "p.0")
    assert _step(state, "a", draft, "v")[0] == {"series": "p.0", "collection": False}
    # b (not on turn) has the button too; the public message shows no collection
    assert "v" in _ops(_private(state, "b"))
    public = read_card(public_payload(_table(state), PRESENTER, _Service(), TR))
    assert "7♥" not in public.description


def test_texts_show_names_and_never_seat_ids():
    rng = random.Random(3)
    seen_events = 0
    last = None
    for state in _playout(3, rng, 2000, {"amulets_to_win": 1}):
        last = state
    assert GAME.outcome(last) is not None
    for state in (last,):
        table_ = _table(state)
        public = public_payload(table_, PRESENTER, _Service(), TR)
        embed = read_card(public)
        texts = [embed.description] + [f.value for f in embed.fields]
        for text in texts:
            assert not any(i in text for i in IDS), text
        results = next(f.value for f in embed.fields if f.name == "Resultado")
        winner = NAMES[IDS.index(GAME.outcome(state).winners[0])]
        assert results.splitlines()[0] == f"🏆 ¡{winner} gana la partida!"
        assert "amuletos " in results and "Macarenas " in results
        seen_events += len(embed.fields[0].value.splitlines())
    assert seen_events >= 3
    # mid-game: seat lines and events name the players
    state = next(s for s in _playout(3, random.Random(4), 30) if s.version == 25)
    embed = read_card(public_payload(_table(state), PRESENTER, _Service(), TR))
    text = embed.description + "".join(f.value for f in embed.fields)
    assert not any(i in text for i in IDS)
    for name in NAMES[:3]:
        assert f"{name} — mano " in embed.description
    assert "Pozos: **1**" in embed.description


def test_public_standings_show_tokens_and_hand_sizes():
    state = table(
        {"a": "3C 4C", "b": "5S 6S 7S"},
        seats=["a", "b"],
        tokens={"a": Tokens(coins=3, elements=["earth", "fire"], amulets=1)},
        macas=[{"a": 2}] + [{}] * 6,
    )
    embed = read_card(public_payload(_table(state), PRESENTER, _Service(), TR))
    lines = embed.description.splitlines()
    a_line = next(line for line in lines if "a — mano 2" in line)
    assert a_line == "▶ 🔴 a — mano 2 · monedas 3 · elementos 🌍🔥 · amuletos 1 · MACAS 2"
    assert "• 🔵 b — mano 3 · monedas 0 · elementos ninguno · amuletos 0 · MACAS 0" in lines
    assert lines[0] == "Mano 1 · jugar o pasar · mazo: 6 · para ganar: 2 amuletos"
    assert "**1** 2♣ 🔴🔴" in embed.description


def test_the_draw_phase_offers_robar():
    state = table({"a": "3C", "b": "5S"}, seats=["a", "b"], phase="draw")
    buttons = _actions(_private(state, "a"))
    assert set(buttons) == {"draw"} and buttons["draw"]["label"] == "Robar"


def test_play_action_choice_label():
    action = Play(pozo=2, cards=("7H", "8H"))
    choice = PRESENTER.choice(action, None, lambda s: s, TR)
    assert choice.label == "Bajar 7♥ 8♥ en el pozo 3"


def test_the_last_hand_is_summed_up_in_the_public_embed():
    state = _end_of_hand({})  # nobody has tokens: awards, then the next hand at once
    assert state.hand_number == 3
    embed = read_card(public_payload(_table(state), PRESENTER, _Service(), TR))
    # Issue 31: the hand's scoring is its own section, not lines that scroll with the moves
    [section] = [f for f in embed.fields if f.name == "Puntuación de la mano 2"]
    lines = section.value
    assert "Mano 2 (se acabó el mazo) · colecciones: a 2, b 0, c 5" in lines
    assert "Fichas de elemento: 🌍 c · 💨 a · 💧 c · 🔥 a" in lines
    assert "**c**: " in lines and "gana 🌍 tierra" in lines and "gana 💧 agua" in lines
    assert "Mano 2 (se acabó el mazo)" not in embed.description
    fields = [f.name for f in embed.fields]
    assert fields.index("Puntuación de la mano 2") < fields.index("Últimas jugadas")
    s = table({"a": "3C", "b": "5S 6S", "c": "6S"}, hand_number=2)
    went_out, _ = play(s, "a", 0, "3C")
    embed = read_card(public_payload(_table(went_out), PRESENTER, _Service(), TR))
    text = embed.description + "\n".join(f.value for f in embed.fields)
    assert "Mano 2 (a se quedó sin cartas)" in text
    assert "+1 moneda por irse" in text


@pytest.mark.parametrize(
    "elements,coins,expected",
    [
        (
            {"a": ["earth", "air"], "b": ["fire"]},
            {"a": 1, "b": 9},
            "por tener más elementos (2 contra 1)",
        ),
        ({"a": ["earth"], "b": ["fire"]}, {"a": 5, "b": 3}, "por tener más monedas (5 contra 3)"),
    ],
)
def test_a_win_decided_by_a_tie_break_is_explained(elements, coins, expected):
    from games.macarena.view import MacarenaOutcome

    outcome = MacarenaOutcome(
        ranking=[["a"], ["b"]],
        points={"a": 2, "b": 2},
        amulets={"a": 2, "b": 2},
        elements=elements,
        coins=coins,
    )
    lines = PRESENTER.outcome_lines(outcome, lambda s: s, TR)
    tie = next(line for line in lines if line.startswith("Empate a 2 amuletos"))
    assert expected in tie and "con b" in tie and "gana a" in tie
    clear = MacarenaOutcome(ranking=[["a"], ["b"]], amulets={"a": 2, "b": 1})
    assert not any("Empate" in line for line in PRESENTER.outcome_lines(clear, lambda s: s, TR))


@pytest.mark.parametrize("locale", ["es", "en"])
def test_hand_lines_kept_per_hand_are_the_ones_written_afresh(locale):
    """A hand's lines are kept by the hand's cards and language: at every state of a game, each
    seat's private lines are the lines written without the cache (a translator that is not a
    catalogue's), and name that seat's own cards only."""
    tr = translator(locale)

    def fresh(key: str, /, **params: object) -> str:
        return tr(key, **params)

    state = GAME.new(["a", "b", "c"], f"hand-lines-{locale}")
    rng = random.Random(9)
    for _ in range(80):
        if GAME.is_over(state):
            break
        for seat in state.seats:
            view = GAME.view(state, seat)
            kept = PRESENTER.private_lines(view, tr)
            assert kept == PRESENTER.private_lines(view, fresh)
            own = [*state.hands[seat], *state.collections[seat], *filter(None, [state.drawn])]
            others = {c.pretty for s in state.seats if s != seat for c in state.hands[s]}
            hand_text = "\n".join(kept).replace(",", " ") + " "
            for face in others - {c.pretty for c in own}:
                assert f" {face} " not in hand_text
        seat = sorted(s for s in GAME.to_act(state) if GAME.legal_actions(state, s))[0]
        state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
