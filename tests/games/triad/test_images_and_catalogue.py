"""The board and hand images, the presenter helpers and the i18n catalogues of Triple Triad."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw

from bot.i18n.messages import placeholders, render
from bot.ui.triad.images import TABLE_SIZE, render_hand, render_table
from bot.ui.triad.text import action_params, card_label, event_params
from games.triad import GAME, Options
from games.triad import rules as rules_module
from games.triad.cards import catalogue
from tests.games.triad.randomgames import SEATS, random_game, random_hands

I18N = Path(__file__).resolve().parents[3] / "bot" / "i18n"


def _catalogue(locale: str) -> dict[str, str]:
    return json.loads((I18N / locale / "triad.json").read_text(encoding="utf-8"))


def _tr(locale: str = "es"):
    cat = _catalogue(locale)

    def tr(key: str, **params) -> str:
        assert key in cat, key
        return render(cat[key], locale, params)

    return tr


_placeholders = placeholders


def _png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) < 300_000
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


# ----- images ---------------------------------------------------------------------------------


@pytest.mark.parametrize("locale", ["es", "en"])
def test_render_table_and_hand_through_a_game(locale):
    tr = _tr(locale)
    g = random_game(11)
    for state in g.states:
        for seat in (None, *SEATS):
            view = GAME.view(state, seat)
            table = _png(render_table(view, tr))
            assert table.size == TABLE_SIZE == (550, 466)
            if seat is not None:
                hand = _png(render_hand(view, tr))
                assert hand.size[1] == 206 and hand.size[0] >= 3 * 128


def test_render_open_elemental_sudden_death_and_pick():
    tr = _tr()
    rng = random.Random(4)
    options = {
        "open": True,
        "elemental": True,
        "same": True,
        "same_wall": True,
        "plus": True,
        "combo": True,
        "sudden_death": True,
        "payout": "diferencia",
    }
    state = GAME.new(SEATS, "render", options, hands=random_hands(rng))
    state.round = 2
    seen_pick = False
    while GAME.outcome(state) is None:
        (seat,) = GAME.to_act(state)
        view = GAME.view(state, seat)
        _png(render_table(view, tr, names=lambda s: s.upper()))
        if view.pick is not None:
            hand = _png(render_hand(view, tr))
            assert hand.size[0] == 5 * 128 + 4 * 6 + 2 * 14
            seen_pick = True
        state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    _png(render_table(GAME.view(state, None), tr))
    assert seen_pick or state.winner is None


def test_labels_for_presenters():
    tr = _tr("en")
    assert card_label("c100", tr) == "Orlan the Sage [A-3-A-7]"
    state = GAME.new(SEATS, "labels")
    seat = SEATS[state.turn]
    action = GAME.legal_actions(state, seat)[0]
    params = action_params(action, GAME.view(state, seat), tr)
    label = tr("triad.action.play", **params)
    assert "→" in label and len(label) <= 80
    ev = event_params({"card": "c001", "cell": 4, "rule": "una"}, tr)
    assert ev == {"card": "Ash Mouse", "cell": "centre", "rule": "One"}


# ----- catalogues -----------------------------------------------------------------------------


def test_catalogues_have_the_same_keys_and_placeholders():
    es, en = _catalogue("es"), _catalogue("en")
    assert es.keys() == en.keys()
    for key in es:
        assert key.startswith("triad.")
        assert _placeholders(es[key]) == _placeholders(en[key]), key
    for cat in (es, en):
        assert len(cat["triad.rules"]) <= 3500


def test_catalogues_cover_options_events_errors_cards_and_elements():
    es = _catalogue("es")
    for field, info in Options.model_fields.items():
        assert len(es[f"triad.option.{field}"]) <= 100
        for value in getattr(info.annotation, "__args__", ()):
            if isinstance(value, str):
                assert f"triad.option.{field}.{value}" in es
                assert f"triad.payout.{value}" in es
        if info.annotation is bool:
            assert f"triad.rule.{field}" in es
    codes = {
        "played",
        "same",
        "same_wall",
        "plus",
        "flipped",
        "combo",
        "round_draw",
        "sudden_death",
        "game_draw",
        "game_won",
        "pick_required",
        "picked",
        "payout",
    }
    for code in codes:
        assert f"triad.event.{code}" in es
    errors = {
        v
        for k, v in vars(rules_module).items()
        if k.isupper() and isinstance(v, str) and k not in {"HAND"}
    }
    errors |= {
        "not_your_turn",
        "not_a_player",
        "game_over",
        "bad_action",
        "player_count",
        "duplicate_seat",
    }
    for code in errors:
        assert f"triad.error.{code}" in es, code
    for kind in ("play", "pick"):
        assert f"triad.action.{kind}" in es
    for loc in ("es", "en"):
        cat = _catalogue(loc)
        for c in catalogue().cards:
            assert cat[f"triad.card.{c.id}"] == getattr(c.name, loc)
    assert all(f"triad.cell.{i}" in es for i in range(9))


def test_every_event_code_emitted_has_a_template():
    es = _catalogue("es")
    seen = set()
    for n in range(300):
        g = random_game(n, low_levels=True)
        state = GAME.new(SEATS, g.seed, g.options, hands=g.hands)
        for seat, action in g.moves:
            state, events = GAME.apply(state, seat, action)
            for e in events:
                seen.add(e.code)
                template = es[f"triad.event.{e.code}"]
                params = event_params(e.params, _tr())
                render(template, "es", {"player": "X", **params})
    assert {"played", "flipped", "game_won", "payout", "pick_required", "picked"} <= seen


# ----- element badges -------------------------------------------------------------------------

ELEMENTS = ["fuego", "hielo", "rayo", "tierra", "veneno", "viento", "agua", "sagrado"]


def _badge_mask(element: str) -> bytes:
    from bot.ui.triad.images import draw_element_icon

    image = Image.new("L", (40, 40), 0)
    draw_element_icon(ImageDraw.Draw(image), element, 20, 20, 14, ink=255)
    return image.tobytes()


def test_element_badges_are_pictures_telling_every_element_apart():
    masks = {e: _badge_mask(e) for e in ELEMENTS}
    assert all(any(m) for m in masks.values())
    assert len(set(masks.values())) == len(ELEMENTS)  # even without their colours


@pytest.mark.parametrize("element", ELEMENTS)
def test_no_letter_is_drawn_in_a_card_badge(element, monkeypatch):
    """Water's badge was the letter "A", which also prints a 10 on a card's edge."""
    from bot.ui.images import fonts  # every text of the module's images is drawn through it
    from bot.ui.triad import images
    from games.triad.view import CardFace

    drawn: list[tuple[float, float, str]] = []

    def spy(draw, xy, text, size, fill, anchor="mm", bold=True, max_width=None):
        drawn.append((xy[0], xy[1], text))
        return 0.0

    monkeypatch.setattr(fonts, "draw_text", spy)
    monkeypatch.setattr(images, "_card_sprite", images._card_sprite.__wrapped__)  # painted now
    face = CardFace(
        uid=1, card="c100", level=5, element=element, printed=[10] * 4, values=[10] * 4, owner="p1"
    )
    image = Image.new("RGB", (200, 200))
    images._draw_card(ImageDraw.Draw(image), 0, 0, images.CELL, face, 0, _tr("es"))
    r = images.badge_radius(images.CELL)
    ex, ey = images.CELL - r - 6, r + 6
    inside = [t for x, y, t in drawn if abs(x - ex) <= r + 2 and abs(y - ey) <= r + 2]
    assert inside == []
    assert [t for *_, t in drawn].count("A") == 4  # the four edges still read "A" (10)


@pytest.mark.parametrize("scale", [1.0, 0.875])
def test_a_card_pasted_from_its_sprite_is_the_card_painted_in_place(scale):
    """Cards are drawn once per look and process, then pasted (issue 29): at whole pixels of
    the canvas the pasted card is the painted one, pixel for pixel, and a look is drawn once."""
    from bot.ui.images.palette import module_colours, to_palette
    from bot.ui.images.scaled import canvas
    from bot.ui.triad import images
    from games.triad.view import CardFace

    tr = _tr("es")
    face = CardFace(
        uid=1, card="c042", level=5, element="rayo", printed=[3, 7, 10, 2], values=[4, 7, 9, 2],
        owner="p1",
    )  # fmt: skip
    x, y = 16 / scale, 32 / scale  # even pixels of the canvas
    for size, kwargs in ((images.CELL, {"highlight": True}), (images.MINI, {"show_name": False})):
        pasted_image, pasted = canvas((300, 300), images.SLOT, scale)
        painted_image, painted = canvas((300, 300), images.SLOT, scale)
        images._draw_card(pasted, x, y, size, face, 1, tr, **kwargs)
        look = images.CardLook(
            (4, 7, 9, 2),
            (3, 7, 10, 2),
            "rayo",
            tr("triad.label.level", level=5),
            None if kwargs.get("show_name") is False else images.card_name("c042", tr),
            1,
            highlight=bool(kwargs.get("highlight")),
        )
        images._paint_card(painted, x, y, size, look)
        assert painted_image.getbbox() is not None
        # a sprite keeps its pixels on the module's palette, as the PNG does: the same image
        colours = module_colours(images.__name__)
        pasted_png, painted_png = (
            to_palette(i, colours).convert("RGB") for i in (pasted_image, painted_image)
        )
        assert ImageChops.difference(pasted_png, painted_png).getbbox() is None, size
        assert images._card_sprite(look, size, scale) is images._card_sprite(look, size, scale)


@pytest.mark.parametrize("locale", ["es", "en"])
def test_a_score_is_drawn_apart_from_its_label_s_words(locale, monkeypatch):
    """The header's score is its own text, the words around it another (issue 29: the words
    stay one text patch a table, the score one of a few for every table): the header reads as
    the whole label drawn in one, within a pixel of where each glyph went."""
    from bot.ui.triad import images

    tr = _tr(locale)
    assert images._score_parts(tr, "Ana (Azul)", 7) == ("Ana (Azul): ", "7", "")
    g = random_game(5)
    view = GAME.view(g.states[4], None)
    names = {SEATS[0]: "Alejandra Fernández", SEATS[1]: "🤖 CPU 1 (normal)"}.__getitem__
    drawn: list[str] = []
    real_text = images._text

    def spy(draw, xy, text, *args, **kwargs):
        drawn.append(text)
        return real_text(draw, xy, text, *args, **kwargs)

    monkeypatch.setattr(images, "_text", spy)
    parts = _png(render_table(view, tr, names))
    scores = [str(view.scores[seat]) for seat in view.seats]
    colour = tr("triad.colour.0")
    assert scores[0] in drawn and scores[1] in drawn
    assert f"Alejandra Fernández ({colour}): " in drawn
    assert not any(text.endswith(f": {scores[0]}") for text in drawn)

    # the same header as the whole label drawn in one: the score's glyphs at most a pixel away,
    # nothing else moved
    def whole_label(tr, colour, score):
        return tr("triad.label.score", colour=colour, score=score), "", ""

    monkeypatch.setattr(images, "_score_parts", whole_label)
    whole = _png(render_table(view, tr, names))
    difference = ImageChops.difference(parts.convert("RGB"), whole.convert("RGB"))
    box = difference.getbbox()
    if box is not None:
        assert box[3] <= images.HEADER * images.TABLE_SCALE  # the header alone
        changed = difference.convert("L").histogram()
        assert sum(changed[1:]) < 150  # pixels not the same


def test_a_score_label_not_showing_the_score_as_it_is_is_drawn_whole():
    from bot.ui.triad import images

    def spelled(key, **params):  # a catalogue writing the score in words
        return f"{params['colour']} ({ {7: 'seven'}.get(params['score'], '?') })"

    assert images._score_parts(spelled, "Ana", 7) == ("Ana (seven)", "", "")

    def twice(key, **params):
        return f"{params['score']} · {params['colour']} · {params['score']}"

    assert images._score_parts(twice, "Ana", 7) == ("7 · Ana · 7", "", "")
