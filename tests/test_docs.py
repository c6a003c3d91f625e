"""The documents in ``docs/`` against the tree (issue 26).

``docs/adding-a-game.md`` is a checklist: every file it lists under "The game's own files" exists
for every registered game, and a product file outside those that names every game (a registry of
games) is one it lists under "Shared files to edit", so adding a game touches those files and no
others. README and docstrings point into ``docs/``, never to a folder outside the repository.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.registry import GAME_KEYS

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
CHECKLIST = DOCS / "adding-a-game.md"
ITEM = re.compile(r"^- \[ \] (.*)$")
PATH = re.compile(r"`([^`\s]+)`")
PRODUCT = ("bot", "games", "storage")


def _section(title: str) -> list[list[str]]:
    """The checklist items of section ``title``: each item's places (alternatives of ``or``)."""
    text = CHECKLIST.read_text(encoding="utf-8")
    body = text.split(f"\n## {title}", 1)[1].split("\n## ", 1)[0]
    items = []
    for line in body.splitlines():
        match = ITEM.match(line)
        if match:
            head = match.group(1).split(" — ", 1)[0]
            items.append(PATH.findall(head))
    return items


def test_the_checklist_lists_files():
    own, shared = _section("The game's own files"), _section("Shared files to edit")
    assert len(own) >= 15 and all(own), own
    assert len(shared) >= 3 and all(shared), shared


@pytest.mark.parametrize("key", GAME_KEYS)
def test_every_file_of_the_checklist_exists_for_every_game(key):
    missing = [
        " or ".join(places)
        for places in _section("The game's own files")
        if not any((ROOT / p.replace("<key>", key)).is_file() for p in places)
    ]
    assert missing == [], f"{key} lacks {missing}"


def test_the_shared_files_of_the_checklist_exist_and_name_every_game():
    for path, *_rest in _section("Shared files to edit"):
        text = (ROOT / path).read_text(encoding="utf-8")
        assert all(f'"{key}"' in text for key in GAME_KEYS), path


def _names_every_game(text: str) -> bool:
    return all(re.search(rf"[\"'.]{key}[\"'.]", text) for key in GAME_KEYS)


def test_adding_a_game_touches_only_the_checklist():
    """A product module that names every game (outside one game's own places) is a list of
    games that a new game must join: the checklist names it."""
    shared = {places[0] for places in _section("Shared files to edit")}
    own = [p for places in _section("The game's own files") for p in places]
    own_patterns = [
        re.compile(re.escape(p).replace(re.escape("<key>"), r"[a-z0-9_]+")) for p in own
    ]
    found = []
    for top in PRODUCT:
        for path in sorted((ROOT / top).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if any(p.fullmatch(rel) for p in own_patterns) or rel.startswith("games/"):
                continue  # a game's own package names only itself
            if _names_every_game(path.read_text(encoding="utf-8")) and rel not in shared:
                found.append(rel)
    assert found == [], f"these name every game but the checklist does not list them: {found}"


@pytest.mark.parametrize("key", GAME_KEYS)
def test_every_game_has_its_rules_in_docs(key):
    text = (DOCS / "rules" / f"{key}.md").read_text(encoding="utf-8")
    assert text.startswith("# ") and "rules specification" in text.splitlines()[0]


def test_the_architecture_names_files_that_exist():
    text = (DOCS / "architecture.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`((?:bot|games|storage|tests)/[\w/]+\.py)`", text))
    assert len(named) >= 30
    missing = sorted(p for p in named if not (ROOT / p).is_file())
    assert missing == []


def test_a_clicks_path_has_at_most_eight_files():
    text = (DOCS / "architecture.md").read_text(encoding="utf-8")
    path = text.split("## A click's path", 1)[1].split("\nThe Start button", 1)[0]
    steps = re.findall(r"^\d+\. `([^`]+)`", path, flags=re.M)
    assert 3 <= len(steps) <= 8 and all((ROOT / s).is_file() for s in steps), steps


def test_nothing_points_outside_the_repository():
    """README, docs and docstrings point to ``docs/…``, not to ``../shared`` or absolute paths."""
    outside = re.compile(r"\.\./shared|(?<![\w.])shared/(?:rules|ARCHITECTURE|DISCORD)|/work/")
    files = [ROOT / "README.md", *DOCS.rglob("*.md")]
    for top in (*PRODUCT, "tests", "bench"):
        files += sorted((ROOT / top).rglob("*.py"))
    found = [
        f"{f.relative_to(ROOT)}:{n}"
        for f in files
        if f != Path(__file__).resolve()
        for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1)
        if outside.search(line) and "discord-api-spec" not in line
    ]
    assert found == [], found


def test_every_link_between_docs_resolves():
    for doc in [ROOT / "README.md", *DOCS.rglob("*.md")]:
        for target in re.findall(r"\]\(([^)#:]+)\)", doc.read_text(encoding="utf-8")):
            assert (doc.parent / target).exists(), f"{doc.relative_to(ROOT)} -> {target}"


def test_the_checklist_names_the_shared_vocabulary():
    """The add-a-game checklist gives the common moves' names and texts and the state's turn and
    end fields as the structure test checks them in the code."""
    from tests.test_structure import COMMON_VERBS

    text = CHECKLIST.read_text(encoding="utf-8")
    for name, verb in COMMON_VERBS.items():
        assert f"`{name}` `{verb}`" in text, name
    assert "`turn`" in text and "`finished`" in text and "`old_verbs`" in text


def test_the_start_button_s_handler_is_three_files_away_as_the_docs_say():
    """Goal of issue 26: the Start button's handler in <= 3 files, each named by the docs and
    each handing the press to the next."""
    import inspect

    from bot.cogs.lobby import LobbyCog
    from bot.service.lobby import Lobby
    from bot.ui.items import LobbyButton

    text = (DOCS / "architecture.md").read_text(encoding="utf-8")
    line = text.split("\nThe Start button:", 1)[1].split("\n\n", 1)[0]
    files = re.findall(r"`((?:bot|games|storage)/[\w/]+\.py)`", line)
    assert files == ["bot/ui/items.py", "bot/cogs/lobby.py", "bot/service/lobby.py"]
    assert "cog.on_lobby_button(" in inspect.getsource(LobbyButton.run)
    assert '"start": functools.partial(service.lobby.start,' in inspect.getsource(
        LobbyCog.on_lobby_button
    )
    assert inspect.getsourcefile(Lobby.start) == str(ROOT / files[2])


def test_the_plus_four_challenge_is_decided_in_one_file():
    """Goal of issue 26: a newcomer finds the +4 challenge in one file: Chúpate 2's rules
    decide it (whether the +4 was legal, who draws); the other modules only name or show it."""
    deciders = [
        path.name
        for path in sorted((ROOT / "games" / "chupate2").glob("*.py"))
        if '"challenge_won"' in path.read_text(encoding="utf-8")
        and '"challenge_lost"' in path.read_text(encoding="utf-8")
        and "def _challenge" in path.read_text(encoding="utf-8")
    ]
    assert deciders == ["rules.py"]
