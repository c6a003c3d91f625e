"""Message payloads: the lobby, the public table message and a player's private view."""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Sequence
from functools import lru_cache
from typing import Any

import discord

from bot.i18n import DEFAULT_LOCALE, BoundTranslator, Translator, fresh, translator
from bot.service import Table, TableService
from bot.service.guild_settings import SERVER_DEFAULTS
from bot.service.seats import reclaimable
from bot.ui import items, rendering, v2
from bot.ui.alt_text import describe
from bot.ui.fairness import commitment_line
from bot.ui.feedback import reply
from bot.ui.layout import Choice, build_layout, check_limits
from bot.ui.payload import BufferFile, Payload, edit_followup, update_clicked
from bot.ui.payload_memos import KnownNames
from bot.ui.presenter import GamePresenter, SeatNames
from bot.ui.ratings_view import shown_rating
from bot.ui.rendering import ImageRequest
from bot.ui.rules import RULES_EMOJI
from bot.ui.seats import seat_buttons
from bot.ui.settings_view import server_defaults_line
from bot.ui.text import clip
from games.core import Event, PlayerView
from storage import RATING_CHANGES_META, SeatInfo

EVENTS_SHOWN = 6
# Alt texts kept by their image's digest: an image unchanged since the message's last edit (half
# of a busy bot's table edits) is described again at every edit otherwise; the oldest goes first.
ALT_TEXTS_KEPT = 2048


async def finish(
    payload: Payload,
    shown: str | None = None,
    wanted: Callable[[], bool] | None = None,
    *,
    first: bool = True,
    place: Hashable | None = None,
) -> str | None:
    """Draw the payload's image (off the event loop, reused while unchanged) and attach it.
    Returns the image's digest; when the message being edited already shows that image
    (``shown``), nothing is drawn or uploaded. ``rendering.Superseded`` when ``wanted()`` is
    false by the time a worker could draw it. ``first`` and ``place``: its place in the render
    queue (``Renderer.render``; a slot's worker says, an answer to a click goes first)."""
    request = payload.image
    if request is None:
        return None
    digest = request.digest
    if shown == digest:
        payload.keep_image = True
        v2.describe_image(payload.view, request.filename, _alt_text(request, digest))
        return digest
    if any(f.filename == request.filename for f in payload.files):
        return digest  # attached already
    data = await rendering.renderer().render(request, wanted, first=first, place=place)
    if not data:
        for embed in payload.embeds:
            if embed.image and embed.image.url == f"attachment://{request.filename}":
                embed.set_image(url=None)
        v2.drop_image(payload.view, request.filename)
        return None
    alt = _alt_text(request, digest, rendering.renderer().description(digest))
    payload.files.append(_png(data, request.filename, alt))
    v2.describe_image(payload.view, request.filename, alt)
    return digest


def _alt_text(request: ImageRequest, digest: str, drawn: str | None = None) -> str:
    """``describe(request)``, kept by the image's ``digest``: one image has one description,
    built from what it draws only (``bot/ui/alt_text.py``; ``tests/bot/test_alt_text.py``);
    ``drawn``: the one the render worker wrote with the image (then not written here)."""
    kept = _ALT_TEXTS
    text = kept.get(digest)
    if text is None:
        if len(kept) >= ALT_TEXTS_KEPT:
            del kept[next(iter(kept))]
        text = kept[digest] = drawn if drawn is not None else describe(request)
    return text


# A cache, as the catalogues' (``bot.i18n``): image digest -> alt text, bounded.
_ALT_TEXTS: dict[str, str] = {}


async def answer_with(interaction: discord.Interaction, payload: Payload, *, fresh: bool) -> None:
    """Show ``payload`` to the clicking user: a new ephemeral message (``fresh``), an update of
    the clicked message (when the click is not answered yet) or an edit of the message the
    interaction came from, falling back to a new one if the edit fails."""
    await finish(payload)
    try:
        if not fresh and not interaction.response.is_done():
            try:
                await update_clicked(interaction, payload.edit_kwargs())
                return
            except discord.HTTPException:
                pass  # e.g. an expired token: a new message still shows it
        if not fresh:
            try:
                # not read back: not parsed either (``bot/ui/payload.py``)
                await edit_followup(interaction, 0, payload.edit_kwargs(), ref="@original")
                return
            except discord.HTTPException:
                pass  # e.g. an expired token: a new message still shows it
        await reply(interaction, **payload.send_kwargs())
    finally:
        if payload.view is not None:
            payload.view.stop()  # dynamic items route the clicks; keep the view store empty


def seat_names(table: Table, tr: Translator, known: KnownNames | None = None) -> SeatNames:
    """Seat -> the name players read (an id that is no seat of the table: the id itself).
    Every seat's name is worked out once per table, language and seats when ``known`` (a
    bot's: ``presenter.memos.names``) keeps them: a payload asks for them many times (its
    lines, events, buttons and image), and every move's payloads ask for the same ones.
    Without, they are worked out for this call (a rare one: a lobby, a replay, a result)."""
    seats = table.record.seats
    locale = getattr(tr, "locale", None)
    if known is None or locale is None:  # nothing to keep them in, or to key them by
        into = _names_of(seats, tr)
    else:
        kept = known.get(table.id, locale, seats)
        into = (
            kept if kept is not None else known.keep(table.id, locale, seats, _names_of(seats, tr))
        )
    # The dict's own lookup (``_SeatNameMap``: None and a stranger's id read too): a name
    # asked for ~16 times a move costs no Python call.
    return into.__getitem__  # type: ignore[return-value]


class _SeatNameMap(dict[str, str]):
    """Seat -> name; read as ``names[seat]``, an id that is no seat reads as itself and None
    (nobody) as "—"."""

    __slots__ = ()

    def __missing__(self, seat: str | None) -> str:
        return "—" if seat is None else seat


def _names_of(seats: list[SeatInfo], tr: Translator) -> dict[str, str]:
    into: dict[str, str] = _SeatNameMap()
    for info in seats:
        if info.id in into:
            continue  # (the first seat of an id names it, as ``Table.seat`` finds it)
        if info.cpu_level is not None:
            level = tr(f"level.{info.cpu_level}")
            into[info.id] = tr("seat.cpu_name", name=info.name, level=level)
        else:
            into[info.id] = info.name
    return into


def _view(items_: Sequence[discord.ui.Item[Any]]) -> discord.ui.View | None:
    """A classic view (the Triad challenge's ephemeral pickers and /cards)."""
    if not items_:
        return None
    view = discord.ui.View(timeout=v2.UNTIMED)
    for item in items_:
        view.add_item(item)
    check_limits(view)
    return view


def _payload(card: v2.Card, image: ImageRequest | None = None) -> Payload:
    """A Components V2 payload of ``card`` (the image, if any, drawn and attached by ``finish``)."""
    return Payload(view=v2.card_view(card), image=image)


def _image_request(
    presenter: GamePresenter[Any, Any],
    function: str,
    view: PlayerView,
    tr: Translator,
    names: SeatNames | None,
    filename: str,
    extras: dict[str, Any] | None = None,
) -> ImageRequest | None:
    if not presenter.draws(function):
        return None
    return ImageRequest(
        game_key=presenter.key,
        function=function,
        view=view,
        locale=getattr(tr, "locale", DEFAULT_LOCALE),
        names={s: names(s) for s in view.seats} if names is not None else None,
        filename=filename,
        extras=extras or {},
        inputs=rendering.image_inputs(presenter.key, function),
    )


def _latest_texts(
    events: Sequence[Event],
    presenter: GamePresenter[Any, Any],
    names: SeatNames,
    tr: Translator,
    seat: str | None = None,
) -> list[str]:
    """The texts of the latest ``EVENTS_SHOWN`` of ``events`` that have one, oldest first: the
    public ones (``seat`` None), else those told to ``seat`` alone or with others (not the
    public ones). Read from the newest, so an older event is neither looked at nor its text
    built (a log keeps up to 40), and each written once (``presenter.event_texts``: the next
    move shows most of them again)."""
    texts: list[str] = []
    text_of = presenter.event_texts.text
    for e in reversed(events):
        to = e.to
        if (to is not None) if seat is None else (to is None or seat not in to):
            continue
        if text := text_of(e, names, tr):
            texts.append(text)
            if len(texts) == EVENTS_SHOWN:
                break
    texts.reverse()
    return texts


def _title(key: str, table: Table, tr: Translator) -> str:
    """The title ``key`` of a table's message (its game's name and the table's number): the
    same in the public message and every seat's hand at every move, written once per table
    and language (``_written_title``)."""
    if type(tr) is not BoundTranslator:  # (a test's stub: nothing to key it by)
        return tr(key, game=tr(f"{table.game.key}.name"), table=table.id)
    return _written_title(key, table.game.key, table.id, tr.locale)


# Two titles a table (its public message, its hands) in the languages in use: room for a busy
# bot's tables.
@lru_cache(maxsize=8192)
def _written_title(key: str, game_key: str, table_id: int, locale: str) -> str:
    tr = translator(locale)
    return tr(key, game=tr(f"{game_key}.name"), table=table_id)


def _footer(version: int, tr: Translator) -> str:
    """A table message's footer (its state's version): the same in the public message and every
    seat's hand of a move, and in every table's at that version: written once per version and
    language (``_written_footer``), not at every payload."""
    if type(tr) is not BoundTranslator:
        return tr("table.footer", version=version)
    return _written_footer(version, tr.locale)


# Versions of the games being played (a game's version counts its moves: a few hundred), in
# the languages in use.
@lru_cache(maxsize=2048)
def _written_footer(version: int, locale: str) -> str:
    return fresh(translator(locale), "table.footer", version=version)


def _png(data: bytes, name: str, description: str) -> discord.File:
    """The one place an image becomes an attachment: always with its alt text."""
    return BufferFile(data, filename=name, description=description)


# ----- lobby ----------------------------------------------------------------------------------
def lobby_payload(table: Table, service: TableService, tr: Translator) -> Payload:
    game = table.game
    names = seat_names(table, tr)
    record = table.record
    seats = "\n".join(
        f"{i}. {names(s.id)}" + (f" {tr('lobby.host_mark')}" if s.id == record.host_id else "")
        for i, s in enumerate(record.seats, start=1)
    )
    options = service.game_options(table)
    option_lines = "\n".join(
        f"• {option_name(game.key, k, tr)}: **{_option_value(game.key, k, v, tr)}**"
        for k, v in options.items()
    )
    parts = []
    if option_lines:
        parts.append((tr("lobby.options"), option_lines))
    if filled := record.meta.get(SERVER_DEFAULTS):  # what /settings chose for this table
        parts.append((tr("lobby.server_defaults"), server_defaults_line(game.key, filled, tr)))
    card = v2.Card(
        title=tr("lobby.title", game=tr(f"{game.key}.name"), table=table.id),
        colour=v2.LOBBY,
        text=tr(
            "lobby.description",
            host=names(record.host_id),
            min=game.min_players,
            max=game.max_players,
        )
        + "\n\n"
        + seats,
        parts=parts,
        footer=tr("lobby.footer", seconds=service.turn_seconds(table)),
    )
    full = len(record.seats) >= game.max_players
    buttons: list[discord.ui.Item[Any]] = [
        items.LobbyButton(
            table.id,
            "join",
            label=tr("lobby.join"),
            style=discord.ButtonStyle.success,
            disabled=full,
        ),
        items.LobbyButton(table.id, "leave", label=tr("lobby.leave")),
        items.LobbyButton(table.id, "cpu", label=tr("lobby.add_cpu"), disabled=full),
        items.LobbyButton(
            table.id,
            "start",
            label=tr("lobby.start"),
            style=discord.ButtonStyle.primary,
            disabled=len(record.seats) < game.min_players,
        ),
        items.LobbyButton(
            table.id, "cancel", label=tr("lobby.cancel"), style=discord.ButtonStyle.danger
        ),
        rules_button(table.id, tr, row=2),
    ]
    removable = [s for s in record.seats if s.id != record.host_id]
    if removable:
        buttons.append(
            items.LobbyRemoveSelect(
                table.id,
                placeholder=tr("lobby.remove_placeholder"),
                options=[
                    discord.SelectOption(label=clip(names(s.id), 100), value=s.id)
                    for s in removable[:25]
                ],
            )
        )
    card.items = buttons
    return _payload(card)


def rules_button(table_id: int, tr: Translator, row: int | None = None) -> items.LobbyButton:
    """Shows the game's rules to whoever presses it, privately and in their language."""
    return items.LobbyButton(table_id, "rules", label=tr("lobby.rules"), emoji=RULES_EMOJI, row=row)


def rating_change_lines(table: Table, names: Callable[[str], str], tr: Translator) -> str:
    """Every person's rating before and after the game (the table's meta, as the final
    transaction stored it: ``RATING_CHANGES_META``), in the shown points of /profile and
    /leaderboard."""
    changes = table.record.meta.get(RATING_CHANGES_META) or {}
    seats = list(table.state.seats) if table.state is not None else list(changes)
    lines = []
    for seat in seats:
        if seat not in changes:
            continue
        before, after = (shown_rating(v) for v in changes[seat])
        lines.append(
            tr(
                "table.rating_change",
                player=names(seat),
                before=before,
                after=after,
                change=f"{after - before:+d}",
            )
        )
    return "\n".join(lines)


def option_name(game_key: str, name: str, tr: Translator) -> str:
    """An option's name for the lobby: the head of its slash-command help ("Partida a puntos"
    of "Partida a puntos: rondas hasta…"), not the whole help text (issue 31)."""
    text = tr(f"{game_key}.option.{name}")
    cuts = [i for i in (text.find(":"), text.find(" ("), text.find(",")) if i > 0]
    return text[: min(cuts)].strip() if cuts else text


def _option_value(game_key: str, name: str, value: Any, tr: Translator) -> str:
    if isinstance(value, bool):
        return tr("common.yes") if value else tr("common.no")
    if value is None:
        return tr("common.default")
    if isinstance(value, str | int):  # a named choice, or a number with a meaning (0: automatic)
        key = f"{game_key}.option.{name}.{value}"
        text = tr(key)
        return str(value) if text == key else text
    return str(value)


def closed_payload(table: Table, reason: str, tr: Translator) -> Payload:
    card = v2.Card(
        title=tr("table.closed_title", game=tr(f"{table.game.key}.name"), table=table.id),
        colour=v2.CLOSED,
        text=tr(f"table.closed.{reason}"),
    )
    return _payload(card)


# ----- the public table message -------------------------------------------------------------
def public_payload(
    table: Table, presenter: GamePresenter[Any, Any], service: TableService, tr: Translator
) -> Payload:
    assert table.state is not None
    game = table.game
    view = game.view(table.state, None)
    names = seat_names(table, tr, presenter.memos.names)
    outcome = game.outcome(table.state)
    lines = list(presenter.status_lines(view, names, tr))
    to_act = sorted(game.to_act(table.state), key=table.state.seats.index)
    if outcome is None and to_act:
        deadline = int(time.time()) + service.turn_seconds(table)
        lines.append(
            fresh(  # (a deadline of its own at every move: not remembered)
                tr,
                "table.turn",
                players=", ".join([f"**{names(s)}**" for s in to_act])
                if len(to_act) > 1
                else f"**{names(to_act[0])}**",
                deadline=f"<t:{deadline}:R>",
            )
        )
    # (loops, not generators: the public message is written at every move)
    seat_line = presenter.seat_line
    shown_seats = []
    for s in table.state.seats:
        shown_seats.append(("▶ " if s in to_act else "• ") + seat_line(view, s, names, tr))
    seat_lines = "\n".join(shown_seats)
    events = _latest_texts(presenter.last_events(view), presenter, names, tr)
    if events and table.last_by_timer and table.last_actor is not None:
        # the last move was the computer's for a person whose time ran out: say so
        events.append("⏱️ " + tr("table.played_by_timer", player=names(table.last_actor)))
    parts: list[tuple[str, str]] = []
    summary = presenter.summary(view, names, tr)
    if summary is not None:
        title, summary_lines = summary
        parts.append((title, "\n".join(summary_lines)))
    if events:
        parts.append((tr("table.last_moves"), "\n".join(events)))
    if outcome is not None:
        parts.append((tr("table.results"), "\n".join(presenter.outcome_lines(outcome, names, tr))))
        if changes := rating_change_lines(table, names, tr):
            parts.append((tr("table.rating_changes"), changes))
    if deal := commitment_line(table, tr):  # the deal's commitment, its seed once over
        parts.append(deal)
    image = _image_request(presenter, "render_table", view, tr, names, "table.png")
    card = v2.Card(
        title=_title("table.title", table, tr),
        colour=v2.WINNER
        if outcome is not None
        else v2.turn_accent(table.state.seats, to_act, presenter.colour, presenter.key),
        text="\n".join(lines) + "\n\n" + seat_lines,
        parts=parts,
        footer=_footer(table.state.version, tr),
        image=image.filename if image is not None else None,
    )
    components: list[discord.ui.Item[Any]] = []
    if outcome is None:
        components.extend(_playing_buttons(table, tr))
        public: list[Choice] = []
        for seat in table.state.seats if presenter.has_public_actions else ():
            for action in game.legal_actions(table.state, seat):  # (no generator per seat)
                if presenter.is_public_action(action):
                    public.append(presenter.choice(action, view, names, tr))
        layout = build_layout(
            public, table_id=table.id, version=table.state.version, rows=1, first_row=1
        )
        if layout.pages == 1:
            components.extend(layout.items)
    else:
        components.append(
            items.LobbyButton(
                table.id, "rematch", label=tr("table.rematch"), style=discord.ButtonStyle.primary
            )
        )
    card.items = components
    return _payload(card, image)


def _playing_buttons(table: Table, tr: Translator) -> Sequence[discord.ui.Item[Any]]:
    """The table message's first row during a game: "Ver mi mano", the seat buttons and the
    rules. The same at every move (no version in them): written once per table, language and
    whether "Volver" shows (``_written_playing_buttons``), not built as discord.py items at
    every move (~10 us each)."""
    assert isinstance(tr, BoundTranslator), "a table message speaks a catalogue's language"
    return _written_playing_buttons(table.id, tr.locale, bool(reclaimable(table)))


# Three or four written buttons a table (~1.7 KB): room for every table of a busy bot.
@lru_cache(maxsize=4096)
def _written_playing_buttons(
    table_id: int, locale: str, rejoin: bool
) -> tuple[v2.WrittenItem, ...]:
    tr = translator(locale)
    built: list[discord.ui.Item[Any]] = [
        items.HandButton(table_id, 0, label=tr("table.show_hand"), row=0),
        *seat_buttons(table_id, rejoin, tr),
        rules_button(table_id, tr, row=0),
    ]
    return tuple(v2.WrittenItem(item) for item in built)


# ----- a player's private view --------------------------------------------------------------
def private_payload(
    table: Table,
    presenter: GamePresenter[Any, Any],
    seat: str,
    tr: Translator,
    page: int = 0,
    draft: dict[str, Any] | None = None,
    view: Any = None,
) -> Payload:
    """``seat``'s private view payload; ``view``: ``game.view(state, seat)`` when the caller
    already built it for this state. Without a draft, the same version, page, language and
    seats give the same payload: a copy of the one built last for ``seat`` (the presenter's
    bot's kept hands: ``presenter.memos.hands``). One version's view is a pure function of the
    state (``private_views._view_digest``), so the same inputs build the same payload: under
    load ~7 % of the private payloads were such repeats (a "Ver mi mano" press answered with
    the hand its live message was just edited to)."""
    assert table.state is not None
    locale = getattr(tr, "locale", None)
    if draft or locale is None:  # (a draft's clicks build a new payload at every step)
        return _private_payload(table, presenter, seat, tr, page, draft, view)
    state = table.state
    inputs = (state.version, state.seed, page, locale, id(presenter), table.record.seats)
    key = (table.id, seat)
    hands = presenter.memos.hands
    kept = hands.get(key)
    if kept is not None and _same(kept[0], inputs):
        return Payload(view=v2.copy_layout(kept[1]), image=kept[2])
    payload = _private_payload(table, presenter, seat, tr, page, draft, view)
    if payload.view is not None:
        hands.keep(key, (inputs, v2.copy_layout(payload.view), payload.image))
    return payload


def _same(kept: tuple[Any, ...], inputs: tuple[Any, ...]) -> bool:
    """The version, the game's seed (a rematch's game counts its versions again), the page, the
    language and the presenter (by its id: a presenter and its event texts refer to each other,
    and one kept here would be left to the cyclic collector once dropped) equal; the seats list
    the very one."""
    return kept[:5] == inputs[:5] and kept[5] is inputs[5]


def _private_payload(
    table: Table,
    presenter: GamePresenter[Any, Any],
    seat: str,
    tr: Translator,
    page: int,
    draft: dict[str, Any] | None,
    view: Any,
) -> Payload:
    assert table.state is not None
    game = table.game
    if view is None:
        view = game.view(table.state, seat)
    names = seat_names(table, tr, presenter.memos.names)
    to_act = game.to_act(table.state)
    legal = game.legal_actions(table.state, seat)
    lines = list(presenter.private_lines(view, tr))
    outcome = game.outcome(table.state)
    if outcome is None:
        lines.extend(presenter.draft_lines(view, draft or {}, tr))
    if outcome is not None:
        lines.append(tr("private.game_over"))
    elif seat in to_act:
        lines.insert(0, tr("private.your_turn"))
    elif legal:
        lines.insert(0, tr("private.optional_actions"))
    else:
        waiting = ", ".join(map(names, sorted(to_act, key=table.state.seats.index)))
        lines.insert(0, tr("private.waiting", players=waiting))
    private_events = _latest_texts(presenter.last_events(view), presenter, names, tr, seat)
    parts = []
    if private_events:
        parts.append((tr("private.just_now"), "\n".join(private_events)))
    if outcome is not None:  # the same result lines as the public message
        parts.append((tr("table.results"), "\n".join(presenter.outcome_lines(outcome, names, tr))))
    image = (
        _image_request(
            presenter,
            "render_hand",
            view,
            tr,
            None,
            "hand.png",
            presenter.hand_image_extras(view, legal),
        )
        if presenter.hand_image
        else None
    )
    card = v2.Card(
        title=_title("private.title", table, tr),
        colour=v2.turn_accent(
            table.state.seats, [seat] if seat in to_act else [], presenter.colour, presenter.key
        )
        if outcome is None
        else v2.WINNER,
        text="\n".join(lines),
        parts=parts,
        footer=_footer(table.state.version, tr),
        image=image.filename if image is not None else None,
    )
    custom: list[discord.ui.Item[Any]] = []
    written: dict[int, tuple[Any, Choice]] = {}  # the choices the game's components wrote
    if outcome is None:
        custom, legal = presenter.private_components(
            table.id, view, legal, draft or {}, names, tr, written
        )
    # (most games add no items of their own: nothing to walk then)
    used_rows = 1 + max((item.row or 0 for item in custom), default=-1) if custom else 0
    choices: list[Choice] = []
    if outcome is None:
        for action in legal:  # (``_choice`` inlined: a loop over a hand's moves, no frames)
            kept = written.get(id(action))
            choices.append(
                kept[1]
                if kept is not None and kept[0] is action
                else presenter.choice(action, view, names, tr)
            )
    # the game's own items placed in their rows once: what they cost, and the card's first rows
    custom_rows = v2.action_rows(custom) if custom else []
    # Components V2: the hand's rows may use every component the card leaves (40 in all)
    layout = build_layout(
        choices,
        table_id=table.id,
        version=table.state.version,
        first_row=used_rows,
        page=page,
        group_placeholders=presenter.group_placeholders(tr) if choices else None,
        budget=v2.COMPONENTS_MAX
        - v2.fixed_components(card)
        - len(custom_rows)  # (their action rows, then their items: no list per payload)
        - sum(map(len, custom_rows)),
    )
    card.more_rows = [*custom_rows, *layout.rows]
    if layout.pages > 1:
        card.more_rows.append(
            [
                items.HandButton(
                    table.id,
                    max(layout.page - 1, 0),
                    emoji="◀",
                    style=discord.ButtonStyle.secondary,
                    disabled=layout.page == 0,
                ),
                items.HandButton(
                    table.id,
                    min(layout.page + 1, layout.pages - 1),
                    emoji="▶",
                    style=discord.ButtonStyle.secondary,
                    disabled=layout.page >= layout.pages - 1,
                    label=tr("private.page", page=layout.page + 1, pages=layout.pages),
                ),
            ]
        )
    return _payload(card, image)
