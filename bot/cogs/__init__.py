"""One cog per feature: lobby (/play and its buttons), play (moves, hands), info, admin."""

EXTENSIONS = (
    "bot.cogs.lobby",
    "bot.cogs.play",
    "bot.cogs.info",
    "bot.cogs.admin",
    "bot.cogs.triad",
    "bot.cogs.seats",
)
