"""Per-game presenters: a game's View -> embed text, action choices, images.

The base class does what every game shares from catalogue keys (``<game>.action.<kind>``,
``<game>.event.<code>``, ``<game>.error.<code>``); a game's presenter overrides only what its
table looks like. Presenters never decide legality: choices come from ``legal_actions``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import discord

from bot.i18n import Translator, has
from bot.service import Table, TableService
from bot.ui.layout import Choice
from bot.ui.modules import game_module
from bot.ui.payload import Payload
from games.core import Action, Event, Game, IllegalAction, Outcome, PlayerView

log = logging.getLogger(__name__)

SeatNames = Callable[[str | None], str]
V = TypeVar("V", bound=PlayerView)  # the game's view model
A = TypeVar("A", bound=Action)  # the game's action union


@dataclass(frozen=True)
class ModalField:
    """One text input of a modal where a move is typed."""

    name: str
    label: str
    placeholder: str | None = None
    default: str | None = None
    long: bool = False
    max_length: int = 400


class GamePresenter(Generic[V, A]):
    """``GamePresenter[MyView, MyAction]``: the methods below receive the game's own view and
    actions. Unparametrised (``GamePresenter``) they are ``Any``, as before."""

    colour = discord.Colour.blurple()
    # True when the game's own cog registers ``/play <key>`` (the lobby cog then skips it).
    custom_play_command = False
    # Whether a player's private view carries a picture of the hand (``render_hand``). Off in
    # every game (issue 29): the Components V2 text lists every card of the hand (playable ones
    # marked), the buttons name each move and the counts and turn are in the text, so the
    # picture said nothing the player did not have already, for about half the images drawn
    # per move. A game whose hand needs a picture (something the text cannot say) turns it on;
    # its ``render_hand`` stays, tested, for that and for tools.
    hand_image = False

    def __init__(self, game: Game) -> None:
        self.game = game
        self.key = game.key
        self._images = game_module(game.key, "images", "images")

    # ----- lobby -------------------------------------------------------------------------------
    def lobby_payload(self, table: Table, service: TableService, tr: Translator) -> Payload | None:
        """A game-specific lobby message; None = the generic lobby."""
        return None

    # ----- actions --------------------------------------------------------------------------
    def action_params(self, action: A, view: V, tr: Translator) -> dict[str, Any]:
        return action.model_dump(mode="json")

    def choice(self, action: A, view: V, names: SeatNames, tr: Translator) -> Choice:
        kind = getattr(action, "kind", type(action).__name__.lower())
        label = tr(f"{self.key}.action.{kind}", **self.action_params(action, view, tr))
        return Choice(action=action.encode(), label=label, group=kind)

    def is_public_action(self, action: A) -> bool:
        """Actions shown as buttons on the public message (call-outs, challenges)."""
        return False

    def group_placeholders(self, tr: Translator) -> dict[str, str]:
        return {}

    # ----- moves built over several clicks (drafts) and typed moves (modals) ---------------
    def private_components(
        self,
        table_id: int,
        view: V,
        legal: list[A],
        draft: dict[str, Any],
        names: SeatNames,
        tr: Translator,
    ) -> tuple[list[discord.ui.Item[Any]], list[A]]:
        """Extra components of a private view (builders, modal buttons), on the first rows,
        and the legal actions still to show as plain buttons/selects after them. ``draft`` is
        this seat's move in progress (empty when none)."""
        return [], legal

    def draft_step(
        self,
        view: V,
        legal: list[A],
        draft: dict[str, Any],
        op: str,
        values: list[str],
    ) -> tuple[dict[str, Any], str | None]:
        """Advance a draft by one click: the new draft, and an action text once the move is
        complete. Raise ``IllegalAction`` for a step that cannot be taken."""
        raise IllegalAction("bad_action")

    def draft_lines(self, view: V, draft: dict[str, Any], tr: Translator) -> list[str]:
        """Lines of a private view describing the move in progress (what is selected, a hint,
        a warning); shown after ``private_lines`` while the game runs."""
        return []

    def modal_fields(
        self, kind: str, view: V, tr: Translator
    ) -> tuple[str, list[ModalField]] | None:
        """Title and fields of the modal ``kind``; None if this game has no such modal."""
        return None

    def modal_action(self, kind: str, view: V, values: dict[str, str]) -> str:
        """The action text typed in modal ``kind``; raise ``IllegalAction`` when it is not."""
        raise IllegalAction("bad_action")

    # ----- text -----------------------------------------------------------------------------
    def event_text(self, event: Event, names: SeatNames, tr: Translator) -> str | None:
        key = f"{self.key}.event.{event.code}"
        if not has(key):
            return None
        params = dict(event.params)
        for k, v in list(params.items()):
            if isinstance(v, str) and k in ("seat", "target", "by", "victim", "challenger"):
                params[k] = names(v)
        return tr(key, player=names(event.seat), **params)

    def status_lines(self, view: V, names: SeatNames, tr: Translator) -> list[str]:
        """Game-specific lines of the public embed (top card, direction, scores...)."""
        return []

    def seat_line(self, view: V, seat: str, names: SeatNames, tr: Translator) -> str:
        """One line per seat in the public embed (hand counts, tokens...)."""
        return names(seat)

    def private_lines(self, view: V, tr: Translator) -> list[str]:
        """Text of a player's private view (their hand in words, what they must do)."""
        return []

    def summary(self, view: V, names: SeatNames, tr: Translator) -> tuple[str, list[str]] | None:
        """An end-of-hand summary for its own section of the table message (title, lines):
        every award, exchange and penalty in words, so it never scrolls away with the last
        moves. None (the default): the game has none to show now."""
        return None

    def outcome_lines(self, outcome: Outcome, names: SeatNames, tr: Translator) -> list[str]:
        """Each place with its points, and, for games that rank the others by the hands they
        kept (``cards_left``/``hand_counts`` and ``hand_values`` on the outcome), what each
        kept and the rule that ranked them (``<game>.outcome.ranking_rule``): a "0 points"
        loser still reads why they placed where they did."""
        counts = getattr(outcome, "cards_left", None) or getattr(outcome, "hand_counts", None)
        values = getattr(outcome, "hand_values", None) or {}
        lines = []
        for place, group in enumerate(outcome.ranking, start=1):
            who = ", ".join(names(s) for s in group)
            pts = ", ".join(str(outcome.points.get(s, 0)) for s in group)
            line = tr("game.result_line", place=place, players=who, points=pts)
            if counts and place > 1:
                kept = [
                    tr("game.result_hand", count=counts.get(s, 0), value=values.get(s, 0))
                    for s in group
                ]
                if len(group) == 1:
                    line += " · " + kept[0]
                else:
                    line += " · " + "; ".join(
                        f"{names(s)}: {k}" for s, k in zip(group, kept, strict=True)
                    )
            lines.append(line)
        rule = f"{self.game.key}.outcome.ranking_rule"
        if counts and len(outcome.ranking) > 1 and has(rule):
            lines.append(tr(rule))
        return lines

    def last_events(self, view: V) -> list[Event]:
        return list(getattr(view, "last_events", []) or [])

    # ----- images ---------------------------------------------------------------------------
    def draws(self, name: str) -> bool:
        """Whether this game has the renderer ``name`` (``render_table``, ``render_hand``)."""
        return self._images is not None and hasattr(self._images, name)

    def hand_image_extras(self, view: V, legal: list[A]) -> dict[str, Any]:
        """Optional keyword arguments of the game's ``render_hand`` derived from the seat's legal
        actions (Chúpate 2: ``playable``); none by default."""
        return {}


def presenter_for(game: Game) -> GamePresenter[Any, Any]:
    """The game's presenter: ``Presenter`` of ``bot.ui.<key>.presenter``, or the generic
    one."""
    module = game_module(game.key, "presenter", "presenters")
    if module is None:
        return GamePresenter(game)
    presenter: GamePresenter[Any, Any] = module.Presenter(game)
    return presenter
