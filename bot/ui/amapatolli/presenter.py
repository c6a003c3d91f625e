"""Ce Amapatolli on Discord: cards as colour pairs, call-outs on the public message."""

from __future__ import annotations

import discord

from bot.i18n import BoundTranslator, Translator, per_language
from bot.ui.amapatolli.text import COLOUR_EMOJI, card_text
from bot.ui.layout import Choice
from bot.ui.presenter import GamePresenter, SeatNames
from games.amapatolli.actions import AmapatolliAction, Catch, Play
from games.amapatolli.view import AmapatolliView, CardView
from games.core import Event, Game

# A card's text kept with the card it was written of, by its id.
KeptTexts = dict[str, tuple[CardView, str]]


class Presenter(GamePresenter[AmapatolliView, AmapatolliAction]):
    colour = discord.Colour.from_rgb(196, 120, 48)

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        # Per language, every card's ``card_text`` as written last, by the card's id, with the
        # card itself: a view's cards are the shared ``card_views`` objects, so a move's hand
        # lines and buttons (~10 texts) find theirs by one lookup and an ``is``, not by the
        # five fields ``card_text`` reads and hashes (issue 29). At most the deck's 84 ids a
        # language.
        self._card_texts: dict[str, KeptTexts] = {}
        # ... and the top card's line (``amapatolli.ui.top``), the same in the public message
        # and every hand of a move, kept the same way.
        self._top_lines: dict[str, KeptTexts] = {}

    def _kept_texts(self, tr: Translator, texts: dict[str, KeptTexts] | None = None) -> KeptTexts:
        """The card texts (or the ``texts`` given) kept for ``tr``'s language; for another
        translator (a test's stub: nothing to key it by), a dict of this call's own."""
        if type(tr) is not BoundTranslator:
            return {}
        per_locale = self._card_texts if texts is None else texts
        kept = per_locale.get(tr.locale)
        if kept is None:
            kept = per_locale[tr.locale] = {}
        return kept

    def _top_line(self, card: CardView, tr: Translator) -> str:
        """The top card's line, read from the kept lines while written of this very card."""
        kept = self._kept_texts(tr, self._top_lines)
        entry = kept.get(card.id)
        if entry is not None and entry[0] is card:
            return entry[1]
        line = tr("amapatolli.ui.top", card=self._card_text(card, tr, self._kept_texts(tr)))
        kept[card.id] = (card, line)
        return line

    def _card_text(self, card: CardView, tr: Translator, kept: KeptTexts) -> str:
        """``card_text(card, tr)``, read from ``kept`` while written of this very card."""
        entry = kept.get(card.id)
        if entry is not None and entry[0] is card:
            return entry[1]
        text = card_text(card, tr)
        kept[card.id] = (card, text)
        return text

    def choice(
        self, action: AmapatolliAction, view: AmapatolliView, names: SeatNames, tr: Translator
    ) -> Choice:
        if isinstance(action, Play):
            text = action.card  # (a card not in the hand: its id)
            for card in view.hand:  # (a loop: no generator per button)
                if card.id == text:
                    text = self._card_text(card, tr, self._kept_texts(tr))
                    break
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
        return _group_placeholders(tr)

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
        lines = [self._top_line(view.top, tr)]
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
        line = f"{names(seat)} — {_cards_held(count, tr)}"
        if view.announced.get(seat) and count == 1:
            line += " · " + tr("amapatolli.table.announced")
        if view.hand_values is not None:
            line += " · " + tr("amapatolli.table.hand_value", value=view.hand_values.get(seat, 0))
        return line

    def private_lines(self, view: AmapatolliView, tr: Translator) -> list[str]:
        kept = self._kept_texts(tr)
        lines = [self._top_line(view.top, tr)]
        hand = view.hand
        if hand:
            lines.append(_hand_title(len(hand), tr))
            playable = view.playable
            for card in hand:
                text = self._card_text(card, tr, kept)
                lines.append(f"• {text} ✅" if card.id in playable else f"• {text}")
        return lines


# The same in every private payload with choices: written once per language.
@per_language(maxsize=4)
def _group_placeholders(tr: Translator) -> dict[str, str]:
    return {"play": tr("amapatolli.ui.pick_card"), "wild": tr("amapatolli.ui.pick_wild")}


# A seat's card count (every seat's line of every public message) and a hand's title (every
# hand): a few counts, the same from one move to the next; written once per count and language
# (a text with parameters costs ~3x a kept one's lookup, issue 29).
@per_language(maxsize=256)
def _cards_held(count: int, tr: Translator) -> str:
    if count == 1:
        return tr("amapatolli.table.cards_one")
    return tr("amapatolli.table.cards", count=count)


@per_language(maxsize=256)
def _hand_title(count: int, tr: Translator) -> str:
    return tr("amapatolli.hand.title", count=count) + " · " + tr("amapatolli.ui.playable_mark")
