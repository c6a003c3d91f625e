"""Instructions per request (valgrind's callgrind: a count no other process on a loaded machine
changes, unlike CPU time) of the variants of ``bench/profile_session_options.py``: the same
process runs ``--few`` then ``--many`` requests of one variant, and the difference per request
is printed (start-up and warm-up cancel out). Issue 29: changes of a few µs per request are
below the noise of CPU time on a shared 2-core machine.

    .venv/bin/python bench/count_request_instructions.py [--few 200] [--many 1200] [VARIANT ...]

A VARIANT is the start of a kind's name in ``bench/profile_requests.py`` (the bot's own
request paths: ``--bot-root`` for another tree's) or of a row's in ``profile_session_options``
or ``profile_transports`` (the candidate HTTP clients: ``aiohttp``, ``lean``, ``curl_cffi``, ``bot.ui``)
(default: the token edit, a click's update, a deferred update). Needs valgrind. Figures only.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DEFAULT = ("token edit, JSON", "click update, JSON", "deferred update")


def run_variant(name: str, count: int, port: int, bot_root: str, ready: int) -> None:
    """In the process valgrind counts: ``count`` requests of the variant ``name``: a row of
    ``profile_session_options``, or a kind of ``profile_requests`` (the bot's own request
    paths, of the tree ``bot_root``)."""
    sys.path.insert(0, str(Path(bot_root).resolve()))
    import aiohttp

    from bench.profile_requests import _factory, kinds

    async def go() -> None:
        base = f"http://127.0.0.1:{port}/api/v10"
        session = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=0), cookie_jar=aiohttp.DummyCookieJar()
        )
        sessions = [session]
        work, prepare = await kinds(session, base)
        if not any(label.startswith(name) for label in work):
            from bench.profile_session_options import variants

            work, sessions = await variants(base)
            sessions.append(session)
            prepare = _nothing
        if not any(label.startswith(name) for label in work):
            from bench.profile_transports import variants as transports

            work, more = await transports(base)
            sessions += more
        chosen = next(send for label, send in work.items() if label.startswith(name))
        prepare(ready)  # the clicks callbacks answer: as many in both counts, so they cancel out
        for _ in range(50):  # connections opened, caches filled: in both counts alike
            await chosen()
        for _ in range(count):
            await chosen()
        for opened in sessions:
            closed = opened.close()
            if asyncio.iscoroutine(closed):
                await closed

    with asyncio.Runner(loop_factory=_factory("uvloop")) as runner:
        runner.run(go())


def _nothing(count: int) -> None:
    return None


def callgrind(argv: list[str]) -> tuple[int, str]:
    """Instructions callgrind counts running ``python argv`` (this interpreter), and its output."""
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, *argv],
        capture_output=True,
        text=True,
        check=True,
    )
    found = re.search(r"Collected : (\d+)", out.stderr)
    if found is None:
        raise SystemExit(out.stderr[-2000:])
    return int(found.group(1)), out.stdout


def callgrind_dumps(argv: list[str], prefix: str) -> tuple[list[int], str]:
    """Instructions callgrind counts running ``python argv`` (this interpreter), one count per
    dump: the process marks the end of each piece it measures by calling ``math.gcd`` (a dump
    before it), so the first count is what ran before the first marker. Also its output."""
    with tempfile.TemporaryDirectory(prefix=prefix) as folder:
        out = Path(folder) / "cg.out"
        command = ["valgrind", "--tool=callgrind", "--dump-before=math_gcd", "--dump-instr=no"]
        command += [f"--callgrind-out-file={out}", sys.executable, *argv]
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        dumps = sorted(Path(folder).glob("cg.out.*"), key=lambda p: int(p.suffix[1:]))
        return [_summary(path) for path in dumps], done.stdout


def _summary(path: Path) -> int:
    found = re.search(r"^summary: (\d+)", path.read_text(), re.MULTILINE)
    return int(found.group(1)) if found else 0


def instructions(name: str, count: int, port: int, bot_root: str, ready: int) -> int:
    argv = [__file__, "--run", name, "--count", str(count), "--port", str(port)]
    counted, _ = callgrind([*argv, "--bot-root", bot_root, "--ready", str(ready)])
    return counted


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variants", nargs="*", default=list(DEFAULT))
    parser.add_argument("--few", type=int, default=200)
    parser.add_argument("--many", type=int, default=1200)
    parser.add_argument("--bot-root", default=str(ROOT), help="the tree whose bot/ is measured")
    parser.add_argument("--run", help=argparse.SUPPRESS)
    parser.add_argument("--count", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--ready", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.run:
        run_variant(args.run, args.count, args.port, args.bot_root, args.ready)
        return 0
    from bench.profile_requests import served

    with served() as port:
        print(f"bot code: {args.bot_root}\n")
        print("| variant | instructions per request |")
        print("|---|---:|")
        for name in args.variants:
            ready = 50 + args.many
            few = instructions(name, args.few, port, args.bot_root, ready)
            many = instructions(name, args.many, port, args.bot_root, ready)
            print(f"| {name} | {(many - few) / (args.many - args.few):,.0f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
