"""Macarena on Discord: the 7 pozos, the token standings and a series built click by click.

Public message: the pozos image (top cards, MACAS in the owners' colours), a line with the pozo
tops in text, the hand, the stock and the objective, one line per player (hand size, coins,
elements, amulets, active MACAS) and, once a hand is over, its collections and element tokens.

Private view (DM / "Ver mi mano"), row by row:
- draw phase: "Robar";
- play phase: "Pasar" and one button per pozo the player can lay a card on; picking a pozo starts
  a series (a draft), then one button per card that links to the end of the series
  (``series_options``), "Deshacer" (remove the last card), "Cambiar de pozo" and "Bajar", which
  sends the ``p.<pozo>.<faces>`` action. Every draft op carries the whole series so far
  (``encode_draft``), so a click works even after a restart forgot the draft;
- end of a hand / the eighth espejo: the element to give up, the element to buy, the MACA to
  move, as buttons (they are that seat's legal actions; the timer's default is the engine's);
- always: "Ver mi colección", which lists the player's collection card by card.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.i18n import BoundTranslator, Translator, has
from bot.ui.items import ActionButton
from bot.ui.layout import BUTTON_LABEL, BUTTONS_PER_ROW, Choice
from bot.ui.macarena.text import (
    ELEMENT_EMOJI,
    card_label,
    card_text,
    cards_text,
    elements_text,
    event_params,
    player_mark,
)
from bot.ui.presenter import DraftResult, DraftStep, GamePresenter, PrivateMove, SeatNames, draft_op
from bot.ui.text import clip
from games.core import Event, Game, IllegalAction, Outcome
from games.core.cards import PlayingCard, parse_card
from games.core.errors import BAD_ACTION, NOT_YOUR_TURN
from games.macarena import (
    BuyElement,
    GiveElement,
    MacarenaOutcome,
    MoveMaca,
    Pass,
    Play,
    decode_draft,
    encode_draft,
    playable_pozos,
    series_options,
    series_status,
)
from games.macarena.actions import MAX_SERIES, PLAY_VERB, MacarenaAction
from games.macarena.elements import ELEMENTS, SUIT_ELEMENT, element_of, link_kind
from games.macarena.view import MacarenaView

COLLECTION_OP = "v"  # draft op: show / hide the collection card by card
CANCEL_OP = "c"  # draft op: drop the series, choose the pozo again
SERIES_OP = PLAY_VERB + "."  # draft ops "p.<pozo>[.<faces>]": the series so far (``encode_draft``)
TURN_STYLE = {
    "draw": discord.ButtonStyle.primary,
    "pass": discord.ButtonStyle.secondary,
    "move_maca": discord.ButtonStyle.primary,
    "give_element": discord.ButtonStyle.danger,
    "buy_element": discord.ButtonStyle.success,
}
TURN_EMOJI = {"draw": "🂠", "pass": "⏭️", "move_maca": "🔮"}


def _mine(view) -> bool:
    return view.seat is not None and view.turn == view.seat


def _seat_to_play(view: MacarenaView) -> str:
    """The viewing seat when the turn is its own; refused otherwise."""
    if view.seat is None or view.turn != view.seat:
        raise IllegalAction(NOT_YOUR_TURN)
    return view.seat


def _series(view, draft: dict[str, Any]) -> tuple[int, list[str]] | None:
    """The series in progress, if the draft holds one that is still valid in ``view``."""
    text = draft.get("series")
    if not text or view.phase != "play" or not _mine(view):
        return None
    try:
        pozo, cards = decode_draft(text)
    except IllegalAction:
        return None
    status = series_status(view, view.seat, pozo, cards)
    if cards and not status.playable:
        return None
    if not cards and pozo not in playable_pozos(view, view.seat):
        return None
    return pozo, cards


# A kept hand's lines: (the hand's cards, kept so that no other object takes their ids, its
# lines), by the cards' ids and the language.
KeptHandLines = dict[tuple[tuple[int, ...], str], tuple[tuple[PlayingCard, ...], tuple[str, ...]]]
# A busy bot's hands (two or three people a table) in both languages, with room to spare.
HAND_LINES_KEPT = 4096


class Presenter(GamePresenter[MacarenaView, MacarenaAction]):
    colour = discord.Colour.from_rgb(30, 120, 90)

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self._hand_lines: KeptHandLines = {}

    def _hand_lines_of(self, hand: list[PlayingCard], tr: Translator) -> Sequence[str]:
        """A hand's lines by element: written once per hand and language (a hand is shown again
        at every move until it changes: the mover's answer, the waiting hands). Kept by the
        cards' ids, not their values: a hand of the very same card objects (a state's cards
        are the shared ``two_decks`` ones) is found without a Python ``__hash__`` per card
        (~40 a move, issue 29); the entry holds the cards, so their ids are no other
        object's while it is kept. Cards are frozen: the same objects, the same lines."""
        if type(tr) is not BoundTranslator:  # (a test's stub: nothing to key it by)
            return self._by_element(hand, tr)
        key = (tuple(map(id, hand)), tr.locale)
        kept = self._hand_lines.get(key)
        if kept is not None:
            return kept[1]
        lines = tuple(self._by_element(hand, tr))
        if len(self._hand_lines) >= HAND_LINES_KEPT:
            del self._hand_lines[next(iter(self._hand_lines))]  # the oldest written
        self._hand_lines[key] = (tuple(hand), lines)
        return lines

    # ----- actions --------------------------------------------------------------------------
    def choice(
        self, action: MacarenaAction, view: MacarenaView, names: SeatNames, tr: Translator
    ) -> Choice:
        kind: str = getattr(action, "kind", "")
        style = TURN_STYLE.get(kind, discord.ButtonStyle.secondary)
        if isinstance(action, Play):
            label = tr(
                "macarena.ui.play_series",
                pozo=action.pozo + 1,
                cards=cards_text(list(action.cards)),
            )
            return Choice(
                action=action.encode(), label=label, group="play", style=discord.ButtonStyle.success
            )
        if isinstance(action, MoveMaca):
            label = tr("macarena.action.move_maca", pozo=action.source + 1)
            return Choice(
                action=action.encode(), label=label, group=kind, style=style, emoji=TURN_EMOJI[kind]
            )
        if isinstance(action, (GiveElement, BuyElement)):
            element = action.element
            label = tr(f"macarena.action.{kind}", element=tr(f"macarena.element.{element}"))
            return Choice(
                action=action.encode(),
                label=label,
                group=kind,
                style=style,
                emoji=ELEMENT_EMOJI[element],
            )
        return Choice(
            action=action.encode(),
            label=tr(f"macarena.action.{kind}"),
            group="turn",
            style=style,
            emoji=TURN_EMOJI.get(kind),
        )

    # ----- the private components and the series draft -----------------------------------------
    def move_components(
        self, move: PrivateMove[MacarenaView, MacarenaAction]
    ) -> tuple[list[discord.ui.Item], list[MacarenaAction]]:
        view, tr = move.view, move.tr
        items: list[discord.ui.Item] = []
        if view.phase == "play" and _mine(view):
            items = self._play_components(move)
        else:
            # draw, or an end-of-hand / MACA choice: the seat's legal actions as buttons
            for i, action in enumerate(move.legal):
                items.append(self._button(move, action, row=i // BUTTONS_PER_ROW))
        rows = 1 + max((item.row or 0 for item in items), default=-1)
        if view.seat is not None and view.collection is not None:
            showing = bool(move.draft.get("collection"))
            key = "macarena.ui.hide_collection" if showing else "macarena.ui.show_collection"
            items.append(
                move.draft_button(
                    COLLECTION_OP,
                    label=tr(key),
                    emoji="📚",
                    row=self._row_with_room(items, rows),
                )
            )
        return items, []

    @staticmethod
    def _row_with_room(items: list[discord.ui.Item], rows: int) -> int:
        """The first row of the turn's buttons when it has room, else a new row."""
        on_first = sum(1 for item in items if (item.row or 0) == 0)
        return 0 if on_first < BUTTONS_PER_ROW else rows

    def _button(
        self, move: PrivateMove[MacarenaView, MacarenaAction], action: MacarenaAction, row: int
    ) -> ActionButton:
        return move.action_button(self.choice(action, move.view, move.names, move.tr), row=row)

    def _play_components(
        self, move: PrivateMove[MacarenaView, MacarenaAction]
    ) -> list[discord.ui.Item]:
        view, tr = move.view, move.tr
        seat = _seat_to_play(view)
        pass_action = next((a for a in move.legal if isinstance(a, Pass)), None)
        series = _series(view, move.draft)
        items: list[discord.ui.Item] = []
        if series is None:
            if pass_action is not None:
                items.append(self._button(move, pass_action, row=0))
            for i, pozo in enumerate(playable_pozos(view, seat)):
                top = view.pozos[pozo].top
                label = tr("macarena.ui.pozo_button", pozo=pozo + 1, card=card_label(top))
                items.append(
                    move.draft_button(
                        encode_draft(pozo, []),
                        label=clip(label, BUTTON_LABEL),
                        emoji=ELEMENT_EMOJI[element_of(top)],
                        style=discord.ButtonStyle.primary,
                        row=1 + i // BUTTONS_PER_ROW,
                    )
                )
            return items
        pozo, cards = series
        if cards:
            items.append(
                ActionButton(
                    move.table_id,
                    view.version,
                    encode_draft(pozo, cards),
                    label=tr("macarena.action.play"),
                    emoji="✅",
                    style=discord.ButtonStyle.success,
                    row=0,
                )
            )
            items.append(
                move.draft_button(
                    encode_draft(pozo, cards[:-1]),
                    label=tr("macarena.ui.series_undo"),
                    emoji="↩️",
                    row=0,
                )
            )
        items.append(move.draft_button(CANCEL_OP, label=tr("macarena.ui.cancel"), row=0))
        if pass_action is not None:
            items.append(self._button(move, pass_action, row=0))
        if len(cards) < MAX_SERIES:
            prev = parse_card(cards[-1]) if cards else view.pozos[pozo].top
            for i, card in enumerate(series_options(view, seat, pozo, cards)):
                text = card_label(card)
                if link_kind(prev, card) == "espejo":
                    text = tr("macarena.ui.series_card_espejo", card=text)
                items.append(
                    move.draft_button(
                        encode_draft(pozo, [*cards, card.code]),
                        label=clip(tr("macarena.ui.add_card", card=text), BUTTON_LABEL),
                        emoji=ELEMENT_EMOJI[element_of(card)],
                        style=discord.ButtonStyle.primary,
                        row=1 + i // BUTTONS_PER_ROW,
                    )
                )
        return items

    @draft_op(COLLECTION_OP)
    def _toggle_collection(self, step: DraftStep[MacarenaView, MacarenaAction]) -> DraftResult:
        """Show or hide the collection card by card."""
        return {**step.draft, "collection": not step.draft.get("collection")}, None

    @draft_op(CANCEL_OP)
    def _drop_series(self, step: DraftStep[MacarenaView, MacarenaAction]) -> DraftResult:
        """Drop the series: the pozo is chosen again."""
        return {k: v for k, v in step.draft.items() if k != "series"}, None

    @draft_op(SERIES_OP, prefix=True)
    def _grow_series(self, step: DraftStep[MacarenaView, MacarenaAction]) -> DraftResult:
        """``p.<pozo>[.<faces>]``: the series so far, checked card by card."""
        view = step.view
        seat = _seat_to_play(view)
        if view.phase != "play":
            raise IllegalAction(NOT_YOUR_TURN)
        pozo, cards = decode_draft(step.op)
        if pozo not in playable_pozos(view, seat):
            raise IllegalAction("pozo_closed", pozo=pozo + 1)
        if cards:
            status = series_status(view, seat, pozo, cards)
            if not status.playable:
                params = dict(status.params)
                if isinstance(params.get("pozo"), int):
                    params["pozo"] += 1
                raise IllegalAction(status.error or BAD_ACTION, **params)
        return {**step.draft, "series": step.op}, None

    def draft_lines(self, view: MacarenaView, draft: dict[str, Any], tr: Translator) -> list[str]:
        lines: list[str] = []
        if view.phase == "play" and _mine(view):
            series = _series(view, draft)
            if series is None:
                if playable_pozos(view, _seat_to_play(view)):
                    lines.append("👉 " + tr("macarena.ui.choose_pozo"))
                else:
                    lines.append(tr("macarena.ui.no_play"))
            else:
                lines.extend(self._series_lines(view, *series, tr))
        if draft.get("collection") and view.collection is not None:
            lines.append("")
            lines.append(tr("macarena.ui.collection_title", count=len(view.collection)))
            lines.extend(self._by_element(view.collection, tr))
        return lines

    @staticmethod
    def _series_lines(view, pozo: int, cards: list[str], tr: Translator) -> list[str]:
        top = view.pozos[pozo].top
        if not cards:
            return [
                tr("macarena.ui.series_so_far", pozo=pozo + 1, cards=card_text(top)),
                "👉 " + tr("macarena.ui.series_empty"),
            ]
        lines = [
            tr(
                "macarena.ui.series_so_far",
                pozo=pozo + 1,
                cards=f"{card_text(top)} → {cards_text(cards)}",
            )
        ]
        status = series_status(view, view.seat, pozo, cards)
        if status.espejo:
            lines.append("🪞 " + tr("macarena.ui.series_espejo"))
        if status.to_collection:
            lines.append(tr("macarena.ui.series_to_collection", count=status.to_collection))
        if status.complete and not status.espejo:
            lines.append(tr("macarena.ui.series_complete"))
        return lines

    @staticmethod
    def _by_element(cards: list[PlayingCard], tr: Translator) -> list[str]:
        lines = []
        grouped = _by_element(cards)
        for element in ELEMENTS:
            mine = grouped.get(element)
            if mine:
                lines.append(
                    tr(
                        "macarena.ui.element_cards",
                        emoji=ELEMENT_EMOJI[element],
                        element=tr(f"macarena.element.{element}"),
                        cards=cards_text(mine),
                    )
                )
        return lines

    # ----- text -----------------------------------------------------------------------------
    def event_text(self, event: Event, names: SeatNames, tr: Translator) -> str | None:
        key = f"macarena.event.{event.code}"
        if not has(key):
            return None
        return tr(key, **event_params(event, tr, names))

    def status_lines(self, view: MacarenaView, names: SeatNames, tr: Translator) -> list[str]:
        lines = [
            tr(
                "macarena.ui.status",
                hand=view.hand_number,
                stock=view.stock_count,
                phase=tr(f"macarena.phase.{view.phase}"),
                target=view.amulets_to_win,
            )
        ]
        colour_of = {p.seat: p.colour for p in view.players}
        pozos = []
        for pozo in view.pozos:
            macas = pozo.macas
            marks = (  # (most pozos have none: no generator for them)
                "".join(player_mark(colour_of.get(s, 0)) * n for s, n in macas.items())
                if macas
                else ""
            )
            pozos.append(
                f"**{pozo.index + 1}** {card_label(pozo.top)}" + (f" {marks}" if marks else "")
            )
        lines.append(tr("macarena.ui.pozos", pozos=" · ".join(pozos)))
        if view.espejo_turn and view.turn:
            lines.append("🪞 " + tr("macarena.ui.public_espejo", player=names(view.turn)))
        for key, waiting in (("penalty", view.penalty_waiting), ("buy", view.buy_waiting)):
            if waiting:  # who must still give up / buy an element
                players = ", ".join(names(s) for s in waiting)
                lines.append(tr(f"macarena.ui.waiting_{key}", players=players, count=len(waiting)))
        if view.hand_result is not None and not view.hand_result.revealed:
            lines.extend(self._hand_result_lines(view.hand_result, view, names, tr))
        return lines

    @staticmethod
    def _hand_result_lines(result, view, names: SeatNames, tr: Translator) -> list[str]:
        sizes = ", ".join(f"{names(s)} {len(r.collection)}" for s, r in result.seats.items())
        winners = " · ".join(
            f"{ELEMENT_EMOJI[e]} {names(result.element_winners[e]) if result.element_winners.get(e) else tr('macarena.ui.nobody')}"
            for e in ELEMENTS
        )
        reason = (
            tr("macarena.ui.went_out", player=names(result.went_out))
            if result.went_out
            else tr(f"macarena.reason.{result.reason}")
        )
        return [
            tr("macarena.ui.last_hand", hand=result.hand, reason=reason, sizes=sizes),
            tr("macarena.ui.last_hand_elements", elements=winners),
        ]

    def summary(
        self, view: MacarenaView, names: SeatNames, tr: Translator
    ) -> tuple[str, list[str]] | None:
        """The last hand's scoring, whole: per player what they gave up, won and exchanged."""
        result = view.hand_result
        if result is None or not result.revealed:
            return None
        lines = []
        for seat, r in result.seats.items():
            parts = []
            if r.gave_element:
                element = tr(f"macarena.element.{r.gave_element}")
                parts.append(tr("macarena.summary.gave_element", element=element))
            elif r.penalized:
                parts.append(tr("macarena.summary.gave_coins", coins=r.gave_coins))
            for key, coins in (
                ("macas", r.coins_macas),
                ("collection", r.coins_collection),
                ("went_out", r.coins_went_out),
                ("duplicates", r.coins_duplicates),
            ):
                if coins:
                    parts.append(tr(f"macarena.summary.coins_{key}", coins=coins))
            for e in r.elements_won:
                parts.append(
                    tr(
                        "macarena.summary.won_element",
                        element=f"{ELEMENT_EMOJI[e]} " + tr(f"macarena.element.{e}"),
                    )
                )
            for e in r.bought:
                parts.append(
                    tr(
                        "macarena.summary.bought",
                        element=f"{ELEMENT_EMOJI[e]} " + tr(f"macarena.element.{e}"),
                    )
                )
            if r.amulets_won:
                parts.append(tr("macarena.summary.amulets", count=r.amulets_won))
            lines.append(
                f"**{names(seat)}**: "
                + ("; ".join(parts) if parts else tr("macarena.summary.nothing"))
            )
        return tr("macarena.summary.title", hand=result.hand), [
            *self._hand_result_lines(result, view, names, tr),
            *lines,
        ]

    def seat_line(self, view: MacarenaView, seat: str, names: SeatNames, tr: Translator) -> str:
        for p in view.players:  # (a loop: no generator per seat)
            if p.seat == seat:
                break
        else:
            raise ValueError(f"no player at seat {seat!r}")
        line = (
            player_mark(p.colour)
            + " "
            + tr(
                "macarena.ui.seat",
                player=names(seat),
                cards=p.hand_count,
                coins=p.coins,
                elements=elements_text(p.elements, tr),
                amulets=p.amulets,
                macas=p.active_macas,
            )
        )
        if p.collection_count is not None:
            line += " · " + tr("macarena.ui.seat_collection", count=p.collection_count)
        return line

    def private_lines(self, view: MacarenaView, tr: Translator) -> list[str]:
        if view.seat is None or view.hand is None:
            return []
        lines: list[str] = []
        if view.espejo_turn and _mine(view):
            lines.append("🪞 " + tr("macarena.ui.espejo_turn"))
        if view.drawn is not None:
            lines.append(tr("macarena.ui.drawn", card=card_text(view.drawn)))
        if view.choice == "move_maca" and view.maca_target is not None:
            lines.append("🔮 " + tr("macarena.ui.choose_maca", pozo=view.maca_target + 1))
        elif view.choice == "give_element":
            lines.append("⚠️ " + tr("macarena.ui.choose_give"))
        elif view.choice == "buy_element":
            lines.append("🪙 " + tr("macarena.ui.choose_buy"))
        lines.append(tr("macarena.ui.hand_title", count=len(view.hand)))
        lines.extend(self._hand_lines_of(view.hand, tr))
        me = next(p for p in view.players if p.seat == view.seat)
        collection = view.collection or []
        kept = _by_element(collection)
        counts = " · ".join([f"{ELEMENT_EMOJI[e]} {len(kept.get(e, ()))}" for e in ELEMENTS])
        lines.append(tr("macarena.ui.collection_summary", count=len(collection), counts=counts))
        lines.append(
            tr(
                "macarena.ui.my_tokens",
                coins=me.coins,
                elements=elements_text(me.elements, tr),
                amulets=me.amulets,
                target=view.amulets_to_win,
            )
        )
        return lines

    def outcome_lines(self, outcome: Outcome, names: SeatNames, tr: Translator) -> list[str]:
        lines = [
            "🏆 " + tr("macarena.ui.winner", players=", ".join(names(s) for s in outcome.winners))
        ]
        # the bot may hand back a plain Outcome (e.g. one read back from storage): no extras then
        extra = outcome if isinstance(outcome, MacarenaOutcome) else MacarenaOutcome(ranking=[])
        if extra.macarena:
            lines.append("💃 " + tr("macarena.ui.outcome_macarena", player=names(extra.macarena)))
        amulets, elements = extra.amulets, extra.elements
        coins, macarenas = extra.coins, extra.macarenas
        for place, group in enumerate(outcome.ranking, start=1):
            for seat in group:
                lines.append(
                    tr(
                        "macarena.ui.outcome_line",
                        place=place,
                        player=names(seat),
                        amulets=amulets.get(seat, 0),
                        elements=elements_text(elements.get(seat) or [], tr),
                        coins=coins.get(seat, 0),
                        macarenas=macarenas.get(seat, 0),
                    )
                )
        tie = self._tie_break(outcome, extra, names, tr)
        if tie:
            lines.insert(1, tie)
        lines.append(tr("macarena.ui.outcome_hands", hands=extra.hands))
        return lines

    @staticmethod
    def _tie_break(outcome: Outcome, extra, names: SeatNames, tr: Translator) -> str | None:
        """How the winner was told apart from the runner-up when the amulets did not: the
        rule's order (amulets, then element tokens, then coins) in words."""
        if len(outcome.ranking) < 2 or extra.macarena:
            return None
        first, second = outcome.ranking[0][0], outcome.ranking[1][0]
        keys = [
            ("amulets", extra.amulets.get(first, 0), extra.amulets.get(second, 0)),
            (
                "elements",
                len(extra.elements.get(first) or []),
                len(extra.elements.get(second) or []),
            ),
            ("coins", extra.coins.get(first, 0), extra.coins.get(second, 0)),
        ]
        if keys[0][1] != keys[0][2]:
            return None  # more amulets: no tie to break
        decided = next(((k, a, b) for k, a, b in keys[1:] if a != b), None)
        winners = ", ".join(names(s) for s in outcome.ranking[0])
        if decided is None:
            return tr("macarena.summary.tie_shared", players=winners, amulets=keys[0][1])
        key, won, lost = decided
        return tr(
            f"macarena.summary.tie_{key}",
            players=winners,
            runner=names(second),
            amulets=keys[0][1],
            won=won,
            lost=lost,
        )


def _by_element(cards: list[PlayingCard]) -> dict[str, list[PlayingCard]]:
    """The cards by element, each in the order given: one walk of the cards (a hand's and a
    collection's lines are written at every move)."""
    grouped: dict[str, list[PlayingCard]] = {}
    for card in cards:
        grouped.setdefault(SUIT_ELEMENT[card.suit], []).append(card)
    return grouped
