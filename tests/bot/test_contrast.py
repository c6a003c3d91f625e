"""Text on the table images is readable (issue 28 item 4): every piece of text the renderers draw
has WCAG AA contrast, 4.5:1, against what lies under it.

The pairs are the ones the renderers really use: while whole games are drawn (tables and every
seat's hand, both languages), each ``ImageDraw.text`` call is caught, and the colour under its
box *before* the text is drawn (the most common one there) is its background. Text drawn with
an outline (``stroke_width`` ≥ 1) reads against that outline, so for it the better of the two
contrasts counts (Chúpate 2's numbers on the white oval, Macarena's numbered dots)."""

from __future__ import annotations

import importlib
import random
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import ImageColor, ImageDraw

from bot.i18n import LOCALES, translator
from bot.registry import load_games
from bot.ui.images import scaled
from bot.ui.rendering import NameBook
from tests.playouts import random_states

AA_TEXT = 4.5
PICTURES = ("_table_layer", "_card_sprite")  # an images module's pictures kept per process
GAMES = load_games()
KEYS = ["amapatolli", "chupate2", "macarena", "maquiavelo", "triad"]


def _luminance(rgb: tuple[int, ...]) -> float:
    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _rgb(colour: Any) -> tuple[int, ...] | None:
    if isinstance(colour, tuple):
        return colour
    if isinstance(colour, str):
        return ImageColor.getrgb(colour)
    return None


class TextProbe:
    """Records (text, fill, background, outline) of every text drawn while installed."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.seen: list[tuple[str, tuple[int, ...], tuple[int, ...], tuple[int, ...] | None]] = []
        init, text = ImageDraw.ImageDraw.__init__, ImageDraw.ImageDraw.text
        probe = self

        def patched_init(self, im, mode=None):  # type: ignore[no-untyped-def]
            init(self, im, mode)
            self._probe_image = im

        def patched_text(self, xy, string, fill=None, font=None, anchor=None, *args, **kwargs):  # type: ignore[no-untyped-def]
            image = getattr(self, "_probe_image", None)
            if image is not None and str(string).strip():
                box = self.textbbox(xy, string, font=font, anchor=anchor)
                crop = image.crop(tuple(int(v) for v in box)).convert("RGB")
                colours = crop.getcolors(crop.width * crop.height + 1) or []
                fg = _rgb(fill)
                if colours and fg is not None:
                    outline = (
                        _rgb(kwargs.get("stroke_fill")) if kwargs.get("stroke_width") else None
                    )
                    probe.seen.append((str(string), fg, max(colours)[1], outline))
            return text(self, xy, string, fill, font, anchor, *args, **kwargs)

        monkeypatch.setattr(ImageDraw.ImageDraw, "__init__", patched_init)
        monkeypatch.setattr(ImageDraw.ImageDraw, "text", patched_text)

    def failures(self) -> list[str]:
        bad = set()
        for text, fg, bg, outline in self.seen:
            ratio = contrast(fg, bg)
            if outline is not None:
                ratio = max(ratio, contrast(fg, outline))
            if ratio < AA_TEXT:
                bad.add(f"{text!r}: {fg} on {bg} = {ratio:.2f}:1")
        return sorted(bad)


# The second game of each runs with these options (colours only some variants draw).
VARIANTS: dict[str, dict[str, Any]] = {
    "triad": {"elemental": True},  # values raised and lowered by the cells
    "chupate2": {"teams": "pairs", "points": "150"},  # team dots, points
}


def _states(key: str, seed: int) -> Iterator[Any]:
    """A start, some middles and the end of one random game."""
    game = GAMES[key]
    n = 2 if key == "triad" else 4
    options = VARIANTS.get(key) if seed == 2 else None
    state = game.new([str(100 + i) for i in range(n)], f"contrast-{key}-{seed}", options)
    states = list(random_states(game, state, random.Random(seed), 599))
    yield from states[::25]
    yield states[-1]


@pytest.mark.parametrize("key", KEYS)
def test_every_text_on_the_images_has_aa_contrast(key, monkeypatch):
    images = importlib.import_module(f"bot.ui.{key}.images")
    game = GAMES[key]
    probe = TextProbe(monkeypatch)
    # Pictures kept per process (fixed layers, card sprites and backs) drawn afresh: every text
    # is drawn, and caught, whichever test drew them first.
    for module, name in [(images, n) for n in PICTURES if hasattr(images, n)] + [
        (scaled, "sprite")
    ]:
        monkeypatch.setattr(module, name, getattr(module, name).__wrapped__)
    for locale in LOCALES:
        tr = translator(locale)
        for state in _states(key, seed=1 if locale == "es" else 2):
            names = NameBook({s: f"🤖 Player {s}" for s in state.seats})
            images.render_table(game.view(state, None), tr, names)
            for seat in state.seats:
                view = game.view(state, seat)
                extras: dict[str, Any] = {}
                if key == "chupate2":
                    legal = game.legal_actions(state, seat)
                    extras["playable"] = images.playable_cards(legal, view.hand)
                images.render_hand(view, tr, None, **extras)
                images.render_table(view, tr, names)  # a seat's own view of the table
    assert len(probe.seen) > 50  # texts were drawn and caught
    assert probe.failures() == []


def test_the_probe_catches_low_contrast_text(monkeypatch):
    from PIL import Image

    probe = TextProbe(monkeypatch)
    image = Image.new("RGB", (200, 40), (26, 84, 60))
    draw = ImageDraw.Draw(image)
    draw.text((5, 5), "dim", fill=(60, 110, 90))
    draw.text((60, 5), "ok", fill=(240, 244, 240))
    draw.text((120, 5), "ringed", fill=(240, 190, 20), stroke_width=1, stroke_fill=(10, 10, 10))
    assert [f.split(":")[0] for f in probe.failures()] == ["'dim'"]
