"""The crash soak, bounded: the real bot process against the fake Discord and simulated
players at a few dozen tables, killed with SIGKILL at least ten times (right after a click was
acknowledged, as a game ends, as a Triple Triad game pays out, at random) and restarted each
time. Nothing acknowledged is lost, nothing is left unanswered, no table stays behind, and the
standings and collections are what a replay of the action logs gives. The long run with the
printed counts is ``bench/crash.py``."""

from __future__ import annotations

from bench.crash_soak import soak


async def test_ten_kills_lose_nothing(tmp_path):
    result = await soak(tmp_path, tables=6, kills=10, seed=11, gap=(0.2, 0.6), end_wait=5.0)
    counts = result.counts()
    assert result.kills >= 10, counts
    assert result.acked_clicks > 0, counts
    assert result.moves > 0, counts
    assert result.acked_lost == 0, result.details
    assert result.unanswered == 0, result.details
    assert result.tables_behind == 0, result.details
    assert result.replay_mismatches == 0, result.details
    assert result.shutdown_code == 0, counts
