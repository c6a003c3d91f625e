"""The table and hand images, and the es/en catalogues."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

from PIL import Image

from bot.i18n.messages import placeholders, render
from bot.ui.images.maquiavelo import WIDTH, render_hand, render_table
from games.maquiavelo import GAME, rules
from games.maquiavelo.options import Options

I18N = Path(__file__).resolve().parents[3] / "bot" / "i18n"


def _catalogue(locale: str) -> dict[str, str]:
    return json.loads((I18N / locale / "maquiavelo.json").read_text(encoding="utf-8"))


def _tr(key: str, **params) -> str:
    template = _catalogue("es")[key]
    return render(template, "es", params)


def _played_state(seed: str, turns: int, options=None):
    state = GAME.new(["a", "b", "c"], seed, options)
    for i in range(turns):
        if GAME.outcome(state):
            break
        (seat,) = GAME.to_act(state)
        action = GAME.choose_action(
            GAME.view(state, seat), GAME.legal_actions(state, seat), "normal", random.Random(i)
        )
        state, _ = GAME.apply(state, seat, action)
    return state


def _decode(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    img.load()
    return img


def test_images_render_and_decode():
    for seed, turns, options in (
        ("img1", 0, None),
        ("img2", 40, {"ayuda": True}),
        ("img3", 200, None),
    ):
        state = _played_state(seed, turns, options)
        table = _decode(render_table(GAME.view(state, None), _tr, {"a": "Ana"}))
        assert table.width == WIDTH and table.height > 100
        for seat in state.seats:
            png = render_hand(GAME.view(state, seat), _tr)
            assert len(png) < 300_000
            assert _decode(png).width == WIDTH


def test_catalogues_have_the_same_keys_and_placeholders():
    es, en = _catalogue("es"), _catalogue("en")
    assert es.keys() == en.keys()

    def fields(t: str) -> set[str]:
        return placeholders(t)

    for key in es:
        assert key.startswith("maquiavelo.")
        assert fields(es[key]) == fields(en[key]), key
    assert len(es["maquiavelo.rules"]) <= 3500 and len(en["maquiavelo.rules"]) <= 3500


def test_catalogue_covers_codes_options_and_actions():
    es = _catalogue("es")
    error_codes = {
        getattr(rules, name)
        for name in dir(rules)
        if name.isupper() and isinstance(getattr(rules, name), str) and name != "ESTRICTO_PENALTY"
    } | {
        "not_your_turn",
        "not_a_player",
        "game_over",
        "bad_action",
        "player_count",
        "duplicate_seat",
        "arrangement_syntax",
        "arrangement_empty",
    }
    for code in error_codes:
        assert f"maquiavelo.error.{code}" in es, code
    for code in (
        "dealt",
        "drew",
        "drew_card",
        "passed",
        "played",
        "rearranged",
        "used_helpers",
        "helper_added",
        "won",
        "blocked",
        "penalty",
        "penalty_cards",
    ):
        assert f"maquiavelo.event.{code}" in es, code
    for field in Options.model_fields:
        assert f"maquiavelo.option.{field}" in es
        assert len(es[f"maquiavelo.option.{field}"]) <= 100
    for kind in ("play", "draw", "pass", "suggest", "arrange"):
        assert len(es[f"maquiavelo.action.{kind}"]) <= 80


def test_every_event_code_emitted_has_a_message():
    es = _catalogue("es")
    seen = set()
    for n in range(8):
        state = GAME.new(
            ["a", "b"], f"ev{n}", {"ayuda": n % 2 == 0, "estricto": n % 3 == 0, "hand_size": 3}
        )
        rng = random.Random(n)
        while not GAME.outcome(state):
            (seat,) = GAME.to_act(state)
            action = GAME.choose_action(
                GAME.view(state, seat),
                GAME.legal_actions(state, seat),
                rng.choice(["easy", "normal"]),
                rng,
            )
            state, events = GAME.apply(state, seat, action)
            seen |= {e.code for e in events}
        seen |= {e.code for e in state.log}
    assert seen <= {k.split(".")[-1] for k in es if k.startswith("maquiavelo.event.")}
    assert {"drew", "played", "won"} <= seen
