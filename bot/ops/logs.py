"""Logging set-up: the classic text lines, or one JSON object per line (LOG_FORMAT=json) for a
log collector (Loki, CloudWatch, ``docker logs`` piped to ``jq``)."""

from __future__ import annotations

import json
import logging
import re
import sys
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any, Literal

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"

# Attributes every LogRecord has: anything else was passed with ``extra=`` and is kept.
_STANDARD = set(logging.makeLogRecord({}).__dict__) | {"message", "asctime", "taskName"}


class JsonFormatter(logging.Formatter):
    """``{"ts", "level", "logger", "msg", ...}``: the time in UTC ISO 8601, ``extra=`` fields
    as keys of their own, ``exc`` with the traceback when there is one; ``shard`` when the
    process runs a share of the shards (``static`` fields)."""

    def __init__(self, static: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.static = dict(static or {})

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "msg": record.getMessage(),
            **self.static,
        }
        for key, value in record.__dict__.items():
            if key not in _STANDARD and not key.startswith("_"):
                entry[key] = value if _plain(value) else repr(value)
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, ensure_ascii=False, default=repr)


def _plain(value: object) -> bool:
    return value is None or isinstance(value, str | int | float | bool | list | dict)


class RedactTokens(logging.Filter):
    """Interaction tokens are secrets (bot/ui/tokens.py): discord.py's DEBUG lines name the
    webhook and callback URLs that carry them; every record leaves with them redacted."""

    TOKEN_URL = re.compile(r"(/(?:webhooks|interactions)/\d+/)[A-Za-z0-9_.\-]{20,}")

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = self.TOKEN_URL.sub(r"\1<token>", message)
        if redacted != message:
            record.msg, record.args = redacted, None
        return True


class RedactBodies(logging.Filter):
    """discord.py's DEBUG lines carry whole request and response bodies and gateway events
    (``discord.http``: "... with <body> has returned", "... has received <body>";
    ``discord.gateway``: "WebSocket Event: <event>"): a DM hand's cards, an ephemeral hand a
    click was on. Nobody sees another player's hidden cards, the operator's log included, so
    every such argument of a ``discord.*`` record leaves as its size only; the method, the
    route and the status stay."""

    PREFIX = "discord."

    def filter(self, record: logging.LogRecord) -> bool:
        if not record.name.startswith(self.PREFIX) or not record.args:
            return True
        if isinstance(record.args, Mapping):  # one mapping argument: logging's own shape
            if "%(" not in str(record.msg):
                record.args = (_without_body(dict(record.args)),)
            return True
        args = tuple(_without_body(arg) for arg in record.args)
        if any(new is not old for new, old in zip(args, record.args, strict=True)):
            record.args = args
        return True


def _without_body(arg: object) -> object:
    """A body (a JSON object, list or text, a multipart form, bytes) as ``<body: N>``."""
    if isinstance(arg, dict | list | tuple | bytes | bytearray):
        return f"<body: {len(arg)} {'bytes' if isinstance(arg, bytes | bytearray) else 'items'}>"
    if isinstance(arg, str) and arg[:1] in ("{", "["):
        return f"<body: {len(arg)} chars>"
    if type(arg).__name__ == "FormData":  # aiohttp's multipart body (files and payload_json)
        return "<body: multipart>"
    return arg


def log_handler(
    log_format: Literal["text", "json"], static: dict[str, Any] | None = None, stream: Any = None
) -> logging.Handler:
    """The bot's log handler (stderr unless ``stream``), in ``log_format``, its secrets and
    players' cards redacted."""
    handler = logging.StreamHandler(sys.stderr if stream is None else stream)
    handler.addFilter(RedactBodies())
    handler.addFilter(RedactTokens())
    if log_format == "json":
        handler.setFormatter(JsonFormatter(static))
    else:
        handler.setFormatter(logging.Formatter(TEXT_FORMAT))
    return handler


def configure_logging(
    level: str, log_format: Literal["text", "json"], static: dict[str, Any] | None = None
) -> logging.Handler:
    """One stderr handler on the root logger, in ``log_format``; returns it."""
    handler = log_handler(log_format, static)
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    return handler


class ErrorCounter(logging.Handler):
    """Counts the records logged at WARNING and above, by level: the ``errors`` of the
    metrics endpoint (every unexpected failure is logged once, ``bot.ui.feedback``)."""

    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.counts: dict[str, int] = {}

    def emit(self, record: logging.LogRecord) -> None:
        self.counts[record.levelname] = self.counts.get(record.levelname, 0) + 1
