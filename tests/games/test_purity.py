"""games/ stays pure: no I/O libraries, no bot or storage, no global random, no clock."""

import ast
from pathlib import Path

GAMES = Path(__file__).resolve().parents[2] / "games"
FORBIDDEN_MODULES = {
    # our other packages (import-linter checks these too)
    "bot",
    "storage",
    "tests",
    # I/O, concurrency and the clock
    "discord",
    "aiosqlite",
    "aiohttp",
    "asyncio",
    "sqlite3",
    "socket",
    "subprocess",
    "threading",
    "urllib",
    "os",
    "PIL",
    "time",
    "datetime",
}
GLOBAL_RANDOM_FUNCS = {
    "random",
    "randint",
    "randrange",
    "choice",
    "choices",
    "shuffle",
    "sample",
    "uniform",
    "seed",
    "getrandbits",
    "gauss",
}


def _violations(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in FORBIDDEN_MODULES:
                    found.append(f"{path}:{node.lineno} import {alias.name}")
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.split(".")[0] in FORBIDDEN_MODULES:
                found.append(f"{path}:{node.lineno} from {node.module}")
            if node.module == "random":
                bad = [a.name for a in node.names if a.name in GLOBAL_RANDOM_FUNCS]
                if bad:
                    found.append(f"{path}:{node.lineno} from random import {bad}")
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "random"
            and node.attr in GLOBAL_RANDOM_FUNCS
        ):
            found.append(f"{path}:{node.lineno} random.{node.attr}")
    return found


def test_games_package_is_pure():
    files = sorted(GAMES.rglob("*.py"))
    assert files, "games/ has no modules"
    violations = [v for f in files for v in _violations(f)]
    assert violations == []


def test_checker_catches_violations(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import discord\nimport random\nrandom.shuffle([])\nfrom storage import x\n")
    assert len(_violations(bad)) == 3
