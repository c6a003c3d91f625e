"""Ce Amapatolli on Discord: cards as colour pairs, call-outs on the public message."""

from __future__ import annotations

import discord

from bot.i18n import Translator
from bot.ui.amapatolli.text import COLOUR_EMOJI, card_text
from bot.ui.layout import Choice
from bot.ui.presenter import GamePresenter, SeatNames
from games.amapatolli.actions import AmapatolliAction, Catch, Play
from games.amapatolli.view import AmapatolliView
from games.core import Event


class Presenter(GamePresenter[AmapatolliView, AmapatolliAction]):
    colour = discord.Colour.from_rgb(196, 120, 48)

    def choice(
        self, action: AmapatolliAction, view: AmapatolliView, names: SeatNames, tr: Translator
    ) -> Choice:
        if isinstance(action, Play):
            card = next((c for c in view.hand if c.id == action.card), None)
            text = card_text(card, tr) if card else action.card
            colour = action.colour
            if colour:
                return Choice(
                    action=action.encode(),
                    label=tr(
                        "amapatolli.action.play_wild",
                        card=text,
                        colour=tr(f"amapatolli.colour.{colour}"),
                    ),
                    group="wild",
                    emoji=COLOUR_EMOJI[colour],
                    style=discord.ButtonStyle.primary,
                )
            key = "amapatolli.action.play_answer" if view.skip_pending else "amapatolli.action.play"
            return Choice(
                action=action.encode(),
                label=tr(key, card=text),
                group="play",
                style=discord.ButtonStyle.success,
            )
        if isinstance(action, Catch):
            target = view.seats[action.target]
            return Choice(
                action=action.encode(),
                group="catch",
                label=tr("amapatolli.action.catch", target=names(target)),
                style=discord.ButtonStyle.danger,
            )
        kind = getattr(action, "kind", "")
        styles = {"announce": discord.ButtonStyle.danger, "draw": discord.ButtonStyle.primary}
        return Choice(
            action=action.encode(),
            label=tr(f"amapatolli.action.{kind}"),
            group="turn",
            style=styles.get(kind, discord.ButtonStyle.secondary),
        )

    def is_public_action(self, action: AmapatolliAction) -> bool:
        return isinstance(action, Catch)

    def group_placeholders(self, tr: Translator) -> dict[str, str]:
        return {"play": tr("amapatolli.ui.pick_card"), "wild": tr("amapatolli.ui.pick_wild")}

    def event_text(self, event: Event, names: SeatNames, tr: Translator) -> str | None:
        if event.code == "played" and event.params.get("answer"):  # a bird answering a bird
            return tr("amapatolli.event.played_answer", player=names(event.seat), **event.params)
        if "colour" in event.params:
            event = event.model_copy(
                update={
                    "params": {
                        **event.params,
                        "colour": tr(f"amapatolli.colour.{event.params['colour']}"),
                    }
                }
            )
        return super().event_text(event, names, tr)

    def status_lines(self, view: AmapatolliView, names: SeatNames, tr: Translator) -> list[str]:
        lines = [tr("amapatolli.ui.top", card=card_text(view.top, tr))]
        if view.named_colour:
            lines.append(
                tr("amapatolli.table.named", colour=tr(f"amapatolli.colour.{view.named_colour}"))
            )
        lines.append(tr(f"amapatolli.table.direction.{'cw' if view.direction == 1 else 'ccw'}"))
        lines.append(tr("amapatolli.table.stock", count=view.stock_count))
        if view.skip_pending and view.turn:
            lines.append("🐦 " + tr("amapatolli.table.skip_pending", player=names(view.turn)))
        if view.double_play and view.turn:
            lines.append("✨ " + tr("amapatolli.table.double_play", player=names(view.turn)))
        return lines

    def seat_line(self, view: AmapatolliView, seat: str, names: SeatNames, tr: Translator) -> str:
        count = view.hand_counts.get(seat, 0)
        cards = (
            tr("amapatolli.table.cards_one")
            if count == 1
            else tr("amapatolli.table.cards", count=count)
        )
        line = f"{names(seat)} — {cards}"
        if view.announced.get(seat) and count == 1:
            line += " · " + tr("amapatolli.table.announced")
        if view.hand_values is not None:
            line += " · " + tr("amapatolli.table.hand_value", value=view.hand_values.get(seat, 0))
        return line

    def private_lines(self, view: AmapatolliView, tr: Translator) -> list[str]:
        lines = [tr("amapatolli.ui.top", card=card_text(view.top, tr))]
        if view.hand:
            lines.append(
                tr("amapatolli.hand.title", count=len(view.hand))
                + " · "
                + tr("amapatolli.ui.playable_mark")
            )
            lines.extend(
                f"• {card_text(c, tr)}" + (" ✅" if c.id in view.playable else "")
                for c in view.hand
            )
        return lines
