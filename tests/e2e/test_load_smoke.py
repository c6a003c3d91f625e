"""`bench/load.py` end to end, small: a few tables, short think times, a window that lasts until
some moves were made. It proves the benchmark runs (the real bot process, the fake Discord, the
simulated players) and reports every figure; the figures themselves are not judged here."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

FIGURES = {
    "tables",
    "window_s",
    "moves",
    "moves_per_s",
    "human_moves",
    "ack_ms",
    "public_edit_ms",
    "mover_dm_ms",
    "rest_per_move",
    "non_exempt_per_move",
    "rest_per_move_by_route",
    "bot_cpu_pct",
    "bot_rss_mb",
    "loop_lag_ms",
    "phase_ms",
    "cant_keep_up_warnings",
    "driver_cpu_pct",
    "loadavg",
    "violations",
}


def test_the_load_benchmark_runs_end_to_end_and_reports_every_figure(tmp_path):
    run = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "load.py"),
            "--tables=3",
            "--window=4",
            "--warmup=1",
            "--drain=30",
            "--think=0.2,0.6",
            "--until-moves=6",
            "--quiet",
            f"--keep-dir={tmp_path}",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    [line] = [line for line in run.stdout.splitlines() if line.startswith("{")]
    result = json.loads(line)
    assert FIGURES <= set(result)
    assert result["tables"] == 3 and result["tables_playing"] == 3
    assert result["human_moves"] >= 6 and result["moves"] >= 6
    assert result["ack_ms"]["n"] > 0 and result["public_edit_ms"]["n"] > 0
    callbacks = "POST /interactions/{interaction_id}/{interaction_token}/callback"
    assert callbacks in result["rest_per_move_by_route"]
    assert 0 < result["non_exempt_per_move"] < result["rest_per_move"]
    assert result["bot_cpu_pct"] > 0 and result["bot_rss_mb"] > 0
    assert result["loop_lag_ms"] == "n/a" or result["loop_lag_ms"]["n"] > 0
    # the bot's payloads all passed the fake's validation
    assert not {"invalid_body", "bad_request", "unimplemented"} & set(result["violations"])
    assert "| tables (playing) | moves/s |" in run.stdout  # the human summary
