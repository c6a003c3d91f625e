"""How a player's ratings read on /profile and /leaderboard: per game, a rating players can read
(``shown_rating``: the openskill ordinal μ − 3σ scaled so that a new player has 1000 and it is
never negative), games played and the trend over the last rated games (a sparkline and the
change, in the same points)."""

from __future__ import annotations

from bot.i18n import Translator
from bot.ui.text import clip
from storage import RatingRow

BARS = "▁▂▃▄▅▆▇█"
START = 1000  # a new player's shown rating (ordinal 0: μ = 25, σ = 25/3)
POINTS_PER_ORDINAL = 40  # one point of ordinal; beating an equal player early is worth ~100


def shown_rating(ordinal: float) -> int:
    """The rating players read: ``START + POINTS_PER_ORDINAL × ordinal``, at least 0."""
    return max(0, round(START + POINTS_PER_ORDINAL * ordinal))


def sparkline(values: list[float]) -> str:
    if len(values) < 2:
        return ""
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    return "".join(BARS[round((v - low) / span * (len(BARS) - 1))] for v in values)


def rating_lines(rows: list[RatingRow], trends: dict[str, list[float]], tr: Translator) -> str:
    lines = []
    for row in rows:
        trend = [shown_rating(o) for o in trends.get(row.game, [])]
        line = tr(
            "profile.rating_line",
            game=tr(f"{row.game}.name"),
            rating=shown_rating(row.ordinal),
            played=row.games,
        )
        if len(trend) >= 2:
            line += " · " + tr(
                "profile.rating_trend",
                trend=sparkline([float(v) for v in trend]),
                change=f"{trend[-1] - trend[0]:+d}",
                count=len(trend),
            )
        lines.append(line)
    return clip("\n".join(lines), 1024) or tr("profile.no_ratings")
