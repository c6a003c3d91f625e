"""The es/en catalogues cover every event, error, action, option and element of the engine."""

import json
import re
from pathlib import Path

from bot.i18n.messages import placeholders as i18n_placeholders
from games.macarena import GAME
from games.macarena.actions import ACTION_ADAPTER  # noqa: F401  (the union is importable)
from games.macarena.elements import ELEMENTS

ROOT = Path(__file__).resolve().parents[3]
SOURCES = sorted((ROOT / "games" / "macarena").glob("*.py"))


def load(locale):
    return json.loads((ROOT / "bot" / "i18n" / locale / "macarena.json").read_text("utf-8"))


placeholders = i18n_placeholders


def test_same_keys_and_placeholders():
    es, en = load("es"), load("en")
    assert es.keys() == en.keys()
    assert all(k.startswith("macarena.") for k in es)
    for key in es:
        assert placeholders(es[key]) == placeholders(en[key]), key


def test_every_engine_code_has_a_message():
    text = "\n".join(p.read_text("utf-8") for p in SOURCES)
    events = set(re.findall(r'code="([a-z_]+)"', text))
    events |= {"espejo_solo", "played"}
    errors = set(re.findall(r'IllegalAction\(\s*"([a-z_]+)"', text))
    errors |= {
        "not_your_turn",
        "not_a_player",
        "game_over",
        "bad_action",
        "player_count",
        "duplicate_seat",
        "pozo_closed",
    }
    es = load("es")
    missing = [f"macarena.event.{c}" for c in sorted(events) if f"macarena.event.{c}" not in es]
    missing += [f"macarena.error.{c}" for c in sorted(errors) if f"macarena.error.{c}" not in es]
    assert missing == []


def test_actions_options_elements_and_limits():
    es, en = load("es"), load("en")
    for kind in ("draw", "pass", "play", "move_maca", "give_element", "buy_element"):
        assert f"macarena.action.{kind}" in es
    for field in GAME.options_model.model_fields:
        assert len(es[f"macarena.option.{field}"]) <= 100
        assert len(en[f"macarena.option.{field}"]) <= 100
    for element in ELEMENTS:
        assert f"macarena.element.{element}" in es
    for cat in (es, en):
        assert len(cat["macarena.rules"]) <= 3500
        assert all(len(v) <= 80 for k, v in cat.items() if ".action." in k)
        assert all(f"macarena.colour.{i}" in cat for i in range(5))
