"""bot/ui/ephemeral.py: which "Ver mi mano" answer may still be edited (the token's 15 minutes on
the bot's own clock, with a minute to spare), and when a press gets a new message instead."""

from types import SimpleNamespace

from bot.i18n import translator
from bot.ui.ephemeral import MARGIN, TOKEN_LIFETIME, EphemeralViews


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _interaction(done: bool = False):
    return SimpleNamespace(response=SimpleNamespace(is_done=lambda: done))


async def test_an_answer_is_edited_only_while_its_token_has_a_minute_left():
    clock = Clock()
    views = EphemeralViews(clock)
    views.remember(1, "u", _interaction(), translator("es"), version=3, pressed=True)
    clock.now += TOKEN_LIFETIME - MARGIN - 1
    assert views.live(1, "u") is not None
    assert views.live(2, "u") is None and views.live(1, "v") is None
    clock.now += 2
    assert views.live(1, "u") is None  # too old: a press posts a new answer
    assert not await views.show_again(_interaction(), 1, "u", None, 4)  # type: ignore[arg-type]


async def test_a_second_press_at_the_same_version_gets_a_new_message():
    views = EphemeralViews(Clock())
    views.remember(1, "u", _interaction(), translator("es"), version=3, pressed=True)
    # (pressed at version 3 already: the player may not see it)
    assert not await views.show_again(_interaction(), 1, "u", None, 3)  # type: ignore[arg-type]
    # a click on the view keeps that press in mind, and gives the view a fresher token
    clicked = _interaction(done=True)
    views.remember(1, "u", clicked, translator("es"), version=3)
    view = views.live(1, "u")
    assert view is not None and view.interaction is clicked and view.pressed_at == 3


async def test_the_end_forgets_the_table_s_views():
    views = EphemeralViews(Clock())
    views.remember(1, "u", _interaction(), translator("es"))
    views.remember(2, "u", _interaction(), translator("es"))
    views._views[(1, "u")].done = True  # (shown its last edit already)
    await views.table_closed(1)
    assert views.live(1, "u") is None and views.live(2, "u") is not None
