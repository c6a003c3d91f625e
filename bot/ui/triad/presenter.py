"""Triple Triad on Discord: the board image, open hands, card-then-cell drafts, payout picks.

A placement is built in two clicks of the player's private view (a draft): a card of the hand
(``d:…:c{slot}``), then one of the free cells of a 3×3 button grid (``d:…:x{cell}``). Only
cards and cells of ``legal_actions`` are ever enabled. The payout pick is a plain action button
per card of the loser. The lobby (challenge, accept, card picking) is ``bot.ui.triad.lobby``.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import Translator, has, per_language
from bot.service import Table, TableService
from bot.ui.layout import BUTTON_LABEL, Choice
from bot.ui.payload import Payload
from bot.ui.presenter import DraftResult, DraftStep, GamePresenter, PrivateMove, SeatNames, draft_op
from bot.ui.text import clip
from bot.ui.triad.lobby import lobby_payload
from bot.ui.triad.text import (
    SEAT_EMOJI,
    action_params,
    card_label,
    card_name,
    event_params,
    face_text,
    rules_text,
    seat_emoji,
)
from games.core import Event, IllegalAction, Outcome
from games.core.errors import BAD_ACTION
from games.triad import Play, TriadOutcome, TriadView
from games.triad.actions import TriadAction
from games.triad.cards import edge_text
from games.triad.view import CardFace


def _own_hand(view: TriadView) -> list[CardFace | None]:
    """The viewing seat's hand (none in the public view); hidden cards are None."""
    return view.hands.get(view.seat, []) if view.seat is not None else []


def _places(legal: list[TriadAction]) -> list[Play]:
    return [a for a in legal if isinstance(a, Play)]


class Presenter(GamePresenter[TriadView, TriadAction]):
    colour = discord.Colour.from_rgb(46, 98, 196)
    custom_play_command = True  # bot/cogs/triad.py: /play triad with opponent and level
    # Its events are built from the view at each message (``last_events``): none is asked for
    # twice, so no text is kept (bench/cache_depths.py: 684 texts asked, 0 kept ones read).
    event_texts_kept = 0

    # ----- lobby and the computer -----------------------------------------------------------
    def lobby_payload(self, table: Table, service: TableService, tr: Translator) -> Payload:
        return lobby_payload(table, service, tr)

    # ----- actions --------------------------------------------------------------------------
    def action_params(self, action: TriadAction, view: TriadView, tr: Translator) -> dict[str, Any]:
        return action_params(action, view, tr)

    def choice(
        self, action: TriadAction, view: TriadView, names: SeatNames, tr: Translator
    ) -> Choice:
        kind = getattr(action, "kind", "")
        label = tr(f"triad.action.{kind}", **self.action_params(action, view, tr))
        style = discord.ButtonStyle.success if kind == "pick" else discord.ButtonStyle.secondary
        return Choice(action=action.encode(), label=label, group=kind, style=style)

    def group_placeholders(self, tr: Translator) -> dict[str, str]:
        return _group_placeholders(tr)

    def move_components(
        self, move: PrivateMove[TriadView, TriadAction]
    ) -> tuple[list[discord.ui.Item[Any]], list[TriadAction]]:
        view, tr = move.view, move.tr
        places = _places(move.legal)
        # not ``a not in places``: that compares pydantic models pairwise (~45² per hand)
        others: list[TriadAction] = [a for a in move.legal if not isinstance(a, Play)]
        if not places:
            return [], others
        hand = _own_hand(view)
        slots = sorted({a.slot for a in places})
        chosen = move.draft.get("slot") if move.draft.get("slot") in slots else None
        items: list[discord.ui.Item[Any]] = []
        for slot in slots:
            face = hand[slot] if slot < len(hand) else None
            label = card_label(face.card, tr) if face else str(slot + 1)
            items.append(
                move.draft_button(
                    f"c{slot}",
                    label=clip(label, BUTTON_LABEL),
                    row=0,
                    style=discord.ButtonStyle.primary
                    if slot == chosen
                    else discord.ButtonStyle.secondary,
                )
            )
        if chosen is not None:
            free = {a.cell for a in places if a.slot == chosen}
            items.extend(self._cell_buttons(move, free))
        return items, others

    @staticmethod
    def _cell_buttons(
        move: PrivateMove[TriadView, TriadAction], free: set[int]
    ) -> list[discord.ui.Item[Any]]:
        """The 3×3 grid of cells: the free ones the chosen card may go to are enabled."""
        view, tr = move.view, move.tr
        items: list[discord.ui.Item[Any]] = []
        for cell in range(9):
            spot = view.board[cell]
            emoji = None
            if spot.card is not None:
                label = "-".join(edge_text(v) if v <= 10 else "A+" for v in spot.card.values)
                emoji = seat_emoji(view, spot.holder)
            else:
                label = tr(f"triad.cell.{cell}")
                if spot.element:
                    label += " · " + tr(f"triad.element.{spot.element}")
            items.append(
                move.draft_button(
                    f"x{cell}",
                    label=clip(label, BUTTON_LABEL),
                    emoji=emoji,
                    row=1 + cell // 3,
                    disabled=cell not in free,
                    style=discord.ButtonStyle.success
                    if cell in free
                    else discord.ButtonStyle.secondary,
                )
            )
        return items

    @draft_op("c", prefix=True)
    def _choose_card(self, step: DraftStep[TriadView, TriadAction]) -> DraftResult:
        """``c{slot}``: the card of the hand to place."""
        if step.arg.isdigit() and any(a.slot == int(step.arg) for a in _places(step.legal)):
            return {"slot": int(step.arg)}, None
        raise IllegalAction(BAD_ACTION, text=step.op)

    @draft_op("x", prefix=True)
    def _choose_cell(self, step: DraftStep[TriadView, TriadAction]) -> DraftResult:
        """``x{cell}``: the cell the chosen card goes to; the move is complete."""
        chosen = step.draft.get("slot")
        for a in _places(step.legal):
            if step.arg.isdigit() and a.slot == chosen and a.cell == int(step.arg):
                return {}, a.encode()
        raise IllegalAction(BAD_ACTION, text=step.op)

    def draft_lines(self, view: TriadView, draft: dict[str, Any], tr: Translator) -> list[str]:
        if view.turn != view.seat or view.seat is None:
            return []
        hand = _own_hand(view)
        slot = draft.get("slot")
        face = hand[slot] if isinstance(slot, int) and slot < len(hand) else None
        if face is not None:
            return [tr("triad.ui.chosen", card=card_name(face.card, tr))]
        return [tr("triad.ui.choose_card")]

    # ----- text -----------------------------------------------------------------------------
    def last_events(self, view: TriadView) -> list[Event]:
        """The view has no event log: the last placement and its flips come from
        ``last_move``, a pending payout pick from ``pick`` (both survive restarts)."""
        events: list[Event] = []
        lm = view.last_move
        if lm is not None:
            events.append(
                Event(code="played", seat=lm.seat, params={"card": lm.card, "cell": lm.cell})
            )
            for code, cells in (
                ("same_wall" if lm.same_wall else "same", lm.same),
                ("plus", lm.plus),
                ("flipped", lm.basic),
                ("combo", lm.combo),
            ):
                if cells:
                    events.append(
                        Event(
                            code=code,
                            seat=lm.seat,
                            params={"cells": list(cells), "count": len(cells)},
                        )
                    )
        pick = view.pick
        if pick is not None:
            events.append(
                Event(
                    code="game_won",
                    seat=pick.winner,
                    params={
                        "winner_score": view.scores[pick.winner],
                        "loser_score": view.scores[pick.loser],
                    },
                )
            )
            events.append(
                Event(
                    code="pick_required",
                    seat=pick.winner,
                    params={"count": pick.remaining, "target": pick.loser},
                )
            )
        return events

    def event_text(self, event: Event, names: SeatNames, tr: Translator) -> str | None:
        key = f"triad.event.{event.code}"
        if not has(key):
            return None
        params = event_params(dict(event.params), tr)
        if isinstance(params.get("target"), str):
            params["target"] = names(params["target"])
        params.pop("scores", None)
        params.pop("transfers", None)
        return tr(key, **{**params, "player": names(event.seat)})

    def status_lines(self, view: TriadView, names: SeatNames, tr: Translator) -> list[str]:
        scores = " — ".join(
            [f"{seat_emoji(view, s)} {names(s)} **{view.scores.get(s, 0)}**" for s in view.seats]
        )
        lines = [
            scores,
            tr(
                "triad.ui.rules_line",
                rules=rules_text(view.options, tr),
                payout=tr(f"triad.payout.{view.options.payout}"),
            ),
        ]
        if view.round:
            lines.append(tr("triad.label.round", round=view.round, max=view.max_rematches))
        if view.pick is not None:
            lines.append(tr("triad.status.waiting_pick", player=names(view.pick.winner)))
        return lines

    def seat_line(self, view: TriadView, seat: str, names: SeatNames, tr: Translator) -> str:
        line = tr(
            "triad.ui.seat",
            colour=seat_emoji(view, seat),
            player=names(seat),
            count=view.hand_counts.get(seat, 0),
        )
        if view.hands_open and not view.finished:  # Abierto: everyone sees both hands
            shown = [card_label(f.card, tr) for f in view.hands.get(seat, []) if f is not None]
            if shown:
                line += "\n" + "\n".join(f"  · {c}" for c in shown)
        return line

    def private_lines(self, view: TriadView, tr: Translator) -> list[str]:
        lines: list[str] = []
        pick = view.pick
        if pick is not None and pick.winner == view.seat:
            lines.append(tr("triad.status.pick", count=pick.remaining))
            lines.extend(
                ("✅ " if c.picked else "• ") + face_text(c.face, tr) for c in pick.choices
            )
            return lines
        # Whose turn it is and what to do next come from the private view and ``draft_lines``.
        mine = [f for f in _own_hand(view) if f is not None]
        if mine:
            lines.append(tr("triad.label.your_hand"))
            for face in mine:  # (a loop: no generator per payload)
                lines.append(f"• {face_text(face, tr)}")
            lines.append(tr("triad.ui.values_legend"))  # what "[3-5-4-3]" means
        if view.hands_open:
            for seat in view.seats:
                if seat != view.seat:
                    open_cards = [f for f in view.hands.get(seat, []) if f is not None]
                    if open_cards:
                        lines.append(tr("triad.ui.open_hand"))
                        lines.extend(f"• {face_text(f, tr)}" for f in open_cards)
        return lines

    def outcome_lines(self, outcome: Outcome, names: SeatNames, tr: Translator) -> list[str]:
        if not isinstance(outcome, TriadOutcome):
            return []
        scores = outcome.scores
        seats = list(scores)
        winner = outcome.winner
        lines = [
            " — ".join(
                f"{SEAT_EMOJI[i % 2]} {names(s)} **{scores[s]}**" for i, s in enumerate(seats)
            )
        ]
        lines.append(
            tr("triad.ui.winner", player=names(winner)) if winner else tr("triad.label.draw")
        )
        for t in outcome.transfers:
            lines.append(
                tr(
                    "triad.ui.transfer",
                    card=card_name(t.card, tr),
                    to=names(t.receiver),
                    source=names(t.giver),
                )
            )
        if not outcome.transfers:
            lines.append(tr("triad.ui.no_transfer"))
        return lines


# The same in every private payload with choices: written once per language.
@per_language(maxsize=4)
def _group_placeholders(tr: Translator) -> dict[str, str]:
    return {"pick": tr("triad.ui.pick_placeholder")}
