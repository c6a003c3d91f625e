"""Colour is never the only signal (issue 31 item 4): every colour a player must tell apart has
a word, a number or a mark beside it, and the playable highlight shows on every card colour."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.i18n import LOCALES, translator
from bot.ui.amapatolli import text as ama
from bot.ui.chupate2 import images as c2_images
from bot.ui.chupate2.presenter import Presenter as Chupate2Presenter
from bot.ui.macarena import images as mac_images
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
