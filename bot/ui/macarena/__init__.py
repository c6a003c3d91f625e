"""Macarena's Discord side, in one package: ``presenter`` (the game as played: embed text,
choices, event lines) and ``images`` (the table and hand as PNGs), found by the game key
(``bot.ui.modules.game_module``)."""
