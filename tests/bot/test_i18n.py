import json
import re
from pathlib import Path

import pytest

from bot.i18n import LOCALES, catalogue, normalise_locale, placeholders, tr, translator
from tests.message_text import read_card

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


# ----- plurals --------------------------------------------------------------------------------
# Nouns that follow a count in the catalogues: (singular, plural).
NOUNS = {
    "es": [
        ("carta", "cartas"),
        ("victoria", "victorias"),
        ("partida", "partidas"),
        ("punto", "puntos"),
        ("moneda", "monedas"),
        ("amuleto", "amuletos"),
        ("combinación", "combinaciones"),
        ("ronda", "rondas"),
        ("jugador", "jugadores"),
        ("turno", "turnos"),
        ("segundo", "segundos"),
        ("pase", "pases"),
        ("elemento", "elementos"),
        ("pozo", "pozos"),
        ("vez", "veces"),
        ("ficha", "fichas"),
        ("MACA", "MACAS"),
        ("mano", "manos"),
        ("revancha", "revanchas"),
        ("nivel", "niveles"),
        ("mesa", "mesas"),
        ("moneda", "monedas"),
        ("minuto", "minutos"),
    ],
    "en": [
        ("card", "cards"),
        ("game", "games"),
        ("point", "points"),
        ("coin", "coins"),
        ("amulet", "amulets"),
        ("meld", "melds"),
        ("combination", "combinations"),
        ("round", "rounds"),
        ("player", "players"),
        ("turn", "turns"),
        ("second", "seconds"),
        ("element", "elements"),
        ("well", "wells"),
        ("time", "times"),
        ("token", "tokens"),
        ("MACA", "MACAS"),
        ("hand", "hands"),
        ("rematch", "rematches"),
        ("level", "levels"),
        ("table", "tables"),
        ("minute", "minutes"),
    ],
}
# Placeholders that never hold a number get a word; every other one gets the count under test.
WORDS = {
    "after",
    "background",
    "card",
    "cell",
    "code",
    "colour",
    "counts",
    "deadline",
    "dealer",
    "detail",
    "direction",
    "element",
    "emoji",
    "env_file",
    "face",
    "from",
    "game",
    "group",
    "helpers",
    "host",
    "level",
    "margin",
    "name",
    "payout",
    "phase",
    "player",
    "players",
    "reason",
    "rival",
    "rule",
    "rules",
    "sizes",
    "source",
    "suit",
    "to",
    "token",
    "values",
    "variants",
    "verdict",
    "winners",
}
HAND_WRITTEN_PLURAL = re.compile(r"\w\((s|es|n)\)", re.IGNORECASE)


def _disagreements(locale: str, n: int, text: str) -> list[str]:
    found = []
    for singular, plural in NOUNS[locale]:
        wrong = singular if n != 1 else plural
        # "2–4 jugadores" and "3/5" are ranges and fractions, not a count of their own.
        if re.search(rf"(?<![\d–/-]){n} {wrong}\b", text, re.IGNORECASE):
            found.append(f"{n} {wrong}")
    return found


@pytest.mark.parametrize("locale", LOCALES)
def test_every_key_renders_with_counts_0_1_2(locale):
    problems = []
    for key in sorted(catalogue("es")):
        template = catalogue(locale)[key]
        for n in (0, 1, 2):
            params = {name: "Ana" if name in WORDS else n for name in placeholders(template)}
            text = tr(locale, key, **params)
            if text == key:
                problems.append(f"{key}: raw key")
            if re.search(r"\{[a-z_]+\}|\{\w+, plural", text):
                problems.append(f"{key} [{n}]: unfilled placeholder in {text!r}")
            if HAND_WRITTEN_PLURAL.search(text):
                problems.append(f"{key}: hand-written plural in {text!r}")
            problems.extend(f"{key}: {d} in {text!r}" for d in _disagreements(locale, n, text))
    assert problems == []


def test_plural_choices_follow_cldr_and_exact_matches():
    from bot.i18n.messages import render

    template = "{count, plural, =0 {sin cartas} one {# carta} other {# cartas}} de {player}"
    rendered = [render(template, "es", {"count": n, "player": "Ana"}) for n in (0, 1, 2, 21)]
    assert rendered == [
        "sin cartas de Ana",
        "1 carta de Ana",
        "2 cartas de Ana",
        "21 cartas de Ana",
    ]
    two = "{won, plural, one {# win} other {# wins}} in {played, plural, one {# game} other {# games}}"
    assert render(two, "en", {"won": 1, "played": 3}) == "1 win in 3 games"
    assert render(two, "en", {}) == "{won} wins in {played} games"  # a gap shows, no crash
    assert render("table #{table}", "en", {"table": 4}) == "table #4"  # '#' outside a choice


@pytest.mark.parametrize(
    "options,expected",
    [
        ({}, "¡Ana se queda sin cartas y se lleva 1 punto!"),  # a one-round game: no "Ronda 1"
        ({"points": "50"}, "¡Ana se queda sin cartas! Ronda 1: 1 punto."),
    ],
)
def test_chupate2_round_won_in_a_single_round_game_says_no_round(options, expected):
    from bot.ui.chupate2.presenter import Presenter
    from games.chupate2 import GAME
    from tests.bot.presenter_kit import SEAT_IDS, SEAT_NAMES, text_presenter
    from tests.games.chupate2.helpers import make_state

    presenter = text_presenter(Presenter, GAME)
    hands = {SEAT_IDS[0]: ["g1a"], SEAT_IDS[1]: ["y1a"]}
    state = make_state(hands, "g5a", options=options, direction=1)
    state, _ = GAME.apply(state, SEAT_IDS[0], GAME.decode_action("p.g1a"))
    names = dict(zip(SEAT_IDS, SEAT_NAMES, strict=False)).get
    view = GAME.view(state, None)
    texts = [presenter.event_text(e, names, translator("es")) for e in presenter.last_events(view)]
    assert expected in texts


def test_macarena_waiting_lines_agree_with_how_many_wait():
    assert tr("es", "macarena.ui.waiting_penalty", players="Ana", count=1).endswith(
        "Ana entregue un elemento"
    )
    assert "Ana, Beto entreguen" in tr(
        "es", "macarena.ui.waiting_penalty", players="Ana, Beto", count=2
    )
    assert tr("en", "macarena.ui.waiting_buy", players="Ana", count=1).endswith("an element")


# ----- option names and Spanish in English ----------------------------------------------------
def _shown_option_name(locale: str, name: str) -> str:
    """What a reader sees as a slash-command option's name: its localised name."""
    return catalogue(locale).get(f"cmd.param.{name}", name)


@pytest.mark.parametrize("locale", LOCALES)
def test_rules_name_options_as_the_reader_sees_them(locale):
    from bot.registry import load_games

    for key, game in load_games().items():
        fields = set(game.options_model.model_fields) | {"cpu_level", "turn_seconds"}
        shown = {_shown_option_name(locale, f) for f in fields}
        quoted = set(re.findall(r"`([a-z_0-9]+)`", tr(locale, f"{key}.rules")))
        assert quoted <= shown, (key, quoted - shown)
    assert "`cartas_mano`" in tr("es", "amapatolli.rules")
    assert "hand_size" not in tr("es", "amapatolli.rules") + tr("es", "maquiavelo.rules")


def test_no_spanish_fragments_in_english_options_and_macarena_rules():
    assert "una sola" not in tr("en", "chupate2.option.points")
    assert "off =" not in tr("es", "chupate2.option.points")
    rules = tr("en", "macarena.rules")
    assert "escalera" not in rules and "igual número" not in rules
    assert "**wells**" in rules and "**Mirror:**" in rules


KEPT_TERMS = json.loads((BOT / "i18n" / "kept_terms.json").read_text(encoding="utf-8"))
# Spanish game words that read as English nowhere (issue 31: "Espejo turn", pozo, ¡Mentira!...).
SPANISH_TERMS = (
    "pozo pozos espejo mentira última sentido horario antihorario carta cartas mano manos "
    "turno jugador jugadores ronda partida partidas amarillo rojo verde azul negro moneda "
    "monedas amuleto amuletos elemento elementos tierra fuego agua aire ayuda estricto pared "
    "igual suma cadena abierto mezclada diferencia directo todas robar roba juega gana pierde "
    "ficha fichas nivel niveles ordenador computadora terminar jugar salir volver reglas "
    "perfil clasificación colección sí"
).split()
SPANISH_LETTERS = re.compile(r"[¡¿ñáéíóú]", re.IGNORECASE)


def _english_words(text: str) -> list[str]:
    """The words of an English string once kept names and placeholder names are taken out."""
    for name in sorted(KEPT_TERMS["games"] + KEPT_TERMS["terms"], key=len, reverse=True):
        text = text.replace(name, " ")
    text = re.sub(r"\{\w+", " ", text)  # a placeholder's or plural choice's name
    return re.findall(r"[¡¿]?[^\W\d_]+", text)


@pytest.mark.parametrize("n", (0, 1, 2))
def test_no_untranslated_spanish_term_in_english_strings(n):
    """Every English entry rendered with 0, 1 and 2 holds no Spanish game word and no Spanish
    letter, but for the names kept in every language (``bot/i18n/kept_terms.json``). The card
    names of Triple Triad are data (each has its English name); the bot is "Mesa" in both."""
    english = catalogue("en")
    spanish = set(SPANISH_TERMS)
    problems = []
    for key, template in sorted(english.items()):
        if key.startswith("triad.card."):
            continue
        params = {name: "Ana" if name in WORDS else n for name in placeholders(template)}
        text = tr("en", key, **params).replace("Ana", " ")
        for word in _english_words(text):
            if word.lower() in spanish or SPANISH_LETTERS.search(word):
                problems.append(f"{key}: {word!r} in {text[:120]!r}")
    assert problems == []


def test_kept_terms_are_few_and_named_once():
    names = KEPT_TERMS["games"] + KEPT_TERMS["terms"]
    assert len(names) == len(set(names)) and len(names) <= 25
    for key in ("amapatolli", "chupate2", "macarena", "maquiavelo", "triad"):
        assert tr("en", f"{key}.name") in KEPT_TERMS["games"], key


def test_triad_says_what_to_do_on_a_turn_once():
    from bot.ui.triad.presenter import Presenter
    from games.triad import GAME
    from tests.bot.presenter_kit import text_presenter
    from tests.games.triad.randomgames import SEATS, random_game

    presenter = text_presenter(Presenter, GAME)
    g = random_game(3)
    state = GAME.new(SEATS, g.seed, g.options, hands=g.hands)
    seat = sorted(GAME.to_act(state))[0]
    view = GAME.view(state, seat)
    for locale in LOCALES:
        t = translator(locale)
        lines = presenter.private_lines(view, t) + presenter.draft_lines(view, {}, t)
        instructions = [line for line in lines if tr(locale, "triad.ui.choose_card") == line]
        assert len(instructions) == 1
        assert tr(locale, "triad.status.turn") not in lines


def test_triad_explains_the_values_notation():
    """Issue 31: "[3-5-4-3]" is explained wherever a player reads card values."""
    from bot.ui.triad.lobby import picker_payload
    from bot.ui.triad.presenter import Presenter
    from games.triad import GAME
    from tests.bot.presenter_kit import text_presenter
    from tests.games.triad.randomgames import SEATS, random_game

    presenter = text_presenter(Presenter, GAME)
    g = random_game(3)
    state = GAME.new(SEATS, g.seed, g.options, hands=g.hands)
    for locale in LOCALES:
        t = translator(locale)
        legend = tr(locale, "triad.ui.values_legend")
        assert legend in presenter.private_lines(GAME.view(state, SEATS[0]), t)
        picker = picker_payload(7, {"c001": 1, "c002": 2}, [], 0, False, t)
        assert legend in read_card(picker).description


@pytest.mark.parametrize("locale", LOCALES)
def test_lobby_options_read_as_names_not_command_help(locale):
    """Issue 31: the lobby lists "Equipos: **sin equipos**", not the slash option's help text,
    and a 0 that means "automatic" says so."""
    from bot.registry import load_games
    from bot.ui.messages import _option_value, option_name

    t = translator(locale)
    for key, game in load_games().items():
        for field in game.options_model.model_fields:
            name = option_name(key, field, t)
            assert name and len(name) <= 40 and ":" not in name and "(" not in name, (key, name)
    assert (
        option_name("chupate2", "points", t) == tr(locale, "chupate2.option.points").split(":")[0]
    )
    for key, field in (("maquiavelo", "hand_size"), ("macarena", "amulets_to_win")):
        shown = _option_value(key, field, 0, t)
        assert shown != "0" and shown.split()[0] in ("automático", "automatic")
    assert _option_value("maquiavelo", "hand_size", 7, t) == "7"


@pytest.mark.parametrize("locale", ["es", "en"])
def test_a_missing_table_is_said_in_the_place_s_own_words(locale):
    """A group DM or the bot's DM is no server: "no table #7 in this server" would be wrong
    there (``bot/ui/feedback.error_key``); a server, with the bot or without, keeps it."""
    from bot.errors import TableError
    from bot.places import Place, PlaceKind
    from bot.ui.feedback import error_text

    missing = TableError("no_such_table", table=7)
    server = error_text(missing, locale, place=Place(PlaceKind.SERVER, 1, 2))
    without_bot = error_text(missing, locale, place=Place(PlaceKind.SERVER_WITHOUT_BOT, 1, 2))
    group = error_text(missing, locale, place=Place(PlaceKind.GROUP_DM, 1, None))
    dm = error_text(missing, locale, place=Place(PlaceKind.BOT_DM, 1, None))
    assert server == without_bot == error_text(missing, locale)
    word = {"es": "servidor", "en": "server"}[locale]
    assert word in server and "#7" in server
    assert len({server, group, dm}) == 3
    assert all("#7" in text and word not in text for text in (group, dm))
