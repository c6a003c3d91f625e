"""Message catalogues: every user-facing string, per locale (Spanish default, English).

Catalogues are flat JSON files ``bot/i18n/<locale>/<domain>.json`` mapping keys to templates:
``str.format`` text whose placeholders may be ICU-style plural choices,
``{count, plural, one {# carta} other {# cartas}}``, chosen by the locale's CLDR plural rules
(Babel). The syntax is described in ``bot/i18n/messages.py``; never write "carta(s)" or a
number next to a noun outside a plural choice. All files of a locale are merged; a key missing
in a locale falls back to the default locale, then to the key itself (so a gap is visible,
never a crash).

Rendered texts are remembered per language: a catalogue text with hashable parameters by the
translator (``_rendered``), and a game's words written of several texts (a card's label, a
face's line) by ``per_language``, once per arguments and language, for any translator bound to
a catalogue language (``BoundTranslator``); another translator (a test's stub) is asked every
time.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import cache, lru_cache, wraps
from pathlib import Path
from typing import Any, ParamSpec, TypeVar, cast

from bot.i18n.messages import parse, placeholders, plural_names, render

__all__ = [
    "DEFAULT_LOCALE",
    "LOCALES",
    "Translator",
    "catalogue",
    "command_name",
    "command_path",
    "fresh",
    "has",
    "normalise_locale",
    "per_language",
    "placeholders",
    "plural_names",
    "tr",
    "translator",
]
DEFAULT_LOCALE = "es"
LOCALES = ("es", "en")
_ROOT = Path(__file__).resolve().parent

Translator = Callable[..., str]


@lru_cache(maxsize=256)
def normalise_locale(locale: str | None) -> str:
    """Discord locales look like ``es-ES``, ``en-US``, ``en-GB``: keep the language."""
    if not locale:
        return DEFAULT_LOCALE
    lang = str(locale).split("-")[0].lower()
    return lang if lang in LOCALES else "en"


@cache
def catalogue(locale: str) -> dict[str, str]:
    merged: dict[str, str] = {}
    folder = _ROOT / locale
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for key, value in data.items():
            if key in merged:
                raise ValueError(f"duplicate message key {key!r} in {path}")
            merged[key] = value
    return merged


def has(key: str, locale: str = DEFAULT_LOCALE) -> bool:
    return key in catalogue(normalise_locale(locale)) or key in catalogue(DEFAULT_LOCALE)


def tr(locale: str | None, key: str, /, **params: Any) -> str:
    return _translate(normalise_locale(locale), key, params)


def _translate(loc: str, key: str, params: dict[str, Any]) -> str:
    """``key`` in the normalised locale ``loc``."""
    try:
        # A view is rebuilt for every change and names the same ~150 texts each time.
        return _rendered(loc, key, *params, *params.values())
    except TypeError:  # an unhashable parameter (a list, a dict): rendered afresh
        return _render_key(loc, key, params)


# ``typed``: a value's type is part of the key (1, 1.0 and True are equal but print apart).
# The parameters' names then their values, as arguments of their own: the cache builds one key
# of them, with no tuple per parameter nor a Python-level loop (a call site names its
# parameters in the same order each time).
@lru_cache(maxsize=32_768, typed=True)
def _rendered(loc: str, key: str, /, *names_then_values: Any) -> str:
    half = len(names_then_values) // 2
    params = dict(zip(names_then_values[:half], names_then_values[half:], strict=True))
    # A text naming the move's version or deadline (the footer, the turn line) is rendered
    # afresh at every move (issue 29): most such templates have no plural to choose, and then
    # are ``str.format_map`` of their parameters alone (~0.3 us; the whole rendering ~0.9).
    text = _short(loc, key, params)
    return text if text is not None else _render_key(loc, key, params)


def _short(loc: str, key: str, params: dict[str, Any]) -> str | None:
    """``_render_key(loc, key, params)`` the short way, or None when it does not apply: a
    template with a plural or a command name, a parameter missing (kept visible by the whole
    rendering), not a catalogue key."""
    simple = _simple(loc, key)
    if simple is None:
        return None
    try:
        text = simple.format_map(params)
    except KeyError:
        return None
    return text if "[/" not in text else command_names(text, loc)


@lru_cache(maxsize=8192)  # (the catalogues' keys in the locales in use)
def _simple(loc: str, key: str) -> str | None:
    """``key``'s template in ``loc`` when it renders as ``str.format_map`` alone (no plural
    choice nor command name, ``[/stop]``; ``messages.render`` of such a template is
    ``str.format_map`` with every parameter given), else None (also: not a catalogue key)."""
    template = catalogue(loc).get(key) or catalogue(DEFAULT_LOCALE).get(key)
    if template is None or "[/" in template:
        return None
    return template if all(type(part) is str for part in parse(template)) else None


def _render_key(loc: str, key: str, params: dict[str, Any]) -> str:
    template = catalogue(loc).get(key) or catalogue(DEFAULT_LOCALE).get(key)
    if template is None:
        return key
    return command_names(render(template, loc, params), loc)


_COMMAND = re.compile(r"\[/([a-z_]+)\]")


def command_name(name: str, locale: str) -> str:
    """A slash command's name as clients in ``locale`` show it (its name localisation:
    ``cmd.<name>.name``, or a game's ``<game>.ui.cmd.<name>.name``), else ``name``."""
    texts = catalogue(normalise_locale(locale))
    if f"cmd.{name}.name" in texts:
        return texts[f"cmd.{name}.name"]
    game_command = next((k for k in texts if k.endswith(f".ui.cmd.{name}.name")), None)
    return texts[game_command] if game_command else name


def command_names(text: str, locale: str) -> str:
    """``[/stop]`` in a template becomes ``/terminar`` in Spanish and ``/stop`` in English: a
    reply names commands as the reader's client shows them (issue 31)."""
    if "[/" not in text:
        return text
    return _COMMAND.sub(lambda m: "/" + command_name(m[1], locale), text)


def command_path(path: str, locale: str) -> str:
    """A command's qualified name (``/settings show``, ``settings show``) as clients in
    ``locale`` show it (``/ajustes mostrar``): the command's name localisation, then each
    subcommand's (``cmd.<command>.<sub>.name``) where it has one."""
    words = path.removeprefix("/").split()
    if not words:
        return path
    texts = catalogue(normalise_locale(locale))
    head, *rest = words
    shown = [command_name(head, locale)]
    shown += [texts.get(f"cmd.{head}.{sub}.name", sub) for sub in rest]
    return "/" + " ".join(shown)


class BoundTranslator:
    """``tr(key, **params)`` bound to one locale (its ``locale``); picklable, so it can name the
    language of work sent to another process. One per language (``translator``, unpickled
    too): a cache of a language's words keys by it (``per_language``)."""

    __slots__ = ("locale",)

    def __init__(self, locale: str) -> None:
        self.locale = locale

    def __reduce__(self) -> tuple[Callable[[str], Translator], tuple[str]]:
        return translator, (self.locale,)

    def __call__(self, key: str, /, **params: Any) -> str:
        # ``_translate`` inlined (a payload makes ~100 calls): a text without parameters is
        # read from its locale's dict, one lookup instead of a key tuple hashed for the cache.
        loc = self.locale  # normalised when bound
        if not params:
            try:
                return _PLAIN[loc][key]
            except KeyError:
                return _plain(loc, key)
        try:
            return _rendered(loc, key, *params, *params.values())
        except TypeError:  # an unhashable parameter (a list, a dict): rendered afresh
            return _render_key(loc, key, params)


# Per locale, the texts without parameters rendered so far: catalogue keys only, so bounded by
# the catalogue (a key missing from it renders as itself).
_PLAIN: dict[str, dict[str, str]] = {locale: {} for locale in LOCALES}


def _plain(loc: str, key: str) -> str:
    text = _rendered(loc, key)
    _PLAIN.setdefault(loc, {})[key] = text
    return text


def fresh(tr: Translator, key: str, /, **params: Any) -> str:
    """``tr(key, **params)`` for a text whose parameters change at every call (the move's
    version, a turn's deadline): not remembered (it would miss, ~2.5 us, and push out a text
    that is asked for again), a template without plurals formatted straight away (~0.6 us)."""
    if type(tr) is not BoundTranslator:
        return tr(key, **params)
    loc = tr.locale
    # ``_short`` inlined (a payload's footer, every payload of every move)
    simple = _simple(loc, key)
    if simple is not None:
        try:
            text = simple.format_map(params)
        except KeyError:
            pass  # a parameter missing: kept visible by the whole rendering
        else:
            return text if "[/" not in text else command_names(text, loc)
    return _render_key(loc, key, params)


# The one translator of each language (immutable).
_TRANSLATORS = {locale: BoundTranslator(locale) for locale in LOCALES}


def translator(locale: str | None) -> Translator:
    """The ``tr(key, **params)`` bound to one locale, as the image renderers expect."""
    return _TRANSLATORS[normalise_locale(locale)]


Words = ParamSpec("Words")
Written = TypeVar("Written")


def per_language(
    maxsize: int,
) -> Callable[[Callable[Words, Written]], Callable[Words, Written]]:
    """A writer of a game's words, ``write(*arguments, tr)`` (the translator last, the other
    arguments hashable, the text theirs and the language's alone), made to write each text once
    per arguments and language: a move names the same cards as the move before (issue 29).
    The ``maxsize`` texts used last are kept. A translator that is not a catalogue's language
    (a test's stub) has nothing to key it by: it is asked every time."""

    def decorate(writer: Callable[Words, Written]) -> Callable[Words, Written]:
        write = cast(Callable[..., Written], writer)  # its arguments, then a translator
        # Keyed by the arguments and the translator itself: one object per language.
        kept = lru_cache(maxsize=maxsize)(write)

        # Positional only, and the arguments handed on as they came (no ``**`` dict, no tuple
        # cut at every call): the hit costs what a hand-written check was, ~0.15 us.
        @wraps(writer)
        def written(*arguments: Any) -> Written:
            if type(arguments[-1]) is not BoundTranslator:
                return write(*arguments)
            return kept(*arguments)

        return cast(Callable[Words, Written], written)

    return decorate
