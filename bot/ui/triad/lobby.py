"""Triple Triad before and beside the game, as Discord shows it: the challenge lobby, the
5-card picker, /cards and /profile. The lobby's state and rules are the table service's
(``bot/service/triad.py``); this module only builds payloads, with the items of
``bot.ui.triad.items``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord

from bot.i18n import Translator
from bot.service import Table, TableService
from bot.service.triad import accepted, lobby_state, pending_opponent
from bot.ui import v2
from bot.ui.layout import OPTION_TEXT
from bot.ui.messages import rules_button, seat_names
from bot.ui.payload import Payload
from bot.ui.text import clip
from bot.ui.triad.items import CardsPageButton, TriadButton, TriadSelect
from bot.ui.triad.text import SEAT_EMOJI, card_summary, rules_text
from games.triad.cards import HAND_SIZE, card

PAGE_SIZE = 10  # cards per picker / collection page (one select of at most 25 options)


# ----- collection pages -----------------------------------------------------------------------
def sorted_collection(cards: Mapping[str, int]) -> list[str]:
    """A collection's card ids in picker order: strongest level first, then catalogue id."""
    return sorted((c for c, q in cards.items() if q > 0), key=lambda c: (-card(c).level, c))


def pages_of(count: int) -> int:
    return max(1, -(-count // PAGE_SIZE))


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
    card_ = v2.Card(  # the table's message: Components V2, as the table it becomes
        title=tr("lobby.title", game=tr("triad.name"), table=table.id),
        colour=v2.LOBBY,
        text="\n".join(lines),
        footer=tr("lobby.footer", seconds=service.turn_seconds(table)),
    )
    style = discord.ButtonStyle
    shown: list[tuple[str, str, discord.ButtonStyle]] = []  # (op, label, style)
    if not accepted(table):
        shown.append(("accept", tr("triad.ui.accept"), style.success))
        if opponent:
            shown.append(("decline", tr("triad.ui.decline"), style.danger))
    elif not options.random_hand:
        shown.append(("cards", tr("triad.ui.pick_cards"), style.primary))
    shown.append(("cancel", tr("lobby.cancel"), style.secondary))
    buttons: list[discord.ui.Item[Any]] = [
        TriadButton(table.id, op, label=label, style=look) for op, label, look in shown
    ]
    buttons.append(rules_button(table.id, tr))
    card_.items = buttons
    return Payload(view=v2.card_view(card_))


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
    lines = [tr("triad.ui.picker_help", total=HAND_SIZE), tr("triad.ui.values_legend")]
    for cid in shown:
        chosen = picks.count(cid)
        mark = " " + tr("triad.ui.selected_mark", count=chosen) if chosen else ""
        lines.append(f"• {card_summary(cid, tr)} · ×{cards[cid]}{mark}")
    selection = "\n".join(f"{i}. {card_summary(c, tr)}" for i, c in enumerate(picks, 1))
    card_ = v2.Card(  # a private view: Components V2, as the hands
        title=tr("triad.ui.picker_title", table=table_id),
        colour=v2.LOBBY,
        text="\n".join(lines),
        parts=[
            (
                tr("triad.ui.selected", count=len(picks), total=HAND_SIZE),
                selection or tr("triad.ui.none_selected"),
            )
        ],
        footer=tr("triad.ui.page", page=page + 1, pages=pages),
    )
    items: list[discord.ui.Item[Any]] = []
    if ready:
        card_.parts.append((tr("triad.ui.ready"), tr("triad.ui.ready_wait")))
        return Payload(view=v2.card_view(card_))
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
    card_.items = items
    return Payload(view=v2.card_view(card_))


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


# ----- /cards ---------------------------------------------------------------------------------
def cards_payload(
    user_id: str, who: str, cards: Mapping[str, int], page: int, tr: Translator
) -> Payload:
    order = sorted_collection(cards)
    pages = pages_of(len(order))
    page = min(max(page, 0), pages - 1)
    shown = order[page * PAGE_SIZE : (page + 1) * PAGE_SIZE]
    lines = [f"• {card_summary(c, tr)} · ×{cards[c]}" for c in shown]
    card_ = v2.Card(
        title=tr(
            "triad.ui.cards_title", player=who, count=sum(cards.values()), distinct=len(order)
        ),
        colour=v2.LOBBY,
        text="\n".join(lines) or tr("triad.ui.no_cards"),
        footer=tr("triad.ui.page", page=page + 1, pages=pages),
    )
    items: list[discord.ui.Item[Any]] = []
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
    card_.items = items
    return Payload(view=v2.card_view(card_))
