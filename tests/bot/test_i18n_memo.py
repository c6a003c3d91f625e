"""``tr`` remembers rendered texts: the same answer as a fresh rendering for every key and
parameter shape, values of equal but differently printed types kept apart."""

from __future__ import annotations

import string

from bot.i18n import LOCALES, catalogue, placeholders, tr, translator
from bot.i18n import _render_key as fresh
from bot.i18n.messages import _flatten, _KeepMissing, parse, render


def test_remembered_texts_equal_fresh_renderings_for_every_key():
    for locale in LOCALES:
        for key, template in catalogue(locale).items():
            for value in (0, 1, 2, 5, "x"):
                params = {name: value for name in placeholders(template)}
                assert tr(locale, key, **params) == fresh(locale, key, params)
                assert tr(locale, key, **params) == fresh(locale, key, params)  # remembered


def test_equal_values_of_other_types_print_apart_and_unhashable_ones_still_render():
    key = next(k for k, t in catalogue("en").items() if placeholders(t))
    name = sorted(placeholders(catalogue("en")[key]))[0]
    as_int = tr("en", key, **{name: 1})
    as_float = tr("en", key, **{name: 1.0})
    assert as_int == fresh("en", key, {name: 1})
    assert as_float == fresh("en", key, {name: 1.0})
    assert tr("en", key, **{name: [1, 2]}) == fresh("en", key, {name: [1, 2]})


def test_parameters_named_in_any_order_or_swapped_render_their_own_values():
    key, template = next((k, t) for k, t in catalogue("en").items() if len(placeholders(t)) >= 2)
    first, second = sorted(placeholders(template))[:2]
    one = tr("en", key, **{first: "A", second: "B"})
    other_order = tr("en", key, **{second: "B", first: "A"})
    swapped = tr("en", key, **{first: "B", second: "A"})
    assert one == other_order == fresh("en", key, {first: "A", second: "B"})
    assert swapped == fresh("en", key, {first: "B", second: "A"}) != one


def test_a_bound_translator_gives_the_fresh_rendering_of_every_key_with_or_without_params():
    for locale in LOCALES:
        bound = translator(locale)
        for key, template in catalogue(locale).items():
            params = {name: 2 for name in placeholders(template)}
            for _ in range(2):  # rendered, then remembered
                assert bound(key) == fresh(locale, key, {})
                assert bound(key, **params) == fresh(locale, key, params)
        assert bound("no.such.key") == "no.such.key"


def test_rendering_formats_as_python_s_formatter_for_every_key_and_parameter_shape():
    """``render`` formats with ``str.format_map``: the same text as ``string.Formatter`` for
    every template, missing parameters kept visible, numbers, words, booleans and lists."""
    for locale in LOCALES:
        for template in catalogue(locale).values():
            names = placeholders(template)
            shapes = [{}, *({n: v for n in names} for v in (0, 1, 2, 2.5, "x", True, [1]))]
            for params in shapes:
                flat = _flatten(parse(template), locale, params)
                expected = string.Formatter().vformat(flat, (), _KeepMissing(params))
                assert render(template, locale, params) == expected
