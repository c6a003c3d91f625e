"""The Macarena table and hand images render from views and decode as PNGs of the right size."""

import io
import json
import random
from pathlib import Path

from PIL import Image

from bot.i18n.messages import render
from bot.ui.images.scaled import scaled_size
from bot.ui.macarena import images
from bot.ui.macarena.images import LEGEND_H, TABLE_SCALE, WIDTH, render_hand, render_table
from bot.ui.macarena.text import action_params, card_label, event_params
from games.macarena import GAME, MoveMaca, Play
from games.macarena.state import Tokens

ROOT = Path(__file__).resolve().parents[3]
CATALOGUE = json.loads((ROOT / "bot/i18n/en/macarena.json").read_text("utf-8"))


def tr(key, **params):
    return render(CATALOGUE[key], "en", params)


def played_state(players: int, steps: int, seed: str):
    state = GAME.new([f"s{i}" for i in range(players)], seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if GAME.outcome(state) is not None:
            break
        seat = sorted(GAME.to_act(state))[0]
        action = GAME.choose_action(
            GAME.view(state, seat), GAME.legal_actions(state, seat), "normal", rng
        )
        state, _ = GAME.apply(state, seat, action)
    return state


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    assert image.format == "PNG" and len(png) < 300_000
    return image


def test_table_and_hand_render_for_every_player_count():
    for players in range(2, 6):
        state = played_state(players, 40 + players * 7, f"img{players}")
        state.macas[0] = {state.seats[0]: 2, state.seats[1]: 1}  # a shared pozo
        state.tokens[state.seats[0]] = Tokens(coins=3, elements=["fire", "air"], amulets=1)
        for seat in [None, *state.seats]:
            view = GAME.view(state, seat)
            table = decode(render_table(view, tr))
            layout = (WIDTH, 500 + 40 + players * 34 + 12 + LEGEND_H)
            assert table.size == scaled_size(layout, TABLE_SCALE)  # drawn at 0.75 (issue 29)
            if seat is not None:
                hand = decode(render_hand(view, tr, names=lambda s: f"name-{s}"))
                assert hand.width == 24 + 13 * 70 + 14


def test_large_hand_wraps_into_rows():
    state = played_state(2, 0, "big")
    seat = state.seats[0]
    state.hands[seat] = state.stock[:40]
    view = GAME.view(state, seat)
    assert decode(render_hand(view, tr)).height == 56 + 4 * 100 + 10


def test_labels_for_presenters():
    state = played_state(3, 0, "labels")
    view = GAME.view(state, None)
    assert card_label("10H") == "10♥"
    assert action_params(Play(pozo=2, cards=("10H", "JH")), view, tr)["pozo"] == 3
    assert action_params(MoveMaca(source=0), view, tr) == {"pozo": 1}
    for event in state.log:
        params = event_params(event, tr, names=lambda s: s.upper())
        tr(f"macarena.event.{event.code}", **params)
    from games.core import Event

    e = Event(code="maca_moved", seat="s0", params={"from": 0, "pozo": 3})
    assert tr("macarena.event.maca_moved", **event_params(e, tr)) == (
        "s0 moves a MACA from well 1 to well 4."
    )


def test_every_event_of_a_game_formats_in_both_catalogues():
    es = json.loads((ROOT / "bot/i18n/es/macarena.json").read_text("utf-8"))
    seen = set()
    for n, players in enumerate((2, 4)):
        state = GAME.new([f"s{i}" for i in range(players)], f"fmt{n}")
        rng = random.Random(n)
        while GAME.outcome(state) is None:
            seat = sorted(GAME.to_act(state))[0]
            action = GAME.choose_action(
                GAME.view(state, seat), GAME.legal_actions(state, seat), "normal", rng
            )
            label_params = action_params(action, GAME.view(state, seat), tr)
            tr(f"macarena.action.{action.kind}", **label_params)
            state, events = GAME.apply(state, seat, action)
            for event in events:
                params = event_params(event, tr)
                tr(f"macarena.event.{event.code}", **params)
                render(es[f"macarena.event.{event.code}"], "es", params)
                seen.add(event.code)
    assert {"played", "drew", "hand_ended", "award_element", "game_won"} <= seen


def _drawn_texts(monkeypatch) -> list[str]:
    from bot.ui.images import fonts  # every text of the module's images is drawn through it

    texts: list[str] = []
    original = fonts.draw_text

    def spy(draw, xy, text, size, fill, anchor="la", bold=True, max_width=None):
        texts.append(text)
        return original(draw, xy, text, size, fill, anchor, bold, max_width)

    monkeypatch.setattr(fonts, "draw_text", spy)
    # the table's fixed layer (strip headers, legend) drawn for every image, not once per process
    monkeypatch.setattr(images, "_table_layer", images._table_layer.__wrapped__)
    return texts


def test_table_legend_explains_the_pozo_count_and_leaves_the_turn_to_the_text(monkeypatch):
    """Issue 29: whose turn it is, the stock and the hand sizes are the message's text, not the
    table image's (a draw keeps the image): no gold turn frame to explain, no stock or cards."""
    texts = _drawn_texts(monkeypatch)
    state = played_state(3, 10, "legend")
    render_table(GAME.view(state, None), tr)
    for key in ("pozo", "macas"):
        assert CATALOGUE[f"macarena.image.legend.{key}"] in texts
    assert not [t for t in texts if "turn" in t.lower() or "stock" in t.lower()], texts
    assert "Cards" not in texts
    seat = sorted(GAME.to_act(state))[0]
    texts.clear()
    view = GAME.view(state, seat)
    render_table(view, tr)
    playable = CATALOGUE["macarena.image.legend.playable"] in texts
    assert playable == any(p.playable for p in view.pozos)


def test_hand_legend_explains_the_gold_frame_of_the_drawn_card(monkeypatch):
    texts = _drawn_texts(monkeypatch)
    state = played_state(2, 0, "drawn")
    seat = state.seats[0]
    view = GAME.view(state, seat)
    legend = CATALOGUE["macarena.image.legend.drawn"]
    plain = decode(render_hand(view.model_copy(update={"drawn": None}), tr))
    assert legend not in texts
    card = view.hand[0]
    framed = decode(render_hand(view.model_copy(update={"drawn": card}), tr))
    assert legend in texts and framed.height > plain.height


def test_the_end_image_names_the_winner_and_frames_no_turn(monkeypatch):
    """Issue 31: the finished table drops "gold frame: their turn" and says who won."""
    from bot.i18n import translator

    texts = _drawn_texts(monkeypatch)
    state = GAME.new(["s0", "s1", "s2"], "end-banner")
    rng = random.Random(5)
    while not GAME.is_over(state):
        seat = sorted(GAME.to_act(state))[0]
        legal = GAME.legal_actions(state, seat)
        action = GAME.choose_action(GAME.view(state, seat), legal, "easy", rng)
        state, _ = GAME.apply(state, seat, action)
    view = GAME.view(state, None)
    assert view.finished and view.winners
    render_table(view, translator("en"))
    assert not [t for t in texts if "turn" in t.lower()], texts
    banner = [t for t in texts if "gana" in t.lower() or "wins" in t.lower()]
    assert banner, texts
