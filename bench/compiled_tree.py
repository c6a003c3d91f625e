"""A copy of this tree with its hot pure-Python modules compiled by mypyc (issue 29's experiment:
what compiling would save per move): git's tracked files copied to DEST, the modules of
``MODULES`` (or ``--modules``) compiled there in place (their ``.so`` beside the ``.py``, which
Python then imports first), the compile time and the extensions' sizes printed. DEST then runs
as any other tree:

    .venv/bin/python bench/compiled_tree.py /tmp/mesa-compiled            # MODULES
    .venv/bin/python bench/compiled_tree.py DEST --modules bot/ui/v2.py bot/ui/text.py
    nice -n 10 .venv/bin/python bench/load.py --tables 100 --bot-root /tmp/mesa-compiled
    .venv/bin/python bench/ab_pair.py --a . --b /tmp/mesa-compiled ...
    .venv/bin/python bench/profile_engines.py --instructions --root /tmp/mesa-compiled
    cd /tmp/mesa-compiled && PYTHONPATH=. $TREE/.venv/bin/python -m pytest -q tests/...

Compiled with this tree's mypy (``mypyc`` ships with it; gcc and the Python headers needed),
``opt_level`` 3, every module in one shared library (mypyc's default: calls between compiled
modules are native calls). DEST is emptied first. A developer who edits a ``.py`` of DEST
runs the stale ``.so`` still: rerun this script. Nothing is asserted.

Session 34 (62 modules, 3-8 min wall on the shared 2-core VM, 8.0 MiB of extensions; payloads
byte-identical, ``bench/payload_digest.py``): ``bench/profile_engines.py --instructions``
1,808,819 -> 1,553,381 instructions per move of the load's mix (-14 %; best-of CPU, trees
alternated, 361 -> 308 us), ``bench/profile_payloads.py --instructions`` 2,149,264 -> 1,809,086
per move in a row (-16 %) (both counted with bot/ui/presenter.py compiled too); the live bot
at 100 tables beside the pure tree (``bench/ab_pair.py``, a loaded machine): bot -0.07, 0.00
and +0.14 ms per move of ~4.5 in three rounds (noise; a new DEST's first run also compiles the
numba kernel into its cache: searches slow). The handlers (cogs, items, view kit, payload
sends), the models and the engines' states stay pure Python: what is left to gain.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Compiled: pure or only awaited (no callback discord.py checks), hot on a move's path (issue
# 29's profile at 500 tables: handlers 1.09 ms/move, payload building 0.46, games 0.26).
MODULES = [
    "games/__init__.py",
    "games/amapatolli/__init__.py",
    "games/amapatolli/ai.py",
    "games/amapatolli/ai_search.py",
    "games/amapatolli/cards.py",
    "games/chupate2/__init__.py",
    "games/chupate2/ai.py",
    "games/chupate2/ai_infer.py",
    "games/chupate2/ai_search.py",
    "games/chupate2/cards.py",
    "games/chupate2/events.py",
    "games/chupate2/rules.py",
    "games/core/__init__.py",
    "games/core/budget.py",
    "games/core/computer.py",
    "games/core/errors.py",
    "games/core/fast.py",
    "games/core/rng.py",
    "games/core/search.py",
    "games/core/statejson.py",
    "games/macarena/__init__.py",
    "games/macarena/ai.py",
    "games/macarena/ai_rollout.py",
    "games/macarena/ai_search.py",
    "games/macarena/elements.py",
    "games/macarena/endhand.py",
    "games/macarena/rules.py",
    "games/macarena/series.py",
    "games/macarena/turns.py",
    "games/maquiavelo/__init__.py",
    "games/maquiavelo/ai.py",
    "games/maquiavelo/ai_hoard.py",
    "games/maquiavelo/ai_search.py",
    "games/maquiavelo/arrange.py",
    "games/maquiavelo/cards.py",
    "games/maquiavelo/notation.py",
    "games/maquiavelo/rules.py",
    "games/triad/__init__.py",
    "games/triad/ai.py",
    "games/triad/data/__init__.py",
    "games/triad/search.py",
    "bot/i18n/__init__.py",
    "bot/i18n/messages.py",
    "bot/trusted_json.py",
    "bot/ui/alt_text.py",
    "bot/ui/amapatolli/alt.py",
    "bot/ui/amapatolli/text.py",
    "bot/ui/chupate2/alt.py",
    "bot/ui/chupate2/text.py",
    "bot/ui/ids.py",
    "bot/ui/layout.py",
    "bot/ui/macarena/alt.py",
    "bot/ui/macarena/text.py",
    "bot/ui/maquiavelo/alt.py",
    "bot/ui/maquiavelo/text.py",
    "bot/ui/messages.py",
    "bot/ui/rendering.py",
    "bot/ui/text.py",
    "bot/ui/token_wire.py",
    "bot/ui/triad/alt.py",
    "bot/ui/triad/text.py",
    "bot/ui/v2.py",
]

# Left out, with why (a module compiled from this list must not be one of these).
LEFT_OUT = {
    "games/triad/kernel.py": "numba compiles it (njit functions must stay Python functions)",
    "games/triad/compiled.py": "numba's: the kernel's loader and cache",
    "games/__main__.py": "a command line, not on the move's path",
    # A pydantic model's methods compiled are not functions (pydantic: "a non-annotated
    # attribute was detected"), a field's default ``Field(...)`` is checked against the field's
    # type at import (TypeError), a ClassVar a subclass sets is not seen (AttributeError):
    # every module that defines a model is left out.
    "games/core/actions.py": "pydantic models (Action and its kinds)",
    "games/core/cards.py": "pydantic models (PlayingCard)",
    "games/core/fairness.py": "pydantic models (Seal, DealExport)",
    "games/core/engine.py": "pydantic models; mypyc's internal error on a lambda in Event's "
    "classmethod (engine.py:120, AssertionError in env_class)",
    "games/core/eventlog.py": "pydantic models; a class body's `if TYPE_CHECKING:` (unsupported)",
    "games/core/rules.py": "reads and sets attributes of its subclasses' classes "
    "(``cls.__dict__``, setattr in __init_subclass__): not a native class's",
    "games/amapatolli/actions.py": "pydantic models",
    "games/amapatolli/options.py": "pydantic models",
    "games/amapatolli/rules.py": "pydantic models (AmapatolliOutcome)",
    "games/amapatolli/state.py": "pydantic models",
    "games/amapatolli/view.py": "pydantic models",
    "games/chupate2/actions.py": "pydantic models",
    "games/chupate2/options.py": "pydantic models",
    "games/chupate2/state.py": "pydantic models; a class body's `if TYPE_CHECKING:`",
    "games/chupate2/view.py": "pydantic models",
    "games/macarena/actions.py": "pydantic models",
    "games/macarena/options.py": "pydantic models",
    "games/macarena/state.py": "pydantic models",
    "games/macarena/view.py": "pydantic models",
    "games/maquiavelo/actions.py": "pydantic models",
    "games/maquiavelo/options.py": "pydantic models",
    "games/maquiavelo/state.py": "pydantic models",
    "games/maquiavelo/view.py": "pydantic models",
    "games/maquiavelo/solver.py": "`del` of a closure's variable (mypyc: cannot be deleted)",
    "games/triad/actions.py": "pydantic models",
    "games/triad/cards.py": "pydantic models",
    "games/triad/options.py": "pydantic models",
    "games/triad/rules.py": "pydantic models (RoundView, TriadOutcome)",
    "games/triad/state.py": "pydantic models",
    "games/triad/view.py": "pydantic models",
    "games/amapatolli/game.py": "a RulesGame: games/core/rules.py binds its methods at class "
    "creation",
    "games/chupate2/game.py": "a RulesGame (as amapatolli's)",
    "games/macarena/game.py": "a RulesGame (as amapatolli's)",
    "games/maquiavelo/game.py": "a RulesGame (as amapatolli's)",
    "games/triad/game.py": "a RulesGame (as amapatolli's)",
    # The games' presenters (interpreted) set class attributes (``colour``) a native base reads
    # from its own slots: with ``allow_interpreted_subclasses``, ``presenter.colour`` read by the
    # compiled ``messages`` was the base's blurple in four games' payloads
    # (``bench/payload_digest.py``); a non-native GamePresenter is not subscriptable
    # (``GamePresenter[View, Action]``, TypeError at import).
    "bot/ui/presenter.py": "subclassed by the interpreted presenters (see above)",
    "bot/ui/amapatolli/presenter.py": "its base, GamePresenter, left out",
    "bot/ui/chupate2/presenter.py": "its draft handlers get attributes (``presenter.drafts``'s "
    "mark): a compiled method takes none",
    "bot/ui/macarena/presenter.py": "as chupate2's presenter",
    "bot/ui/maquiavelo/presenter.py": "as chupate2's presenter",
    "bot/ui/triad/presenter.py": "as chupate2's presenter",
    "bot/ui/payload.py": "an int assigned to a float variable (payload.py:435, a compile error; "
    "another helper's file this session)",
    "bot/cogs/": "discord.py checks its callbacks and listeners are coroutine functions: a "
    "compiled ``async def`` is not one",
}


# Classes of compiled modules that mypyc's defaults break, given mypyc's own class attributes in
# DEST only (``mypy_extensions.mypyc_attr``: mypy's dependency; the tree's source does not import
# it): ``native_class=False`` where mypyc cannot make the class native, and
# ``allow_interpreted_subclasses=True`` where a module left out (or a test) subclasses it.
CLASS_ATTRS = {
    # a Generic dataclass: "'__dict__' of 'type' objects is not writable" at import
    "games/core/search.py": [("class SearchResult(", "native_class=False")],
    "bot/ui/rendering.py": [
        # ``kept_once`` keeps its value in the instance's ``__dict__``, which a native class has
        # not (AttributeError)
        ("class kept_once(", "native_class=False"),
        # a dict subclass called as a function: the render tests crashed (segfault) in its call
        ("class NameBook(", "native_class=False"),
    ],
    "bot/i18n/messages.py": [("class _KeepMissing(", "native_class=False")],  # as NameBook
    # a subclass of a builtin type other than object
    "bot/trusted_json.py": [("class Unsupported(TypeError):", "native_class=False")],
}
# And every frozen dataclass of a compiled module is made non-native: a native one does not
# unpickle (its ``__setattr__`` refuses: ``Budget`` sent to a search worker killed the pool,
# FrozenInstanceError), nor is a Generic one made (PrivateMove, DraftStep: "'__dict__' of 'type'
# objects is not writable"), nor does ``kept_once`` find a ``__dict__`` (ImageRequest).
FROZEN = "@dataclass(frozen=True"


def give_class_attributes(dest: Path, compiled: list[str]) -> int:
    """``CLASS_ATTRS``'s classes of the compiled modules decorated in ``dest``, and ``import
    pydantic.main`` added to those that use pydantic; how many classes."""
    marked = 0
    for path in compiled:
        classes = CLASS_ATTRS.get(path, [])
        text = (dest / path).read_text(encoding="utf-8")
        out = []
        for line in text.split("\n"):
            for start, attribute in classes:
                if line.startswith(start):
                    out.append(f"@mypyc_attr({attribute})")
                    marked += 1
            if line.startswith(FROZEN):
                out.append("@mypyc_attr(native_class=False)")
                marked += 1
            out.append(line)
            if line == "from __future__ import annotations" and (classes or FROZEN in text):
                out.append("from mypy_extensions import mypyc_attr")
            if line == "from __future__ import annotations" and "pydantic" in text:
                # mypyc's C for a class made at import names the metaclass's module, declared
                # only if the module imports it (else gcc: 'CPyModule_pydantic___main' undeclared)
                out.append("import pydantic.main")
        (dest / path).write_text("\n".join(out), encoding="utf-8")
    return marked


def _tracked_files(root: Path) -> list[str]:
    listed = subprocess.run(
        ["git", "-C", str(root), "ls-files", "-z"], capture_output=True, check=True
    ).stdout
    return [name for name in listed.decode().split("\0") if name]


def copy_tree(root: Path, dest: Path) -> int:
    """Git's tracked files of ``root`` copied to ``dest`` (emptied first); their count."""
    if dest.exists():
        shutil.rmtree(dest)
    names = _tracked_files(root)
    for name in names:
        source = root / name
        if not source.is_file():  # a tracked file deleted in the work tree
            continue
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)
    return len(names)


# mypy's settings for the compile: the tree's, without the pydantic plugin, whose methods made for
# the models' classes mypyc's C refers to an undeclared ``pydantic.main`` (a gcc error).
MYPY_CONFIG = """\
[mypy]
python_version = 3.11
check_untyped_defs = True
no_implicit_optional = True

[mypy-asyncpg.*]
ignore_missing_imports = True
"""

SETUP = """\
from setuptools import setup
from mypyc.build import mypycify

setup(
    name="mesa_compiled",
    ext_modules=mypycify({paths!r}, opt_level={opt!r}, multi_file={multi!r}),
)
"""


def compile_modules(dest: Path, paths: list[str], opt_level: str, multi_file: bool) -> float:
    """``paths`` (relative to ``dest``) compiled in place by mypyc; the wall seconds it took."""
    build = dest / "build"
    build.mkdir(exist_ok=True)
    (build / "mypy.ini").write_text(MYPY_CONFIG, encoding="utf-8")
    arguments = ["--config-file", "build/mypy.ini", *paths]
    (build / "setup.py").write_text(
        SETUP.format(paths=arguments, opt=opt_level, multi=multi_file), encoding="utf-8"
    )
    started = time.monotonic()
    subprocess.run(
        [sys.executable, "build/setup.py", "build_ext", "--inplace", "--parallel", "2"],
        cwd=dest,
        check=True,
        # The ".py" of the tree, not the editable install's, is the one compiled and imported.
        env={**os.environ, "PYTHONPATH": str(dest)},
    )
    return time.monotonic() - started


def _extensions(dest: Path) -> list[Path]:
    return sorted(
        path for path in dest.rglob("*.so") if "build" not in path.relative_to(dest).parts
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dest", type=Path, help="the compiled copy (emptied first)")
    parser.add_argument("--modules", nargs="+", default=MODULES, help="paths, as in MODULES")
    parser.add_argument("--opt-level", default="3", help="mypyc's opt_level (C compiler -O)")
    parser.add_argument(
        "--multi-file", action="store_true", help="one C file per module (a parallel gcc)"
    )
    args = parser.parse_args()
    dest = args.dest.resolve()
    if dest == ROOT or ROOT in dest.parents:
        parser.error("DEST must be outside this tree")
    refused = [path for path in args.modules if path.startswith(tuple(LEFT_OUT))]
    if refused:
        parser.error(f"left out on purpose: {', '.join(refused)}")
    files = copy_tree(ROOT, dest)
    print(f"{files} tracked files of {ROOT} copied to {dest}")
    marked = give_class_attributes(dest, list(args.modules))
    print(f"{marked} classes given mypyc's class attributes (CLASS_ATTRS)")
    seconds = compile_modules(dest, list(args.modules), args.opt_level, args.multi_file)
    extensions = _extensions(dest)
    total = sum(path.stat().st_size for path in extensions)
    print(
        f"\n{len(args.modules)} modules compiled in {seconds:.0f} s (wall, opt_level {args.opt_level})"
    )
    for path in extensions:
        print(f"  {path.stat().st_size / 1024:8.0f} KiB  {path.relative_to(dest)}")
    print(f"  {total / 1024:8.0f} KiB  in all, {len(extensions)} extensions")


if __name__ == "__main__":
    main()
