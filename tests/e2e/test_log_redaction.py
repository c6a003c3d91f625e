"""Nobody sees another player's hidden cards, the operator's log included: at DEBUG discord.py
logs whole request and response bodies and gateway events (a DM hand's cards, the ephemeral
hand a click was on). The bot's log handler (``bot/ops/logs.py``) leaves each as its size."""

from __future__ import annotations

import io
import json
import logging

from bot.ops.logs import log_handler
from tests.e2e.amapatolli_driver import start_game
from tests.e2e.driver_kit import ACTION_ID

SEED = "e2e-0063"


def _cards_of(hand) -> set[str]:
    """What names a card of ``hand`` (a DM view): each play button's label, as shown and as
    a JSON body writes it, and its custom_id (``t:<table>:<version>:p.<card>``)."""
    found = set()
    for button in hand.buttons:
        m = ACTION_ID.match(button.custom_id or "")
        if m and m[3].startswith("p.") and button.label:
            found |= {button.label, json.dumps(button.label)[1:-1], button.custom_id}
    return found


async def test_a_hand_s_cards_never_reach_the_log_at_debug(fake_discord, mesa):
    fake = fake_discord
    mesa.seed = SEED
    stream = io.StringIO()
    handler = log_handler("text", stream=stream)
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        players = [fake.user(n) for n in ("alice", "bob")]
        table = await start_game(fake, players, seed=SEED)
        await table.move()  # a click on a DM hand: its event carries the hand it was on
        await mesa.bot.listener.drain()
        await fake.settle()
    finally:
        root.removeHandler(handler)
        root.setLevel(level)
    log = stream.getvalue()
    cards = set().union(*(_cards_of(m) for p in players for m in p.dms()))
    assert cards, "no hand with cards to play was shown"
    # DEBUG was on: discord.py logged the hands' requests and the click's gateway event ...
    assert " has returned 200" in log and "WebSocket Event: " in log
    # ... but none of the cards they carried: each body is its size
    leaked = sorted(card for card in cards if card in log)
    assert leaked == [], leaked
    assert "<body: " in log
