"""The Chúpate 2 event codes and how many of the latest events a state keeps."""

from __future__ import annotations

from games.core.eventlog import OldCodes

LOG_SIZE = 24  # events kept in the state for the presenters' "last moves"

# Event codes (all public unless marked private).
EVENT_CODES = (
    "round_started",  # seat=starter; round, dealer
    "first_card",  # card
    "first_card_returned",  # card: a first +4 went back into the stock
    "colour_chosen",  # seat; colour (first-card Comodín)
    "played",  # seat; card, colour (the colour in force after it)
    "skipped",  # seat lost the turn
    "reversed",  # direction: "cw" (clockwise) or "ccw" (counter-clockwise)
    "must_draw",  # seat faces count pending cards
    "drew",  # seat drew one card in its turn
    "drew_cards",  # PRIVATE to seat: cards it received
    "draw_skipped",  # seat had to draw but no card was left anywhere
    "passed",  # seat kept the drawn card
    "took",  # seat took count pending cards and lost the turn
    "challenge_reveal",  # PRIVATE to the challenger: seat=+4 player; cards, legal
    "challenge_won",  # seat=challenger; target drew count (the +4 was illegal)
    "challenge_lost",  # seat=challenger drew count (the +4 was legal)
    "final_draw",  # seat drew count from a last Chúpate 2 / +4
    "refilled",  # the discard pile (count cards) became the new stock
    "announced",  # seat called "¡Última!"
    "caught",  # seat caught target, who drew count
    "round_won",  # seat went out; round, points, team
    "game_won",  # seat (and team) won the game; team, points
    "jumped_in",  # seat played card out of turn (house rule ``jump_in``); card
    "hands_swapped",  # seat swapped hands with target after a 7 (house rule ``seven_o``)
    "hands_passed",  # every hand passed on in direction after seat's 0 (``seven_o``)
)

# The parameters of each event, in the order the rules give them: a packed log stores only
# their values (``games.core.eventlog``).
EVENT_PARAMS: dict[str, tuple[str, ...]] = {
    "round_started": ("round", "dealer"),
    "first_card": ("card",),
    "first_card_returned": ("card",),
    "colour_chosen": ("colour",),
    "played": ("card", "colour"),
    "skipped": (),
    "reversed": ("direction",),
    "must_draw": ("count",),
    "drew": ("count",),
    "drew_cards": ("cards",),
    "draw_skipped": (),
    "passed": (),
    "took": ("count",),
    "challenge_reveal": ("cards", "legal"),
    "challenge_won": ("target", "count"),
    "challenge_lost": ("target", "count"),
    "final_draw": ("count",),
    "refilled": ("count",),
    "announced": (),
    "caught": ("target", "count"),
    "round_won": ("round", "points", "team"),
    "game_won": ("team", "points"),
    "jumped_in": ("card",),
    "hands_swapped": ("target",),
    "hands_passed": ("direction",),
}

# The event codes of rows stored before the five games shared one code per shared event
# (session 12, issue 26); ``games.core.eventlog`` renames them on load.
OLD_EVENT_CODES: OldCodes = {"round_start": "round_started", "last_card_called": "announced"}
