"""Triple Triad before and beside the game, as Discord shows it: the challenge lobby, the
5-card picker, /cards and /profile. The lobby's state and rules are the table service's
(``bot/service/triad.py``); this module only builds payloads and items.

custom_ids (DynamicItems, routed to ``TriadCog``):
- ``tt:{table}:{op}`` lobby and picker buttons: ``accept``, ``decline``, ``cards`` (open my
  picker), ``cancel``, ``pg{n}`` (picker page), ``clr`` (clear), ``ok`` (confirm the five);
- ``tts:{table}:{op}`` picker selects: ``add{page}`` (add one copy), ``rm{page}`` (remove one copy);
- ``tk:{user}:{page}`` pages of ``/cards``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

import discord
from discord.ext import commands

from bot.i18n import Translator
from bot.service.triad import accepted, lobby_state, pending_opponent
from bot.ui.feedback import answer_error
from bot.ui.layout import BUTTON_LABEL, OPTION_TEXT
from bot.ui.messages import Payload, _view, rules_button, seat_names
from bot.ui.presenters.triad import SEAT_EMOJI, card_summary, rules_text
from bot.ui.text import clip
from games.triad.cards import HAND_SIZE, card

if TYPE_CHECKING:
    from bot.service import Table, TableService

PAGE_SIZE = 10  # cards per picker / collection page (one select of at most 25 options)

LOBBY_BUTTON = r"tt:(?P<table>[0-9]{1,12}):(?P<op>accept|decline|cards|cancel|clr|ok|pg[0-9]{1,3})"
PICKER_MENU = r"tts:(?P<table>[0-9]{1,12}):(?P<op>(?:rm|add)[0-9]{1,3})"
CARDS_BUTTON = r"tk:(?P<user>[0-9]{1,20}):(?P<page>[0-9]{1,3})"


# ----- collection pages -----------------------------------------------------------------------
def sorted_collection(cards: Mapping[str, int]) -> list[str]:
    """A collection's card ids in picker order: strongest level first, then catalogue id."""
    return sorted((c for c, q in cards.items() if q > 0), key=lambda c: (-card(c).level, c))


def pages_of(count: int) -> int:
    return max(1, -(-count // PAGE_SIZE))


# ----- items ----------------------------------------------------------------------------------
def _cog(interaction: discord.Interaction) -> Any:
    return cast(commands.Bot, interaction.client).get_cog("TriadCog")


async def _guarded(interaction: discord.Interaction, work: Any) -> None:
    try:
        await work
    except Exception as exc:  # noqa: BLE001 - answered, never swallowed
        await answer_error(interaction, exc, "triad")


class TriadButton(discord.ui.DynamicItem[discord.ui.Button], template=LOBBY_BUTTON):
    def __init__(
        self,
        table_id: int,
        op: str,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        disabled: bool = False,
        row: int | None = None,
    ):
        self.table_id = table_id
        self.op = op
        super().__init__(
            discord.ui.Button(
                label=clip(label, BUTTON_LABEL) if label else None,
                style=style,
                emoji=emoji,
                disabled=disabled,
                row=row,
                custom_id=f"tt:{table_id}:{op}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TriadButton:
        label = item.label if isinstance(item, discord.ui.Button) else None
        return cls(int(match["table"]), match["op"], label=label)

    async def callback(self, interaction: discord.Interaction) -> Any:
        await _guarded(
            interaction, _cog(interaction).on_button(interaction, self.table_id, self.op)
        )


class TriadSelect(discord.ui.DynamicItem[discord.ui.Select], template=PICKER_MENU):
    def __init__(
        self,
        table_id: int,
        op: str,
        *,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        row: int | None = None,
    ):
        self.table_id = table_id
        self.op = op
        super().__init__(
            discord.ui.Select(
                custom_id=f"tts:{table_id}:{op}",
                options=options or [discord.SelectOption(label="-")],
                placeholder=clip(placeholder, 150) if placeholder else None,
                row=row,
                min_values=1,
                max_values=1,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TriadSelect:
        options = list(item.options) if isinstance(item, discord.ui.Select) else None
        return cls(int(match["table"]), match["op"], options=options)

    async def callback(self, interaction: discord.Interaction) -> Any:
        data = cast(dict[str, Any], interaction.data or {})
        values = [str(v) for v in data.get("values") or []]
        await _guarded(
            interaction, _cog(interaction).on_select(interaction, self.table_id, self.op, values)
        )


class CardsPageButton(discord.ui.DynamicItem[discord.ui.Button], template=CARDS_BUTTON):
    def __init__(
        self,
        user_id: str,
        page: int,
        *,
        label: str | None = None,
        emoji: str | None = None,
        disabled: bool = False,
    ):
        self.user_id = user_id
        self.page = page
        super().__init__(
            discord.ui.Button(
                label=label,
                emoji=emoji,
                disabled=disabled,
                style=discord.ButtonStyle.secondary,
                custom_id=f"tk:{user_id}:{page}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> CardsPageButton:
        label = item.label if isinstance(item, discord.ui.Button) else None
        return cls(match["user"], int(match["page"]), label=label)

    async def callback(self, interaction: discord.Interaction) -> Any:
        await _guarded(
            interaction, _cog(interaction).on_cards_page(interaction, self.user_id, self.page)
        )


ITEMS = (TriadButton, TriadSelect, CardsPageButton)


# ----- the lobby message ----------------------------------------------------------------------
def lobby_payload(table: Table, service: TableService, tr: Translator) -> Payload:
    record = table.record
    names = seat_names(table, tr)
    state = lobby_state(table)
    options = table.game.parse_options(service.game_options(table))
    host = record.host_id
    opponent = pending_opponent(table)
    others = [s for s in record.seats if s.id != host]
    if others:
        rival = names(others[0].id)
    elif opponent:
        rival = f"<@{opponent}>"
    else:
        rival = tr("triad.ui.anyone")
    lines = [tr("triad.ui.challenge", host=names(host), rival=rival), ""]
    lines.append(
        tr(
            "triad.ui.rules_line",
            rules=rules_text(options, tr),
            payout=tr(f"triad.payout.{options.payout}"),
        )
    )
    lines.append(tr(f"triad.option.payout.{options.payout}"))
    if accepted(table):
        lines.append("")
        for i, seat in enumerate(record.seats):
            if seat.is_cpu:
                status = tr("triad.ui.cpu_deck")
            elif options.random_hand:
                status = tr("triad.ui.random_hand")
            elif seat.id in state.ready:
                status = tr("triad.ui.ready")
            else:
                status = tr(
                    "triad.ui.choosing", count=len(state.picks.get(seat.id, [])), total=HAND_SIZE
                )
            lines.append(f"{SEAT_EMOJI[i % 2]} {names(seat.id)} — {status}")
    else:
        lines += ["", tr("triad.ui.waiting_accept", player=rival)]
    embed = discord.Embed(
        title=tr("lobby.title", game=tr("triad.name"), table=table.id),
        description=clip("\n".join(lines), 4096),
        colour=discord.Colour.blurple(),
    )
    embed.set_footer(text=tr("lobby.footer", seconds=service.turn_seconds(table)))
    buttons: list[discord.ui.Item] = []
    if not accepted(table):
        buttons.append(
            TriadButton(
                table.id, "accept", label=tr("triad.ui.accept"), style=discord.ButtonStyle.success
            )
        )
        if opponent:
            buttons.append(
                TriadButton(
                    table.id,
                    "decline",
                    label=tr("triad.ui.decline"),
                    style=discord.ButtonStyle.danger,
                )
            )
    elif not options.random_hand:
        buttons.append(
            TriadButton(
                table.id,
                "cards",
                label=tr("triad.ui.pick_cards"),
                style=discord.ButtonStyle.primary,
            )
        )
    buttons.append(TriadButton(table.id, "cancel", label=tr("lobby.cancel")))
    buttons.append(rules_button(table.id, tr))
    return Payload(embeds=[embed], view=_view(buttons))


# ----- the 5-card picker ----------------------------------------------------------------------
def picker_payload(
    table_id: int,
    cards: Mapping[str, int],
    picks: list[str],
    page: int,
    ready: bool,
    tr: Translator,
) -> Payload:
    """A player's picker: one page of their collection (name, level, element, values,
    quantity, how many selected), an "add" select for that page, a "remove" select of the
    selection, page arrows, Clear and Confirm."""
    order = sorted_collection(cards)
    pages = pages_of(len(order))
    page = min(max(page, 0), pages - 1)
    shown = order[page * PAGE_SIZE : (page + 1) * PAGE_SIZE]
    lines = [tr("triad.ui.picker_help", total=HAND_SIZE)]
    for cid in shown:
        chosen = picks.count(cid)
        mark = " " + tr("triad.ui.selected_mark", count=chosen) if chosen else ""
        lines.append(f"• {card_summary(cid, tr)} · ×{cards[cid]}{mark}")
    embed = discord.Embed(
        title=tr("triad.ui.picker_title", table=table_id),
        description=clip("\n".join(lines), 4096),
        colour=discord.Colour.blurple(),
    )
    selection = "\n".join(f"{i}. {card_summary(c, tr)}" for i, c in enumerate(picks, 1))
    embed.add_field(
        name=tr("triad.ui.selected", count=len(picks), total=HAND_SIZE),
        value=clip(selection or tr("triad.ui.none_selected"), 1024),
        inline=False,
    )
    embed.set_footer(text=tr("triad.ui.page", page=page + 1, pages=pages))
    items: list[discord.ui.Item] = []
    if ready:
        embed.add_field(name=tr("triad.ui.ready"), value=tr("triad.ui.ready_wait"), inline=False)
        return Payload(embeds=[embed], view=None)
    addable = [c for c in shown if picks.count(c) < cards[c]]
    if len(picks) < HAND_SIZE and addable:
        items.append(
            TriadSelect(
                table_id,
                f"add{page}",
                row=0,
                placeholder=tr("triad.ui.add_placeholder"),
                options=[_option(c, cards[c] - picks.count(c), tr) for c in addable],
            )
        )
    if picks:
        distinct = list(dict.fromkeys(picks))
        items.append(
            TriadSelect(
                table_id,
                f"rm{page}",
                row=1,
                placeholder=tr("triad.ui.remove_placeholder"),
                options=[_option(c, picks.count(c), tr) for c in distinct],
            )
        )
    if pages > 1:
        items.append(
            TriadButton(table_id, f"pg{max(page - 1, 0)}", emoji="◀", row=2, disabled=page == 0)
        )
        items.append(
            TriadButton(
                table_id,
                f"pg{min(page + 1, pages - 1)}",
                emoji="▶",
                row=2,
                label=tr("triad.ui.page", page=page + 1, pages=pages),
                disabled=page >= pages - 1,
            )
        )
    items.append(
        TriadButton(table_id, "clr", label=tr("triad.ui.clear"), row=2, disabled=not picks)
    )
    items.append(
        TriadButton(
            table_id,
            "ok",
            row=2,
            style=discord.ButtonStyle.success,
            label=tr("triad.ui.confirm", count=len(picks), total=HAND_SIZE),
            disabled=len(picks) != HAND_SIZE,
        )
    )
    return Payload(embeds=[embed], view=_view(items))


def _option(card_id: str, count: int, tr: Translator) -> discord.SelectOption:
    c = card(card_id)
    element = tr(f"triad.element.{c.element}") if c.element else tr("triad.element.none")
    return discord.SelectOption(
        label=clip(tr(f"triad.card.{card_id}"), OPTION_TEXT),
        value=card_id,
        description=clip(
            tr(
                "triad.ui.option_description",
                level=tr("triad.label.level", level=c.level),
                element=element,
                values="-".join("A" if v == 10 else str(v) for v in c.edges),
                count=count,
            ),
            OPTION_TEXT,
        ),
    )


# ----- /cards and /profile --------------------------------------------------------------------
def cards_payload(
    user_id: str, who: str, cards: Mapping[str, int], page: int, tr: Translator
) -> Payload:
    order = sorted_collection(cards)
    pages = pages_of(len(order))
    page = min(max(page, 0), pages - 1)
    shown = order[page * PAGE_SIZE : (page + 1) * PAGE_SIZE]
    lines = [f"• {card_summary(c, tr)} · ×{cards[c]}" for c in shown]
    embed = discord.Embed(
        title=tr(
            "triad.ui.cards_title", player=who, count=sum(cards.values()), distinct=len(order)
        ),
        description=clip("\n".join(lines) or tr("triad.ui.no_cards"), 4096),
        colour=discord.Colour.blurple(),
    )
    embed.set_footer(text=tr("triad.ui.page", page=page + 1, pages=pages))
    items: list[discord.ui.Item] = []
    if pages > 1:
        items = [
            CardsPageButton(user_id, max(page - 1, 0), emoji="◀", disabled=page == 0),
            CardsPageButton(
                user_id,
                min(page + 1, pages - 1),
                emoji="▶",
                label=tr("triad.ui.page", page=page + 1, pages=pages),
                disabled=page >= pages - 1,
            ),
        ]
    return Payload(embeds=[embed], view=_view(items))


def profile_payload(
    who: str, triad: dict[str, int], others: list[tuple[str, int, int]], tr: Translator
) -> Payload:
    """``triad``: played, won, drawn, lost, cards_won, cards_lost, cards (owned);
    ``others``: (game name, won, played) per other game."""
    embed = discord.Embed(
        title=tr("triad.ui.profile_title", player=who), colour=discord.Colour.gold()
    )
    embed.add_field(
        name=tr("triad.name"), inline=False, value=tr("triad.ui.profile_triad", **triad)
    )
    if others:
        embed.add_field(
            name=tr("triad.ui.profile_others"),
            inline=False,
            value=clip(
                "\n".join(
                    tr("triad.ui.profile_game", game=g, won=w, played=p) for g, w, p in others
                ),
                1024,
            ),
        )
    return Payload(embeds=[embed])
