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


def test_fresh_texts_and_the_short_way_give_the_whole_rendering():
    """``fresh`` (a text not remembered) and the short way of a template without plurals
    (``bot.i18n._short``) give the whole rendering's text: every parameter's own value at
    every call (nothing kept from the last one), a missing parameter kept visible, a command
    name a value brings in shown as the reader's client names it."""
    from bot.i18n import _short
    from bot.i18n import fresh as not_remembered

    assert _short("es", "table.footer", {"version": 1}) is not None  # the way tested
    assert _short("es", next(k for k, t in catalogue("es").items() if "plural" in t), {}) is None
    assert _short("es", "no.such.key", {}) is None
    for locale in LOCALES:
        bound = translator(locale)
        for key, template in catalogue(locale).items():
            for value in (1, 2, "x", "[/stop]"):
                params = {name: value for name in placeholders(template)}
                expected = fresh(locale, key, params)
                assert not_remembered(bound, key, **params) == expected
                assert bound(key, **params) == expected  # (remembered the short way)
            some = {name: 1 for name in sorted(placeholders(template))[1:]}  # one missing
            assert not_remembered(bound, key, **some) == fresh(locale, key, some)
    bound = translator("es")
    for version in (1, 2, 1):
        assert not_remembered(bound, "table.footer", version=version) == f"Versión {version}"
    assert not_remembered(bound, "table.footer") == "Versión {version}"
    assert not_remembered(bound, "table.footer", version="[/stop]") == "Versión /terminar"
    assert not_remembered(lambda key, **params: f"{key}{params}", "k", a=1) == "k{'a': 1}"
