"""One ``draft_step`` for every game (issue 26): the base presenter hands a click's op to the
game's ``@draft_op`` handler (the exact op, else the longest prefix it starts with) as one
``DraftStep``, and refuses an op no handler takes; a private view's own components are built
from one ``PrivateMove``."""

from __future__ import annotations

import pytest

from bot.i18n import translator
from bot.registry import GAME_KEYS, load_games
from bot.ui.items import ActionButton, DraftButton, DraftSelect
from bot.ui.layout import Choice
from bot.ui.presenter import DraftStep, GamePresenter, PrivateMove, draft_op, presenter_for
from games.core import IllegalAction
from games.core.errors import BAD_ACTION

GAMES = load_games()


class Steps(GamePresenter):
    @draft_op("x")
    def _exact(self, step: DraftStep):
        return {"handler": "exact", "arg": step.arg}, None

    @draft_op("s.", prefix=True)
    def _short(self, step: DraftStep):
        return {"handler": "short", "arg": step.arg}, None

    @draft_op("s.h", prefix=True)
    def _long(self, step: DraftStep):
        return {"handler": "long", "arg": step.arg, "values": step.values}, None


class MoreSteps(Steps):
    @draft_op("done")
    def _done(self, step: DraftStep):
        return {}, f"p.{len(step.legal)}"


PRESENTER = MoreSteps(GAMES["chupate2"])


def _step(op: str, values: list[str] | None = None):
    return PRESENTER.draft_step(None, ["a", "b"], {}, op, values or [])


def test_an_op_goes_to_its_exact_handler_else_to_the_longest_prefix():
    assert _step("x") == ({"handler": "exact", "arg": ""}, None)
    assert _step("s.3") == ({"handler": "short", "arg": "3"}, None)
    assert _step("s.h2", ["7"]) == ({"handler": "long", "arg": "2", "values": ["7"]}, None)
    assert _step("done") == ({}, "p.2")  # a subclass keeps its base's ops and adds its own


@pytest.mark.parametrize("op", ["xx", "x.1", "s", "d", "", "done.1"])
def test_an_op_no_handler_takes_is_refused(op):
    with pytest.raises(IllegalAction) as err:
        _step(op)
    assert err.value.code == BAD_ACTION


def test_a_game_without_drafts_refuses_every_op():
    with pytest.raises(IllegalAction):
        GamePresenter(GAMES["amapatolli"]).draft_step(None, [], {}, "x", [])
    assert GamePresenter.draft_ops == {} and "done" not in Steps.draft_ops


@pytest.mark.parametrize("key", GAME_KEYS)
def test_every_game_draft_handler_takes_one_step(key):
    presenter = presenter_for(GAMES[key])
    assert type(presenter).draft_step is GamePresenter.draft_step, key  # never overridden
    assert type(presenter).private_components is GamePresenter.private_components, key
    for op, (method, _prefix) in presenter.draft_ops.items():
        assert callable(getattr(presenter, method)), (key, op)
    assert bool(presenter.draft_ops) == (key != "amapatolli"), key  # four games draft


class Searching(MoreSteps):
    @draft_op("hint", searches=True)
    def _hint(self, step: DraftStep):
        return {}, None

    @draft_op("done")  # overridden without the mark: it no longer searches
    def _done(self, step: DraftStep):
        return {}, None


def test_only_the_steps_marked_as_searching_leave_the_event_loop():
    searching = Searching(GAMES["chupate2"])
    assert searching.draft_searches("hint")
    assert not searching.draft_searches("x") and not searching.draft_searches("s.h2")
    assert not searching.draft_searches("done")
    assert not searching.draft_searches("nope")  # refused by the step itself
    assert not PRESENTER.draft_searches("hint")  # a base knows nothing of its subclass


def test_maquiavelo_hint_and_play_search_and_every_other_step_does_not():
    searching = {
        (key, op)
        for key in GAME_KEYS
        for op in presenter_for(GAMES[key]).draft_ops
        if presenter_for(GAMES[key]).draft_searches(op)
    }
    assert searching == {("maquiavelo", "hint"), ("maquiavelo", "play")}


def test_a_private_move_makes_the_tables_buttons_on_its_version():
    class View:
        version = 12

    move = PrivateMove(5, View(), [], {}, str, translator("en"))
    draft = move.draft_button("c1", label="Card", row=0)
    select = move.draft_select("s.0", options=None, row=1)
    action = move.action_button(Choice(action="p.3", label="x" * 90, emoji="🃏"), row=2)
    assert isinstance(draft, DraftButton) and (draft.table_id, draft.version) == (5, 12)
    assert isinstance(select, DraftSelect) and select.op == "s.0"
    assert isinstance(action, ActionButton) and action.action == "p.3"
    assert len(action.item.label) == 80 and action.item.row == 2  # clipped to Discord's limit
