"""The crash soak, bounded: the real bot process against the fake Discord and simulated
players at a few dozen tables, killed with SIGKILL at least ten times (right after a click was
acknowledged, as a game ends, as a Triple Triad game pays out, at random) and restarted each
time. Nothing acknowledged is lost, nothing is left unanswered, no table stays behind, and the
standings and collections are what a replay of the action logs gives. The long run with the
printed counts is ``bench/crash.py``."""

from __future__ import annotations

from bench.crash_soak import soak

# Two kills wait for a game to end (the first for either a Triple Triad payout or another
# game's end, the second for the kind still missing), placed late so the games have advanced
# meanwhile; the others come right after an acknowledgement or at a random moment.
CYCLE = ("after_ack", "random", "after_ack", "end", "random", "after_ack", "end", "random")


async def test_ten_kills_lose_nothing(tmp_path):
    result = await soak(
        tmp_path,
        tables=8,
        kills=10,
        seed=11,
        think=(0.05, 0.2),
        gap=(0.2, 0.6),
        end_wait=90.0,
        cycle=CYCLE,
    )
    counts = result.counts()
    assert result.kills >= 10, counts
    # Killed as a game ended and as a Triple Triad game paid out, not only at random (the
    # soak waits for a game to end: 90 s only guards against a hang).
    assert result.kill_points["game_end"] >= 1 and result.kill_points["payout"] >= 1, counts
    assert result.acked_clicks > 0, counts
    assert result.moves > 0, counts
    assert result.acked_lost == 0, result.details
    assert result.unanswered == 0, result.details
    assert result.commands_left_thinking == 0, result.details  # commands, lobby clicks
    assert result.tables_behind == 0, result.details
    assert result.never_caught_up == 0, result.details
    assert result.replay_mismatches == 0, result.details
    assert result.shutdown_code == 0, counts


async def test_kills_at_start_and_at_revancha_leave_every_table_shown_and_playable(tmp_path):
    """Killed right as the bot acknowledges a Start or a "Revancha", and as it posts a
    rematch's lobby (committed, its message id not stored): after each restart every open table
    is shown (none left without a message) and its players go on with buttons only (the hosts
    press Start again when a restart ate their press, as a person would)."""
    result = await soak(
        tmp_path,
        tables=6,
        kills=3,
        seed=5,
        think=(0.05, 0.2),
        gap=(0.2, 0.6),
        end_wait=120.0,
        cycle=("rematch", "rematch_lobby", "start"),
        rematch=True,
    )
    counts = result.counts()
    for point in ("rematch", "rematch_lobby", "start"):
        assert result.kill_points[point] >= 1, counts
    assert result.tables_unshown == 0, result.details
    assert result.acked_lost == 0, result.details
    assert result.unanswered == 0, result.details
    assert result.commands_left_thinking == 0, result.details
    assert result.tables_behind == 0, result.details
    assert result.never_caught_up == 0, result.details
    assert result.replay_mismatches == 0, result.details
    assert result.games_finished >= 2, counts  # the rematches were played
