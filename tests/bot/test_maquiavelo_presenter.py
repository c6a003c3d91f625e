"""Maquiavelo on Discord: suit selects within limits for big hands, the selection draft, the
hint, the typed arrangement, refusal texts and event texts with names."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from bot.i18n import catalogue, translator
from bot.i18n.messages import render
from bot.service import Table
from bot.ui.feedback import error_text
from bot.ui.maquiavelo.presenter import Presenter
from bot.ui.maquiavelo.text import card_ids_text, cards_text
from bot.ui.messages import private_payload, public_payload
from games.core import IllegalAction
from games.core.cards import parse_card
from games.core.eventlog import EMPTY_LOG
from games.maquiavelo import GAME, Arrange, Play
from games.maquiavelo.cards import card_id, face, sort_key
from games.maquiavelo.view import CardView
from tests.bot.presenter_kit import (
    SEAT_IDS,
    SEAT_NAMES,
    StubService,
    components,
    table_for,
    text_presenter,
)
from tests.bot.test_messages import _check_limits
from tests.message_text import clickable, read_card

TABLE_ID = 9
IDS = SEAT_IDS
NAMES = SEAT_NAMES
ANA = IDS[0]


PRESENTER = text_presenter(Presenter, GAME)
_Service = StubService
_components = components


def _table(state) -> Table:
    return table_for(GAME, state, TABLE_ID)


def make_state(
    hands: dict[str, str],
    table: list[str] = (),
    stock: str = "2C 3C 4C",
    helpers: str = "",
    **options,
):
    """Hands/table/stock by faces (deck 0, then deck 1 for a repeated face); ``ana`` first."""
    used: Counter = Counter()

    def take(text: str) -> list[int]:
        out = []
        for t in text.split():
            cid = card_id(parse_card(t))
            out.append(cid + 52 * used[cid])
            used[cid] += 1
            assert used[cid] <= 2, t
        return out

    state = GAME.new(list(hands), "presenter", options)
    return state.model_copy(
        update={
            "hands": {s: sorted(take(h), key=sort_key) for s, h in hands.items()},
            "table": [take(m) for m in table],
            "stock": take(stock),
            "helpers": take(helpers),
            "turn": 0,
            "dealer": len(hands) - 1,
            "log_raw": EMPTY_LOG,
        }
    )


def random_state(hand_size: int, seed: int, table_melds: int = 4, **options):
    """Ana holds ``hand_size`` random cards; the table has some runs; Beto holds a few."""
    rng = random.Random(seed)
    cards = list(range(104))
    rng.shuffle(cards)
    table = []
    free = set(cards)
    for k in range(table_melds):
        suit, start = k % 4, rng.randrange(0, 9)
        run = [suit * 13 + r + 52 * (k // 4 % 2) for r in range(start, start + 3)]
        if all(c in free for c in run):
            table.append(run)
            free -= set(run)
    rest = [c for c in cards if c in free]
    state = GAME.new(IDS[:2], "presenter", options)
    return state.model_copy(
        update={
            "hands": {
                ANA: sorted(rest[:hand_size], key=sort_key),
                IDS[1]: sorted(rest[hand_size : hand_size + 5], key=sort_key),
            },
            "table": table,
            "stock": rest[hand_size + 5 : hand_size + 25],
            "helpers": rest[hand_size + 25 : hand_size + 29] if options.get("ayuda") else [],
            "turn": 0,
            "dealer": 1,
            "log_raw": EMPTY_LOG,
        }
    )


def _selects(payload) -> dict[str, dict]:
    """Draft selects by op (``s.0``, ``s.h``...)."""
    return {
        c["custom_id"].split(":", 3)[3]: c
        for c in _components(payload)
        if c["type"] == 3 and c["custom_id"].startswith("ds:")
    }


def _buttons(payload) -> dict[str, dict]:
    return {c["custom_id"]: c for c in _components(payload) if c["type"] == 2}


def _text(payload) -> str:
    e = read_card(payload)
    return "\n".join([e.description or "", *(f.value for f in e.fields)])


# ----- limits ----------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [1, 11, 26, 31, 45, 60])
@pytest.mark.parametrize("ayuda", [False, True])
def test_big_hands_fit_the_limits_and_every_card_is_selectable(size, ayuda):
    tr = translator("es")
    state = random_state(size, seed=size, ayuda=ayuda)
    table = _table(state)
    payload = private_payload(table, PRESENTER, ANA, tr)
    _check_limits(payload, {a.encode() for a in GAME.legal_actions(state, ANA)})
    _check_limits(public_payload(table, PRESENTER, _Service(), tr))
    selects = _selects(payload)
    hand_options = [o["value"] for op, s in selects.items() if op != "s.h" for o in s["options"]]
    # every card once (up to 4 selects of 25: the rest is typed in the modal, and said so)
    shown = min(size, 25 * (3 if ayuda else 4))
    assert len(hand_options) == len(set(hand_options)) == shown
    assert set(hand_options) <= {str(c) for c in state.hands[ANA]}
    if shown < size:
        assert f"{shown} de tus {size} cartas" in _text(payload)
    assert ("s.h" in selects) == ayuda
    for s in selects.values():
        assert s["min_values"] == 0 and s["max_values"] == len(s["options"])
    labels = {b.get("label") for b in _buttons(payload).values()}
    assert {"Jugar", "Limpiar selección", "Sugerir", "Escribir la mesa", "Robar"} <= labels
    # the opponent, not to act, gets the hand in words but no builder
    other = private_payload(table, PRESENTER, IDS[1], tr)
    assert not _selects(other) and not clickable(other)


def test_one_select_per_suit_with_suit_placeholders():
    state = make_state({ANA: "AS 5S 3H 9H 9H KD 2C", IDS[1]: "4D"})
    payload = private_payload(_table(state), PRESENTER, ANA, translator("es"))
    selects = list(_selects(payload).values())
    assert [s["placeholder"] for s in selects] == [
        "Picas: elige cartas",
        "Corazones: elige cartas",
        "Diamantes: elige cartas",
        "Tréboles: elige cartas",
    ]
    assert [o["label"] for o in selects[1]["options"]] == ["3♥", "9♥", "9♥ (2)"]


def test_with_helper_cards_the_two_smallest_neighbouring_suits_share_a_select():
    state = make_state(
        {ANA: "AS 2S 3S 4S 5S 3H 9H KD 2C 4C 6C 8C", IDS[1]: "4D"},
        helpers="7S 7H 7D 7C",
        ayuda=True,
    )
    payload = private_payload(_table(state), PRESENTER, ANA, translator("es"))
    assert [(s["placeholder"], len(s["options"])) for s in _selects(payload).values()] == [
        ("Cartas de ayuda (solo para tríos)", 4),
        ("Picas: elige cartas", 5),
        ("Corazones · Diamantes: elige cartas", 3),
        ("Tréboles: elige cartas", 4),
    ]


# ----- the selection draft --------------------------------------------------------------------


def _step(state, draft, op, values=()):
    view = GAME.view(state, ANA)
    return PRESENTER.draft_step(view, GAME.legal_actions(state, ANA), draft, op, list(values))


def test_selecting_in_several_suits_plays_exactly_the_selected_cards():
    state = make_state({ANA: "5H 5D KC 9S 9S", IDS[1]: "3H"}, table=["5S 6S 7S 8S"])
    tr = translator("es")
    ops = {
        s["placeholder"].split(":")[0]: (op, s)
        for op, s in _selects(private_payload(_table(state), PRESENTER, ANA, tr)).items()
    }
    hearts_op, hearts = ops["Corazones"]
    diamonds_op, diamonds = ops["Diamantes"]
    clubs_op, clubs = ops["Tréboles"]
    draft, action = _step(state, {}, hearts_op, [hearts["options"][0]["value"]])
    assert action is None
    draft, action = _step(state, draft, clubs_op, [clubs["options"][0]["value"]])
    draft, action = _step(state, draft, diamonds_op, [diamonds["options"][0]["value"]])
    draft, action = _step(state, draft, clubs_op, [])  # unselect the king again
    assert action is None
    payload = private_payload(_table(state), PRESENTER, ANA, tr, draft=draft)
    assert "Seleccionadas: 5♥ 5♦" in _text(payload)
    defaults = {
        o["label"] for s in _selects(payload).values() for o in s["options"] if o.get("default")
    }
    assert defaults == {"5♥", "5♦"}
    play = next(b for b in _buttons(payload).values() if b["custom_id"].endswith(":play"))
    assert play["label"] == "Jugar 2" and not play.get("disabled")
    draft, action = _step(state, draft, "play")
    five_h, five_d = (c for c in state.hands[ANA] if face(c) in (13 + 4, 26 + 4))
    assert action == Play(cards=(five_h, five_d)).encode()
    new_state, events = GAME.apply(state, ANA, GAME.decode_action(action))
    assert events[0].code == "rearranged"
    # "Limpiar" empties the selection; an empty selection cannot be played
    assert _step(state, draft, "clear") == ({}, None)
    with pytest.raises(IllegalAction) as exc:
        _step(state, {}, "play")
    assert exc.value.code == "empty_play"


def test_forged_select_values_and_ops_are_refused():
    state = make_state({ANA: "5H 5D KC", IDS[1]: "3H"}, table=["5S 6S 7S"])
    beto_card = str(state.hands[IDS[1]][0])
    for op, values in [
        ("s.0", [beto_card]),
        ("s.7", []),
        ("s.x", []),
        ("zz", []),
        ("s.0", ["nope"]),
    ]:
        with pytest.raises(IllegalAction) as exc:
            _step(state, {}, op, values)
        assert exc.value.code == "bad_action"
    view = GAME.view(state, IDS[1])  # not Beto's turn
    with pytest.raises(IllegalAction):
        PRESENTER.draft_step(view, [], {}, "hint", [])


def test_suggest_fills_the_selection_without_playing():
    state = make_state({ANA: "5H 5D KC 2D", IDS[1]: "3H"}, table=["5S 6S 7S 8S"])
    draft, action = _step(state, {}, "hint")
    assert action is None
    assert tuple(draft["sel"]) == GAME.suggest(state, ANA).cards
    text = _text(private_payload(_table(state), PRESENTER, ANA, translator("es"), draft=draft))
    assert "Sugerencia: juega 5♥ 5♦ (2 cartas)." in text and "Seleccionadas: 5♥ 5♦" in text
    _, action = _step(state, draft, "play")
    assert action == GAME.suggest(state, ANA).encode()
    # nothing to play: the hint says to draw
    stuck = make_state({ANA: "KC 2D", IDS[1]: "3H"}, table=["5S 6S 7S 8S"])
    draft, _ = _step(stuck, {}, "hint")
    text = _text(private_payload(_table(stuck), PRESENTER, ANA, translator("en"), draft=draft))
    assert "You cannot play any card: draw." in text


def test_suggest_with_helper_cards():
    state = make_state({ANA: "9H 9D KC", IDS[1]: "3H"}, helpers="9S 2C 4D 6C", ayuda=True)
    draft, _ = _step(state, {}, "hint")
    text = _text(private_payload(_table(state), PRESENTER, ANA, translator("es"), draft=draft))
    assert "Sugerencia: juega 9♥ 9♦ con la ayuda 9♠ (3 cartas)." in text
    helpers = _selects(
        private_payload(_table(state), PRESENTER, ANA, translator("es"), draft=draft)
    )["s.h"]
    assert [o["label"] for o in helpers["options"] if o.get("default")] == ["9♠"]


# ----- estricto: a dry run before a proposal that would cost cards ----------------------------


def test_estricto_warns_before_proposing_a_refused_play():
    state = make_state({ANA: "5H KC", IDS[1]: "3H"}, table=["5S 6S 7S"], estricto=True)
    five = next(c for c in state.hands[ANA] if face(c) == 17)
    draft, _ = _step(state, {}, "s.0", [str(five)])
    warned, action = _step(state, draft, "play")
    assert action is None and warned["code"] == "no_arrangement"
    text = _text(private_payload(_table(state), PRESENTER, ANA, translator("es"), draft=warned))
    assert "Esa propuesta no vale: No hay forma de ordenar la mesa" in text
    assert "Pulsa Jugar otra vez" in text and "Modo estricto" in text
    again, action = _step(state, warned, "play")  # confirmed: proposed (and it will cost)
    assert action == Play(cards=(five,)).encode()
    new_state, events = GAME.apply(state, ANA, GAME.decode_action(action))
    assert events[0].code == "penalty" and len(new_state.hands[ANA]) == 5
    # a valid selection goes straight through
    ok = make_state({ANA: "8S KC", IDS[1]: "3H"}, table=["5S 6S 7S"], estricto=True)
    eight = next(c for c in ok.hands[ANA] if face(c) == 7)
    draft, _ = _step(ok, {}, "s.0", [str(eight)])
    assert _step(ok, draft, "play")[1] == Play(cards=(eight,)).encode()


# ----- the typed arrangement (modal) ----------------------------------------------------------


def test_the_modal_is_prefilled_with_the_table_and_parses_plain_letters():
    state = make_state({ANA: "7H 7D 7C 9S", IDS[1]: "3H"}, table=["3S 4S 5S", "7S 8S 9S"])
    view = GAME.view(state, ANA)
    title, [field] = PRESENTER.modal_fields("arrange", view, translator("es"))
    assert title == "Escribe la mesa completa" and len(field.label) <= 45
    assert field.default == "3♠ 4♠ 5♠ | 7♠ 8♠ 9♠" and len(field.default) <= field.max_length
    typed = "3s 4s 5s | 8♠ 9♠ 9s | 7s 7h 7d 7c"
    action = PRESENTER.modal_action("arrange", view, {"table": typed})
    assert isinstance(GAME.decode_action(action), Arrange)
    # 9S twice is not a meld: the engine names the group
    with pytest.raises(IllegalAction) as exc:
        GAME.apply(state, ANA, GAME.decode_action(action))
    assert error_text(exc.value, "es", "maquiavelo") == (
        "El grupo 2 (8♠ 9♠ 9♠) no es un trío, póker ni escalera válido."
    )
    stolen = PRESENTER.modal_action(
        "arrange", view, {"table": "3s 4s 5s | 7s 7h 7d 7c | 8s 9s 10s"}
    )
    with pytest.raises(IllegalAction) as exc:  # 10S is nobody's: not in the hand
        GAME.apply(state, ANA, GAME.decode_action(stolen))
    assert error_text(exc.value, "es", "maquiavelo") == "10♠ no está en tu mano."
    works = PRESENTER.modal_action("arrange", view, {"table": "3s 4s 5s | 7H 7D 7C | 7S 8S 9S"})
    new_state, events = GAME.apply(state, ANA, GAME.decode_action(works))
    assert events[0].code == "played" and len(new_state.hands[ANA]) == 1
    for bad, code in [("7♥ 7♦ xx", "arrangement_syntax"), ("  |  ", "arrangement_empty")]:
        with pytest.raises(IllegalAction) as exc:
            PRESENTER.modal_action("arrange", view, {"table": bad})
        assert exc.value.code == code
    assert error_text(exc.value, "en", "maquiavelo") == "You didn't type any card."
    assert PRESENTER.modal_fields("other", view, translator("es")) is None


# ----- refusal texts --------------------------------------------------------------------------


REFUSALS = {
    "not_your_turn": {},
    "stock_empty": {},
    "stock_not_empty": {},
    "empty_play": {},
    "card_not_in_hand": {"card": "7♥"},
    "no_hand_card": {},
    "no_arrangement": {},
    "helper_not_in_set": {},
    "invalid_meld": {"group": 2, "cards": "8♠ 9♠"},
    "table_card_missing": {"cards": "5♠"},
    "arrangement_syntax": {"token": "xx", "group": 1},
    "arrangement_empty": {},
    "bad_action": {},
}


@pytest.mark.parametrize("locale", ["es", "en"])
@pytest.mark.parametrize("code", sorted(REFUSALS))
def test_every_refusal_has_its_own_sentence(locale, code):
    text = error_text(IllegalAction(code, **REFUSALS[code]), locale, "maquiavelo")
    assert text == render(catalogue(locale)[f"maquiavelo.error.{code}"], locale, REFUSALS[code])
    assert "{" not in text and code not in text
    for value in REFUSALS[code].values():
        assert str(value) in text


def test_a_refused_play_and_a_missing_table_card_explain_themselves():
    state = make_state({ANA: "5H KC", IDS[1]: "3H"}, table=["5S 6S 7S"])
    five = next(c for c in state.hands[ANA] if face(c) == 17)
    with pytest.raises(IllegalAction) as exc:
        GAME.apply(state, ANA, Play(cards=(five,)))
    assert "No hay forma de ordenar la mesa" in error_text(exc.value, "es", "maquiavelo")
    view = GAME.view(state, ANA)
    typed = PRESENTER.modal_action("arrange", view, {"table": "5S 6S 5H"})
    with pytest.raises(IllegalAction) as exc:
        GAME.apply(state, ANA, GAME.decode_action(typed))
    assert error_text(exc.value, "en", "maquiavelo").startswith("Group 1 (5♠ 6♠ 5♥)")


# ----- public texts ---------------------------------------------------------------------------


def test_public_view_events_name_players_and_show_the_last_play():
    state = make_state({ANA: "5H 5D KC", IDS[1]: "3H 4H"}, table=["5S 6S 7S 8S"], stock="2C 3C")
    state, _ = GAME.apply(
        state, ANA, Play(cards=tuple(c for c in state.hands[ANA] if face(c) in (17, 30)))
    )
    state, _ = GAME.apply(state, IDS[1], GAME.decode_action("draw"))
    text = _text(public_payload(_table(state), PRESENTER, _Service(), translator("es")))
    assert "Ana reordena la mesa y baja 5♥ 5♦." in text and "Beto roba una carta." in text
    assert "Mesa: 2 combinaciones, 6 cartas" in text and "Mazo: 1" in text
    assert "Ana: 1 carta" in text and "Beto: 3 cartas" in text
    assert not re.search(r"seatid-", text)
    # Beto's private view: the drawn card is his alone; the table in words
    beto = _text(private_payload(_table(state), PRESENTER, IDS[1], translator("es")))
    assert "Robaste 3♣." in beto and "5♠ 5♥ 5♦" in beto
    assert "Robaste" not in _text(private_payload(_table(state), PRESENTER, ANA, translator("es")))


def test_the_result_names_the_winner_and_the_hands_left():
    state = make_state({ANA: "8S", IDS[1]: "3H 4H KD"}, table=["5S 6S 7S"])
    state, events = GAME.apply(state, ANA, Play(cards=tuple(state.hands[ANA])))
    assert events[-1].code == "game_won"
    text = _text(public_payload(_table(state), PRESENTER, _Service(), translator("es")))
    assert "¡Ana se queda sin cartas y gana!" in text
    assert "Ana se queda sin cartas y gana 20 puntos." in text
    assert "Beto: 3 cartas, 20 puntos en mano" in text


def test_the_result_of_a_blocked_game_gives_the_winner_s_hand():
    state = make_state({ANA: "KH QH", IDS[1]: "2H"}, stock="")
    for seat in (ANA, IDS[1]):
        state, events = GAME.apply(state, seat, GAME.decode_action("pass"))
    assert events[-1].code == "blocked"
    text = _text(public_payload(_table(state), PRESENTER, _Service(), translator("es")))
    assert "Mazo agotado y todos pasaron: gana Beto con 1 carta (25 puntos)." in text


def test_cards_named_by_id_read_as_their_card_views_do():
    every = list(range(104))
    assert card_ids_text(every) == cards_text([CardView.of(c) for c in every])
    assert card_ids_text([]) == ""


@pytest.mark.parametrize("locale", ["es", "en"])
def test_hand_lines_kept_per_hand_are_the_ones_written_afresh(locale):
    """A hand's lines are kept by its cards and language: at every state of a game, each
    seat's private lines are the lines written without the cache (a translator that is not a
    catalogue's), and list that seat's own cards only."""
    tr = translator(locale)

    def fresh(key: str, /, **params: object) -> str:
        return tr(key, **params)

    state = GAME.new(["a", "b", "c"], f"hand-lines-{locale}")
    rng = random.Random(4)
    for _ in range(60):
        if GAME.is_over(state):
            break
        for seat in state.seats:
            view = GAME.view(state, seat)
            kept = PRESENTER.private_lines(view, tr)
            assert kept == PRESENTER.private_lines(view, fresh)
            hand_lines = kept[len(kept) - len(view.hand_by_suit()) :]
            listed = sorted(" ".join(hand_lines).split())
            own = sorted(c.pretty for c in view.hand or [])
            assert all(card in listed for card in own)
            assert len([w for w in listed if w in {c.pretty for c in view.hand or []}]) == len(own)
        seat = sorted(s for s in GAME.to_act(state) if GAME.legal_actions(state, s))[0]
        state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))


def test_select_options_kept_per_cards_and_selection_are_the_ones_written_afresh():
    """A select's options are kept by its cards' ids and the selected ones among them: each
    payload gets its own list, and the options are the cards' labels (a repeated face
    numbered), ids and selection, whatever was asked before."""
    rng = random.Random(8)
    ids = list(range(104))
    for _ in range(200):
        cards = [CardView.of(i) for i in sorted(rng.sample(ids, rng.randint(1, 14)))]
        selected = {c.id for c in cards if rng.random() < 0.3} | {999}
        options = Presenter._options(cards, selected)
        seen: Counter[str] = Counter()
        expected = []
        for c in cards:
            seen[c.code] += 1
            label = c.pretty if seen[c.code] == 1 else f"{c.pretty} ({seen[c.code]})"
            expected.append({"label": label, "value": str(c.id), "default": c.id in selected})
        assert [
            {k: o.to_dict()[k] for k in ("label", "value", "default")} for o in options
        ] == expected
        options.clear()  # a payload's own list: the next one is whole
        assert len(Presenter._options(cards, selected)) == len(cards)
