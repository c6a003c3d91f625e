"""Text in the table images: the robot of computer players is an icon (never an empty "tofu"
box), no character the font lacks is ever handed to Pillow, and names show whole."""

from __future__ import annotations

import io
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw

from bot.i18n.messages import render
from bot.ui.amapatolli import images as amapatolli
from bot.ui.chupate2 import images as chupate2
from bot.ui.images import fonts, scaled
from bot.ui.images.fonts import ROBOT, draw_text, font, has_glyph, text_width
from bot.ui.macarena import images as macarena
from bot.ui.maquiavelo import images as maquiavelo
from bot.ui.triad import images as triad
from games.amapatolli import GAME as AMAPATOLLI
from games.chupate2 import GAME as CHUPATE2
from games.macarena import GAME as MACARENA
from games.maquiavelo import GAME as MAQUIAVELO
from games.triad import GAME as TRIAD

I18N = Path(__file__).resolve().parents[2] / "bot" / "i18n"
CPU = f"{ROBOT} CPU 1 (normal)"
LONG = "Alejandra Fernández"
NAMES = [CPU, LONG, f"{ROBOT} CPU 3 (difícil)", "Zoë"]


def translator(game: str, locale: str = "es") -> Callable[..., str]:
    catalogue: dict[str, str] = {}
    for name in ("common.json", f"{game}.json"):
        catalogue.update(json.loads((I18N / locale / name).read_text("utf-8")))
    return lambda key, /, **params: render(catalogue[key], locale, params)


def ink(image: Image.Image, box: tuple[int, int, int, int], background) -> int:
    """Pixels of ``box`` that differ from ``background``."""
    crop = image.crop(box)
    flat = Image.new("RGB", crop.size, background)
    diff = ImageChops.difference(crop, flat).convert("L")
    return diff.point(lambda v: 255 if v > 40 else 0).histogram()[255]


def test_the_fonts_have_no_robot_so_pillow_alone_would_draw_a_box():
    assert not has_glyph(ROBOT)
    assert has_glyph("C") and has_glyph("é") and has_glyph(" ")


def test_robot_icon_is_not_the_tofu_box():
    size, bg = 40, (20, 60, 40)
    tofu = Image.new("RGB", (60, 60), bg)
    ImageDraw.Draw(tofu).text((5, 5), ROBOT, font=font(size), fill=(255, 255, 255))
    icon = Image.new("RGB", (60, 60), bg)
    drawn = draw_text(ImageDraw.Draw(icon), (5, 5), ROBOT, size, (255, 255, 255))
    assert drawn == text_width(ROBOT, size) > size * 0.5
    whole = (0, 0, 60, 60)
    assert ink(icon, whole, bg) > 60  # something is drawn...
    assert ImageChops.difference(icon, tofu).getbbox() is not None  # ...and it is not the box
    # the tofu box is an empty rectangle: its centre is background; the robot has eyes there
    tofu_box = ImageChops.difference(tofu, Image.new("RGB", tofu.size, bg)).getbbox()
    assert tofu_box is not None
    x0, y0, x1, y1 = tofu_box
    centre_band = (x0 + 3, y0 + (y1 - y0) // 2 - 2, x1 - 3, y0 + (y1 - y0) // 2 + 8)
    assert ink(tofu, centre_band, bg) == 0
    assert ink(icon, centre_band, bg) > 0


@pytest.fixture
def text_calls(monkeypatch) -> list[tuple[Any, str, Any, str | None]]:
    """Every ``ImageDraw.text`` call while the test runs: (xy, text, font, anchor); text on a
    palette canvas (drawn on a patch, ``scaled.ScaledDraw``) with where it lands on the canvas."""
    calls: list[tuple[Any, str, Any, str | None]] = []
    original = ImageDraw.ImageDraw.text
    on_palette = scaled.ScaledDraw._text_on_palette
    patching: list[bool] = []

    def spy(self, xy, text, fill=None, font=None, anchor=None, *args, **kwargs):
        if not patching:  # a patch's text is recorded at the canvas's position (below)
            calls.append((xy, str(text), font, anchor))
        return original(self, xy, text, fill, font, anchor, *args, **kwargs)

    def palette_spy(self, at, text, fill, font, anchor, *args, **kwargs):
        if not patching:  # (not plain text's way back to here: recorded there)
            calls.append((at, str(text), font, anchor))
        patching.append(True)
        try:
            return on_palette(self, at, text, fill, font, anchor, *args, **kwargs)
        finally:
            patching.pop()

    def plain_spy(self, xy, text, fill, font, anchor):  # plain text's short way
        s = self.scale
        at = (round(xy[0] * s), round(xy[1] * s))
        calls.append((at, str(text), scaled.scaled_font(font, s), anchor))
        patching.append(True)
        try:
            return plain_text(self, xy, text, fill, font, anchor)
        finally:
            patching.pop()

    plain_text = scaled.ScaledDraw._plain_text
    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    monkeypatch.setattr(scaled.ScaledDraw, "_text_on_palette", palette_spy)
    monkeypatch.setattr(scaled.ScaledDraw, "_plain_text", plain_spy)
    monkeypatch.setattr(scaled, "_text_patch", scaled._text_patch.__wrapped__)  # drawn each time
    monkeypatch.setattr(scaled, "_plain_patch", scaled._plain_patch.__wrapped__)
    for module in (amapatolli, chupate2, macarena, triad):  # fixed layers drawn each time
        monkeypatch.setattr(module, "_table_layer", module._table_layer.__wrapped__)
    # and the cards kept per process (Triple Triad's, Ce Amapatolli's last card, the stamped)
    for module in (amapatolli, triad):
        monkeypatch.setattr(module, "_card_sprite", module._card_sprite.__wrapped__)
    monkeypatch.setattr(scaled, "sprite", scaled.sprite.__wrapped__)
    monkeypatch.setattr(scaled, "palette_sprite", scaled.palette_sprite.__wrapped__)
    return calls


def _played(game: Any, players: int, steps: int, seed: str) -> Any:
    state = game.new([f"s{i}" for i in range(players)], seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.outcome(state) is not None or not game.to_act(state):
            break
        seat = sorted(game.to_act(state))[0]
        state, _ = game.apply(
            state,
            seat,
            game.choose_action(
                game.view(state, seat), game.legal_actions(state, seat), "normal", rng
            ),
        )
    return state


CASES = [
    ("amapatolli", AMAPATOLLI, amapatolli, 4, 6, False),
    ("chupate2", CHUPATE2, chupate2, 4, 6, False),
    ("macarena", MACARENA, macarena, 4, 20, True),
    ("maquiavelo", MAQUIAVELO, maquiavelo, 4, 30, False),
    ("triad", TRIAD, triad, 2, 3, True),
]


def _render_with_names(key, game, module, players, steps, callable_names, locale="es"):
    state = _played(game, players, steps, f"names-{key}")
    by_seat = dict(zip(state.seats, NAMES, strict=False))
    names: Any = by_seat.__getitem__ if callable_names else by_seat
    view = game.view(state, None)
    return view, module.render_table(view, translator(key, locale), names)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_every_table_draws_the_robot_as_an_icon_and_no_missing_glyph(case, text_calls, monkeypatch):
    robots: list[float] = []
    original = fonts.draw_robot

    def counting(draw, x, top, height, fill):
        robots.append(height)
        original(draw, x, top, height, fill)

    monkeypatch.setattr(fonts, "draw_robot", counting)
    _render_with_names(*case)
    cpus = 1 if case[0] == "triad" else 2  # triad shows two seats: the CPU and a person
    assert len(robots) >= cpus and min(robots) >= 8
    drawn = "".join(text for _, text, _, _ in text_calls)
    assert ROBOT not in drawn
    missing = {ch for _, text, f, _ in text_calls for ch in text if not has_glyph(ch)}
    assert not missing


def _name_runs(calls, name: str):
    """The text calls that drew ``name`` (the robot apart, it is an icon)."""
    visible = name.replace(ROBOT, "").strip()
    return [(xy, text, f, anchor) for xy, text, f, anchor in calls if visible in text]


@pytest.mark.parametrize("locale", ["es", "en"])
@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_names_are_drawn_whole_and_within_their_column(case, locale, text_calls):
    key = case[0]
    view, png = _render_with_names(*case, locale=locale)
    image = Image.open(io.BytesIO(png))
    shown = [CPU, LONG]
    columns = {
        "amapatolli": lambda: (470 + 18, 470 + 18 + amapatolli.SEAT_NAME_W),
        "chupate2": lambda: (
            chupate2.SEAT_NAME_X,
            chupate2.SEAT_NAME_X + chupate2.seat_name_width(view),
        ),
        "macarena": lambda: (macarena.NAME_X, macarena.NAME_X + macarena.NAME_W),
    }
    for name in shown:
        runs = _name_runs(text_calls, name)
        assert runs, f"{name!r} not drawn whole in {key}"
        for xy, text, f, anchor in runs:
            assert "…" not in text
            assert f.size >= 11, f"{name!r} drawn at {f.size}px in {key}"
            left, _top, right, _bottom = f.getbbox(text, anchor=anchor or "la")
            right += xy[0]
            assert right <= image.width
            if key in columns:
                # columns are in layout units; a table drawn smaller scales them (TABLE_SCALE)
                scale = getattr(case[2], "TABLE_SCALE", 1.0)
                x0, x1 = (v * scale for v in columns[key]())
                assert x0 - 1 <= xy[0] + left and right <= x1 + 1, (key, name, right, x1)


def test_a_name_too_long_for_any_size_is_shortened_not_overflowing():
    image = Image.new("RGB", (400, 40))
    width = draw_text(ImageDraw.Draw(image), (0, 0), "W" * 80, 16, (255, 255, 255), max_width=150)
    assert width <= 150


@pytest.fixture
def no_system_fonts(monkeypatch):
    """As on a machine without DejaVu: only Pillow's built-in font."""
    caches = (fonts.font_path, fonts.font, fonts.has_glyph, fonts._runs)
    for cached in caches:
        cached.cache_clear()
    monkeypatch.setattr(fonts, "_DIRS", ())
    yield
    for cached in caches:
        cached.cache_clear()


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_tables_render_without_system_fonts(case, no_system_fonts, text_calls):
    assert fonts.font_path() is None
    _view, png = _render_with_names(*case)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    missing = {ch for _, text, _, _ in text_calls for ch in text if not has_glyph(ch)}
    assert not missing
