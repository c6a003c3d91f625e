"""Triple Triad's Discord side, in one package.

``text`` (card labels, seat colours, rules in words) is shared by ``presenter`` (the game as
played: drafts, payout picks, event lines), ``lobby`` (the challenge, the 5-card picker,
/cards and /profile payloads) and ``images`` (the board and hands as PNGs); ``items`` holds the
lobby's dynamic items, handled by ``bot/cogs/triad.py``. ``bot.ui.presenter.presenter_for``
finds ``presenter`` and ``images`` here by the game key.
"""
