"""Ce Amapatolli on Discord: cards as colour pairs, call-outs on the public message."""

from __future__ import annotations

import discord

from bot.i18n import Translator
from bot.ui.layout import Choice
from bot.ui.presenter import GamePresenter, SeatNames
from games.core import Action

COLOUR_EMOJI = {"white": "⬜", "red": "🟥", "black": "⬛", "blue": "🟦"}


def card_text(card) -> str:
    """``⬜🟥 Mázatl 7``: margin and background as squares, then sign and number."""
    if card.wild:
        return f"{COLOUR_EMOJI[card.margin]} {card.name}"
    return f"{COLOUR_EMOJI[card.margin]}{COLOUR_EMOJI[card.background]} {card.name} {card.value}"


class Presenter(GamePresenter):
    colour = discord.Colour.from_rgb(196, 120, 48)

    def _card(self, view, card_id: str):
        for card in getattr(view, "hand", []):
            if card.id == card_id:
                return card
        return None

    def choice(self, action: Action, view, names: SeatNames, tr: Translator) -> Choice:
        kind = action.kind  # type: ignore[attr-defined]
        if kind == "play":
            card = self._card(view, action.card)  # type: ignore[attr-defined]
            text = card_text(card) if card else action.card  # type: ignore[attr-defined]
            if action.colour:  # type: ignore[attr-defined]
                colour = tr(f"amapatolli.ui.colour.{action.colour}")  # type: ignore[attr-defined]
                return Choice(
                    action=action.encode(),
                    label=tr("amapatolli.ui.play_wild", card=text, colour=colour),
                    group="wild",
                    emoji=COLOUR_EMOJI[action.colour],  # type: ignore[attr-defined]
                    style=discord.ButtonStyle.primary,
                )
            return Choice(action=action.encode(), label=text, group="play",
                          style=discord.ButtonStyle.success)
        if kind == "callout":
            target = view.seats[action.target]  # type: ignore[attr-defined]
            return Choice(action=action.encode(), group="callout",
                          label=tr("amapatolli.ui.callout", player=names(target)),
                          style=discord.ButtonStyle.danger)
        styles = {"announce": discord.ButtonStyle.danger, "draw": discord.ButtonStyle.primary}
        return Choice(action=action.encode(), label=tr(f"amapatolli.ui.action.{kind}"),
                      group="turn", style=styles.get(kind, discord.ButtonStyle.secondary))

    def is_public_action(self, action: Action) -> bool:
        return getattr(action, "kind", None) == "callout"

    def group_placeholders(self, tr: Translator) -> dict[str, str]:
        return {"play": tr("amapatolli.ui.pick_card"), "wild": tr("amapatolli.ui.pick_wild")}

    def status_lines(self, view, names: SeatNames, tr: Translator) -> list[str]:
        lines = [tr("amapatolli.ui.top", card=card_text(view.top))]
        if view.named_colour:
            lines.append(tr("amapatolli.ui.named_colour",
                            colour=tr(f"amapatolli.ui.colour.{view.named_colour}")))
        lines.append(tr("amapatolli.ui.direction_cw" if view.direction == 1
                        else "amapatolli.ui.direction_ccw"))
        lines.append(tr("amapatolli.ui.stock", count=view.stock_count))
        if view.skip_pending and view.turn:
            lines.append(tr("amapatolli.ui.skip_pending", player=names(view.turn)))
        if view.double_play and view.turn:
            lines.append(tr("amapatolli.ui.double_play", player=names(view.turn)))
        return lines

    def seat_line(self, view, seat: str, names: SeatNames, tr: Translator) -> str:
        line = tr("amapatolli.ui.seat", player=names(seat), count=view.hand_counts.get(seat, 0))
        if view.announced.get(seat) and view.hand_counts.get(seat) == 1:
            line += " " + tr("amapatolli.ui.said_ce")
        if view.hand_values is not None:
            line += " " + tr("amapatolli.ui.hand_value", value=view.hand_values.get(seat, 0))
        return line

    def private_lines(self, view, tr: Translator) -> list[str]:
        lines = [tr("amapatolli.ui.top", card=card_text(view.top))]
        if view.hand:
            lines.append(tr("amapatolli.ui.your_hand", count=len(view.hand)))
            lines.extend(f"• {card_text(c)}" + (" ✅" if c.id in view.playable else "")
                         for c in view.hand)
        return lines
