"""The Amapatolli images render, and its message catalogues are complete in both locales."""

from __future__ import annotations

import io
import json
import typing
from pathlib import Path

import pytest
from PIL import Image

from bot.i18n.messages import placeholders as i18n_placeholders
from bot.i18n.messages import render
from bot.ui.amapatolli import images as images
from games.amapatolli import GAME
from games.amapatolli.actions import AcceptSkip, Announce, Catch, Draw, Pass, Play
from games.amapatolli.cards import COLOURS
from games.amapatolli.options import Options
from games.amapatolli.rules import ERROR_CODES, EVENT_CODES
from tests.games.amapatolli.helpers import SEATS, act, make, play

ROOT = Path(__file__).resolve().parents[3] / "bot" / "i18n"


def load(locale: str) -> dict[str, str]:
    return json.loads((ROOT / locale / "amapatolli.json").read_text(encoding="utf-8"))


def translator(locale: str):
    catalogue = load(locale)

    def tr(key: str, /, **params) -> str:
        assert key in catalogue, f"missing catalogue key {key}"
        return render(catalogue[key], locale, params)

    return tr


placeholders = i18n_placeholders


# ----- catalogue -----------------------------------------------------------------------------


def test_both_catalogues_have_the_same_keys_and_placeholders():
    es, en = load("es"), load("en")
    assert es.keys() == en.keys()
    assert all(k.startswith("amapatolli.") for k in es)
    for key in es:
        assert placeholders(es[key]) == placeholders(en[key]), key


def test_catalogue_covers_events_errors_actions_options_colours_and_signs():
    es = load("es")
    required = {"amapatolli.name", "amapatolli.rules"}
    required |= {f"amapatolli.event.{c}" for c in EVENT_CODES}
    required |= {f"amapatolli.error.{c}" for c in ERROR_CODES}
    kinds = [
        typing.get_args(cls.model_fields["kind"].annotation)[0]
        for cls in (Play, Draw, Pass, AcceptSkip, Announce, Catch)
    ]
    required |= {f"amapatolli.action.{k}" for k in kinds}
    required |= {f"amapatolli.option.{f}" for f in Options.model_fields}
    required |= {f"amapatolli.colour.{c}" for c in COLOURS}
    required |= {f"amapatolli.sign_meaning.{n}" for n in range(1, 21)}
    assert required <= es.keys(), required - es.keys()


def test_catalogue_lengths_fit_discord():
    for locale in ("es", "en"):
        cat = load(locale)
        assert len(cat["amapatolli.rules"]) <= 3500
        for key, value in cat.items():
            if key.startswith("amapatolli.option."):
                assert len(value) <= 100, key
            if key.startswith("amapatolli.action."):
                assert len(value) <= 80, key


def test_every_legal_action_has_a_label():
    """The presenter's button labels (``Presenter.choice``) for every legal action."""
    from bot.ui.amapatolli.presenter import Presenter

    presenter = Presenter(GAME)
    state = make([["a04", "tw", "a16", "a20"], ["b01", "b02"]], "a02", ["d01"])
    state, _ = act(state, 0, play("a04"))
    for locale in ("es", "en"):
        tr = translator(locale)
        for seat in state.seats:
            view = GAME.view(state, seat)
            for action in GAME.legal_actions(state, seat):
                label = presenter.choice(action, view, str.upper, tr).label
                assert label and "{" not in label and len(label) <= 80
    view = GAME.view(make([["tw", "a20"], ["b01"]], "a02", ["d01"]), "ana")
    label = presenter.choice(play("tw", "blue"), view, str.upper, translator("es")).label
    assert "Itztli" in label and "azul" in label
    bird = make([["a16", "a01", "a03"], ["b15", "b01"], ["c01"]], "a20", ["d01"])
    bird = act(bird, 0, play("a16"))[0]
    label = presenter.choice(play("b15"), GAME.view(bird, "ben"), str.upper, translator("en")).label
    assert label.startswith("Answer with") and "Cuauhtli" in label


# ----- images --------------------------------------------------------------------------------


def _states():
    yield GAME.new(SEATS[:2], "img-2")
    yield GAME.new(SEATS[:6], "img-6", {"powers": True})
    wild = make([["tw", "a20", "a15"], ["b01", "b02"], ["c03"]], "a02", ["d01"])
    yield act(wild, 0, play("tw", "blue"))[0]
    bird = make([["a16", "a01", "a03"], ["b15", "b01"], ["c01"]], "a20", ["d01"])
    bird = act(bird, 0, play("a16"))[0]
    yield bird
    ce = make([["a04", "a20"], ["b01", "b04"], ["c01", "c02"]], "a02", ["d01"])
    yield act(ce, 0, play("a04"))[0]
    blocked = make([["a20", "a09"], ["b19"], ["c10"], ["d09", "d10"]], "a01", [])
    for seat in range(4):
        blocked = act(blocked, seat, Pass())[0]
    yield blocked
    big = make([[c for c in GAME.new(SEATS[:2], "x").stock[:30]], ["b01"]], "a02", [])
    yield big


@pytest.mark.parametrize("locale", ["es", "en"])
def test_table_and_hand_images_render(locale):
    tr = translator(locale)
    for state in _states():
        for seat in [None, *state.seats]:
            view = GAME.view(state, seat)
            png = images.render_table(view, tr, names={state.seats[0]: "Ána Ñ"})
            image = Image.open(io.BytesIO(png))
            assert image.format == "PNG" and image.size == images.TABLE_SIZE
            assert len(png) < 300_000
            hand_png = images.render_hand(view, tr)
            hand = Image.open(io.BytesIO(hand_png))
            hand.load()
            rows = max(1, -(-len(view.hand) // images.HAND_PER_ROW))
            assert hand.height == 50 + rows * (images.HAND_CARD[1] + images.HAND_GAP + 8) + 10
            assert len(hand_png) < 300_000


def test_images_render_with_pillows_builtin_font(monkeypatch):
    from bot.ui.images import fonts

    monkeypatch.setattr(fonts, "_DIRS", ())
    fonts.font_path.cache_clear()
    fonts.font.cache_clear()
    try:
        state = next(_states())
        view = GAME.view(state, state.seats[0])
        assert Image.open(io.BytesIO(images.render_table(view, translator("es")))).size == (
            images.TABLE_SIZE
        )
        assert images._plain("Tlapiāni → Ehécatl") == "Tlapiani -> Ehecatl"
    finally:
        fonts.font_path.cache_clear()
        fonts.font.cache_clear()
