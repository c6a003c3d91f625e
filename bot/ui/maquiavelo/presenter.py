"""Maquiavelo on Discord: the table's melds as an image, the hand in suit selects.

A turn is a draft (``move_components`` + the ``@draft_op`` steps): the hand is split into one
multi-select per suit (chunks of at most 25 cards, merged or cut when a hand needs more rows
than a message has), and picking cards in any of them updates one selection that persists
across the selects. "Jugar" sends ``p.<mask>`` of the selected cards and the engine arranges the
table; "Sugerir" fills the selection with the best play without playing it; "Limpiar" clears it.
A modal takes a whole explicit arrangement, prefilled with the current table. Under "estricto" a
selection the engine would refuse is checked first (``check_proposal``) and only proposed after a
second press of "Jugar".

Draft ops: ``s.<k>`` (the k-th hand select; ``s.h`` the helpers), ``play``, ``clear``, ``hint``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import discord

from bot.i18n import Translator, per_language
from bot.ui import items
from bot.ui.maquiavelo.text import SUITS, card_ids_text, cards_text, suit_name
from bot.ui.presenter import (
    DraftResult,
    DraftStep,
    GamePresenter,
    ModalField,
    PrivateMove,
    SeatNames,
    draft_op,
)
from bot.ui.text import clip
from games.core import Event, IllegalAction, Outcome
from games.core.errors import BAD_ACTION, NOT_YOUR_TURN
from games.maquiavelo import GAME, MaquiaveloState, MaquiaveloView, Play, parse_arrangement
from games.maquiavelo.actions import AnyAction
from games.maquiavelo.ai import best_play_action
from games.maquiavelo.view import CardView, MaquiaveloOutcome

SELECT_OPTIONS = 25
HAND_ROWS = 4  # five rows, less the button row
MODAL_KIND = "arrange"
MODAL_FIELD = "table"
SELECT_OP = "s."  # draft ops "s.<k>": the cards chosen in the hand's k-th select
HELPERS_OP = "s.h"  # ... and in the helpers' select
PLAY_OP, CLEAR_OP, HINT_OP = "play", "clear", "hint"
OPTION_LABEL = 100
PLACEHOLDER = 150


def _acting(view: MaquiaveloView) -> bool:
    return not view.finished and view.seat is not None and view.turn == view.seat


def hand_chunks(view: MaquiaveloView, rows: int) -> list[list[CardView]]:
    """The hand as at most ``rows`` selects of at most 25 cards: one per suit when that fits,
    else the smallest neighbouring groups merged, else the hand (by suit and rank) cut in pieces of 25 (the
    cards beyond ``rows`` * 25 are left to the modal)."""
    groups = [cards for _, cards in view.hand_groups(SELECT_OPTIONS)]
    if len(groups) <= rows:
        return groups
    merged = [list(cards) for cards in groups]
    while len(merged) > rows:  # merge the smallest neighbouring pair that fits one select
        sizes = [(len(merged[k]) + len(merged[k + 1]), k) for k in range(len(merged) - 1)]
        size, k = min(sizes)
        if size > SELECT_OPTIONS:
            break
        merged[k : k + 2] = [merged[k] + merged[k + 1]]
    if len(merged) <= rows:
        return merged
    hand = [c for cards in groups for c in cards]
    size = max(-(-len(hand) // rows), 1)
    size = min(size, SELECT_OPTIONS)
    return [hand[k : k + size] for k in range(0, len(hand), size)][:rows]


class Presenter(GamePresenter[MaquiaveloView, AnyAction]):
    colour = discord.Colour.from_rgb(22, 92, 62)

    # ----- helpers ------------------------------------------------------------------------
    def _placeholder(
        self,
        view: MaquiaveloView,
        cards: list[CardView],
        tr: Translator,
        by_suit: dict[str, list[CardView]] | None = None,
    ) -> str:
        """A hand select's placeholder: its suits, or its first and last card when it holds a
        part of a suit; ``by_suit``: ``view.hand_by_suit()`` when the caller has it."""
        by_suit = view.hand_by_suit() if by_suit is None else by_suit
        counts: dict[str, int] = {}  # its cards per suit, in one walk (a card's field is no
        for c in cards:  # plain attribute read: ~600 instructions each, issue 29)
            suit = c.suit
            counts[suit] = counts.get(suit, 0) + 1
        for suit, count in counts.items():  # (loops, not generators: every select, each move)
            if len(by_suit[suit]) != count:
                label = f"{cards[0].pretty}–{cards[-1].pretty}"
                break
        else:
            label = " · ".join([suit_name(s, tr) for s in sorted(counts, key=SUITS.index)])
        return clip(tr("maquiavelo.ui.select_placeholder", suit=label), PLACEHOLDER)

    def _selects(self, view: MaquiaveloView) -> tuple[list[list[CardView]], bool]:
        """The hand chunks of the selects, and whether a helpers select comes first."""
        helpers = bool(view.helpers) and view.options.ayuda
        return hand_chunks(view, HAND_ROWS - (1 if helpers else 0)), helpers

    @staticmethod
    def _options(cards: list[CardView], selected: set[int]) -> list[discord.SelectOption]:
        ids = tuple([c.id for c in cards])
        return list(_select_options(ids, frozenset(selected.intersection(ids))))

    @staticmethod
    def _selection(view: MaquiaveloView, draft: dict[str, Any]) -> list[int]:
        """The draft's selected card ids still in the hand or among the helpers."""
        if not draft.get("sel"):
            return []  # (most payloads: no draft, no hand to walk)
        mine = {c.id for c in view.hand or []} | {c.id for c in view.helpers}
        return sorted({int(c) for c in draft.get("sel", []) if int(c) in mine})

    # ----- drafts -------------------------------------------------------------------------
    def move_components(
        self, move: PrivateMove[MaquiaveloView, AnyAction]
    ) -> tuple[list[discord.ui.Item], list[AnyAction]]:
        view, tr = move.view, move.tr
        if not _acting(view) or not move.legal:
            return [], move.legal
        selected = set(self._selection(view, move.draft))
        chunks, helpers = self._selects(view)
        pools = ([(HELPERS_OP, view.helpers)] if helpers else []) + [
            (f"{SELECT_OP}{k}", cards) for k, cards in enumerate(chunks)
        ]
        by_suit = view.hand_by_suit()  # (once for every select's placeholder)
        out: list[discord.ui.Item] = [
            move.draft_select(
                op,
                options=self._options(cards, selected),
                placeholder=clip(tr("maquiavelo.ui.select_helpers"), PLACEHOLDER)
                if op == HELPERS_OP
                else self._placeholder(view, cards, tr, by_suit),
                min_values=0,
                max_values=len(cards),
                row=row,
            )
            for row, (op, cards) in enumerate(pools)
        ]
        row = len(pools)
        play_label = (
            tr("maquiavelo.ui.play_selected", count=len(selected))
            if selected
            else tr("maquiavelo.action.play")
        )
        clear, hint = tr("maquiavelo.action.clear"), tr("maquiavelo.action.suggest")
        success, primary = discord.ButtonStyle.success, discord.ButtonStyle.primary
        none = not selected
        out += [  # the buttons share the row under the selects
            move.draft_button(PLAY_OP, label=play_label, style=success, disabled=none, row=row),
            move.draft_button(CLEAR_OP, label=clear, disabled=none, row=row),
            move.draft_button(HINT_OP, label=hint, style=primary, row=row),
            items.ModalButton(
                move.table_id,
                view.version,
                MODAL_KIND,
                label=tr("maquiavelo.action.arrange"),
                row=row,
            ),
        ]
        out += [
            move.action_button(self.choice(a, view, move.names, tr), row=row) for a in move.legal
        ]
        return out, []

    def _turn_selection(self, step: DraftStep[MaquiaveloView, AnyAction]) -> list[int]:
        """The draft's selected cards; a step out of turn is refused."""
        if not _acting(step.view) or step.view.seat is None:
            raise IllegalAction(NOT_YOUR_TURN)
        return self._selection(step.view, step.draft)

    @draft_op(CLEAR_OP)
    def _clear(self, step: DraftStep[MaquiaveloView, AnyAction]) -> DraftResult:
        self._turn_selection(step)
        return {}, None

    @draft_op(HINT_OP, searches=True)  # the solver's best play
    def _hint(self, step: DraftStep[MaquiaveloView, AnyAction]) -> DraftResult:
        """Select the cards of the best play found (none: nothing to play)."""
        self._turn_selection(step)
        play = best_play_action(step.view)
        cards = list(play.cards) if play else []
        return {"sel": cards, "hint": cards}, None

    @draft_op(PLAY_OP, searches=True)  # Estricto's dry run arranges the table
    def _play(self, step: DraftStep[MaquiaveloView, AnyAction]) -> DraftResult:
        """Lay the selected cards; with Estricto a proposal the table would refuse is shown
        first, and played once it is clicked again."""
        selected = self._turn_selection(step)
        if not selected:
            raise IllegalAction("empty_play")
        action = Play(cards=tuple(selected))
        text = action.encode()
        view = step.view
        if view.options.estricto and step.draft.get("warned") != text and view.seat is not None:
            try:
                GAME.check_proposal(_state_of(view), view.seat, action)
            except IllegalAction as exc:
                params = dict(exc.params)
                return {"sel": selected, "warned": text, "code": exc.code, "params": params}, None
        return {"sel": selected}, text

    @draft_op(SELECT_OP, prefix=True)
    def _select(self, step: DraftStep[MaquiaveloView, AnyAction]) -> DraftResult:
        """``s.<k>`` (a select of the hand) or ``s.h`` (the helpers): its cards now chosen."""
        selected = self._turn_selection(step)
        if step.op == HELPERS_OP:
            pool = step.view.helpers
        else:
            chunks, _ = self._selects(step.view)
            try:
                pool = chunks[int(step.arg)]
            except (ValueError, IndexError) as exc:
                raise IllegalAction(BAD_ACTION) from exc
        ids = {c.id for c in pool}
        try:
            picked = {int(v) for v in step.values}
        except ValueError as exc:
            raise IllegalAction(BAD_ACTION) from exc
        if not picked <= ids:
            raise IllegalAction(BAD_ACTION)
        return {"sel": sorted((set(selected) - ids) | picked)}, None

    def draft_lines(self, view: MaquiaveloView, draft: dict[str, Any], tr: Translator) -> list[str]:
        if not _acting(view):
            return []
        lines = []
        selected = set(self._selection(view, draft))
        if "hint" in draft:
            lines.append(self._hint_text(view, draft["hint"], tr))
        chosen = [c for c in [*(view.hand or []), *view.helpers] if c.id in selected]
        lines.append(
            tr("maquiavelo.ui.selected", cards=cards_text(chosen))
            if chosen
            else tr("maquiavelo.ui.selected_none")
        )
        if draft.get("warned"):
            reason = tr(f"maquiavelo.error.{draft.get('code')}", **draft.get("params", {}))
            lines.append(tr("maquiavelo.ui.estricto_refused", reason=reason))
            lines.append(tr("maquiavelo.ui.estricto_confirm"))
        if view.options.estricto:
            lines.append(tr("maquiavelo.ui.estricto_warning"))
        chunks, _ = self._selects(view)
        shown = sum(map(len, chunks))
        if shown < len(view.hand or []):
            lines.append(tr("maquiavelo.ui.hand_cut", shown=shown, count=len(view.hand or [])))
        return lines

    def _hint_text(self, view: MaquiaveloView, hint: list[int], tr: Translator) -> str:
        if not hint:
            key = (
                "maquiavelo.ui.hint_none_pass"
                if not view.stock_count
                else "maquiavelo.ui.hint_none"
            )
            return tr(key)
        ids = set(hint)
        hand = [c for c in view.hand or [] if c.id in ids]
        helpers = [c for c in view.helpers if c.id in ids]
        if helpers:
            return tr(
                "maquiavelo.ui.hint_helpers",
                cards=cards_text(hand),
                helpers=cards_text(helpers),
                count=len(hint),
            )
        return tr("maquiavelo.ui.hint", cards=cards_text(hand), count=len(hint))

    # ----- the typed arrangement ----------------------------------------------------------
    def modal_fields(
        self, kind: str, view: MaquiaveloView, tr: Translator
    ) -> tuple[str, list[ModalField]] | None:
        if kind != MODAL_KIND:
            return None
        return tr("maquiavelo.ui.modal_title"), [
            ModalField(
                name=MODAL_FIELD,
                label=tr("maquiavelo.ui.modal_field"),
                placeholder=tr("maquiavelo.ui.modal_placeholder"),
                default=view.table_text() or None,
                long=True,
                max_length=1200,
            )
        ]

    def modal_action(self, kind: str, view: MaquiaveloView, values: dict[str, str]) -> str:
        if kind != MODAL_KIND:
            raise IllegalAction(BAD_ACTION)
        return parse_arrangement(values.get(MODAL_FIELD, "")).encode()

    # ----- text ---------------------------------------------------------------------------
    def event_text(self, event: Event, names: SeatNames, tr: Translator) -> str | None:
        params = dict(event.params)
        if isinstance(params.get("first"), str):
            params["first"] = names(params["first"])
        if isinstance(params.get("winners"), list):
            params["winners"] = ", ".join(names(s) for s in params["winners"])
        return super().event_text(event.model_copy(update={"params": params}), names, tr)

    def status_lines(self, view: MaquiaveloView, names: SeatNames, tr: Translator) -> list[str]:
        cards = sum(len(m.cards) for m in view.table)
        lines = [
            tr("maquiavelo.status.table", melds=len(view.table), cards=cards),
            tr("maquiavelo.status.stock", count=view.stock_count),
        ]
        if view.options.ayuda:
            lines.append(tr("maquiavelo.status.helpers", cards=cards_text(view.helpers) or "—"))
        if not view.stock_count and not view.finished:
            lines.append(tr("maquiavelo.status.passes", count=view.passes, players=len(view.seats)))
        variants = [
            tr(f"maquiavelo.ui.variant.{name}")
            for name in ("ayuda", "estricto")
            if getattr(view.options, name)
        ]
        if variants:
            lines.append(tr("maquiavelo.status.variants", variants=", ".join(variants)))
        if view.last_play:
            lines.append(
                tr(
                    "maquiavelo.ui.last_play",
                    cards=card_ids_text(view.last_play),
                )
            )
        return lines

    def seat_line(self, view: MaquiaveloView, seat: str, names: SeatNames, tr: Translator) -> str:
        count = view.hand_counts.get(seat, 0)
        if view.finished and seat in view.hand_values:
            return tr(
                "maquiavelo.outcome.hand_value",
                player=names(seat),
                count=count,
                value=view.hand_values[seat],
            )
        return tr("maquiavelo.status.seat", player=names(seat), count=count)

    def private_lines(self, view: MaquiaveloView, tr: Translator) -> list[str]:
        table = view.table_text() or tr("maquiavelo.image.table_empty")
        lines = [tr("maquiavelo.ui.table_line", table=table)]
        if view.options.ayuda and view.helpers:
            lines.append(tr("maquiavelo.status.helpers", cards=cards_text(view.helpers)))
        lines.extend(_hand_lines(view, tr))
        return lines

    def outcome_lines(self, outcome: Outcome, names: SeatNames, tr: Translator) -> list[str]:
        lines = super().outcome_lines(outcome, names, tr)
        winners = outcome.winners
        if winners and isinstance(outcome, MaquiaveloOutcome):
            who = ", ".join(names(s) for s in winners)
            points = outcome.points.get(winners[0], 0)
            if outcome.reason == "out":
                lines.append(tr("maquiavelo.outcome.out", player=who, points=points))
            elif outcome.reason == "blocked":
                count = outcome.hand_counts.get(winners[0], 0)
                lines.append(
                    tr("maquiavelo.outcome.blocked", player=who, count=count, points=points)
                )
        return lines


def _state_of(view: MaquiaveloView) -> MaquiaveloState:
    """A state holding just what ``view`` shows (the viewer's hand, the table, the helpers;
    no stock, other hands empty): enough for the engine's dry run of the viewer's proposal."""
    assert view.seat is not None
    return MaquiaveloState(
        seed="dry-run",
        version=view.version,
        seats=list(view.seats),
        options=view.options,
        dealer=view.seats.index(view.dealer) if view.dealer in view.seats else 0,
        turn=view.seats.index(view.seat),
        hands={s: ([c.id for c in view.hand or []] if s == view.seat else []) for s in view.seats},
        stock=[],
        helpers=[c.id for c in view.helpers],
        table=[[c.id for c in m.cards] for m in view.table],
    )


def _hand_lines(view: MaquiaveloView, tr: Translator) -> Sequence[str]:
    """The viewer's hand a line per suit: written once per hand and language (a hand is shown
    again at every move until it changes: the mover's answer, the waiting hands)."""
    return _kept_hand_lines(tuple([c.id for c in view.hand or ()]), tr)


# Hands in words, per process: a busy bot's hands (two or three people a table) with room to
# spare. A card's id names its face (``CardView.of``).
@per_language(maxsize=4096)
def _kept_hand_lines(hand: tuple[int, ...], tr: Translator) -> tuple[str, ...]:
    groups: dict[str, list[CardView]] = {}
    for card_id in hand:
        card = CardView.of(card_id)
        groups.setdefault(card.suit, []).append(card)
    return tuple(_written_hand_lines(groups, tr))


def _written_hand_lines(by_suit: dict[str, list[CardView]], tr: Translator) -> list[str]:
    return [
        tr("maquiavelo.ui.hand_suit", suit=suit_name(suit, tr), cards=cards_text(cards))
        for suit, cards in sorted(by_suit.items(), key=lambda kv: SUITS.index(kv[0]))
    ]


# A select's options by its cards' ids and the selected ones among them, per process (a hand's
# selects are written again at every payload until the hand or the selection changes; ~2 KB
# each, 2,048 at most): shared, never changed (a payload gets its own list of them).
@lru_cache(maxsize=2048)
def _select_options(
    ids: tuple[int, ...], selected: frozenset[int]
) -> tuple[discord.SelectOption, ...]:
    seen: dict[str, int] = {}
    options = []
    for card_id in ids:
        c = CardView.of(card_id)
        seen[c.code] = seen.get(c.code, 0) + 1
        label = c.pretty if seen[c.code] == 1 else f"{c.pretty} ({seen[c.code]})"
        options.append(
            discord.SelectOption(
                label=clip(label, OPTION_LABEL), value=str(c.id), default=c.id in selected
            )
        )
    return tuple(options)
