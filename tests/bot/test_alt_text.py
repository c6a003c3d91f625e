"""Alt text on every image (issue 28 item 4): each image the bot attaches carries a
description built from the very request it is drawn from, in the reader's language, within
Discord's 1,024 characters, telling only what that image shows."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import LOCALES, translator
from bot.registry import load_games
from bot.ui import alt_text
from bot.ui.alt_text import MAX_ALT_TEXT, clip_alt, describe, replay_description
from bot.ui.messages import finish
from bot.ui.payload import Payload
from bot.ui.rendering import ImageRequest, NameBook, image_inputs
from bot.ui.triad.text import card_name
from games.triad import GAME as TRIAD
from tests.playouts import random_states

GAMES = load_games()
KEYS = ["amapatolli", "chupate2", "macarena", "maquiavelo", "triad"]
ROOT = Path(__file__).resolve().parents[2]
# A word each locale's alt text of every game's table uses (its "Players"/"Cells"/... line).
TABLE_WORDS = {
    "es": ("Jugadores", "Casillas"),
    "en": ("Players", "Cells"),
}


def _states(key: str, moves: int = 400, seed: int = 5):
    """Every state of one random game (to its end or ``moves`` moves)."""
    game = GAMES[key]
    seats = [str(100 + i) for i in range(max(game.min_players, 3 if key != "triad" else 2))]
    yield from random_states(game, game.new(seats, f"alt-{key}", None), random.Random(seed), moves)


def _table(key, state, locale):
    view = GAMES[key].view(state, None)
    names = {s: f"Name{s}" for s in state.seats}
    inputs = image_inputs(key, "render_table")  # as the bot asks for it (bot.ui.messages)
    return ImageRequest(key, "render_table", view, locale, names, "table.png", inputs=inputs)


def _hand(key, state, seat, locale):
    game = GAMES[key]
    view = game.view(state, seat)
    presenter_extras = {}
    if key == "chupate2":
        from bot.ui.chupate2.images import playable_cards

        presenter_extras = {"playable": playable_cards(game.legal_actions(state, seat), view.hand)}
    inputs = image_inputs(key, "render_hand")
    return ImageRequest(
        key, "render_hand", view, locale, None, "hand.png", presenter_extras, inputs
    )


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("key", KEYS)
def test_every_table_and_hand_of_a_whole_game_has_alt_text_in_the_readers_language(key, locale):
    tr = translator(locale)
    other = next(loc for loc in LOCALES if loc != locale)
    checked = 0
    for k, state in enumerate(_states(key)):
        if k % 7 and GAMES[key].outcome(state) is None:
            continue  # every 7th state and the end keep the test quick
        table = describe(_table(key, state, locale))
        assert 40 < len(table) <= MAX_ALT_TEXT, table
        assert any(word in table for word in TABLE_WORDS[locale]), table
        assert not any(word in table for word in TABLE_WORDS[other]), table
        assert tr(f"{key}.name").split()[-1] in table or key == "triad", table
        for seat in state.seats:
            hand = describe(_hand(key, state, seat, locale))
            assert 10 < len(hand) <= MAX_ALT_TEXT, hand
        checked += 1
    assert checked >= 2


@pytest.mark.parametrize("key", KEYS)
def test_an_image_kept_because_it_did_not_change_keeps_fitting_alt_text(key):
    """An image is reused while what it draws is unchanged (its digest; a hand's
    ``IMAGE_INPUTS``): its alt text is built from those fields only, so one image never has
    two descriptions."""
    by_digest: dict[str, str] = {}
    for state in _states(key, moves=120):
        requests = [_table(key, state, "en")] + [_hand(key, state, s, "en") for s in state.seats]
        for request in requests:
            text = describe(request)
            assert by_digest.setdefault(request.digest, text) == text, (key, request.function)
    assert len(by_digest) > 2


def test_a_public_board_never_names_a_hidden_card():
    state = TRIAD.new(["a", "b"], "alt-hidden")
    public = describe(_table("triad", state, "en"))
    assert "hidden cards" in public
    tr = translator("en")
    for seat in state.seats:
        own = TRIAD.view(state, seat)
        for face in own.hands[seat]:
            assert face is not None
            assert card_name(face.card, tr) not in public
        assert card_name(own.hands[seat][0].card, tr) in describe(_hand("triad", state, seat, "en"))


async def test_finish_attaches_the_image_with_its_alt_text():
    state = next(iter(_states("chupate2")))
    request = _table("chupate2", state, "es")
    payload = Payload(image=request)
    await finish(payload)
    [attached] = payload.files
    assert attached.filename == "table.png"
    assert attached.description == describe(request)
    assert attached.description.startswith("Mesa de Chúpate 2")


def test_a_game_without_words_of_its_own_gets_a_plain_line(monkeypatch):
    state = next(iter(_states("chupate2")))
    monkeypatch.setattr(alt_text, "_describer", lambda key, function: None)
    assert describe(_table("chupate2", state, "en")) == "Image of the Chúpate 2 table."


def test_long_alt_text_is_clipped_to_discords_limit():
    text = clip_alt("word " * 400)
    assert len(text) == MAX_ALT_TEXT and text.endswith("…")
    assert clip_alt("a\n\nb  c") == "a b c"
    replay = replay_description("macarena", 12, 40, "en")
    assert "#12" in replay and "40 moments" in replay


def test_every_file_the_bot_sends_carries_a_description():
    """Where a ``discord.File`` (or ``bot.ui.payload.BufferFile``, one) is made in ``bot/``, it
    is given its alt text."""
    made = []
    for path in (ROOT / "bot").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and (
                (isinstance(node.func, ast.Attribute) and node.func.attr == "File")
                or (isinstance(node.func, ast.Name) and node.func.id == "BufferFile")
            ):
                made.append(path.name)
                assert any(k.arg == "description" for k in node.keywords), path
    assert sorted(made) == ["messages.py", "replay.py"]


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("function", ["render_table", "render_hand"])
def test_every_game_describes_its_images_from_what_the_renderer_gets(key, function):
    """A describer takes the view and ``AltWords``, which holds every other argument of the
    renderer (translator, names, a hand's keyword arguments): nothing the picture is drawn
    from is out of the words' reach."""
    from bot.ui.modules import game_module

    images = game_module(key, "images")
    alt = game_module(key, "alt")
    assert alt is not None, f"{key} has no alt module"
    describer = getattr(alt, function.replace("render_", "describe_"))
    assert list(inspect.signature(describer).parameters) == ["view", "alt"]
    renderer = inspect.signature(getattr(images, function)).parameters
    words = {f.name for f in dataclasses.fields(alt_text.AltWords)}
    assert set(renderer) - {"view"} <= words | {"tr"}
    assert "tr" in words and "names" in words


def test_alt_words_name_a_seat_only_as_the_image_does():
    tr = translator("en")
    named = alt_text.AltWords(tr, NameBook({"1": " Ann ", "2": "  "}))
    assert named.name("1", "Seat 1") == "Ann"
    assert named.name("2", "Seat 2") == "Seat 2"  # a blank name reads as the seat
    assert named.name(None, "Seat 1") == ""
    assert alt_text.AltWords(tr).name("1", "Seat 1") == "Seat 1"  # an image without names
    assert alt_text.AltWords(tr).hand(0, "") == tr("access.alt.hand_empty")
    assert alt_text.AltWords(tr).playable_now([]) is None


def test_an_images_alt_text_is_built_once_while_kept(monkeypatch):
    """``bot.ui.messages`` keeps each alt text by its image's digest (one image has one
    description: the test above): an unchanged table image shown again at the next edit is not
    described again; the oldest text goes first beyond ``ALT_TEXTS_KEPT``."""
    from bot.ui import messages

    monkeypatch.setattr(messages, "_ALT_TEXTS", {})
    monkeypatch.setattr(messages, "ALT_TEXTS_KEPT", 2)
    described: list[str] = []

    def counting(request):
        described.append(request.digest)
        return describe(request)

    monkeypatch.setattr(messages, "describe", counting)
    requests = [_table("macarena", state, "es") for state in _states("macarena", moves=40)]
    distinct = list(dict.fromkeys(r.digest for r in requests))
    assert len(distinct) >= 3
    first = next(r for r in requests if r.digest == distinct[0])
    assert messages._alt_text(first, first.digest) == describe(first)
    assert messages._alt_text(first, first.digest) == describe(first)
    assert described == [distinct[0]]
    for digest in distinct[1:3]:  # two more: the first is no longer kept
        request = next(r for r in requests if r.digest == digest)
        messages._alt_text(request, digest)
    messages._alt_text(first, first.digest)
    assert described == [*distinct[:3], distinct[0]]


@pytest.mark.parametrize("key", KEYS)
def test_a_render_worker_describes_an_image_from_its_drawn_part_as_the_bot_would(key):
    """The render pool's job (``render_described``) writes the alt text in the worker, from
    the view cut to the renderer's declared inputs (what the worker gets): the same text as
    from the whole view, at every state of a game, table and hands."""
    checked = 0
    for k, state in enumerate(_states(key, moves=200)):
        if k % 3 and GAMES[key].outcome(state) is None:
            continue
        requests = [_table(key, state, "en")] + [_hand(key, state, s, "es") for s in state.seats]
        for request in requests:
            image, alt = alt_text.render_described(*request.args)
            assert image and alt == describe(request), (key, request.function, k)
        checked += 1
    assert checked >= 2


async def test_the_render_pool_hands_back_the_workers_alt_text_with_the_image(monkeypatch):
    """A renderer whose pool runs ``render_described`` keeps the worker's alt text for the
    image's payload (taken once); ``finish`` attaches it without describing the image again."""
    from bot.pipe_workers import PipeWorkers
    from bot.ui import messages, rendering

    state = list(_states("triad", moves=6))[-1]
    request = _table("triad", state, "es")
    pool = rendering.Renderer(PipeWorkers(1), job=alt_text.render_described)
    previous = rendering.install(pool)
    try:
        assert await pool.render(request) == rendering.render_image(*request.args)
        assert pool.description(request.digest) == describe(request)
        assert pool.description(request.digest) is None  # taken

        other = _table("triad", list(_states("triad", moves=8))[-1], "en")
        assert other.digest != request.digest
        described: list[str] = []
        monkeypatch.setattr(messages, "_ALT_TEXTS", {})
        monkeypatch.setattr(messages, "describe", lambda r: described.append(r) or describe(r))
        payload = Payload(image=other)
        await finish(payload)
        [attached] = payload.files
        assert attached.description == describe(other) and described == []
    finally:
        rendering.install(previous)
        pool.close()


@pytest.mark.parametrize("locale", LOCALES)
def test_framed_words_are_the_translators_own(locale):
    """``framed`` puts a text between its template's words, rendered once per language: the
    same text as the translator's for the templates it frames, whatever the text (a command in
    it, braces, an empty one), and the translator's own for any other template."""
    tr = translator(locale)
    texts = ["a1: Moon Jelly [3-3-5-6]; b2: —", "", "{x} }{", "Ann [/stop] (Blue)", "\x01 ü 🤖"]
    framable = [
        ("access.alt.triad.board", "cells"),
        ("access.alt.triad.hands", "hands"),
        ("access.alt.macarena.wells", "wells"),
        ("access.alt.players", "players"),
    ]
    for key, name in framable:
        assert alt_text._frame(locale, key, name) is not None, key
        for text in texts:
            assert alt_text.framed(tr, key, name, text) == tr(key, **{name: text}), (key, text)
    # a plural, a second parameter, another parameter's name, a key not in the catalogue
    for key, name in [
        ("access.alt.triad.hidden", "count"),
        ("access.alt.your_hand", "cards"),
        ("access.alt.triad.board", "hands"),
        ("no.such.key", "cells"),
    ]:
        assert alt_text._frame(locale, key, name) is None, key
        assert alt_text.framed(tr, key, name, "x") == tr(key, **{name: "x"})


@pytest.mark.parametrize("key", KEYS)
def test_alt_text_written_from_kept_words_is_the_text_written_afresh(key):
    """Words kept per language (Triple Triad's faces and rules, ``framed`` templates) give the
    very text a translator that keeps nothing gives (not a ``BoundTranslator``: every word
    rendered afresh), at every state of a game, options changing between tables."""
    options = [None, {"same": True, "plus": True, "payout": "directo"}, {"open": True}]
    checked = 0
    for index, option in enumerate(options if key == "triad" else [None]):
        game = GAMES[key]
        seats = [str(100 + i) for i in range(max(game.min_players, 3 if key != "triad" else 2))]
        start = game.new(seats, f"kept-{key}", option)
        for k, state in enumerate(random_states(game, start, random.Random(index), 120)):
            if k % 4:
                continue
            for locale in LOCALES:
                request = _table(key, state, locale)
                afresh = _Afresh(translator(locale))
                func = alt_text._describer(key, "render_table")
                words = alt_text.AltWords(afresh, NameBook(request.names))
                assert describe(request) == clip_alt(func(request.view, words)), (key, k)
                checked += 1
    assert checked >= 4


def test_an_alt_text_is_one_paragraph_whatever_whitespace_it_had():
    """``clip_alt`` gives every text as its words one space apart, a text already so as it is
    (not split and joined again) and any other (tabs, line breaks, a no-break space, spaces
    doubled or at an end) made so."""
    texts = ["Cells: a1; b2. Hands: —", "one", "", " ", "a  b", " a", "a ", "a\tb", "a\nb"]
    texts += ["a\u00a0b", "a\u2028b", "a\x1cb", "a\u3000b", "🤖 CPU 1 (normal): 5 cartas."]
    for text in texts:
        assert clip_alt(text) == " ".join(text.split()), repr(text)
    assert alt_text._spaced_once("Cells: a1; b2.") and not alt_text._spaced_once("a\u00a0b")


@dataclasses.dataclass(frozen=True)
class _Afresh:
    """A translator that is not a ``BoundTranslator``: words it gives are kept nowhere."""

    tr: Callable[..., str]

    def __call__(self, key: str, /, **params: Any) -> str:
        return self.tr(key, **params)
