"""A move's write of its table's state in each stored encoding, in one process, interleaved
(issue 29): what deflating the state costs against the page I/O it saves.

SQLite files with the bot's schema and settings (``storage/sqlite.py``: WAL, its checkpoint
every ``CHECKPOINT_PAGES``), ``--tables`` playing tables of load.py's games at their players
(a fifth each: Ce Amapatolli 3, Chupate 2 4, Maquiavelo 3, Macarena 3, Triple Triad 2). Each
move, on a table drawn at random, writes what ``TablesRepo.record_action`` writes for a click:
the table's row (its next real state, in the encoding measured), its action row and its intent,
``--batch`` moves per transaction. Encodings: ``text`` (the JSON as it is), ``isal0``/``isal1``
(ISA-L's deflate, levels 0 and 1, every state), ``zlib1``, and ``stored``, the bot's
(``storage/stored_state.py``: ISA-L level 0 for a state longer than its ``DEFLATE_OVER``).
Per move: this thread's CPU (the kernel's clock, user and system: the encoding, SQLite's pages,
the system calls; the least of ``--rounds`` rounds, each encoding once per round in turn), the
encoding's own CPU apart, the bytes written and read (the kernel's ``wchar``/``rchar``), the
frames the log got and the state's stored bytes.

    .venv/bin/python bench/state_encoding.py
    .venv/bin/python bench/state_encoding.py --tables 1000 --moves 6000 --rounds 5 --batch 3

Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sqlite3
import sys
import tempfile
import threading
import time
import zlib
from collections.abc import Callable
from pathlib import Path

from isal import isal_zlib

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.writer_contention import LOAD_PLAYERS  # noqa: E402
from storage.sqlite import CHECKPOINT_PAGES, _configure, migrate  # noqa: E402
from storage.stored_state import pack  # noqa: E402

ENCODINGS: dict[str, Callable[[str], str | bytes]] = {
    "text": lambda text: text,
    "isal0": lambda text: isal_zlib.compress(text.encode(), 0),
    "isal1": lambda text: isal_zlib.compress(text.encode(), 1),
    "zlib1": lambda text: zlib.compress(text.encode(), 1),
    # the bot's (storage/stored_state.py): ISA-L level 0 for a state whose row would spill
    "stored": pack,
}


SEATS = json.dumps(
    [{"id": str(10**17 + i), "name": f"Player {i}", "cpu_level": None} for i in range(3)]
)


def game_states(per_game: int) -> list[list[str]]:
    """Per game, the JSON of random games' states at load.py's players, in the order played."""
    from bot.registry import load_games

    lists = []
    for key, game in load_games(tuple(LOAD_PLAYERS)).items():
        rng, states = random.Random(key), []
        n = 0
        while len(states) < per_game:
            seats = [f"{10**17 + n}{i}" for i in range(LOAD_PLAYERS[key])]
            state = game.new(seats, f"encoding-{key}-{n}", {})
            n += 1
            while not game.is_over(state) and len(states) < per_game:
                movers = sorted(s for s in game.to_act(state) if game.legal_actions(state, s))
                if not movers:
                    break
                seat = rng.choice(movers)
                state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
                states.append(game.dump_state(state))
        lists.append(states)
    return lists


def io_bytes(field: str) -> int:
    with open(f"/proc/self/task/{threading.get_native_id()}/io") as io:
        for line in io:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None)
    _configure(conn)
    conn.execute(f"PRAGMA wal_autocheckpoint = {CHECKPOINT_PAGES}")
    migrate(conn)
    return conn


def run(encoding: str, states: list[list[str]], args: argparse.Namespace) -> dict[str, float]:
    encode = ENCODINGS[encoding]
    with tempfile.TemporaryDirectory(dir=ROOT / "bench") as folder:
        conn = connect(Path(folder) / "encoding.db")
        at = {}  # table id -> (its game's states, where it is in them)
        for n in range(args.tables):
            game = states[n % len(states)]
            start = (n * 37) % len(game)
            table_id = conn.execute(
                "INSERT INTO tables (guild_id, channel_id, game, status, host_id, locale,"
                " options, seats, seed, state, version) VALUES ('g', ?, 'g', 'playing', 'h',"
                " 'es', '{}', ?, 's', ?, 0) RETURNING id",
                (f"c{n}", SEATS, encode(game[start])),
            ).fetchone()[0]
            at[table_id] = [game, start, 0]
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        rng = random.Random(1)
        ids = list(at)
        encode_cpu = 0.0
        cpu0, written0, read0 = time.thread_time(), io_bytes("wchar"), io_bytes("rchar")
        for move in range(args.moves):
            if move % args.batch == 0:
                conn.execute("BEGIN IMMEDIATE")
            table_id = rng.choice(ids)
            game, start, version = at[table_id]
            text = game[(start + version + 1) % len(game)]
            t = time.thread_time()
            stored = encode(text)
            encode_cpu += time.thread_time() - t
            conn.execute(
                "UPDATE tables SET state = ?, version = ?, wake_at = ?, updated_at = ?"
                " WHERE id = ? AND version = ? AND status = 'playing'",
                (
                    stored,
                    version + 1,
                    time.time() + 60,
                    "2026-12-06T10:00:00.000Z",
                    table_id,
                    version,
                ),
            )
            conn.execute(
                "INSERT INTO actions (table_id, version, seat, action, by_timer)"
                " VALUES (?, ?, '1', 'p 12', 0)",
                (table_id, version + 1),
            )
            conn.execute(
                "INSERT INTO intents (interaction_id, application_id, token, table_id, seat,"
                " version, action, locale, ack, created_at, origin, done)"
                " VALUES (?, 'a', ?, ?, '1', ?, 'p 12', 'es', 'update', ?, '', 1)",
                (str(1_450_000_000_000_000_000 + move), "t" * 160, table_id, version, time.time()),
            )
            at[table_id][2] = version + 1
            if move % args.batch == args.batch - 1 or move == args.moves - 1:
                conn.execute("COMMIT")
        cpu = time.thread_time() - cpu0
        written, read = io_bytes("wchar") - written0, io_bytes("rchar") - read0
        frames = (Path(folder) / "encoding.db-wal").stat().st_size  # (its largest: a bound)
        stored_bytes = conn.execute(
            "SELECT avg(length(CAST(state AS BLOB))) FROM tables"
        ).fetchone()[0]
        conn.close()
    per = args.moves
    return {
        "CPU us": 1e6 * cpu / per,
        "encoding CPU us": 1e6 * encode_cpu / per,
        "KB written": written / 1024 / per,
        "KB read": read / 1024 / per,
        "state bytes stored": stored_bytes,
        "log file MB": frames / 2**20,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--moves", type=int, default=4000, help="per round and encoding")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--batch", type=int, default=1, help="moves per transaction (1)")
    parser.add_argument("--encodings", default=",".join(ENCODINGS))
    args = parser.parse_args()
    encodings = args.encodings.split(",")
    states = game_states(600)
    results: dict[str, list[dict[str, float]]] = {e: [] for e in encodings}
    for _ in range(args.rounds):
        for encoding in encodings:
            results[encoding].append(run(encoding, states, args))
    print(
        f"a move's write at {args.tables} tables, {args.batch} per transaction, per move"
        f" (CPU: the least of {args.rounds} interleaved rounds):"
    )
    print("| per move | " + " | ".join(encodings) + " |")
    print("|---|" + "---:|" * len(encodings))
    for key in results[encodings[0]][0]:
        pick = min if "CPU" in key else (lambda values: sum(values) / len(values))
        cells = " | ".join(f"{pick([r[key] for r in results[e]]):.2f}" for e in encodings)
        print(f"| {key} | {cells} |")
    print("load average " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
