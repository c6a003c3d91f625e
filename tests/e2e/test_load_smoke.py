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
    # issue 25's figures
    "pacer",
    "discord_limit",
    "bot_token_calls",
    "bot_token_per_human_move",
    "bot_token_calls_by_purpose",
    "interaction_calls",
    "global_429",
    "global_429_run",
    "next_view_ms",
    "next_view_after_cpu_ms",
    "mover_view_ms",
    "edits_via_interaction_share",
    "fake_cpu_pct",
    "players_cpu_pct",
    "workers_cpu_pct",
    "fake_loop_lag_ms",
    "bot_token_per_human_move_by_mode",
    "human_moves_by_mode",
    "setup_bot_calls_per_table",
    "setup_global_429",
    # issue 29's figures
    "bot_and_renders_cpu_ms_per_move",
    "render_workers_cpu_ms_per_move",
    "search_workers_cpu_ms_per_move",
    "images_drawn_per_move",
    "render_cache_hit_rate",
    "image_kib_mean",
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
            "--driver-slices=2",
            "--bot-python=current",  # (the default makes a venv: no network here)
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
    # the bot's interpreter is named beside the figures
    assert result["bot_python"] == sys.executable and result["bot_python_ms"] is None
    assert f"the bot ran on {sys.executable}" in run.stdout
    assert result["human_moves"] >= 6 and result["moves"] >= 6
    assert result["ack_ms"]["n"] > 0 and result["public_edit_ms"]["n"] > 0
    callbacks = "POST /interactions/{interaction_id}/{interaction_token}/callback"
    assert callbacks in result["rest_per_move_by_route"]
    # play rides interaction tokens: a short window may hold no bot-token call at all
    assert 0 <= result["non_exempt_per_move"] < result["rest_per_move"]
    assert result["bot_cpu_pct"] > 0 and result["bot_rss_mb"] > 0
    assert result["loop_lag_ms"] == "n/a" or result["loop_lag_ms"]["n"] > 0
    # the bot's payloads all passed the fake's validation
    assert not {"invalid_body", "bad_request", "unimplemented"} & set(result["violations"])
    assert "| tables (playing) | moves/s |" in run.stdout  # the human summary
    # the fake enforced Discord's 50/s and counted the bot's calls by kind of route
    assert result["discord_limit"] == 50 and result["pacer"] == "default"
    assert result["global_429"] == 0 and "global_rate_limit" not in result["violations"]
    assert result["global_429_run"] == 0 and result["setup_global_429"] == 0
    assert result["setup_bot_calls_per_table"] > 0
    assert set(result["bot_token_per_human_move_by_mode"]) <= {"dm", "channel"}
    assert result["bot_token_calls"] >= 0 and result["interaction_calls"] > 0
    assert set(result["bot_token_calls_by_purpose"]) <= {"setup", "play", "other"}
    assert result["bot_token_per_human_move"] >= 0
    assert 0 < result["edits_via_interaction_share"] <= 1
    assert result["mover_view_ms"]["n"] >= result["mover_dm_ms"]["n"]
    assert result["next_view_ms"]["n"] + result["next_view_after_cpu_ms"]["n"] > 0
    assert result["fake_cpu_pct"] > 0 and result["players_cpu_pct"] > 0
    assert result["fake_loop_lag_ms"]["n"] > 0 and result["fake_loop_lag_setup_ms"]["n"] > 0
    assert "| tables | pacer / Discord limit |" in run.stdout  # issue 25's summary
    # issue 29: the render pool's CPU apart from the searches' (named workers), images per move
    assert result["render_workers_cpu_ms_per_move"] > 0
    assert result["unnamed_workers_cpu_ms_per_move"] == 0
    assert result["bot_and_renders_cpu_ms_per_move"] > result["bot_cpu_ms_per_move"]
    assert result["images_drawn_per_move"] > 0 and result["image_kib_mean"] > 0
    assert "| tables | pacer | moves/s | CPU ms/move: bot + renders" in run.stdout
    # where a view's time goes in the bot: each kind of view's stages, the requests, the ack
    phases = result["phase_ms"]
    for phase in ("view_public_total", "view_dm_total", "view_dm_queued", "view_public_sent"):
        assert phases[phase]["n"] > 0, phase
    assert phases["ack_handler"]["n"] > 0 and phases["http_callback"]["n"] > 0
    assert phases["http_webhook"]["n"] > 0 and phases["token_edit"]["n"] > 0
    assert "where a view's time goes in the bot" in run.stdout
    assert "| view | queued | coalesce | pace | busy |" in run.stdout
    assert "| click handled -> its answer sent |" in run.stdout
    # the driver's own cost by slice of the window (bench/driver_slices.py)
    slices = result["driver_slices"]
    assert len(slices) == 2 and sum(s["moves"] for s in slices) == result["moves"]
    assert all(s["cpu_ms_per_move"] > 0 and s["messages"] > 0 for s in slices)
    assert "the driver (fake + players) by slice of the window" in run.stdout


def test_loop_cpu_charges_the_fake_and_the_players_apart():
    from bench.load_cpu import charge_to

    assert charge_to(str(ROOT / "tests/fakediscord/server.py")) == "fake"
    assert charge_to("/venv/site-packages/aiohttp/web_protocol.py") == "fake"
    assert charge_to(str(ROOT / "tests/fakediscord/users.py")) == "driver"
    assert charge_to(str(ROOT / "bench/load_driver.py")) == "driver"
    assert charge_to("/usr/lib/python3.11/asyncio/tasks.py") == "driver"


def test_the_players_read_a_message_again_once_its_content_changed():
    from bench.load_driver import Reader
    from tests.fakediscord.server import FakeDiscord

    fake = FakeDiscord()
    msg = fake.new_message(fake.channel, fake.bot_user)
    card = {"title": "Amapatolli · mesa #5", "footer": {"text": "Versión 3"}}
    fake.apply_message_body(msg, {"embeds": [card]}, [], edit=False)
    read = Reader()
    assert (read.table(msg), read.version(msg)) == (5, 3)
    card["footer"]["text"] = "Versión 4"
    fake.apply_message_body(msg, {"embeds": [card]}, [], edit=True)
    assert read.version(msg) == 4 and read.card(msg) is read.card(msg)
