"""``tr`` remembers rendered texts: the same answer as a fresh rendering for every key and
parameter shape, values of equal but differently printed types kept apart."""

from __future__ import annotations

from bot.i18n import LOCALES, catalogue, placeholders, tr
from bot.i18n import _render_key as fresh


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
