"""What the players read of a fair deal (``bot/ui/fairness.py``, ``bot/service/fairness.py``):
the commitment while the game runs, seed and salt once it is over, and the replay's verdict
with its reason, in both languages; a table started before deals were sealed shows nothing."""

from __future__ import annotations

import pytest

from bot.i18n import translator
from bot.service.fairness import FAIR_META, deal_export, new_seal, seal_of
from bot.ui.fairness import commitment_line, replay_verdict
from games.amapatolli import GAME
from games.core.fairness import commitment, short, verify
from storage import ActionRow
from tests.bot.presenter_kit import table_for

SEED = "ui-seed-7"


def _sealed_table(seed: str = SEED):
    state = GAME.new(["p1", "p2", "p3"], seed, {"hand_size": 3})
    table = table_for(GAME, state, 9)
    table.record.options = {"hand_size": 3}
    table.record.meta = {FAIR_META: new_seal(GAME, state, seed)}
    return table, state


def _finish(table, state):
    log = []
    while GAME.outcome(state) is None:
        seat = sorted(GAME.to_act(state), key=state.seats.index)[0]
        action = GAME.legal_actions(state, seat)[0]
        log.append(
            ActionRow(version=state.version + 1, seat=seat, action=action.encode(), by_timer=False)
        )
        state, _ = GAME.apply(state, seat, action)
    table.state = state
    table.record.state = GAME.dump_state(state)
    table.record.status = "finished"
    return log


@pytest.mark.parametrize("locale", ["es", "en"])
def test_the_line_shows_the_commitment_then_reveals(locale):
    tr = translator(locale)
    table, state = _sealed_table()
    sealed = seal_of(table.record)
    assert sealed is not None and sealed.commitment == commitment(SEED, sealed.salt)
    name, value = commitment_line(table, tr)
    assert name.endswith(short(sealed.commitment)) and sealed.commitment in value
    assert SEED not in name + value and sealed.salt not in name + value
    _finish(table, state)
    name, value = commitment_line(table, tr)
    assert SEED in value and sealed.salt in value and name.endswith(short(sealed.commitment))


def test_a_fresh_salt_for_every_start():
    salts = {_sealed_table()[0].record.meta[FAIR_META]["salt"] for _ in range(20)}
    assert len(salts) == 20 and all(len(s) == 64 for s in salts)


def test_an_unsealed_table_shows_nothing_and_its_replay_says_why():
    table, state = _sealed_table()
    table.record.meta = {}
    assert commitment_line(table, translator("es")) is None
    first = GAME.dump_state(GAME.new(state.seats, SEED, {"hand_size": 3}))
    assert "antes de que los repartos se sellaran" in replay_verdict(table, first, translator("es"))


def test_the_replay_verdict_names_what_did_not_match():
    tr = translator("en")
    table, state = _sealed_table()
    first = GAME.dump_state(GAME.new(state.seats, SEED, {"hand_size": 3}))
    assert replay_verdict(table, first, tr).startswith("✅ Deal verified")
    other = GAME.dump_state(GAME.new(state.seats, "another", {"hand_size": 3}))
    assert "not the one stored at the start" in replay_verdict(table, other, tr)
    table.record.seed = "changed"
    assert "do not give the commitment" in replay_verdict(table, first, tr)


def test_the_export_of_a_finished_table_verifies_and_none_before():
    table, state = _sealed_table()
    assert deal_export(GAME, table.record, []) is None  # playing: the seed stays secret
    log = _finish(table, state)
    export = deal_export(GAME, table.record, log)
    assert export is not None and export.options == {"hand_size": 3}
    verdict = verify(GAME, export)
    assert verdict.verified, verdict.reasons
    assert len(verdict.checked) == 4
