import re
from pathlib import Path

import pytest

from bot.i18n import LOCALES, catalogue, normalise_locale, placeholders, tr

BOT = Path(__file__).resolve().parents[2] / "bot"


def test_every_key_in_every_locale_with_the_same_placeholders():
    base = catalogue("es")
    assert base, "the Spanish catalogue is empty"
    for locale in LOCALES:
        other = catalogue(locale)
        assert set(other) == set(base), f"{locale}: {set(other) ^ set(base)}"
        for key, template in base.items():
            assert placeholders(other[key]) == placeholders(template), (locale, key)
            assert other[key].strip(), (locale, key)


def test_literal_keys_used_in_code_exist():
    pattern = re.compile(r"""\btr\((?:[a-z_.()]+,\s*)?["']([a-z0-9_]+\.[a-z0-9_.]+)["']""")
    used = set()
    for path in BOT.rglob("*.py"):
        used |= set(pattern.findall(path.read_text(encoding="utf-8")))
    assert used, "no translation keys found in bot/"
    missing = sorted(k for k in used if k not in catalogue("es"))
    assert missing == []


@pytest.mark.parametrize(
    "locale,expected",
    [("es-ES", "es"), ("en-US", "en"), ("en-GB", "en"), ("fr", "en"), (None, "es")],
)
def test_normalise_locale(locale, expected):
    assert normalise_locale(locale) == expected


def test_tr_formats_and_falls_back():
    assert tr("en", "error.table_full", max=4) == "The table is full (at most 4)."
    assert tr("es", "error.table_full", max=4) == "La mesa está llena (máximo 4)."
    assert tr("en", "no.such.key") == "no.such.key"
    assert "{max}" in tr("en", "error.table_full")  # a missing parameter never crashes
