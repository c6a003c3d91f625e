"""Macarena's Discord side, in one package (as every game's): ``presenter`` (the game as
played: text, choices, drafts, event lines), ``images`` (the table and hand as PNGs), ``alt``
(what those images show, in words) and ``text`` (the words they share), found by the game key
(``bot.ui.modules.game_module``)."""
