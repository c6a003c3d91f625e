"""/rules for Triple Triad says how each level of the computer plays (issue 31), in both
languages, after the game's own rules."""

from __future__ import annotations

import pytest

from bot.i18n import translator
from bot.ui.rules import rules_answer


@pytest.mark.parametrize(
    ("locale", "heading", "words"),
    [
        ("en", "**How it plays.**", ("*easy*", "at random", "*normal*", "fair chance", "*hard*")),
        (
            "es",
            "**Cómo juega.**",
            ("*fácil*", "al azar", "*normal*", "oportunidad justa", "*difícil*"),
        ),
    ],
)
def test_triad_rules_say_how_the_computer_plays(locale, heading, words):
    tr = translator(locale)
    [block] = rules_answer("triad", tr).blocks
    text = block.text
    assert text.startswith(tr("triad.rules"))
    play = text[text.index(heading) :]
    for word in words:
        assert word in play


def test_other_games_rules_are_their_own_text():
    tr = translator("en")
    assert [b.text for b in rules_answer("macarena", tr).blocks] == [tr("macarena.rules")]
