"""Colour is never the only signal (issue 31 item 4): every colour a player must tell apart has
a word, a number or a mark beside it, and the playable highlight shows on every card colour."""

from __future__ import annotations

import io
from functools import partial
from types import SimpleNamespace

import pytest
from PIL import Image

from bot.i18n import LOCALES, translator
from bot.ui.amapatolli import text as ama
from bot.ui.chupate2 import images as c2_images
from bot.ui.chupate2 import presenter as c2_presenter
from bot.ui.chupate2.presenter import Presenter as Chupate2Presenter
from bot.ui.macarena import images as mac_images
from bot.ui.presenter import PrivateMove
from bot.ui.triad import text as triad_text
from games.amapatolli import GAME as AMAPATOLLI
from games.chupate2 import GAME as CHUPATE2
from tests.bot.presenter_kit import text_presenter

MIN_CONTRAST = 3.0  # WCAG's minimum for graphical objects


def _luminance(rgb: tuple[int, int, int]) -> float:
    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


# ----- Chúpate 2 ------------------------------------------------------------------------------
@pytest.mark.parametrize("colour", sorted(c2_images.RGB))
def test_the_playable_frame_stands_out_on_every_card_colour(colour):
    card = c2_images.RGB[colour]
    frame = (c2_images.PLAYABLE_RING, c2_images.PLAYABLE_FRAME)
    assert max(contrast(tone, card) for tone in frame) >= MIN_CONTRAST, colour
    # the ring and the frame differ from each other, so the frame reads as two bands
    assert contrast(*frame) >= MIN_CONTRAST


def test_the_playable_mark_stands_out_on_the_felt_and_is_drawn_under_every_colour():
    assert contrast(c2_images.PLAYABLE_MARK, c2_images.FELT) >= MIN_CONTRAST
    assert (
        max(
            contrast(t, c2_images.FELT) for t in (c2_images.PLAYABLE_RING, c2_images.PLAYABLE_FRAME)
        )
        >= MIN_CONTRAST
    )
    state = CHUPATE2.new(["a", "b"], "colour-signals")
    view = CHUPATE2.view(state, "a").model_copy(
        update={"hand": ["r5a", "y6a", "g5b", "b2b", "Wa"], "drawn_card": None}
    )
    png = c2_images.render_hand(view, translator("es"), playable=set(view.hand))
    image = Image.open(io.BytesIO(png)).convert("RGB")
    for card, left, top in c2_images.hand_layout(view):
        tip_y = top + c2_images.CARD_H + c2_images.PLAYABLE_GLOW + 1
        box = (int(left), int(tip_y), int(left + c2_images.CARD_W), int(tip_y + c2_images.MARK_H))
        pixels = list(image.crop(box).getdata())
        # the ▲ under a yellow card too (the PNG is palette-reduced: near the mark's colour)
        assert any(_near(p, c2_images.PLAYABLE_MARK) for p in pixels), card


def _near(a: tuple[int, ...], b: tuple[int, ...], tolerance: int = 24) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize("locale", LOCALES)
def test_chupate2_hand_lists_name_each_colour_in_words(locale):
    tr = translator(locale)
    presenter = text_presenter(Chupate2Presenter, CHUPATE2)
    state = CHUPATE2.new(["a", "b"], "colour-signals")
    view = CHUPATE2.view(state, "a").model_copy(update={"hand": ["r5a", "y6a", "g5b", "b2b", "Wa"]})
    lines = "\n".join(presenter.private_lines(view, tr))
    for colour in ("r", "y", "g", "b"):
        assert f"{tr(f'chupate2.colour.{colour}')}:" in lines, colour
    assert tr("chupate2.ui.wild_cards") in lines


# ----- Amapatolli -------------------------------------------------------------------------------
@pytest.mark.parametrize("locale", LOCALES)
def test_amapatolli_cards_say_their_colours_in_words(locale):
    tr = translator(locale)
    state = AMAPATOLLI.new(["a", "b", "c", "d"], "colour-signals")
    seen: set[str] = set()
    for seat in state.seats:
        view = AMAPATOLLI.view(state, seat)
        for card in [*view.hand, view.top]:
            text = ama.card_text(card, tr)
            colours = {card.margin} | (set() if card.wild else {card.background})
            for colour in colours:
                assert tr(f"amapatolli.colour.{colour}") in text, text
            seen |= colours
    assert seen >= {"red", "black"}  # the pair the squares alone confused
    assert set(ama.COLOUR_EMOJI) == {"white", "red", "black", "blue"}


@pytest.mark.parametrize("locale", LOCALES)
def test_amapatolli_card_texts_written_once_read_as_written_afresh(locale):
    """A card's text is kept per card and language: the same as written afresh (through a
    translator that keeps nothing), and a card that differs in what the text shows gets its
    own."""
    from games.amapatolli.options import Options
    from games.amapatolli.view import card_views

    tr = translator(locale)
    afresh = partial(tr)  # the same words, from a translator that keeps nothing
    for options in (Options(), Options(no_birds=True, powers=True)):
        for card in card_views(options).values():
            written = ama.card_text(card, afresh)
            assert ama.card_text(card, tr) == ama.card_text(card, tr) == written
            changed = card.model_copy(update={"value": card.value + 1, "margin": "blue"})
            changed_text = ama.card_text(changed, afresh)
            assert ama.card_text(changed, tr) == changed_text
            assert card.wild or changed_text != written  # (a wild's text shows no value)
    card = next(iter(card_views(Options()).values()))  # another translator: its own words
    assert f"<amapatolli.colour.{card.margin}>" in ama.card_text(card, lambda key, **_: f"<{key}>")


# ----- Macarena -------------------------------------------------------------------------------
@pytest.mark.parametrize("index", range(len(mac_images.PLAYER_RGB)))
def test_every_macarena_player_colour_carries_its_number(index):
    size = 20
    image = Image.new("RGB", (size + 4, size + 4), mac_images.TABLE)
    from PIL import ImageDraw

    draw = ImageDraw.Draw(image)
    mac_images._numbered_dot(draw, 2, 2, size, index, index + 1)
    pixels = set(image.getdata())
    assert mac_images.PLAYER_RGB[index] in pixels
    assert mac_images.TEXT in pixels  # the number, light on a dark outline
    assert contrast(mac_images.TEXT, mac_images.OUTLINE) >= MIN_CONTRAST
    # two player colours never look alike: each pair differs in hue or lightness
    for other, rgb in enumerate(mac_images.PLAYER_RGB):
        if other != index:
            assert (
                sum(abs(a - b) for a, b in zip(rgb, mac_images.PLAYER_RGB[index], strict=True))
                > 120
            )


# ----- shapes beside colours (issue 28 item 4) ------------------------------------------------
def _mask(image: Image.Image, box, tone, tolerance: int = 40) -> frozenset[tuple[int, int]]:
    """The pixels of ``box`` near ``tone``, relative to the box: a shape's silhouette."""
    x0, y0, x1, y1 = (int(v) for v in box)
    crop = image.crop((x0, y0, x1, y1))
    w = crop.width
    return frozenset(
        (i % w, i // w) for i, p in enumerate(crop.getdata()) if _near(p, tone, tolerance)
    )


def test_every_colour_has_its_own_shape_and_emoji():
    from bot.ui.images.symbols import EMOJI, SHAPE

    for colours in (("red", "yellow", "green", "blue"), ("white", "red", "black", "blue")):
        assert len({SHAPE[c] for c in colours}) == len(colours), colours
        assert len({EMOJI[c] for c in colours}) == len(colours), colours
    assert c2_presenter.COLOUR_EMOJI["r"] == EMOJI["red"] == ama.COLOUR_EMOJI["red"] == "🔺"
    assert triad_text.SEAT_EMOJI == (EMOJI["blue"], EMOJI["red"])


def test_chupate2_card_faces_tell_their_colour_by_a_shape():
    """Drawn without colour (only the white ink kept), every colour's card still differs."""
    from PIL import ImageDraw

    w, h = c2_images.CARD_W, c2_images.CARD_H
    tr = translator("es")
    masks = {}
    for colour in ("r", "y", "g", "b"):
        image = Image.new("RGB", (w, h), c2_images.FELT)
        c2_images.draw_card(ImageDraw.Draw(image), f"{colour}5a", 0, 0, w, h, tr)
        top_right = (w * 0.72, 0, w, h * 0.2)
        masks[colour] = _mask(image, top_right, c2_images.WHITE)
        assert len(masks[colour]) > 10, colour  # the shape is there, white on the colour
    assert len(set(masks.values())) == 4
    # a wild names its colour by the same shape once one is chosen
    for colour in ("r", "b"):
        image = Image.new("RGB", (w, h), c2_images.FELT)
        c2_images.draw_card(ImageDraw.Draw(image), "Wa", 0, 0, w, h, tr, colour_in_force=colour)
        assert _mask(image, (w * 0.72, 0, w, h * 0.2), c2_images.RGB[colour]), colour


@pytest.mark.parametrize("locale", LOCALES)
def test_chupate2_colour_picker_buttons_carry_the_colours_shape(locale):
    tr = translator(locale)
    view = SimpleNamespace(version=1)
    buttons = Chupate2Presenter._colour_picker(PrivateMove(1, view, [], {}, str, tr), "Wa")[:4]
    for button, colour in zip(buttons, ("r", "y", "g", "b"), strict=True):
        assert str(button.emoji) == c2_presenter.COLOUR_EMOJI[colour]
        assert tr(f"chupate2.colour.{colour}") in button.label


def test_amapatolli_cards_show_margin_and_background_by_shapes():
    from PIL import ImageDraw

    from bot.ui.amapatolli import images as ama_images
    from games.amapatolli.view import CardView

    w, h = ama_images.HAND_CARD
    margins, backgrounds = {}, {}
    for colour in ("white", "red", "black", "blue"):
        other = "white" if colour != "white" else "black"
        card = CardView(id="x", sign=7, name="Mázatl", value=7, margin=colour, background=other)
        image = Image.new("RGB", (w + 10, h + 10), ama_images.TABLE)
        ama_images._draw_card(ImageDraw.Draw(image), 0, 0, w, h, card, translator("es"))
        band = max(6, w // 9)
        margins[colour] = _mask(
            image, (w / 2 - band, 0, w / 2 + band, band), ama_images.INK[colour]
        )
        card = CardView(id="x", sign=7, name="Mázatl", value=7, margin=other, background=colour)
        image = Image.new("RGB", (w + 10, h + 10), ama_images.TABLE)
        ama_images._draw_card(ImageDraw.Draw(image), 0, 0, w, h, card, translator("es"))
        corner = (w * 0.7, band, w - band, h * 0.22)
        backgrounds[colour] = _mask(image, corner, ama_images.INK[colour])
        assert len(margins[colour]) > 6 and len(backgrounds[colour]) > 6, colour
    assert len(set(margins.values())) == 4  # red and black no longer look alike in grey
    assert len(set(backgrounds.values())) == 4


def test_triad_ownership_shows_by_a_shape_on_every_card():
    from PIL import ImageDraw

    from bot.ui.triad import images as triad_images
    from games.triad.view import CardFace

    face = CardFace(
        uid=1,
        card="c001",
        level=1,
        element=None,
        printed=[1, 2, 3, 4],
        values=[1, 2, 3, 4],
        owner="a",
    )
    masks = []
    for owner in (0, 1):
        for size in (triad_images.CELL, triad_images.MINI):
            image = Image.new("RGB", (size, size), triad_images.BG)
            triad_images._draw_card(
                ImageDraw.Draw(image), 0, 0, size, face, owner, translator("en")
            )
            box = (0, size * 0.55, size * 0.24, size * 0.82)
            masks.append((size, _mask(image, box, triad_images.TEXT, 30)))
            assert len(masks[-1][1]) > 6, (owner, size)
    by_size = {}
    for size, mask in masks:
        by_size.setdefault(size, set()).add(mask)
    assert all(len(shapes) == 2 for shapes in by_size.values())  # blue ◆ and red ▲ differ


def test_triad_raised_and_lowered_values_differ_without_colour():
    """An Elemental cell's +1 and −1 are tinted, and marked ▲ / ▼: in black and white the two
    cards (the same digits) still differ."""
    from PIL import ImageDraw

    from bot.ui.triad import images as triad_images
    from games.triad.view import CardFace

    masks = []
    for printed in ([1, 1, 1, 1], [3, 3, 3, 3]):  # values 2: raised, then lowered
        face = CardFace(
            uid=1,
            card="c001",
            level=1,
            element=None,
            printed=printed,
            values=[2, 2, 2, 2],
            owner="a",
        )
        size = triad_images.CELL
        image = Image.new("RGB", (size, size), triad_images.BG)
        triad_images._draw_card(ImageDraw.Draw(image), 0, 0, size, face, 1, translator("en"))
        grey = image.convert("L").point(lambda v: 255 if v > 128 else 0)
        masks.append(grey.tobytes())
    differing = sum(a != b for a, b in zip(*masks, strict=True))
    assert differing > 30, differing  # the marks, not the anti-aliasing of the tints
    for tint in (triad_images.UP, triad_images.DOWN):
        assert all(contrast(tint, base) >= 4.5 for base in triad_images.SEAT_RGB), tint
