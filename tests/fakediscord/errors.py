"""Discord's error answers and the fake's record of protocol violations."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import orjson
from aiohttp import web

from .spec import SchemaError


def json_bytes(data: Any) -> bytes:
    """``data`` as JSON, by orjson (a fifth of the json module's time on a message; every answer
    and gateway event is one), or by the json module for what orjson does not write (integers
    past 64 bits)."""
    try:
        return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:
        return json.dumps(data).encode()


def json_response(
    data: Any, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    """A JSON answer with `Content-Type: application/json` exactly (discord.py reads anything else as text)."""
    return web.Response(
        body=json_bytes(data),
        status=status,
        headers={"Content-Type": "application/json", **(headers or {})},
    )


class DiscordError(Exception):
    """Raised inside a handler to answer like Discord does."""

    def __init__(self, status: int, code: int, message: str, errors: dict[str, Any] | None = None):
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        self.recorded = False  # already recorded as a violation

    def response(self) -> web.Response:
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors is not None:
            body["errors"] = self.errors
        return json_response(body, status=self.status)


def unknown_message() -> DiscordError:
    return DiscordError(404, 10008, "Unknown Message")


def unknown_channel() -> DiscordError:
    return DiscordError(404, 10003, "Unknown Channel")


def unknown_interaction() -> DiscordError:
    return DiscordError(404, 10062, "Unknown interaction")


def unknown_webhook() -> DiscordError:
    return DiscordError(404, 10015, "Unknown Webhook")


def cannot_dm() -> DiscordError:
    return DiscordError(403, 50007, "Cannot send messages to this user")


def missing_permissions() -> DiscordError:
    return DiscordError(403, 50013, "Missing Permissions")


def invalid_webhook_token() -> DiscordError:
    return DiscordError(401, 50027, "Invalid Webhook Token")


def unauthorized() -> DiscordError:
    return DiscordError(401, 0, "401: Unauthorized")


def invalid_form_body(errors: list[SchemaError]) -> DiscordError:
    """Discord's 400 / 50035 with its nested `errors` object."""
    tree: dict[str, Any] = {}
    for error in errors:
        node = tree
        for key in error.path:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": error.code, "message": error.message})
    return DiscordError(400, 50035, "Invalid Form Body", errors=tree)


@dataclass
class Violation:
    """Something the real Discord would reject or a user would see fail. Fails the test unless taken."""

    kind: str  # invalid_body, late_response, unanswered, already_acknowledged, unknown_interaction, ...
    detail: str
    method: str | None = None
    path: str | None = None
    body: Any = None
    errors: list[SchemaError] = field(default_factory=list)

    def __str__(self) -> str:
        where = f" {self.method} {self.path}" if self.method else ""
        return f"[{self.kind}]{where}: {self.detail}"
