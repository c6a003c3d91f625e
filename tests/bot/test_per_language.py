"""``per_language``: a game's words written once per arguments and language, the same as written
afresh; any other translator (a test's stub) is asked every time."""

from __future__ import annotations

import pickle
from collections.abc import Callable

from bot.i18n import LOCALES, Translator, per_language, translator


def _counted_writer() -> tuple[list[tuple[object, ...]], Callable[..., str]]:
    writes: list[tuple[object, ...]] = []

    @per_language(maxsize=16)
    def card_words(colour: str, count: int, tr: Translator) -> str:
        writes.append((colour, count, tr))
        return tr("chupate2.card", face=str(count), colour=tr(f"chupate2.colour.{colour}"))

    return writes, card_words


def test_kept_words_equal_words_written_afresh_in_every_language():
    _, card_words = _counted_writer()
    for locale in LOCALES:
        tr = translator(locale)
        afresh = card_words.__wrapped__("r", 7, tr)  # the writer itself
        assert card_words("r", 7, tr) == card_words("r", 7, tr) == afresh
    assert card_words("r", 7, translator("es")) != card_words("r", 7, translator("en"))


def test_words_are_written_once_per_arguments_and_language():
    writes, card_words = _counted_writer()
    spanish, english = translator("es"), translator("en")
    red, blue = card_words("r", 7, spanish), card_words("b", 7, spanish)
    assert [card_words("r", 7, spanish), card_words("b", 7, spanish)] == [red, blue] != [red, red]
    assert len(writes) == 2
    seven, eight = card_words("r", 7, english), card_words("r", 8, english)
    assert seven != eight and card_words("r", 7, translator("en-GB")) == seven
    assert len(writes) == 4


def test_another_translator_is_asked_every_time():
    writes, card_words = _counted_writer()
    asked: list[str] = []

    def stub(key: str, **params: object) -> str:
        asked.append(key)
        return f"<{key}>"

    texts = [card_words("r", 7, stub) for _ in range(3)]
    assert texts == ["<chupate2.card>"] * 3
    assert len(writes) == 3 and asked.count("chupate2.card") == 3


def test_a_language_has_one_translator_even_through_a_pickle():
    """The cache keys by the translator: one a language, so a render worker's unpickled
    translator finds what an earlier job's wrote."""
    for locale in LOCALES:
        tr = translator(locale)
        assert translator(locale) is tr and pickle.loads(pickle.dumps(tr)) is tr
    assert translator("en-US") is translator("en") is not translator("es")
