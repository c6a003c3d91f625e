"""The es/en catalogues cover every code and option; the images render and decode."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import get_args

import pytest
from PIL import Image

from bot.i18n.messages import placeholders, render
from bot.ui.chupate2.images import TABLE_SCALE, render_hand, render_table
from bot.ui.images.scaled import scaled_size
from games.chupate2 import GAME, Options
from games.chupate2 import actions as A
from games.chupate2.cards import COLOURS
from games.chupate2.rules import ERROR_CODES, EVENT_CODES
from tests.games.chupate2.helpers import make_state

I18N = Path(__file__).resolve().parents[3] / "bot" / "i18n"
CATALOGUES = {  # the game's words, and those of its images added for issue 28 (access.json)
    loc: json.loads((I18N / loc / "chupate2.json").read_text("utf-8"))
    | {
        k: v
        for k, v in json.loads((I18N / loc / "access.json").read_text("utf-8")).items()
        if k.startswith("chupate2.")
    }
    for loc in ("es", "en")
}


_placeholders = placeholders


def tr_for(locale: str):
    catalogue = CATALOGUES[locale]

    def tr(key: str, **params) -> str:
        return render(catalogue[key], locale, params)

    return tr


def test_catalogues_have_the_same_keys_and_placeholders():
    es, en = CATALOGUES["es"], CATALOGUES["en"]
    assert es.keys() == en.keys()
    for key in es:
        assert key.startswith("chupate2.")
        assert _placeholders(es[key]) == _placeholders(en[key]), key


def test_catalogues_cover_codes_options_and_actions():
    es = CATALOGUES["es"]
    for code in EVENT_CODES:
        assert f"chupate2.event.{code}" in es
    for code in ERROR_CODES:
        assert f"chupate2.error.{code}" in es
    for name, field in Options.model_fields.items():
        assert f"chupate2.option.{name}" in es
        assert len(es[f"chupate2.option.{name}"]) <= 100
        for value in get_args(field.annotation):
            assert f"chupate2.option.{name}.{value}" in es
    kinds = {
        a.kind
        for a in [
            A.DRAW,
            A.PASS,
            A.TAKE,
            A.CHALLENGE,
            A.ANNOUNCE,
            A.CATCH,
            *A.CHOOSE_COLOUR.values(),
            *A.PLAY.values(),
            *A.SWAP.values(),
        ]
    }
    for kind in kinds:
        assert f"chupate2.action.{kind}" in es
    for colour in COLOURS:
        assert f"chupate2.colour.{colour}" in es
    for face in [*"0123456789", "D", "S", "R", "W", "F"]:
        assert f"chupate2.face.{face}" in es
    for locale in CATALOGUES:
        assert len(CATALOGUES[locale]["chupate2.rules"]) <= 3500
        labels = [v for k, v in CATALOGUES[locale].items() if k.startswith("chupate2.action.")]
        assert all(len(v) <= 80 for v in labels)


def test_every_event_of_a_playout_formats():
    tr = tr_for("en")
    state = GAME.new(["a", "b", "c", "d"], "fmt", {"last_card": True, "stack_plus4": True})
    rng = random.Random(5)
    for _ in range(300):
        if GAME.outcome(state):
            break
        (seat,) = GAME.to_act(state)
        state, events = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        for e in events:
            assert tr(
                f"chupate2.event.{e.code}",
                player=e.seat,
                target="x",
                dealer="d",
                **{k: v for k, v in e.params.items() if k not in ("target", "dealer")},
            )


def _png_size(data: bytes) -> tuple[int, int]:
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    return image.size


@pytest.mark.parametrize("locale", ["es", "en"])
def test_render_table_and_hand_for_played_states(locale):
    tr = tr_for(locale)
    for options, n in (({}, 2), ({"teams": "pairs", "points": "150"}, 4), ({"teams": "trios"}, 6)):
        seats = [f"s{i}" for i in range(n)]
        state = GAME.new(seats, f"img-{n}", options)
        rng = random.Random(n)
        for _ in range(40):
            if GAME.outcome(state):
                break
            (seat,) = GAME.to_act(state)
            state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        table = render_table(GAME.view(state, None), tr, names={"s0": "Ana 🤖", "s1": "B" * 40})
        width, height = _png_size(table)
        # laid out 900 wide, drawn at TABLE_SCALE (550 px, the width Discord shows it at)
        assert (width, height) == scaled_size((900, 330 + 20 + 46 * n + 16), TABLE_SCALE)
        assert len(table) < 300_000
        hand = render_hand(GAME.view(state, "s0"), tr)
        width, _ = _png_size(hand)
        assert width == 900 and len(hand) < 300_000


def test_render_special_cards_big_hand_and_empty_hand():
    tr = tr_for("es")
    big = [c for colour in COLOURS for c in [c for c in A.PLAY if c[0] == colour][:8]]
    big += ["Wa", "Wb"]  # 34 cards in 5 colour groups
    state = make_state({"a": big, "b": ["Fb"]}, "Fa", colour="g", phase="challenge", pending=4)
    assert _png_size(render_hand(GAME.view(state, "a"), tr)) == (900, 20 + 5 * 130)
    assert _png_size(render_table(GAME.view(state, "a"), tr))[0] == 550
    assert _png_size(render_hand(GAME.view(state, None), tr)) == (900, 150)
    wild_first = make_state({"a": ["r1a"], "b": ["g1a"]}, "Wa", colour=None, phase="colour")
    assert _png_size(render_table(GAME.view(wild_first, None), tr))[0] == 550


def test_presenter_helpers_put_cards_and_colours_into_words():
    from bot.ui.chupate2.text import action_key, action_params, card_label, event_params
    from games.core import Event

    es, en = tr_for("es"), tr_for("en")
    assert card_label("rDa", es) == "Chúpate 2 rojo" and card_label("g7b", en) == "green 7"
    assert card_label("Fa", es) == "Comodín +4"
    state = make_state({"a": ["Fa", "g2a"], "b": ["y1a"], "c": ["y2a"]}, "r5a")
    view = GAME.view(state, "a")
    wild = A.PLAY_WILD["Fa"][2]
    label = en(action_key(wild, view), **action_params(wild, view, en))
    assert label == "Wild +4 → green"
    state, _ = GAME.apply(state, "a", wild)
    victim = GAME.view(state, "c")
    assert action_key(A.TAKE, victim) == "chupate2.action.accept"
    assert es(action_key(A.TAKE, victim), **action_params(A.TAKE, victim, es)) == "Aceptar (+4)"
    event = Event(code="drew_cards", seat="a", params={"cards": ["r1a", "Wa"]}, to=("a",))
    assert en("chupate2.event.drew_cards", **event_params(event, en)) == "You drew: red 1, Wild."
    rev = Event(code="reversed", params={"direction": "cw"})
    assert "clockwise" in en("chupate2.event.reversed", **event_params(rev, en))


# ----- playable cards in the hand image ---------------------------------------------------------


def _hand_image(state, seat: str, playable=None) -> Image.Image:
    image = Image.open(
        io.BytesIO(render_hand(GAME.view(state, seat), tr_for("es"), playable=playable))
    )
    image.load()
    return image.convert("RGB")


def _marked(image: Image.Image, view) -> set[str]:
    """Cards with the gold frame showing just above them (the hand fits: no card overlaps)."""
    from bot.ui.chupate2.images import CARD_W, GOLD, PLAYABLE_GLOW, hand_layout

    return {
        card
        for card, x, y in hand_layout(view)
        if image.getpixel((int(x + CARD_W / 2), int(y - PLAYABLE_GLOW / 2))) == GOLD
    }


def test_playable_cards_are_both_copies_of_what_the_engine_offers():
    from bot.ui.chupate2.images import playable_cards

    state = make_state(
        {"a": ["r7a", "r7b", "g3a", "Wa", "b5a"], "b": ["y1a", "y2a"]}, "r5a", current=0
    )
    legal = GAME.legal_actions(state, "a")
    assert sum(1 for a in legal if getattr(a, "card", None) in ("r7a", "r7b")) == 1
    assert playable_cards(legal, state.hands["a"]) == {"r7a", "r7b", "Wa", "b5a"}
    assert playable_cards(GAME.legal_actions(state, "b"), state.hands["b"]) == set()


def test_hand_image_frames_exactly_the_playable_cards():
    from bot.ui.chupate2.images import LEGEND_H, playable_cards

    state = make_state(
        {"a": ["r7a", "r7b", "g3a", "Wa", "b5a", "y9a"], "b": ["y1a", "y2a"]}, "r5a", current=0
    )
    view = GAME.view(state, "a")
    playable = playable_cards(GAME.legal_actions(state, "a"), view.hand)
    marked = _hand_image(state, "a", playable)
    plain = _hand_image(state, "a")
    assert _marked(marked, view) == playable == {"r7a", "r7b", "Wa", "b5a"}
    assert _marked(plain, view) == set()  # nothing marked unless the presenter says what
    assert marked.height == plain.height + LEGEND_H
    assert _marked(_hand_image(state, "a", set()), view) == set()


def test_presenter_passes_the_playable_cards_to_the_hand_image():
    from bot.ui.chupate2.presenter import Presenter

    state = make_state({"a": ["r7a", "g3a"], "b": ["y1a", "y2a"]}, "r5a", current=0)
    view = GAME.view(state, "a")
    presenter = Presenter(GAME)
    legal = GAME.legal_actions(state, "a")
    assert presenter.hand_image_extras(view, legal) == {"playable": {"r7a"}}
    extras = presenter.hand_image_extras(view, legal)
    with_legal = Image.open(io.BytesIO(render_hand(view, tr_for("es"), **extras)))
    without = Image.open(io.BytesIO(render_hand(view, tr_for("es"))))
    assert with_legal.height > without.height
