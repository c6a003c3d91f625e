"""One cog per feature: lobby (/play and its buttons), play (moves, hands), info, admin, triad,
seats, settings, tables (spectators), history, replay, threads (a table's thread removed or archived)
and install_notice (told once where the app is installed to a user alone)."""

EXTENSIONS = (
    "bot.cogs.lobby",
    "bot.cogs.play",
    "bot.cogs.info",
    "bot.cogs.admin",
    "bot.cogs.triad",
    "bot.cogs.seats",
    "bot.cogs.settings",
    "bot.cogs.tables",
    "bot.cogs.history",
    "bot.cogs.replay",
    "bot.cogs.threads",
    "bot.cogs.install_notice",
)
