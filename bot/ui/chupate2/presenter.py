"""Chúpate 2 on Discord: cards as colour emoji + face, a colour picker after a wild.

Private view, row by row:
- row 0: the turn's buttons ("¡Mentira!", "Aceptar (+4)", "Robar", "Pasar", the drawn card,
  "¡Última!", "¡Pillado!") and one button per wild in hand ("Comodín…", "Comodín +4…");
  clicking a wild starts a draft whose view is four colour buttons and a cancel, and the colour
  click plays ``p.<card>.<colour>`` (the colour op carries the card, so it survives a restart);
- rows 1-4: the playable cards, a button row per colour; when that does not fit, a few cards
  packed five to a row or, for big hands (20+ cards happen), one select per colour; if even
  that does not fit, the framework pages the selects.
The public message offers the "¡Última!" call and the catch of the variant as buttons.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.i18n import Translator, has, per_language
from bot.ui.chupate2.images import playable_cards
from bot.ui.chupate2.text import (
    COLOUR_EMOJI,
    action_key,
    action_params,
    card_label,
    card_text,
    colour_text,
    event_params,
)
from bot.ui.items import ActionSelect
from bot.ui.layout import (
    BUTTON_LABEL,
    BUTTONS_PER_ROW,
    MAX_ROWS,
    OPTION_TEXT,
    SELECT_OPTIONS,
    Choice,
)
from bot.ui.presenter import DraftResult, DraftStep, GamePresenter, PrivateMove, SeatNames, draft_op
from bot.ui.text import clip
from games.chupate2.actions import ChooseColour, Chupate2Action, Play, SwapWith
from games.chupate2.cards import COLOUR_OF, COLOURS, WILD, is_wild
from games.chupate2.state import RoundResult
from games.chupate2.view import Chupate2Outcome, Chupate2View
from games.core import Action, Event, Game, IllegalAction, Outcome
from games.core.errors import BAD_ACTION

COLOUR_STYLE = {
    "r": discord.ButtonStyle.danger,
    "y": discord.ButtonStyle.secondary,
    "g": discord.ButtonStyle.success,
    "b": discord.ButtonStyle.primary,
}
# Row 0 holds the turn's buttons; these kinds go there, in this order.
TURN_KINDS = ("announce", "catch", "challenge", "take", "draw", "pass")
TURN_STYLE = {
    "announce": discord.ButtonStyle.danger,
    "catch": discord.ButtonStyle.danger,
    "challenge": discord.ButtonStyle.danger,
    "take": discord.ButtonStyle.primary,
    "draw": discord.ButtonStyle.primary,
    "pass": discord.ButtonStyle.secondary,
}
# Standard emoji only (Discord refuses other characters as a button emoji).
TURN_EMOJI = {"challenge": "🤥", "draw": "🃏", "pass": "⏭️", "announce": "☝️", "catch": "👉"}
ACCEPT_EMOJI = "✅"  # "Aceptar (+4)", the other answer to a +4
PACKED_BUTTONS = 10  # card choices shown as buttons when a row per colour does not fit
PLACEHOLDER = 150
RESULTS_SHOWN = 3  # rounds of a points game listed in the public embed
SINGLE_ROUND = "single_round"  # event param the presenter adds: a one-round game's round_won
SINGLE_ROUND_COPIES = 4096  # the marked copies kept (one a table's latest round_won)
PICK_OP = "w."  # draft op: a wild card was picked (``w.Wa``)
COLOUR_OP = "c."  # draft op: its colour (``c.Wa.r``)
CANCEL_OP = "x"


def _round_results(rounds: Sequence[RoundResult], names: SeatNames, tr: Translator) -> list[str]:
    """One line per round of a points game: who won it and what it scored."""
    return [
        tr("chupate2.status.round_result", round=r.round, player=names(r.winner), points=r.points)
        for r in rounds
    ]


def _is_wild_play(action: Action) -> bool:
    return isinstance(action, Play) and action.colour is not None


def _kind(action: Action) -> str:
    return getattr(action, "kind", "")


def _wild_cards(legal: Sequence[Action]) -> list[str]:
    """Wild cards with a legal play (the engine offers each once per colour)."""
    cards: list[str] = []
    for a in legal:
        if isinstance(a, Play) and a.colour is not None and a.card not in cards:
            cards.append(a.card)
    return cards


class Presenter(GamePresenter[Chupate2View, Chupate2Action]):
    colour = discord.Colour.from_rgb(214, 40, 40)

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        # logged round_won event -> (it, its copy marked single-round): ``last_events``
        self._single_round_copies: dict[int, tuple[Event, Event]] = {}

    # ----- actions --------------------------------------------------------------------------
    def hand_image_extras(self, view: Chupate2View, legal: list[Chupate2Action]) -> dict[str, Any]:
        return {"playable": playable_cards(legal, view.hand)}

    def choice(
        self, action: Chupate2Action, view: Chupate2View, names: SeatNames, tr: Translator
    ) -> Choice:
        kind = _kind(action)
        if isinstance(action, Play):  # (its label is the card's: no parameters to write)
            card = action.card
            chosen = action.colour
            if chosen is not None:
                label = tr(
                    "chupate2.action.play_wild",
                    card=card_label(card, tr),
                    colour=tr(f"chupate2.colour.{chosen}"),
                )
                return Choice(
                    action=action.encode(),
                    label=label,
                    group=WILD,
                    emoji=COLOUR_EMOJI[chosen],
                    style=COLOUR_STYLE[chosen],
                )
            if view.phase == "drawn":
                return Choice(
                    action=action.encode(),
                    group="turn",
                    label=tr("chupate2.ui.play_drawn", card=card_label(card, tr)),
                    emoji=COLOUR_EMOJI[COLOUR_OF[card]],
                    style=discord.ButtonStyle.success,
                )
            colour = COLOUR_OF[card]
            return Choice(
                action=action.encode(),
                label=card_label(card, tr),
                group=colour,
                emoji=COLOUR_EMOJI[colour],
                style=discord.ButtonStyle.success,
            )
        if isinstance(action, SwapWith):  # house rule 7-0: whom to swap hands with
            target = view.seats[action.target]
            return Choice(
                action=action.encode(),
                label=tr("chupate2.action.swap", target=names(target)),
                group="swap",
                emoji="🔀",
                style=discord.ButtonStyle.primary,
            )
        if isinstance(action, ChooseColour):
            colour = action.colour
            return Choice(
                action=action.encode(),
                label=tr("chupate2.action.colour", **action_params(action, view, tr, names)),
                group="colour",
                emoji=COLOUR_EMOJI[colour],
                style=COLOUR_STYLE[colour],
            )
        emoji = ACCEPT_EMOJI if kind == "take" and view.phase == "challenge" else None
        return Choice(
            action=action.encode(),
            label=tr(action_key(action, view), **action_params(action, view, tr, names)),
            group="turn",
            emoji=emoji or TURN_EMOJI.get(kind),
            style=TURN_STYLE.get(kind, discord.ButtonStyle.secondary),
        )

    def is_public_action(self, action: Chupate2Action) -> bool:
        return _kind(action) in ("announce", "catch")

    def group_placeholders(self, tr: Translator) -> dict[str, str]:
        return _group_placeholders(tr)

    # ----- the colour picker (a draft) and the turn row ---------------------------------------
    def move_components(
        self, move: PrivateMove[Chupate2View, Chupate2Action]
    ) -> tuple[list[discord.ui.Item], list[Chupate2Action]]:
        view, legal, tr = move.view, move.legal, move.tr
        wilds = _wild_cards(legal)
        picked = move.draft.get("card")
        if picked in wilds:
            return self._colour_picker(move, picked), []
        turn = sorted(
            (a for a in legal if self._on_turn_row(a, view)),
            key=lambda a: TURN_KINDS.index(_kind(a)) if _kind(a) in TURN_KINDS else -1,
        )
        room = BUTTONS_PER_ROW - len(wilds)  # kept for the wilds: they have no other place
        placed, overflow = turn[:room], turn[room:]
        row0: list[discord.ui.Item] = [
            move.action_button(self.choice(action, view, move.names, tr), row=0)
            for action in placed
        ]
        for card in wilds:
            row0.append(
                move.draft_button(
                    f"{PICK_OP}{card}",
                    emoji=COLOUR_EMOJI[WILD],
                    label=clip(
                        tr("chupate2.ui.pick_wild_card", card=card_label(card, tr)), BUTTON_LABEL
                    ),
                    style=discord.ButtonStyle.success,
                    row=0,
                )
            )
        rest = [a for a in legal if a not in turn and not _is_wild_play(a)] + overflow
        packed = self._packed_cards(move, rest, first_row=1 if row0 else 0)
        if packed is not None:
            return row0 + packed, []
        return row0, rest

    def _packed_cards(
        self,
        move: PrivateMove[Chupate2View, Chupate2Action],
        actions: Sequence[Chupate2Action],
        first_row: int,
    ) -> list[discord.ui.Item] | None:
        """The card choices when one button row per colour would not fit: a few cards as
        buttons five to a row (e.g. a Chúpate 2 of each colour to stack), many as one select
        per colour on the free rows. None leaves them to the framework (a button row per
        colour, or selects per colour over pages when even that does not fit)."""
        framework_rows = MAX_ROWS - 1 - first_row  # it keeps the last row for page arrows
        free_rows = MAX_ROWS - first_row  # what we build ourselves never pages
        choices = [self.shown_choice(move, a) for a in actions]  # (the plain buttons' too)
        groups: dict[str, list[Choice]] = {}
        for c in choices:
            groups.setdefault(c.group, []).append(c)
        if sum(-(-len(g) // BUTTONS_PER_ROW) for g in groups.values()) <= framework_rows:
            return None
        if len(choices) <= PACKED_BUTTONS:
            return [
                move.action_button(c, row=first_row + i // BUTTONS_PER_ROW)
                for i, c in enumerate(choices)
            ]
        if len(groups) > free_rows or any(len(g) > SELECT_OPTIONS for g in groups.values()):
            return None
        placeholders = self.group_placeholders(move.tr)
        return [
            ActionSelect(
                move.table_id,
                move.view.version,
                group,
                0,
                row=first_row + r,
                placeholder=clip(placeholders.get(group, ""), PLACEHOLDER) or None,
                options=[
                    discord.SelectOption(
                        label=clip(c.label, OPTION_TEXT), value=c.action, emoji=c.emoji
                    )
                    for c in members
                ],
            )
            for r, (group, members) in enumerate(groups.items())
        ]

    @staticmethod
    def _on_turn_row(action: Action, view: Chupate2View) -> bool:
        kind = _kind(action)
        return kind in TURN_KINDS or (
            kind == "play" and view.phase == "drawn" and not _is_wild_play(action)
        )

    @staticmethod
    def _colour_picker(
        move: PrivateMove[Chupate2View, Chupate2Action], card: str
    ) -> list[discord.ui.Item]:
        tr = move.tr
        buttons: list[discord.ui.Item] = [
            move.draft_button(
                f"{COLOUR_OP}{card}.{colour}",
                label=clip(
                    tr(
                        "chupate2.action.play_wild",
                        card=card_label(card, tr),
                        colour=tr(f"chupate2.colour.{colour}"),
                    ),
                    BUTTON_LABEL,
                ),
                emoji=COLOUR_EMOJI[colour],
                style=COLOUR_STYLE[colour],
                row=0,
            )
            for colour in COLOURS
        ]
        buttons.append(
            move.draft_button(
                CANCEL_OP,
                label=tr("chupate2.ui.cancel"),
                style=discord.ButtonStyle.secondary,
                row=0,
            )
        )
        return buttons

    def draft_lines(self, view: Chupate2View, draft: dict[str, Any], tr: Translator) -> list[str]:
        card = draft.get("card")
        if isinstance(card, str) and card in view.hand and is_wild(card):
            return [
                f"{COLOUR_EMOJI[WILD]} "
                + tr("chupate2.ui.pick_colour_for", card=card_label(card, tr))
            ]
        return []

    @draft_op(CANCEL_OP)
    def _cancel(self, step: DraftStep[Chupate2View, Chupate2Action]) -> DraftResult:
        """Back from the colour picker to the hand."""
        return {}, None

    @draft_op(PICK_OP, prefix=True)
    def _pick_wild(self, step: DraftStep[Chupate2View, Chupate2Action]) -> DraftResult:
        """``w.<card>``: a wild of the hand was picked; its colour comes next."""
        if step.arg not in _wild_cards(step.legal):
            raise IllegalAction(BAD_ACTION, text=step.op)
        return {"card": step.arg}, None

    @draft_op(COLOUR_OP, prefix=True)
    def _pick_colour(self, step: DraftStep[Chupate2View, Chupate2Action]) -> DraftResult:
        """``c.<card>.<colour>``: the wild is played in that colour."""
        text = "p." + step.arg
        if text not in {a.encode() for a in step.legal}:
            raise IllegalAction(BAD_ACTION, text=step.op)
        return {}, text

    # ----- text -----------------------------------------------------------------------------
    def event_text(self, event: Event, names: SeatNames, tr: Translator) -> str | None:
        key = f"chupate2.event.{event.code}"
        if not has(key):
            return None
        if event.code == "drew" and event.params.get("count", 1) > 1:
            key = "chupate2.event.drew_several"  # house rule "draw until playable"
        params = event_params(event, tr)
        card = event.params.get("card")
        if card is not None:
            params["card"] = card_text(card, tr)
            colour = event.params.get("colour")
            if is_wild(card) and colour in COLOURS:
                params["card"] = tr(
                    "chupate2.action.play_wild", card=params["card"], colour=colour_text(colour, tr)
                )
        if "cards" in event.params:
            params["cards"] = ", ".join(card_text(c, tr) for c in event.params["cards"])
        for name in ("target", "dealer"):
            if isinstance(params.get(name), str):
                params[name] = names(params[name])
        team = event.params.get("team")
        if event.code in ("round_won", "game_won") and isinstance(team, int):
            key = f"chupate2.ui.event.{event.code}_team"
            params["team"] = team + 1
        if event.code == "round_won" and event.params.get(SINGLE_ROUND):
            # a one-round game: no "Round 1: ..." for a round that is the whole game
            key = "chupate2.ui.event.round_won_single" + ("_team" if isinstance(team, int) else "")
        if event.code == "challenge_reveal":
            key = "chupate2.status.reveal"
            verdict = "legal" if event.params.get("legal") else "illegal"
            params["verdict"] = tr(f"chupate2.status.reveal.{verdict}")
        return tr(key, player=names(event.seat), **params)

    def last_events(self, view: Chupate2View) -> list[Event]:
        events = super().last_events(view)
        if view.target is not None:
            return events
        return [self._single_round(e) if e.code == "round_won" else e for e in events]

    def _single_round(self, won: Event) -> Event:
        """A one-round game's ``round_won`` marked so, one copy per logged event: every view
        gets the same object, so its text is written once (``event_texts``)."""
        copies = self._single_round_copies
        kept = copies.get(id(won))
        if kept is not None and kept[0] is won:  # (the entry holds the event: its id is its)
            return kept[1]
        marked = won.model_copy(update={"params": {**won.params, SINGLE_ROUND: True}})
        if kept is None and len(copies) >= SINGLE_ROUND_COPIES:
            del copies[next(iter(copies))]  # the oldest
        copies[id(won)] = (won, marked)
        return marked

    def status_lines(self, view: Chupate2View, names: SeatNames, tr: Translator) -> list[str]:
        lines = [
            tr(
                "chupate2.status.top",
                card=card_text(view.top_card, tr),
                colour=colour_text(view.colour, tr),
            )
        ]
        arrow = "🔃" if view.direction > 0 else "🔄"
        lines.append(
            f"{arrow} "
            + tr("chupate2.status.direction", direction=tr(f"chupate2.direction.{self._dir(view)}"))
            + " · "
            + tr("chupate2.status.stock", count=view.stock_count)
        )
        if view.pending_draw:
            lines.append("⚠️ " + tr("chupate2.status.pending", count=view.pending_draw))
        if view.turn is not None and view.phase in (
            "colour",
            "drawn",
            "penalty",
            "challenge",
            "swap",
        ):
            target = view.plus4.by if view.plus4 is not None else None
            lines.append(
                tr(
                    f"chupate2.phase.{view.phase}",
                    player=names(view.turn),
                    count=view.pending_draw,
                    target=names(target),
                )
            )
        for seat in view.exposed:
            lines.append("👉 " + tr("chupate2.status.exposed", player=names(seat)))
        if view.teams is not None:
            lines.extend(self._team_lines(view, names, tr))
        if view.target is not None:
            lines.append(tr("chupate2.status.round", round=view.round, target=view.target))
            lines.extend(_round_results(view.results[-RESULTS_SHOWN:], names, tr))
        return lines

    def summary(
        self, view: Chupate2View, names: SeatNames, tr: Translator
    ) -> tuple[str, list[str]] | None:
        """A points game's last scored round, whole (issue 31): who went out and what it
        scored, what each other hand held, each player's (or team's) points this round and in
        total, and what that decided (the game over, or the next round)."""
        if view.target is None or not view.results:
            return None
        r = view.results[-1]
        teams = view.teams or []
        team = r.team if view.teams is not None else None
        if team is None:
            lines = [tr("chupate2.hand_summary.went_out", player=names(r.winner), points=r.points)]
        else:
            lines = [
                tr(
                    "chupate2.hand_summary.went_out_team",
                    player=names(r.winner),
                    team=team + 1,
                    points=r.points,
                )
            ]
        lines.append(tr("chupate2.hand_summary.values"))
        mates = set(teams[team]) if team is not None else {r.winner}
        for seat in view.seats:
            if seat == r.winner:
                line = tr("chupate2.hand_summary.out", player=names(seat))
            else:
                line = tr(
                    "chupate2.hand_summary.left",
                    player=names(seat),
                    count=r.cards_left.get(seat, 0),
                    left=r.left.get(seat, 0),
                )
                if seat in mates:
                    line += " " + tr("chupate2.hand_summary.mate")
            if team is None:
                gained = r.points if seat == r.winner else 0
                total = view.scores.get(seat, 0)
                line += " · " + tr("chupate2.hand_summary.seat_total", gained=gained, total=total)
            lines.append(line)
        if team is not None and view.team_scores is not None:
            for t, members in enumerate(teams):
                lines.append(
                    tr(
                        "chupate2.hand_summary.team_total",
                        team=t + 1,
                        players=", ".join(names(s) for s in members),
                        gained=r.points if t == team else 0,
                        total=view.team_scores[t],
                    )
                )
        if team is not None and view.team_scores:
            total = view.team_scores[team]
        else:
            total = view.scores.get(r.winner, 0)
        if view.finished:
            key = "reached" if team is None else "reached_team"
            lines.append(
                tr(
                    f"chupate2.hand_summary.{key}",
                    player=names(r.winner),
                    team=(team or 0) + 1,
                    total=total,
                    target=view.target,
                )
            )
        else:
            lines.append(tr("chupate2.hand_summary.next", target=view.target, round=view.round))
        return tr("chupate2.hand_summary.title", round=r.round), lines

    @staticmethod
    def _dir(view) -> str:
        return "cw" if view.direction > 0 else "ccw"

    @staticmethod
    def _team_lines(view, names: SeatNames, tr: Translator) -> list[str]:
        lines = []
        for t, members in enumerate(view.teams):
            players = ", ".join(names(s) for s in members)
            if view.target is not None and view.team_scores:
                lines.append(
                    tr(
                        "chupate2.status.team",
                        team=t + 1,
                        players=players,
                        points=view.team_scores[t],
                    )
                )
            else:
                lines.append(tr("chupate2.ui.team", team=t + 1, players=players))
        return lines

    def seat_line(self, view: Chupate2View, seat: str, names: SeatNames, tr: Translator) -> str:
        count = view.hand_counts.get(seat, 0)
        if view.target is not None and view.teams is None:
            line = tr(
                "chupate2.status.seat_score",
                player=names(seat),
                count=count,
                points=view.scores.get(seat, 0),
            )
        elif count == 1:
            line = tr("chupate2.ui.seat_one", player=names(seat))
        else:
            line = tr("chupate2.status.seat", player=names(seat), count=count)
        if view.team_of is not None:
            line += " · " + tr("chupate2.image.team", team=view.team_of[seat] + 1)
        if seat in view.last_card_called:
            line += " · ☝️ " + tr("chupate2.action.announce")
        return line

    def private_lines(self, view: Chupate2View, tr: Translator) -> list[str]:
        lines = [
            tr(
                "chupate2.status.top",
                card=card_text(view.top_card, tr),
                colour=colour_text(view.colour, tr),
            )
        ]
        mine = view.seat is not None and view.turn == view.seat
        if mine and view.phase == "challenge" and view.plus4 is not None:
            lines.append(
                "🤥 "
                + tr(
                    "chupate2.ui.hit_by_plus4",
                    count=view.pending_draw,
                    colour=colour_text(view.plus4.prev_colour, tr),
                )
            )
        elif mine and view.phase == "penalty":
            lines.append("⚠️ " + tr("chupate2.ui.must_answer", count=view.pending_draw))
        elif mine and view.phase == "drawn" and view.drawn_card is not None:
            lines.append(tr("chupate2.ui.drawn", card=card_text(view.drawn_card, tr)))
        elif mine and view.phase == "colour":
            lines.append(tr("chupate2.ui.name_colour"))
        if view.reveal is not None:
            verdict = "legal" if view.reveal.legal else "illegal"
            lines.append(
                "👀 "
                + tr(
                    "chupate2.ui.reveal",
                    cards=", ".join(card_text(c, tr) for c in view.reveal.cards) or "—",
                    verdict=tr(f"chupate2.status.reveal.{verdict}"),
                )
            )
        if view.hand:
            lines.extend(_hand_lines(view.hand, tr))
        return lines

    def outcome_lines(self, outcome: Outcome, names: SeatNames, tr: Translator) -> list[str]:
        if not isinstance(outcome, Chupate2Outcome):
            return super().outcome_lines(outcome, names, tr)
        lines: list[str] = []
        teams = outcome.teams
        if teams:
            winning = outcome.winning_team
            scores = outcome.team_scores or [0] * len(teams)
            if winning is not None:
                lines.append(
                    "🏆 "
                    + tr(
                        "chupate2.outcome.team_won",
                        team=winning + 1,
                        players=", ".join(names(s) for s in teams[winning]),
                    )
                )
            order = sorted(range(len(teams)), key=lambda t: (t != winning, -scores[t]))
            lines.extend(
                tr(
                    "chupate2.status.team",
                    team=t + 1,
                    points=scores[t],
                    players=", ".join(names(s) for s in teams[t]),
                )
                for t in order
            )
        elif outcome.mode == "single" and outcome.rounds:
            left = outcome.rounds[-1].left  # points left in each hand
            for place, group in enumerate(outcome.ranking, start=1):
                players = ", ".join(names(s) for s in group)
                if place == 1:
                    lines.append(
                        tr(
                            "game.result_line",
                            place=place,
                            players=players,
                            points=outcome.points.get(group[0], 0),
                        )
                    )
                else:
                    lines.append(
                        tr(
                            "chupate2.ui.result_left",
                            place=place,
                            players=players,
                            left=left.get(group[0], 0),
                        )
                    )
        else:
            lines.extend(super().outcome_lines(outcome, names, tr))
        if outcome.mode == "points":
            lines.extend(_round_results(outcome.rounds, names, tr))
        return lines


def _hand_lines(hand: Sequence[str], tr: Translator) -> Sequence[str]:
    """A hand in words, a line per colour: written once per hand and language (a hand is
    shown again at every move until it changes: each seat's view, the next player's)."""
    return _written_hand_lines(tuple(hand), tr)


# Hands in words, per process: a busy bot's hands (three or four a table) with room to spare,
# ~0.4 KB each; the least recently shown goes first.
@per_language(maxsize=4096)
def _written_hand_lines(hand: tuple[str, ...], tr: Translator) -> tuple[str, ...]:
    lines = [tr("chupate2.ui.hand", count=len(hand))]
    for colour in (*COLOURS, WILD):
        cards = [c for c in hand if COLOUR_OF[c] == colour]
        if cards:
            faces = ", ".join(
                tr(f"chupate2.face.{c[0] if colour == WILD else c[1]}") for c in cards
            )
            named = tr("chupate2.ui.wild_cards" if colour == WILD else f"chupate2.colour.{colour}")
            lines.append(f"{COLOUR_EMOJI[colour]} {named}: {faces}")
    return tuple(lines)


# The same nine texts in every private payload with choices: written once per language.
@per_language(maxsize=4)
def _group_placeholders(tr: Translator) -> dict[str, str]:
    out = {c: tr("chupate2.ui.pick_in_colour", colour=colour_text(c, tr)) for c in COLOURS}
    out[WILD] = tr("chupate2.ui.pick_wild")
    out["colour"] = tr("chupate2.group.colour")
    out["turn"] = tr("chupate2.ui.pick_turn")
    out["swap"] = tr("chupate2.group.swap")
    return out
