"""Provably fair deals: a table's commitment to its seed, and the check anyone can run.

Every deal is a pure function of the game, its seats, its options, its setup and its **seed**
(``Game.new``). When a game starts the bot draws a random per-table **salt** and publishes the
**commitment** before the first move; when the game ends it reveals seed and salt. Anyone can
then check that the seed is the one committed to and that the game played was dealt from it.

The commitment, exactly (version 1)::

    commitment = SHA-256( UTF-8(seed) ‖ ASCII(salt) )   as 64 lowercase hex digits

where ``salt`` is exactly ``SALT_HEX_DIGITS`` (64) lowercase hex digits (32 random bytes) and
``‖`` is plain concatenation (no separator: the salt's fixed length makes the split
unambiguous). By hand: ``printf '%s%s' "$SEED" "$SALT" | sha256sum``.

The salt keeps the commitment from telling anything about the seed: without it, a seed drawn
from a small space could be found by hashing candidates. The **deal digest** is the SHA-256 of
the first state's JSON (``Game.dump_state`` of ``Game.new(...)``), stored when the game starts.

``verify`` re-deals with the engine and answers ``Verdict``: verified, or the reasons not.
Pure: no I/O, no clock, no global random (``python -m games verify`` reads the file).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from games.core.engine import Game
from games.core.errors import IllegalAction

COMMITMENT_VERSION = 1
SEAL_META = "fair"  # where the bot keeps a table's ``Seal`` (its ``meta``)
SALT_HEX_DIGITS = 64
EXPORT_FORMAT = "mesa-deal/1"
SHORT_DIGITS = 12  # the short form of a commitment shown on a table
_HEX = re.compile(r"[0-9a-f]+")


def is_salt(salt: str) -> bool:
    return len(salt) == SALT_HEX_DIGITS and _HEX.fullmatch(salt) is not None


def commitment(seed: str, salt: str) -> str:
    """SHA-256 of the seed's UTF-8 bytes followed by the salt's hex digits, as hex."""
    if not is_salt(salt):
        raise ValueError(f"a salt is {SALT_HEX_DIGITS} lowercase hex digits")
    return hashlib.sha256(seed.encode("utf-8") + salt.encode("ascii")).hexdigest()


def short(digest: str) -> str:
    """The short form of a commitment (its first digits), as a table shows it."""
    return digest[:SHORT_DIGITS]


def digest(text: str) -> str:
    """SHA-256 of ``text``'s UTF-8 bytes, as hex (the deal digest of a first state's JSON)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class Seal(BaseModel):
    """What a table stores when its game starts (``meta["fair"]``): the salt (secret until
    the end), the commitment (shown from the first move) and the deal digest."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    v: int = COMMITMENT_VERSION
    salt: str
    commitment: str
    deal: str  # SHA-256 of the first state's JSON


def seal_in(meta: dict[str, Any]) -> Seal | None:
    """The seal a table's ``meta`` holds; None for a table started before deals were sealed."""
    stored = meta.get(SEAL_META)
    if not stored:
        return None
    try:  # (a table's public message reads it at every move: validated once)
        return _validated_seal(tuple(stored.items()))
    except (AttributeError, TypeError):  # not a mapping of plain values: validated as it is
        return Seal.model_validate(stored)


# A seal is a frozen value, so one instance per stored content serves every reader. Bounded:
# one a sealed table playing.
@lru_cache(maxsize=4096)
def _validated_seal(items: tuple[tuple[Any, Any], ...]) -> Seal:
    return Seal.model_validate(dict(items))


def seal(game: Game, first_state: Any, seed: str, salt: str) -> Seal:
    """The seal of a game that starts with ``first_state``, dealt from ``seed``."""
    return Seal(
        salt=salt, commitment=commitment(seed, salt), deal=digest(game.dump_state(first_state))
    )


class DealExport(BaseModel):
    """A finished game, as ``python -m games verify`` checks it (``EXPORT_FORMAT``).

    ``first_state`` is the first state's JSON as the bot says it dealt it (every hand, the
    deck's order): the seats can compare it with what they were dealt. ``actions`` and
    ``final`` (the SHA-256 of the stored final state's JSON) let the check replay the game.
    """

    model_config = ConfigDict(extra="forbid")

    format: str = EXPORT_FORMAT
    game: str
    engine: str = ""  # the rules version the game was played under, e.g. "chupate2@1"
    table: int | None = None
    seats: list[str]
    options: dict[str, Any] = Field(default_factory=dict)  # the game's own options
    setup: dict[str, Any] = Field(default_factory=dict)  # extra input of Game.new
    seed: str
    salt: str
    commitment: str
    deal: str  # SHA-256 of the first state's JSON, stored when the game started
    first_state: str | None = None
    actions: list[tuple[str, str]] = Field(default_factory=list)  # (seat, action text)
    final: str | None = None  # SHA-256 of the stored final state's JSON


@dataclass
class Verdict:
    verified: bool = False
    reasons: list[str] = field(default_factory=list)  # why not (empty when verified)
    checked: list[str] = field(default_factory=list)  # what was checked and held
    first_state: str | None = None  # the re-dealt first state's JSON


def redeal(game: Game, seats: list[str], seed: str, options: dict[str, Any], setup: dict[str, Any]):
    """The first state dealt from ``seed`` (``Game.new``)."""
    return game.new(list(seats), seed, dict(options), **dict(setup))


def check_seal(
    game: Game, seal_: Seal | dict[str, Any] | None, seed: str, first_state_json: str | None
) -> Verdict:
    """Does the revealed ``seed`` (with the stored salt) give the commitment, and is
    ``first_state_json`` (the first state re-dealt from ``seed`` by the engine) the deal stored
    when the game started? The bot's ``/replay`` check."""
    verdict = Verdict(first_state=first_state_json)
    if seal_ is None:
        verdict.reasons.append("no commitment was stored for this table")
        return verdict
    stored = seal_ if isinstance(seal_, Seal) else Seal.model_validate(seal_)
    try:
        recomputed = commitment(seed, stored.salt)
    except ValueError as exc:
        verdict.reasons.append(f"salt: {exc}")
        return verdict
    if recomputed != stored.commitment:
        verdict.reasons.append(
            f"commitment: SHA-256(seed ‖ salt) is {recomputed}, the table showed "
            f"{stored.commitment}"
        )
    else:
        verdict.checked.append(f"commitment {stored.commitment} = SHA-256(seed ‖ salt)")
    if first_state_json is None:
        verdict.reasons.append("deal: the engine could not deal from this seed")
    elif digest(first_state_json) != stored.deal:
        verdict.reasons.append(
            "deal: the deal re-dealt from the seed is not the one stored when the game started"
        )
    else:
        verdict.checked.append("deal re-dealt from the seed = the deal stored at the start")
    verdict.verified = not verdict.reasons
    return verdict


def verify(game: Game, export: DealExport) -> Verdict:
    """Check a finished game's export: the commitment, the deal re-dealt from the seed by the
    engine (against the stored deal digest and the export's first state), and when the export
    has them, its actions replayed from that deal to the stored final state."""
    if export.game != game.key:
        return Verdict(reasons=[f"game: the export is of {export.game!r}, not {game.key!r}"])
    first: str | None = None
    reason: str | None = None
    try:
        state = redeal(game, export.seats, export.seed, export.options, export.setup)
    except (IllegalAction, ValueError, TypeError) as exc:
        reason = f"deal: the engine refused to deal ({exc})"
    else:
        first = game.dump_state(state)
    verdict = check_seal(
        game,
        Seal(salt=export.salt, commitment=export.commitment, deal=export.deal),
        export.seed,
        first,
    )
    if reason is not None:
        verdict.reasons.insert(0, reason)
    if first is not None and export.first_state is not None:
        if export.first_state != first:
            verdict.reasons.append(
                "first_state: the export's first deal is not the one the seed deals"
            )
        else:
            verdict.checked.append("the export's first deal = the deal re-dealt from the seed")
    if first is not None and export.final is not None:
        verdict.reasons.extend(_replay(game, state, export))
        if not verdict.reasons:
            verdict.checked.append(
                f"{len(export.actions)} actions replayed from the deal reach the stored end"
            )
    verdict.verified = not verdict.reasons
    return verdict


def _replay(game: Game, state: Any, export: DealExport) -> list[str]:
    for n, (seat, text) in enumerate(export.actions, start=1):
        try:
            state, _ = game.apply(state, seat, game.decode_action(text))
        except (IllegalAction, ValueError) as exc:
            return [f"actions: action {n} ({seat}: {text}) does not apply to this deal ({exc})"]
    if digest(game.dump_state(state)) != export.final:
        return ["actions: replayed from the deal, the game does not reach the stored end"]
    return []


def hands(game: Game, state: Any) -> dict[str, str]:
    """Each seat's private view of the first state, as JSON (what ``verify --show`` prints
    so a player can compare it with the hand they were dealt)."""
    return {seat: game.view(state, seat).model_dump_json() for seat in state.seats}
