"""The interpreter production runs the bot on, on this machine: a virtual environment for
``bench/load.py --bot-python production`` (issue 29).

The Docker image runs the bot on ``python:3.11-slim`` (``Dockerfile``): CPython built with
profile-guided and link-time optimisation (``--enable-optimizations --with-lto``, the official
images' build). This machine's default ``python3`` (pyenv's 3.11.7) was built with neither
(``CONFIG_ARGS``: ``--enable-shared`` alone): the same Python code runs ~20-25 % slower on it,
so a CPU-per-move figure measured on it is not production's. Debian's own ``/usr/bin/python3.11``
is built with both (Debian's packaging; statically linked). Here a CPython of the image's
version that is such a build is found (its configure arguments, or the distribution's own),
``bench/machine_speed.py``'s fixed work is printed on it and on this interpreter (a figure, not a
gate: a loaded machine moves it by more than the builds differ), and a virtual environment is
made from it with this tree installed (``.venv-production``, reused while its interpreter is the
same).

    .venv/bin/python bench/production_python.py           # make or reuse it; print its path
    .venv/bin/python bench/production_python.py --python /usr/local/bin/python3.11

Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VENV = ROOT / ".venv-production"
# Distribution builds of CPython that are made with PGO and LTO (their ``CONFIG_ARGS`` are the
# shared library's and do not say so): Debian's and Ubuntu's ``/usr/bin/python3.X``.
DISTRIBUTION_DIR = Path("/usr/bin")

_DESCRIBE = (
    "import json, sys, sysconfig; print(json.dumps({'version': sys.version.split()[0],"
    " 'implementation': sys.implementation.name,"
    " 'config_args': sysconfig.get_config_var('CONFIG_ARGS') or '',"
    " 'executable': sys.executable}))"
)


@dataclass(frozen=True)
class Interpreter:
    path: Path
    version: str
    implementation: str
    config_args: str

    @property
    def minor(self) -> str:
        return ".".join(self.version.split(".")[:2])

    @property
    def optimized_build(self) -> bool:
        """Built with PGO and LTO as far as its build tells: ``--enable-optimizations`` in its
        configure arguments (python.org-style builds, the Docker image's), or the
        distribution's own interpreter (Debian and Ubuntu build it so)."""
        if "--enable-optimizations" in self.config_args:
            return True
        return self.path.parent == DISTRIBUTION_DIR and "--prefix=/usr" in self.config_args

    def label(self) -> str:
        build = "PGO+LTO build" if self.optimized_build else "no PGO/LTO in its build"
        return f"{self.path} (CPython {self.version}, {build})"


def image_version(dockerfile: Path = ROOT / "Dockerfile") -> str:
    """The Python version of the Docker image's base (``FROM python:3.11-slim`` -> "3.11")."""
    match = re.search(r"^FROM\s+python:(\d+\.\d+)", dockerfile.read_text(), re.MULTILINE)
    if match is None:
        raise SystemExit(f"no 'FROM python:X.Y' in {dockerfile}")
    return match.group(1)


def describe(python: Path | str) -> Interpreter | None:
    """What ``python`` is, or None when it does not run."""
    try:
        out = subprocess.run(
            [str(python), "-c", _DESCRIBE], capture_output=True, text=True, check=True, timeout=60
        )
    except (OSError, subprocess.SubprocessError):
        return None
    data = json.loads(out.stdout)
    return Interpreter(Path(python), data["version"], data["implementation"], data["config_args"])


def candidates(minor: str) -> list[Path]:
    """Interpreters named python<minor> on this machine: the distribution's first."""
    found = [DISTRIBUTION_DIR / f"python{minor}", Path("/usr/local/bin") / f"python{minor}"]
    on_path = shutil.which(f"python{minor}")
    if on_path:
        found.append(Path(on_path))
    unique: list[Path] = []
    for path in found:
        if path.exists() and path not in unique:
            unique.append(path)
    return unique


def fixed_work_ms(python: Path | str) -> float:
    from bench.machine_speed import measure

    return measure(python=str(python))


def find(minor: str, explicit: Path | None = None) -> tuple[Interpreter, float, float]:
    """The production-like interpreter and the fixed work's ms on it and on this one."""
    paths = [explicit] if explicit else candidates(minor)
    here = fixed_work_ms(sys.executable)
    refused: list[str] = []
    for path in paths:
        found = describe(path)
        if found is None or found.implementation != "cpython" or found.minor != minor:
            refused.append(f"{path}: not CPython {minor}")
            continue
        if not found.optimized_build and explicit is None:
            refused.append(f"{found.label()}")
            continue
        return found, fixed_work_ms(path), here
    raise SystemExit(
        f"no optimized CPython {minor} on this machine (the Docker image's version):\n  "
        + "\n  ".join(refused or ["none found"])
    )


def ensure(explicit: Path | None = None, quiet: bool = False) -> Path:
    """``.venv-production``'s interpreter, the venv made (or remade) when needed."""
    minor = image_version()
    interpreter, ms, here = find(minor, explicit)
    python = VENV / "bin" / "python"
    marker = VENV / "made-from.json"
    wanted = {"python": str(interpreter.path), "version": interpreter.version}
    if not python.exists() or not marker.exists() or json.loads(marker.read_text()) != wanted:
        if VENV.exists():
            shutil.rmtree(VENV)
        say = (lambda _m: None) if quiet else (lambda m: print(m, file=sys.stderr))
        say(f"[production python] making {VENV} from {interpreter.label()}")
        subprocess.run([str(interpreter.path), "-m", "venv", str(VENV)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "-e", str(ROOT)], check=True)
        marker.write_text(json.dumps(wanted))
    if not quiet:
        print(
            f"[production python] {interpreter.label()}: {ms} ms for the fixed work"
            f" (bench/machine_speed.py) against {here} ms on {sys.executable}",
            file=sys.stderr,
        )
    return python


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", type=Path, help="this interpreter, not one found")
    args = parser.parse_args()
    print(ensure(args.python))


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
