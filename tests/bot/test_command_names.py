"""Command names in what players read are the localised ones (issue 31): no Python string
a player may read names a slash command itself (``/stop``), the catalogues name commands
only as ``[/stop]`` (rendered with each locale's command name: ``/terminar`` in Spanish), and
command names built at run time (a restarted bot's "try again" answer, slash-option
descriptions) are localised too."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import discord
import pytest
from discord import app_commands

from bot.i18n import LOCALES, catalogue, command_name, command_path, tr
from bot.i18n.commands import CatalogueTranslator

BOT = Path(__file__).resolve().parents[2] / "bot"
# Strings that put "/" before a computed name on purpose, and why they are not a player's text.
BUILT_WITH_A_SLASH = {
    ("settings.py", "shard"): 'a log line\'s shard list ("0,1/2"), not a command',
    ("ui/pending_commands.py", "qualified_name"): "stored as the intent's action; the "
    "restarted bot shows it through command_path (tested below)",
}


def _command_words() -> set[str]:
    """Every command and subcommand name, as declared and as each locale shows it."""
    words = set()
    for locale in LOCALES:
        for key, value in catalogue(locale).items():
            if key.endswith(".name") and (key.startswith("cmd.") or ".ui.cmd." in key):
                words.update({value, key.split(".")[-2]})
    return words


COMMAND_WORDS = _command_words()
# "/stop", "`/play`", "(/history)": a slash right before a command's name, not in a path or URL
NAMED = re.compile(
    r"(?<![\w:/.\[<])/(" + "|".join(sorted(COMMAND_WORDS, key=len, reverse=True)) + r")\b"
)


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _sources() -> list[tuple[str, ast.AST]]:
    return [
        (str(path.relative_to(BOT)), ast.parse(path.read_text(encoding="utf-8")))
        for path in sorted(BOT.rglob("*.py"))
    ]


def test_the_scan_knows_the_commands():
    assert {"stop", "terminar", "play", "jugar", "cards", "cartas", "history"} <= COMMAND_WORDS
    assert NAMED.search("Termínala con /stop.") and NAMED.search("usa `/terminar`")
    assert not NAMED.search("[/stop]") and not NAMED.search("bot/cogs/play.py")
    assert not NAMED.search("attachment://cards.png") and not NAMED.search("https://x/stop")


def _named_in_strings(name: str, tree: ast.AST) -> list[str]:
    """Strings (not docstrings) that name a command with its slash."""
    docs = _docstrings(tree)
    return [
        f"bot/{name}:{node.lineno}: {node.value[:80]!r}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docs
        and NAMED.search(node.value)
    ]


def _built_with_a_slash(name: str, tree: ast.AST) -> list[tuple[str, str]]:
    """``"/" + name`` or ``f"/{name}"``: (where, source) of each text that puts a slash before a
    computed name, as a command named in the default locale at run time would be."""
    found = []
    for node in ast.walk(tree):
        parts: list[ast.expr] = []
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            parts = [node.left, node.right]
        elif isinstance(node, ast.JoinedStr):
            parts = list(node.values)
        for i, (before, after) in enumerate(zip(parts, parts[1:], strict=False)):
            if not (isinstance(before, ast.Constant) and isinstance(before.value, str)):
                continue
            # a "/" that starts the text, or follows a space, "`" or "(", then a value
            starts = i == 0 and before.value == "/"
            if (starts or re.search(r"[\s`(]/$", before.value)) and not isinstance(
                after, ast.Constant
            ):
                found.append((f"bot/{name}:{node.lineno}", ast.unparse(node)))
    return found


def test_the_scans_find_what_they_look_for():
    tree = ast.parse(
        '"""Docstrings may say /stop."""\nA = "usa /terminar"\nB = "/" + cmd\nC = f"try `/{c}`"\n'
    )
    assert len(_named_in_strings("x.py", tree)) == 1
    assert [where for where, _ in _built_with_a_slash("x.py", tree)] == ["bot/x.py:3", "bot/x.py:4"]


def test_no_python_string_names_a_command():
    """Docstrings and comments may name commands; a string the code uses may not."""
    found = [hit for name, tree in _sources() for hit in _named_in_strings(name, tree)]
    assert not found, "name commands through the catalogue ([/stop]):\n" + "\n".join(found)


def test_no_python_code_builds_a_command_name_outside_the_catalogue_helpers():
    found, allowed = [], set()
    for name, tree in _sources():
        if name.startswith("i18n/"):
            continue  # command_name / command_names / command_path: the localisers
        for where, source in _built_with_a_slash(name, tree):
            reason = [(f, w) for f, w in BUILT_WITH_A_SLASH if name == f and w in source]
            allowed.update(reason)
            if not reason:
                found.append(f"{where}: {source[:80]}")
    assert not found, "\n".join(found)
    assert allowed == set(BUILT_WITH_A_SLASH)  # every exception still exists


@pytest.mark.parametrize("locale", LOCALES)
def test_catalogues_name_commands_only_in_brackets_and_only_real_ones(locale):
    bare, unknown = [], []
    for key, value in catalogue(locale).items():
        if NAMED.search(value):
            bare.append(f"{key}: {value[:80]!r}")
        for ref in re.findall(r"\[/([a-z_]+)\]", value):
            if command_name(ref, "es") == ref and command_name(ref, "en") == ref:
                unknown.append(f"{key}: [/{ref}]")  # no command of that name
    assert not bare, "write [/name]:\n" + "\n".join(bare)
    assert not unknown, "\n".join(unknown)


def test_bracketed_names_render_as_each_locale_shows_them():
    assert "/terminar" in tr("es", "error.channel_busy")
    assert "/stop" in tr("en", "error.channel_busy")
    assert "[/" not in tr("es", "error.channel_busy")


@pytest.mark.parametrize(
    ("path", "es", "en"),
    [
        ("/play amapatolli", "/jugar amapatolli", "/play amapatolli"),
        ("/settings show", "/ajustes mostrar", "/settings show"),
        ("/stop", "/terminar", "/stop"),
        ("/cards", "/cartas", "/cards"),
    ],
)
def test_a_stored_command_is_shown_with_the_readers_names(path, es, en):
    assert command_path(path, "es") == es
    assert command_path(path, "en-GB") == en


async def test_slash_option_descriptions_name_commands_as_their_locale_does():
    translator = CatalogueTranslator()
    text = app_commands.locale_str("x", key="cmd.option.table")
    spanish = await translator.translate(text, discord.Locale.spain_spanish, None)
    english = await translator.translate(text, discord.Locale.british_english, None)
    assert spanish is not None and "/historial" in spanish and "[/" not in spanish
    assert english is not None and "/history" in english and "[/" not in english
