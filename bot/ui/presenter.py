"""Per-game presenters: a game's View -> embed text, action choices, images.

The base class does what every game shares from catalogue keys (``<game>.action.<kind>``,
``<game>.event.<code>``, ``<game>.error.<code>``); a game's presenter overrides only what its
table looks like. Presenters never decide legality: choices come from ``legal_actions``.

A move built over several clicks (a draft) is one ``PrivateMove`` (what a private view's own
components are built from) and one ``DraftStep`` per click, handed to the presenter's method
marked ``@draft_op(name)`` for that click's op: the base's ``draft_step`` finds it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

import discord

from bot.i18n import Translator, has
from bot.service import Table, TableService
from bot.ui.items import ActionButton, DraftButton, DraftSelect
from bot.ui.layout import Choice, choice_button
from bot.ui.modules import game_module
from bot.ui.payload import Payload
from bot.ui.payload_memos import PayloadMemos
from games.core import Action, Event, Game, IllegalAction, Outcome, PlayerView
from games.core.errors import BAD_ACTION

log = logging.getLogger(__name__)

SeatNames = Callable[[str | None], str]
V = TypeVar("V", bound=PlayerView)  # the game's view model
A = TypeVar("A", bound=Action)  # the game's action union
DraftResult = tuple[dict[str, Any], str | None]  # the new draft, and the move once complete
Handler = TypeVar("Handler", bound=Callable[..., DraftResult])


@dataclass(frozen=True)
class ModalField:
    """One text input of a modal where a move is typed."""

    name: str
    label: str
    placeholder: str | None = None
    default: str | None = None
    long: bool = False
    max_length: int = 400


@dataclass(frozen=True)
class PrivateMove(Generic[V, A]):
    """What a private view's own components are built from: the table, the seat's view and
    legal actions, its move in progress (``draft``, empty when none) and the words."""

    table_id: int
    view: V
    legal: list[A]
    draft: dict[str, Any]
    names: SeatNames
    tr: Translator
    # The choices written for this payload, by the action's id (``GamePresenter.shown_choice``):
    # a game's own components and the plain buttons after them ask for the same actions.
    choices: dict[int, tuple[Any, Choice]] = field(default_factory=dict)

    def draft_button(self, op: str, **looks: Any) -> DraftButton:
        """A button that takes the draft one step (``op``) on this version of the table."""
        return DraftButton(self.table_id, self.view.version, op, **looks)

    def draft_select(self, op: str, **looks: Any) -> DraftSelect:
        """A select whose chosen values take the draft one step (``op``)."""
        return DraftSelect(self.table_id, self.view.version, op, **looks)

    def action_button(self, choice: Choice, **looks: Any) -> ActionButton:
        """The button of a whole move (``choice``) on this version of the table."""
        return choice_button(self.table_id, self.view.version, choice, **looks)


@dataclass(frozen=True)
class DraftStep(Generic[V, A]):
    """One click of a draft: the view and legal actions it is taken on, the draft so far, the
    click's ``op``, what follows the handler's name in it (``arg``) and a select's values."""

    view: V
    legal: list[A]
    draft: dict[str, Any]
    op: str
    arg: str
    values: list[str]


def draft_op(
    name: str, *, prefix: bool = False, searches: bool = False
) -> Callable[[Handler], Handler]:
    """Mark a presenter method ``(self, step: DraftStep) -> DraftResult`` as the handler of the
    draft op ``name`` (or, with ``prefix``, of every op starting with it: the rest is the step's
    ``arg``); ``searches``: it may search (a solver's hint), so the click path runs it off the
    event loop (``GamePresenter.draft_searches``)."""

    def mark(handler: Handler) -> Handler:
        handler.draft_op = (name, prefix)  # type: ignore[attr-defined]
        handler.draft_searches = searches  # type: ignore[attr-defined]
        return handler

    return mark


# ----- event texts, each written once ---------------------------------------------------------
# The public message and every seat's hand show the latest events again at every move (up to
# six each), and all but one or two of them were written for the previous move already (issue
# 29: ~0.08 ms of the loop's CPU per move).
EventWriter = Callable[[Event, SeatNames, Translator], "str | None"]

# Texts kept per game: a busy bot's recent events (a table shows six, and a hand's private
# ones: ~1,600 for 200 tables of a game) with room to spare, ~1.6 MB; the oldest written goes
# first.
EVENT_TEXTS_KEPT = 4096


class EventTexts:
    """``write(event, names, tr)`` (a presenter's ``event_text``), kept by the event (the very
    object: a state's log shares its events with the next state's) and the language, and
    reused while every seat name the text asked for reads the same (a seat taken over by the
    computer is named anew)."""

    def __init__(self, write: EventWriter, kept: int = EVENT_TEXTS_KEPT) -> None:
        self._write = write
        self._kept = kept
        # (id of the event, locale) -> (the event, the names its text asked for, the text)
        self._texts: dict[
            tuple[int, str], tuple[Event, tuple[tuple[str | None, str], ...], str | None]
        ] = {}

    def text(self, event: Event, names: SeatNames, tr: Translator) -> str | None:
        locale = getattr(tr, "locale", None)
        if locale is None or not self._kept:  # nothing to key it by, or nothing kept
            return self._write(event, names, tr)
        key = (id(event), locale)
        kept = self._texts.get(key)
        # (the entry holds the event: its id is no other object's while it is kept)
        if kept is not None and kept[0] is event:
            for seat, name in kept[1]:  # (a loop, not ``all``: no generator per text)
                if names(seat) != name:
                    break
            else:
                return kept[2]
        asked: dict[str | None, str] = {}

        def naming(seat: str | None) -> str:
            name = asked[seat] = names(seat)
            return name

        text = self._write(event, naming, tr)
        texts = self._texts
        if kept is None and len(texts) >= self._kept:
            del texts[next(iter(texts))]  # the oldest written
        texts[key] = (event, tuple(asked.items()), text)
        return text


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
    # draft op -> (handler method, whether the op is a prefix): the methods marked @draft_op
    draft_ops: ClassVar[dict[str, tuple[str, bool]]] = {}
    # the handler methods of the draft ops that may search (``@draft_op(searches=True)``)
    searching_drafts: ClassVar[frozenset[str]] = frozenset()
    # Whether the game has actions shown on the public message (it overrides
    # ``is_public_action``): without, the public payload asks no seat for its legal actions.
    has_public_actions: ClassVar[bool] = False
    # Event texts kept (``EventTexts``): 0 for a game whose views build their events anew each
    # time (no event is asked for twice: a kept text is never read again).
    event_texts_kept: ClassVar[int] = EVENT_TEXTS_KEPT

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.has_public_actions = cls.is_public_action is not GamePresenter.is_public_action
        ops = dict(cls.draft_ops)
        searching = set(cls.searching_drafts)
        for attr, value in vars(cls).items():
            marked = getattr(value, "draft_op", None)
            if marked is not None:
                name, prefix = marked
                ops[name] = (attr, prefix)
                if getattr(value, "draft_searches", False):
                    searching.add(attr)
                else:
                    searching.discard(attr)
        cls.draft_ops = ops
        cls.searching_drafts = frozenset(searching)

    def __init__(self, game: Game) -> None:
        self.game = game
        self.key = game.key
        self._images = game_module(game.key, "images")
        # each written once (messages.py)
        self.event_texts = EventTexts(self.event_text, self.event_texts_kept)
        # seat names and kept hands (messages.py): its own, or its bot's (``presenter_for``)
        self.memos = PayloadMemos()

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
        """A select's placeholder per choice group. May be one dict shared by every payload
        (written once per language): read, never changed."""
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
        choices: dict[int, tuple[Any, Choice]] | None = None,
    ) -> tuple[list[discord.ui.Item[Any]], list[A]]:
        """Extra components of a private view (builders, modal buttons), on the first rows,
        and the legal actions still to show as plain buttons/selects after them. ``draft`` is
        this seat's move in progress (empty when none). A game builds them in
        ``move_components``. ``choices``: the payload's written choices (``shown_choice``),
        filled here for the plain buttons to reuse."""
        move = PrivateMove(
            table_id, view, legal, draft, names, tr, {} if choices is None else choices
        )
        return self.move_components(move)

    def shown_choice(self, move: PrivateMove[V, A], action: A) -> Choice:
        """``choice`` of one of ``move``'s actions, written once per payload."""
        kept = move.choices.get(id(action))
        if kept is not None and kept[0] is action:  # (the entry holds the action: its id is
            return kept[1]  # no other object's while the payload is built)
        made = self.choice(action, move.view, move.names, move.tr)
        move.choices[id(action)] = (action, made)
        return made

    def move_components(
        self, move: PrivateMove[V, A]
    ) -> tuple[list[discord.ui.Item[Any]], list[A]]:
        """The game's own components of a private view (see ``private_components``)."""
        return [], move.legal

    def draft_step(
        self, view: V, legal: list[A], draft: dict[str, Any], op: str, values: list[str]
    ) -> DraftResult:
        """Advance a draft by one click: the new draft, and an action text once the move is
        complete. The click's ``op`` goes to the game's ``@draft_op`` handler of that name (or
        prefix); an op no handler takes, or a step that cannot be taken, raises
        ``IllegalAction``."""
        method, arg = self._draft_handler(op)
        handler: Callable[[DraftStep[V, A]], DraftResult] = getattr(self, method)
        return handler(DraftStep(view, legal, draft, op, arg, values))

    def draft_searches(self, op: str) -> bool:
        """Whether the draft step ``op`` may search (its handler is marked so): the click path
        runs such a step in a thread; every other step reads the view and costs less than a
        thread's hand-off (issue 29)."""
        try:
            method, _ = self._draft_handler(op)
        except IllegalAction:
            return False  # refused by ``draft_step`` itself, at once
        return method in self.searching_drafts

    def _draft_handler(self, op: str) -> tuple[str, str]:
        """The handler method of ``op`` and the op's argument: an exact op first, else the
        longest prefix op it starts with."""
        exact = self.draft_ops.get(op)
        if exact is not None and not exact[1]:
            return exact[0], ""
        hits = [(n, m) for n, (m, prefix) in self.draft_ops.items() if prefix and op.startswith(n)]
        if not hits:
            raise IllegalAction(BAD_ACTION, text=op)
        name, method = max(hits, key=lambda hit: len(hit[0]))
        return method, op[len(name) :]

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
        """The view's latest events, oldest first (the view's own list: read, not changed)."""
        events = getattr(view, "last_events", None)
        return events if isinstance(events, list) else list(events or [])

    # ----- images ---------------------------------------------------------------------------
    def draws(self, name: str) -> bool:
        """Whether this game has the renderer ``name`` (``render_table``, ``render_hand``)."""
        return self._images is not None and hasattr(self._images, name)

    def hand_image_extras(self, view: V, legal: list[A]) -> dict[str, Any]:
        """Optional keyword arguments of the game's ``render_hand`` derived from the seat's legal
        actions (Chúpate 2: ``playable``); none by default."""
        return {}


def presenter_for(game: Game, memos: PayloadMemos | None = None) -> GamePresenter[Any, Any]:
    """The game's presenter: ``Presenter`` of ``bot.ui.<key>.presenter``, or the generic
    one; ``memos``: its bot's, shared by the bot's presenters (else its own)."""
    module = game_module(game.key, "presenter")
    presenter: GamePresenter[Any, Any] = (
        GamePresenter(game) if module is None else module.Presenter(game)
    )
    if memos is not None:
        presenter.memos = memos
    return presenter
