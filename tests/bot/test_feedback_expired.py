"""An interaction Discord no longer accepts (answered after its 3 s) is one warning line and a
counter, not two tracebacks: nothing can reach the user through it, and a reply would only meet
the same 404."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import discord

from bot import metrics
from bot.ui.feedback import guard


def _http_error(kind: type[discord.HTTPException], status: int, code: int) -> discord.HTTPException:
    response = SimpleNamespace(status=status, reason="Not Found")
    return kind(response, {"code": code, "message": "Unknown interaction"})


class _ExpiredResponse:
    def __init__(self) -> None:
        self.attempts = 0

    def is_done(self) -> bool:
        return False

    async def send_message(self, **kwargs: object) -> None:
        self.attempts += 1
        raise _http_error(discord.NotFound, 404, 10062)


class _Interaction:
    def __init__(self) -> None:
        self.id = 7
        self.locale = "es-ES"
        self.created_at = datetime.now(UTC) - timedelta(seconds=4)
        self.response = _ExpiredResponse()


async def _raise(exc: BaseException) -> None:
    raise exc


async def test_an_expired_interaction_is_a_warning_and_a_count_without_a_reply(caplog) -> None:
    metrics.reset()
    interaction = _Interaction()
    with caplog.at_level(logging.WARNING, logger="bot.ui.feedback"):
        await guard(interaction, _raise(_http_error(discord.NotFound, 404, 10062)))  # type: ignore[arg-type]
    assert interaction.response.attempts == 0
    assert [(r.levelname, r.exc_info) for r in caplog.records] == [("WARNING", None)]
    assert "expired" in caplog.records[0].getMessage()
    assert metrics.counters["expired_interactions"] == 1


async def test_a_reply_that_meets_an_expired_token_is_one_warning(caplog) -> None:
    metrics.reset()
    interaction = _Interaction()
    with caplog.at_level(logging.WARNING, logger="bot.ui.feedback"):
        await guard(interaction, _raise(RuntimeError("bug")))  # type: ignore[arg-type]
    assert interaction.response.attempts == 1
    # The bug is logged with its traceback; the failed answer is one line.
    assert [r.levelname for r in caplog.records] == ["ERROR", "WARNING"]
    assert caplog.records[1].exc_info is None
    assert metrics.counters["expired_interactions"] == 1


async def test_other_not_found_errors_still_count_as_unexpected(caplog) -> None:
    metrics.reset()
    interaction = _Interaction()
    interaction.response = SimpleNamespace(is_done=lambda: False, send_message=_sent)  # type: ignore[assignment]
    with caplog.at_level(logging.WARNING, logger="bot.ui.feedback"):
        await guard(interaction, _raise(_http_error(discord.NotFound, 404, 10008)))  # type: ignore[arg-type]
    assert [r.levelname for r in caplog.records] == ["ERROR"]
    assert caplog.records[0].exc_info is not None
    assert "expired_interactions" not in metrics.counters


async def _sent(**kwargs: object) -> None:
    return None


async def test_work_outliving_an_expired_acknowledgement_has_its_failure_retrieved() -> None:
    """The click could not be acknowledged in time, and the move it started was refused
    afterwards: the refusal reaches nobody (the failed acknowledgement is raised in its
    place), and asyncio must not report it as never retrieved."""
    import asyncio
    import gc

    from bot.cogs.play import _within
    from bot.errors import TableError

    class _Late:
        def is_done(self) -> bool:
            return False

        async def defer(self, **kwargs: object) -> None:
            release.set()  # the move goes on past its acknowledgement's failure
            raise _http_error(discord.NotFound, 404, 10062)

    loop = asyncio.get_running_loop()
    reported: list[dict[str, object]] = []
    previous = loop.get_exception_handler()
    loop.set_exception_handler(lambda _loop, context: reported.append(context))
    try:
        release = asyncio.Event()

        async def refused_move() -> None:
            await release.wait()
            raise TableError("stale")

        interaction = SimpleNamespace(response=_Late(), client=None)
        try:
            await _within(interaction, loop.time(), refused_move())  # type: ignore[arg-type]
        except discord.NotFound as exc:
            assert exc.code == 10062
        else:
            raise AssertionError("the failed acknowledgement must reach the caller")
        assert release.is_set()
        for _ in range(3):
            await asyncio.sleep(0)
        gc.collect()
        await asyncio.sleep(0)
    finally:
        loop.set_exception_handler(previous)
    assert not [c for c in reported if "never retrieved" in str(c.get("message"))]
