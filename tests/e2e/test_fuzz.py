"""Fuzz (issue 27): every slash command's options and every custom_id family, through the fake
Discord into the real bot: every interaction answered, no traceback logged. Bounded here;
``bench/fuzz.py`` runs ten thousand inputs and more."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings

from tests.e2e.fuzz_kit import LiveBot, custom_ids, slash_inputs

EXAMPLES = 60
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,  # the same inputs every run (the long runs explore)
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@pytest.fixture(scope="module")
def live_bot(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveBot]:
    bot = LiveBot(tmp_path_factory.mktemp("fuzz"))
    bot.start()
    try:
        yield bot
    finally:
        bot.stop()


def test_fuzzed_slash_commands_are_all_answered_without_a_traceback(live_bot):
    @FUZZ
    @given(slash_inputs(live_bot))
    def run(given_input):
        user, command, options = given_input
        live_bot.slash(user, command, options)

    run()
    _check(live_bot)


def test_fuzzed_custom_ids_are_all_answered_without_a_traceback(live_bot):
    @FUZZ
    @given(custom_ids(live_bot))
    def run(given_input):
        user, message, custom_id, select = given_input
        live_bot.click(user, message, custom_id, select)

    run()
    _check(live_bot)


def _check(bot: LiveBot) -> None:
    stats = bot.stats
    print(
        f"fuzz: {stats.sent} sent, {stats.answered} answered, {stats.refused_by_fake} not sendable"
    )
    assert stats.sent >= EXAMPLES // 2, stats
    assert stats.unanswered == [], stats.unanswered
    assert stats.answered == stats.sent
    violations = bot.settle()
    assert violations == [], violations
    tracebacks = [f"{r.name}: {r.getMessage()}" for r in bot.tracebacks.records]
    assert tracebacks == [], tracebacks
