"""A finished game's replay: the public table at one version, with ◀ ▶ to step, and its export
as an animated GIF of the table images (drawn and assembled in a worker process)."""

from __future__ import annotations

import io
from typing import Any

import discord

from bot.i18n import DEFAULT_LOCALE, Translator
from bot.service import Table
from bot.ui.answer_layout import Answer, Block
from bot.ui.messages import seat_names
from bot.ui.platform_items import ExportButton, ReplayButton
from bot.ui.presenter import GamePresenter
from bot.ui.rendering import ImageRequest, render_image
from bot.ui.text import clip
from games.core import PlayerView

BLOCK_TEXT = 1800  # the table lines, and the last moves: two blocks within 4,000 characters
EVENTS_SHOWN = 6
MAX_FRAMES = 80  # an export samples this many versions at most
FRAME_MS = 700
FRAME_WIDTH = 640  # frames are scaled down to this width (GIFs grow fast)
EXPORT_NAME = "replay.gif"


def replay_blocks(
    table: Table, presenter: GamePresenter[Any, Any], view: PlayerView, tr: Translator
) -> list[Block]:
    """What the public table showed at ``view.version``: the same status, seat and event lines
    as the live public message (``messages.public_payload``), from the same public view."""
    names = seat_names(table, tr)
    lines = list(presenter.status_lines(view, names, tr))
    seat_lines = "\n".join(
        ("▶ " if s in view.to_act else "• ") + presenter.seat_line(view, s, names, tr)
        for s in view.seats
    )
    events = [
        text
        for e in presenter.last_events(view)
        if e.visible_to(None) and (text := presenter.event_text(e, names, tr))
    ][-EVENTS_SHOWN:]
    blocks = [Block(clip("\n".join(lines) + "\n\n" + seat_lines, BLOCK_TEXT))]
    if events:
        blocks.append(Block(clip("\n".join(events), BLOCK_TEXT), heading=tr("table.last_moves")))
    return blocks


def replay_step(version: int, last: int, tr: Translator) -> str:
    """Where the replay stands, in moves (0 is the deal): "Move 3 of 10"."""
    if version == 0:
        return tr("v2answers.replay.deal", last=last)
    return tr("v2answers.replay.step", version=version, last=last)


def replay_answer(
    table: Table,
    presenter: GamePresenter[Any, Any],
    view: PlayerView,
    last: int,
    tr: Translator,
    note: str | None = None,
) -> Answer:
    """The replay at ``view.version``: the game's colour, the table's lines, its image (when the
    game draws one), "version v of last", and ◀ ▶ and the GIF export."""
    image = None
    if presenter.draws("render_table"):
        names = seat_names(table, tr)
        image = ImageRequest(
            game_key=table.game.key,
            function="render_table",
            view=view,
            locale=getattr(tr, "locale", DEFAULT_LOCALE),
            names={s: names(s) for s in view.seats},
            filename="replay.png",
        )
    buttons: list[discord.ui.Item[Any]] = []
    v = view.version
    if last > 0:
        buttons.append(ReplayButton(table.id, max(v - 1, 0), label="◀", disabled=v == 0))
        buttons.append(ReplayButton(table.id, min(v + 1, last), label="▶", disabled=v >= last))
    if image is not None:
        buttons.append(ExportButton(table.id, label=tr("replay.export")))
    return Answer(
        title=tr("replay.title", game=tr(f"{table.game.key}.name"), table=table.id),
        blocks=([Block(note)] if note else []) + replay_blocks(table, presenter, view, tr),
        accent=presenter.colour,
        footer=replay_step(view.version, last, tr),
        image=image,
        rows=[buttons],
    )


def frame_versions(last: int, limit: int = MAX_FRAMES) -> list[int]:
    """The versions an export shows: all of them, or ``limit`` evenly spread (first and last
    always)."""
    if last + 1 <= limit:
        return list(range(last + 1))
    step = last / (limit - 1)
    return sorted({round(i * step) for i in range(limit)} | {last})


def animate(
    game_key: str, views: list[PlayerView], locale: str, names: dict[str, str]
) -> bytes | None:
    """The table images of ``views`` as one animated GIF (a worker process: module-level and
    plain data). None when the game draws no table."""
    from PIL import Image

    frames = []
    for view in views:
        png = render_image(game_key, "render_table", view, locale, names)
        if png is None:
            return None
        image = Image.open(io.BytesIO(png)).convert("RGB")
        if image.width > FRAME_WIDTH:
            image = image.resize(
                (FRAME_WIDTH, round(image.height * FRAME_WIDTH / image.width)),
                Image.Resampling.LANCZOS,
            )
        frames.append(image.quantize(colors=128, method=Image.Quantize.MEDIANCUT))
    if not frames:
        return None
    out = io.BytesIO()
    durations = [FRAME_MS] * (len(frames) - 1) + [FRAME_MS * 4]  # linger on the end
    frames[0].save(
        out,
        format="GIF",
        save_all=True,
        append_images=frames[1:],
        duration=durations,
        loop=0,
        optimize=True,
    )
    return out.getvalue()
