"""The table and hand images, and the es/en catalogues."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

from PIL import Image

from bot.i18n.messages import placeholders, render
from bot.ui.maquiavelo.images import WIDTH, render_hand, render_table
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
        "game_won",
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
    assert {"drew", "played", "game_won"} <= seen


# ----- the table stays legible up to the whole deck -------------------------------------------


def _table_of(melds: list[list[int]]):
    from games.maquiavelo.view import CardView, MeldView

    base = GAME.view(GAME.new(["a", "b", "c", "d", "e"], "deck"), None)
    table = [MeldView(kind="run", cards=[CardView.of(i) for i in m]) for m in melds]
    return base.model_copy(update={"table": table, "stock_count": 0})


def _overlaps(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _chunks(sizes: list[int]) -> list[list[int]]:
    """The 104 cards cut into melds of these sizes, over and over (the last one takes the rest)."""
    melds, k, i = [], 0, 0
    while k < 104:
        n = sizes[i % len(sizes)]
        melds.append(list(range(k, min(k + n, 104))))
        k, i = k + n, i + 1
    return melds


WHOLE_DECK = {
    "34 small melds": [list(range(k, min(k + 3, 104))) for k in range(0, 104, 3)],
    "8 long runs": [list(range(k, k + 13)) for k in range(0, 104, 13)],
    "mixed": _chunks([3, 5, 8, 4, 13, 3, 6]),
}


def test_whole_deck_layout_keeps_cards_full_size_and_apart():
    from bot.ui.maquiavelo.images import table_height, table_layout

    for label, melds in WHOLE_DECK.items():
        view = _table_of(melds)
        boxes = table_layout(view)
        assert sorted(b.card for b in boxes) == sorted(c for m in melds for c in m), label
        height = table_height(view)
        for i, b in enumerate(boxes):
            assert b.w >= 50 and b.h >= 72, label
            assert b.visible_w >= 26, label  # rank and pip of a fanned card stay readable
            assert 0 <= b.x and b.x + b.w <= WIDTH and b.y + b.h <= height, label
            visible = (b.x, b.y, b.x + b.visible_w, b.y + b.h)
            for later in boxes[i + 1 :]:  # drawn after b: must not cover b's visible part
                assert not _overlaps(
                    visible, (later.x, later.y, later.x + later.w, later.y + later.h)
                )
        # melds never touch each other
        extents: dict[int, tuple[int, int, int, int]] = {}
        for b in boxes:
            x0, y0, x1, y1 = extents.get(b.meld, (b.x, b.y, b.x + b.w, b.y + b.h))
            extents[b.meld] = (min(x0, b.x), min(y0, b.y), max(x1, b.x + b.w), max(y1, b.y + b.h))
        spans = list(extents.values())
        assert not any(_overlaps(p, q) for k, p in enumerate(spans) for q in spans[k + 1 :])
        png = render_table(view, _tr)
        image = _decode(png)
        assert image.size == (WIDTH, height) and height <= 1600  # Discord shows it whole
        assert len(png) < 1_000_000  # far below the 10 MiB attachment limit
