"""Chúpate 2 on Discord: payload limits over many states, the colour picker, texts with names."""

from __future__ import annotations

import random
import re
from functools import partial

import pytest

from bot.i18n import translator
from bot.service import Table
from bot.ui.chupate2.presenter import Presenter
from bot.ui.messages import private_payload, public_payload
from games.chupate2 import GAME
from games.core import IllegalAction
from tests.bot.presenter_kit import (
    SEAT_IDS,
    SEAT_NAMES,
    StubService,
    components,
    table_for,
    text_presenter,
)
from tests.bot.test_messages import _check_limits
from tests.games.chupate2.helpers import make_state
from tests.message_text import read_card, rows_of

TABLE_ID = 7
IDS = SEAT_IDS
NAMES = SEAT_NAMES


PRESENTER = text_presenter(Presenter, GAME)
_Service = StubService
_components = components


def _table(state) -> Table:
    return table_for(GAME, state, TABLE_ID)


def _offers(payload) -> set[str]:
    """Action texts offered by t: buttons and action selects."""
    found = set()
    for c in _components(payload):
        if c["type"] == 2 and c["custom_id"].startswith("t:"):
            found.add(c["custom_id"].split(":", 3)[3])
        if c["type"] == 3 and c["custom_id"].startswith("ts:"):
            found |= {o["value"] for o in c["options"]}
    return found


def _draft_ops(payload) -> list[str]:
    return [
        c["custom_id"].split(":", 3)[3]
        for c in _components(payload)
        if c["type"] == 2 and c["custom_id"].startswith("d:")
    ]


def _all_pages(table, seat, tr):
    """Every page of a private view (the framework clamps a page past the last)."""
    return [private_payload(table, PRESENTER, seat, tr, page=p) for p in range(6)]


def _check_seat(table, seat, tr) -> None:
    """Within limits on every page; every legal move reachable, nothing else offered."""
    legal = {a.encode() for a in GAME.legal_actions(table.state, seat)}
    offered: set[str] = set()
    for payload in _all_pages(table, seat, tr):
        _check_limits(payload, legal)
        offered |= _offers(payload)
        for op in _draft_ops(payload):  # a wild: its four colours come after the pick
            assert op.startswith("w.")
            card = op[2:]
            draft, action = PRESENTER.draft_step(
                GAME.view(table.state, seat), GAME.legal_actions(table.state, seat), {}, op, []
            )
            assert draft == {"card": card} and action is None
            picker = private_payload(table, PRESENTER, seat, tr, draft=draft)
            _check_limits(picker, legal)
            offered |= {f"p.{o[2:]}" for o in _draft_ops(picker) if o.startswith("c.")}
    assert offered == legal, (sorted(offered ^ legal), table.state.phase)


def _playout(options: dict, n: int, rng: random.Random, steps: int, draw_bias: float = 0.0):
    """States of a random game (a draw-happy policy grows big hands)."""
    state = GAME.new(IDS[:n], f"pres-{n}-{rng.random()}", options)
    yield state
    for _ in range(steps):
        if GAME.outcome(state) is not None:
            return
        movers = [s for s in state.seats if GAME.legal_actions(state, s)]
        seat = rng.choice(movers)
        legal = GAME.legal_actions(state, seat)
        draws = [a for a in legal if a.kind in ("draw", "take")]
        action = draws[0] if draws and rng.random() < draw_bias else rng.choice(legal)
        state, _ = GAME.apply(state, seat, action)
        yield state


TABLE_SETUPS = [
    (2, {}),
    (3, {"last_card": True}),
    (4, {"teams": "pairs", "stack_plus4": True}),
    (6, {"teams": "trios", "points": "50"}),
    (6, {"teams": "pairs", "last_card": True}),
    (4, {"points": "150", "stack_plus4": True, "last_card": True}),
]


@pytest.mark.parametrize("n,options", TABLE_SETUPS)
def test_payloads_of_random_states_stay_within_limits(n, options):
    rng = random.Random(n * 31 + len(options))
    tr = translator("es")
    biggest = 0
    for i, state in enumerate(_playout(options, n, rng, 160, draw_bias=0.6)):
        if i % 3:
            continue
        table = _table(state)
        _check_limits(public_payload(table, PRESENTER, _Service(), tr))
        for seat in state.seats:
            _check_seat(table, seat, tr)
        biggest = max(biggest, *(len(h) for h in state.hands.values()))
    assert biggest >= 12  # the draw-happy policy does grow hands


def _big_hand_state(phase="play"):
    """26 cards: every red face, then more; red in force so 13 red plays + same-face ones."""
    red = [
        "r0a",
        "r1a",
        "r2a",
        "r3a",
        "r4a",
        "r5a",
        "r6a",
        "r7a",
        "r8a",
        "r9a",
        "rDa",
        "rSa",
        "rRa",
    ]
    other = [
        "y5a",
        "g5a",
        "b5a",
        "y1a",
        "g2a",
        "b3a",
        "y9b",
        "g9b",
        "b9b",
        "Wa",
        "Fa",
        "yDa",
        "gSa",
    ]
    hands = {
        IDS[0]: red + other,
        IDS[1]: ["b1b", "b2b"],
        IDS[2]: ["y2b"],
        IDS[3]: ["g3b"],
        IDS[4]: ["y3b"],
        IDS[5]: ["g4b"],
    }
    return make_state(hands, "r5b", current=0, phase=phase)


def test_a_26_card_hand_becomes_one_select_per_colour_paged_within_limits():
    state = _big_hand_state()
    table = _table(state)
    tr = translator("es")
    assert len(state.hands[IDS[0]]) == 26
    _check_seat(table, IDS[0], tr)
    first = private_payload(table, PRESENTER, IDS[0], tr)
    selects = [c for c in _components(first) if c["type"] == 3]
    assert selects and all(len(s["options"]) <= 25 for s in selects)
    groups = [s["custom_id"].split(":")[3] for s in selects]
    assert groups == ["r", "y", "g", "b"]  # one select per colour, all on one page
    assert [len(s["options"]) for s in selects] == [13, 1, 1, 1]
    assert all(o["value"].startswith("p.r") for o in selects[0]["options"])
    assert selects[0]["placeholder"] == "Jugar una carta 🔺 rojo…"
    assert not any(c["custom_id"].startswith("h:") for c in _components(first))  # no pages
    # the turn row: "Robar una carta" and one button per wild, whatever the page
    row0 = rows_of(first)[0]
    labels = [c.get("label") for c in row0]
    assert labels == ["Robar una carta", "Comodín…", "Comodín +4…"]
    # the hand in words, grouped by colour
    text = read_card(first).description
    assert "**Tu mano (26 cartas)**" in text
    assert "🔺 rojo: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, Chúpate 2, Salto, Cambio de sentido" in text
    assert "🌈 comodines: Comodín, Comodín +4" in text


def test_six_players_with_big_hands_in_english_stay_within_limits():
    state = _big_hand_state()
    table = _table(state)
    tr = translator("en")
    _check_limits(public_payload(table, PRESENTER, _Service(), tr))
    for seat in state.seats:
        _check_seat(table, seat, tr)


def test_one_chupate2_of_each_colour_to_stack_fits_as_buttons():
    hands = {IDS[0]: ["rDa", "yDa", "gDa", "bDa", "r1a"], IDS[1]: ["b1b"], IDS[2]: ["y2b"]}
    state = make_state(hands, "rDb", current=0, phase="penalty", pending=2)
    table = _table(state)
    tr = translator("es")
    payload = private_payload(table, PRESENTER, IDS[0], tr)
    _check_seat(table, IDS[0], tr)
    comps = _components(payload)
    assert all(c["type"] == 2 for c in comps)  # no select, no paging for five choices
    assert _offers(payload) == {"take", "p.rDa", "p.yDa", "p.gDa", "p.bDa"}
    assert "Debes robar 2" in read_card(payload).description


# ----- the colour picker ---------------------------------------------------------------------
def test_the_colour_draft_plays_exactly_the_chosen_legal_wild():
    hands = {IDS[0]: ["Wa", "Fb", "r1a", "g7a"], IDS[1]: ["b1b", "b2b"], IDS[2]: ["y2b"]}
    state = make_state(hands, "r5a", current=0)
    table = _table(state)
    tr = translator("es")
    seat = IDS[0]
    view, legal = GAME.view(state, seat), GAME.legal_actions(state, seat)
    first = private_payload(table, PRESENTER, seat, tr)
    assert _draft_ops(first) == ["w.Wa", "w.Fb"]
    assert not any(o.startswith("p.W") or o.startswith("p.F") for o in _offers(first))

    draft, action = PRESENTER.draft_step(view, legal, {}, "w.Fb", [])
    assert (draft, action) == ({"card": "Fb"}, None)
    picker = private_payload(table, PRESENTER, seat, tr, draft=draft)
    _check_limits(picker, {a.encode() for a in legal})
    assert _offers(picker) == set()  # only the picker while it is open
    assert "🌈 **Elige el color para tu Comodín +4:**" in read_card(picker).description
    assert "Elige el color" not in read_card(first).description
    assert _draft_ops(picker) == ["c.Fb.r", "c.Fb.y", "c.Fb.g", "c.Fb.b", "x"]
    buttons = [c for c in _components(picker)]
    assert [b["label"] for b in buttons] == [
        "Comodín +4 → rojo",
        "Comodín +4 → amarillo",
        "Comodín +4 → verde",
        "Comodín +4 → azul",
        "Cancelar",
    ]
    assert [b.get("emoji", {}).get("name") for b in buttons[:4]] == ["🔺", "🟡", "🟩", "🔷"]

    draft, action = PRESENTER.draft_step(view, legal, draft, "c.Fb.g", [])
    assert draft == {} and action == "p.Fb.g"
    new_state, events = GAME.apply(state, seat, GAME.decode_action(action))
    assert new_state.colour == "g" and new_state.discard[-1] == "Fb"
    assert PRESENTER.draft_step(view, legal, {"card": "Fb"}, "x", []) == ({}, None)
    # the colour op carries its card: a restart (lost draft) still plays the right card
    assert PRESENTER.draft_step(view, legal, {}, "c.Wa.b", []) == ({}, "p.Wa.b")


@pytest.mark.parametrize(
    "op", ["w.r1a", "w.Wb", "w.", "c.Wa.x", "c.r1a.r", "c.Wb.r", "c.Wa", "zz", "c.g7a"]
)
def test_forged_draft_steps_are_refused(op):
    hands = {IDS[0]: ["Wa", "Fb", "r1a", "g7a"], IDS[1]: ["b1b", "b2b"], IDS[2]: ["y2b"]}
    state = make_state(hands, "r5a", current=0)
    with pytest.raises(IllegalAction):
        PRESENTER.draft_step(
            GAME.view(state, IDS[0]), GAME.legal_actions(state, IDS[0]), {}, op, []
        )


def test_a_stale_draft_is_ignored():
    hands = {IDS[0]: ["r1a", "g7a"], IDS[1]: ["b1b", "b2b"], IDS[2]: ["y2b"]}
    state = make_state(hands, "r5a", current=0)
    payload = private_payload(
        _table(state), PRESENTER, IDS[0], translator("es"), draft={"card": "Wa"}
    )
    assert _offers(payload) == {"p.r1a", "draw"}


def test_first_card_comodin_colour_is_named_with_four_buttons():
    hands = {IDS[0]: ["r1a", "g7a"], IDS[1]: ["b1b", "b2b"], IDS[2]: ["y2b"]}
    state = make_state(hands, "Wc", colour=None, current=1, phase="colour")
    state = state.model_copy(update={"colour": None})
    table = _table(state)
    tr = translator("es")
    payload = private_payload(table, PRESENTER, IDS[1], tr)
    assert _offers(payload) == {"col.r", "col.y", "col.g", "col.b"}
    labels = [c["label"] for c in _components(payload)]
    assert labels == ["Color: rojo", "Color: amarillo", "Color: verde", "Color: azul"]
    assert "elige el color" in read_card(payload).description
    public = read_card(public_payload(table, PRESENTER, _Service(), tr)).description
    assert "color en juego: por elegir" in public
    assert "Beto elige el color del comodín inicial." in public


# ----- the +4 challenge ------------------------------------------------------------------------
def _plus4_state():
    hands = {
        IDS[0]: ["Fa", "r1a", "g7a"],
        IDS[1]: ["b1b", "b2b"],
        IDS[2]: ["y2b", "y3b"],
        IDS[3]: ["g1b"],
    }
    state = make_state(hands, "r5a", current=0, direction=1)
    state, _ = GAME.apply(state, IDS[0], GAME.decode_action("p.Fa.b"))  # a bluff: holds r1a
    return state


def test_the_player_hit_by_a_plus4_gets_mentira_and_aceptar_buttons():
    state = _plus4_state()
    table = _table(state)
    tr = translator("es")
    victim = IDS[1]
    payload = private_payload(table, PRESENTER, victim, tr)
    row0 = rows_of(payload)[0]
    assert [(c["label"], c["custom_id"].split(":", 3)[3]) for c in row0] == [
        ("¡Mentira!", "chal"),
        ("Aceptar (+4)", "take"),
    ]
    assert row0[0]["style"] == 4  # danger: the challenge stands out
    assert "Te han jugado un +4 sobre 🔺 rojo" in read_card(payload).description
    for other in (IDS[0], IDS[2], IDS[3]):
        assert _offers(private_payload(table, PRESENTER, other, tr)) == set()
    public = public_payload(table, PRESENTER, _Service(), tr)
    assert "Beto recibe un +4 de Ana" in read_card(public).description
    assert _offers(public) == set()

    after, _ = GAME.apply(state, victim, GAME.decode_action("chal"))
    table = _table(after)
    mine = private_payload(table, PRESENTER, victim, tr)
    text = read_card(mine).description
    assert "Su mano al jugar el +4: 🔺 1 rojo, 🟩 7 verde — ¡ilegal!" in text
    just_now = read_card(mine).fields[0].value
    assert "Mano de Ana al jugar el +4: 🔺 1 rojo, 🟩 7 verde (¡ilegal!)" in just_now
    public_text = str(read_card(public_payload(table, PRESENTER, _Service(), tr)).to_dict())
    assert "¡Mentira! Beto acierta: Ana roba 4." in public_text
    assert "7 verde" not in public_text  # the reveal is the challenger's alone
    assert "7 verde" not in str(read_card(private_payload(table, PRESENTER, IDS[2], tr)).to_dict())


# ----- "¡Última!" on the public message --------------------------------------------------------
def test_last_card_call_and_catch_are_public_buttons():
    hands = {IDS[0]: ["r1a", "r2a"], IDS[1]: ["b1b", "b2b"], IDS[2]: ["y2b", "y3b"]}
    state = make_state(hands, "r5a", current=0, direction=1, options={"last_card": True})
    tr = translator("es")
    public = public_payload(_table(state), PRESENTER, _Service(), tr)
    assert _offers(public) == {"announce"}
    state, _ = GAME.apply(state, IDS[0], GAME.decode_action("p.r1a"))  # down to one, no call
    public = public_payload(_table(state), PRESENTER, _Service(), tr)
    assert _offers(public) == {"announce", "catch"}
    labels = {c.get("label") for c in _components(public)}
    assert "¡Pillado! (Ana)" in labels and "¡Última!" in labels
    assert "Ana tiene una carta y no avisó" in read_card(public).description


def test_every_exposed_player_gets_a_catch_button():
    hands = {
        IDS[0]: ["r1a", "r2a"],
        IDS[1]: ["r3a", "r4a"],
        IDS[2]: ["y2b", "y3b", "y4b"],
    }
    state = make_state(hands, "r5a", current=0, direction=1, options={"last_card": True})
    tr = translator("es")
    state, _ = GAME.apply(state, IDS[0], GAME.decode_action("p.r1a"))  # Ana forgets to call
    state, _ = GAME.apply(state, IDS[1], GAME.decode_action("p.r3a"))  # so does Beto
    public = public_payload(_table(state), PRESENTER, _Service(), tr)
    assert {"catch.0", "catch.1"} <= _offers(public)
    labels = {c.get("label") for c in _components(public)}
    assert {"¡Pillado! (Ana)", "¡Pillado! (Beto)"} <= labels
    text = read_card(public).description
    assert "Ana tiene una carta y no avisó" in text and "Beto tiene una carta y no avisó" in text


# ----- texts with names ------------------------------------------------------------------------
ID_PATTERN = re.compile(r"seatid-|\{[a-z_]+\}|chupate2\.")


@pytest.mark.parametrize("locale", ["es", "en"])
def test_texts_name_players_never_ids(locale):
    tr = translator(locale)
    names = dict(zip(IDS, NAMES, strict=True))
    name = lambda s: names.get(s, "—")  # noqa: E731
    seen_codes: set[str] = set()
    rng = random.Random(5)
    for n, options in TABLE_SETUPS:
        state = None
        for state in _playout(options, n, rng, 400):
            view = GAME.view(state, None)
            texts = [
                *PRESENTER.status_lines(view, name, tr),
                *(PRESENTER.seat_line(view, s, name, tr) for s in state.seats),
            ]
            for seat in state.seats:
                private = GAME.view(state, seat)
                texts += PRESENTER.private_lines(private, tr)
                fresh = [
                    e
                    for e, v in zip(private.last_events, private.last_event_versions, strict=True)
                    if v == state.version
                ]
                for e in fresh:
                    text = PRESENTER.event_text(e, name, tr)
                    assert text is not None, e.code
                    seen_codes.add(e.code)
                    texts.append(text)
            for text in texts:
                assert not ID_PATTERN.search(text), text
        outcome = GAME.outcome(state)
        if outcome is not None:
            for text in PRESENTER.outcome_lines(outcome, name, tr):
                assert not ID_PATTERN.search(text), text
    assert {
        "round_started",
        "played",
        "drew",
        "drew_cards",
        "must_draw",
        "took",
        "round_won",
        "game_won",
    } <= seen_codes


def test_round_start_names_the_dealer():
    state = GAME.new(IDS[:3], "dealer", {})
    event = next(e for e in state.log if e.code == "round_started")
    text = PRESENTER.event_text(event, lambda s: NAMES[IDS.index(s)], translator("es"))
    dealer = NAMES[IDS.index(event.params["dealer"])]
    starter = NAMES[IDS.index(event.seat)]
    assert text == f"Ronda 1: reparte {dealer}, empieza {starter}."


def test_points_game_shows_the_running_score_and_team_results():
    hands = {IDS[0]: ["g1a"], IDS[1]: ["y1a"], IDS[2]: ["r1a"], IDS[3]: ["b2a", "Wa"]}
    state = make_state(
        hands, "g5a", options={"teams": "pairs", "points": "50"}, team_scores=[0, 0], direction=1
    )
    tr = translator("es")
    state, events = GAME.apply(state, IDS[0], GAME.decode_action("p.g1a"))  # 1 + 2 + 50 = 53
    names = dict(zip(IDS, NAMES, strict=True)).get
    texts = [PRESENTER.event_text(e, names, tr) for e in events]
    assert "¡Ana gana la partida para el equipo 1!" in texts
    outcome = GAME.outcome(state)
    assert outcome.team_winners == [IDS[0], IDS[2]]
    lines = PRESENTER.outcome_lines(outcome, names, tr)
    assert lines[0] == "🏆 ¡Gana el equipo 1: Ana, Carla!"
    assert "Equipo 1: Ana, Carla · 53 pts" in lines and "Equipo 2: Beto, Dani · 0 pts" in lines
    assert "Ronda 1: Ana +53" in lines


def test_points_game_between_rounds_shows_scores_per_seat():
    hands = {IDS[0]: ["g1a"], IDS[1]: ["y1a"], IDS[2]: ["r9a", "b2a"]}
    state = make_state(hands, "g5a", options={"points": "300"}, direction=1)
    state, _ = GAME.apply(state, IDS[0], GAME.decode_action("p.g1a"))  # 1 + 9 + 2 = 12
    assert GAME.outcome(state) is None and state.round == 2
    payload = public_payload(_table(state), PRESENTER, _Service(), translator("es"))
    text = read_card(payload).description
    assert "Ronda 2 · meta 300 puntos" in text
    assert "Ronda 1: Ana +12" in text
    assert "Ana: 7 cartas · 12 pts" in text and "Beto: 7 cartas · 0 pts" in text


def test_single_round_results_show_the_points_left_in_each_hand():
    hands = {IDS[0]: ["g1a"], IDS[1]: ["y1a", "rSa"], IDS[2]: ["r9a", "Wa"]}
    state = make_state(hands, "g5a", direction=1)
    state, _ = GAME.apply(state, IDS[0], GAME.decode_action("p.g1a"))
    names = dict(zip(IDS, NAMES, strict=True)).get
    lines = PRESENTER.outcome_lines(GAME.outcome(state), names, translator("es"))
    assert lines == [
        "1.º Ana — 80 puntos",
        "2.º Beto — le quedan 21 puntos en la mano",
        "3.º Carla — le quedan 59 puntos en la mano",
    ]


class _Unshared(Presenter):
    """Writes every choice afresh (no payload's memo of written choices)."""

    def shown_choice(self, move, action):
        return self.choice(action, move.view, move.names, move.tr)


def test_a_payloads_choices_written_once_are_the_ones_written_afresh():
    """The card choices the game's components wrote are reused for the plain buttons after
    them (``GamePresenter.shown_choice``): each seat's private payload, at every state of a few
    games, is the one built with every choice written afresh."""
    unshared = text_presenter(_Unshared, GAME)
    for seed in range(4):
        state = GAME.new(SEAT_IDS[:3], f"choices-{seed}")
        rng = random.Random(seed)
        for _ in range(40):
            if GAME.is_over(state):
                break
            table = _table(state)
            for seat in state.seats:
                shared = private_payload(table, PRESENTER, seat, translator("es"))
                fresh = private_payload(table, unshared, seat, translator("es"))
                assert shared.view.to_components() == fresh.view.to_components()
            seat = sorted(s for s in GAME.to_act(state) if GAME.legal_actions(state, s))[0]
            state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))


def test_card_labels_written_once_read_as_written_afresh():
    """A card's label is kept per card and language: the same as written afresh (through a
    translator that keeps nothing) for every card of the deck, and another translator gets its
    own words."""
    from bot.i18n import LOCALES
    from bot.ui.chupate2 import text
    from games.chupate2.cards import FACE_OF

    for locale in LOCALES:
        tr = translator(locale)
        afresh = partial(tr)  # the same words, from a translator that keeps nothing
        for card in FACE_OF:
            written = text.card_label(card, afresh)
            assert text.card_label(card, tr) == text.card_label(card, tr) == written
    card = next(iter(FACE_OF))
    assert text.card_label(card, lambda key, **_: f"<{key}>").startswith("<chupate2.")
