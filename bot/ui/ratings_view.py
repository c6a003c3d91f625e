"""How a player's ratings read on /profile: per game, the rating (openskill ordinal), games
played and the trend over the last rated games (a sparkline and the change)."""

from __future__ import annotations

from bot.i18n import Translator
from bot.ui.text import clip
from storage import RatingRow

BARS = "▁▂▃▄▅▆▇█"


def sparkline(values: list[float]) -> str:
    if len(values) < 2:
        return ""
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    return "".join(BARS[round((v - low) / span * (len(BARS) - 1))] for v in values)


def rating_lines(rows: list[RatingRow], trends: dict[str, list[float]], tr: Translator) -> str:
    lines = []
    for row in rows:
        trend = trends.get(row.game, [])
        change = trend[-1] - trend[0] if len(trend) >= 2 else 0.0
        lines.append(
            tr(
                "profile.rating_line",
                game=tr(f"{row.game}.name"),
                rating=f"{row.ordinal:.1f}",
                played=row.games,
                trend=sparkline(trend) or "—",
                change=f"{change:+.1f}",
            )
        )
    return clip("\n".join(lines), 1024) or tr("profile.no_ratings")
