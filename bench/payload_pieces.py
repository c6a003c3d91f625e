"""Where a move's payloads spend their instructions, piece by piece: valgrind's callgrind counts
each piece of the public and private payloads (the game's views, ``to_act``/``outcome``, legal
actions, seat names, the presenter's lines and components, the choices' layout, event texts,
``card_view``, the V2 checks, the table image's request, ``edit_parameters``) run alone over
``bench/profile_payloads.py``'s moves in a row (every seat's private payload at every state),
in one process: a ``math.gcd`` call between pieces makes callgrind dump its count
(``--dump-before``), so start-up and warm-up fall outside every piece. Instructions are a figure
no other process on a loaded machine changes; pieces are inclusive and overlap (the two whole
payloads contain the others), and a hot loop's instructions cost 3-10x less than the live bot's
(cache misses: ``bench/probe_calls.py`` measures those).

    .venv/bin/python bench/payload_pieces.py [--root /path/to/other/checkout] [--games macarena]

Needs valgrind. Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import math
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=HERE.parent, help="the tree whose bot runs")
    parser.add_argument("--row", type=int, default=40, help="moves in a row per game")
    parser.add_argument("--games", nargs="+", default=None, help="only these games (keys)")
    parser.add_argument("--run", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.run:
        return asyncio.run(_in_a_loop(args))
    from count_request_instructions import callgrind_dumps  # (a sibling script)

    argv = [__file__, "--run", "--root", str(args.root), "--row", str(args.row)]
    argv += ["--games", *args.games] if args.games else []
    counts, stdout = callgrind_dumps(argv, "mesa-pieces-")
    moves_line, names_line = stdout.split("\n")[:2]
    names = names_line.split()
    moves = int(moves_line)
    print(f"bot from {args.root}: instructions per move ({moves} moves in a row)")
    print("| piece | instructions per move |")
    print("|---|---:|")
    # the dump before the first marker holds start-up; each marker's dump after it, a piece
    for name, count in zip(names, counts[-len(names) :], strict=True):
        print(f"| {name} | {count / moves:,.0f} |")
    return 0


async def _in_a_loop(args: argparse.Namespace) -> int:
    """As in the bot: discord.py's views make a future when a loop runs."""
    return _pieces(args)


def _pieces(args: argparse.Namespace) -> int:
    """In the process callgrind counts: every piece twice (warm), then once between markers."""
    sys.path.insert(0, str(args.root))
    sys.path.insert(0, str(HERE))
    work = Pieces(args.games, args.row)
    pieces = [(name, getattr(work, name)) for name in Pieces.NAMES]
    for _ in range(2):
        for _name, run in pieces:
            run()
    gc.disable()  # (its runs would fall in one piece or another)
    print(work.moves)
    print(" ".join(Pieces.NAMES))
    for _name, run in pieces:
        math.gcd(1, 1)
        run()
    math.gcd(1, 1)
    return 0


class Pieces:
    """Each piece over every state of the moves in a row (each a method named in ``NAMES``)."""

    NAMES = (
        "public_payload",
        "private_payloads",
        "edit_parameters_of_all",
        "view_public",
        "views_of_seats",
        "to_act_and_outcome_per_payload",
        "legal_actions_of_seats",
        "seat_names_per_payload",
        "private_components_with_legal",
        "choices_layout_with_components",
        "private_and_draft_lines",
        "public_lines",
        "event_texts_public",
        "event_texts_of_seats",
        "card_view_of_all",
        "v2_limits_of_all",
        "table_image_request",
    )

    def __init__(self, games: list[str] | None, row: int) -> None:
        from profile_payloads import chosen, in_a_row

        from bot.i18n import translator
        from bot.registry import load_games
        from bot.ui import messages, v2
        from bot.ui.presenter import presenter_for
        from tests.bot.presenter_kit import StubService, table_for

        self.messages, self.v2 = messages, v2
        self.tr = translator("es")
        self.service = StubService()
        self.rows = []
        for key, game in chosen(load_games(), games):
            seats = [f"s{i}" for i in range(2 if key == "triad" else max(game.min_players, 3))]
            self.rows.append((game, presenter_for(game), in_a_row(game, seats, row, table_for)))
        self.moves = sum(len(tables) for *_, tables in self.rows)
        # every state's public view and each seat's, built once for the pieces that read views
        self.views = [
            [(g.view(t.state, None), [g.view(t.state, s) for s in t.state.seats]) for t in tables]
            for g, _, tables in self.rows
        ]
        # every seat's private payload built (not a kept one copied: the presenter's kept hands)
        self.build_private = getattr(messages, "_private_payload", None)
        self.cards: list[Any] = []
        real_card_view = v2.card_view

        def keeping(card: Any) -> Any:
            self.cards.append(card)
            return real_card_view(card)

        self.built = []
        messages.v2.card_view = keeping  # type: ignore[attr-defined]
        for _game, presenter, tables in self.rows:
            for t in tables:
                self.built.append(messages.public_payload(t, presenter, self.service, self.tr))
                self.built += [
                    messages.private_payload(t, presenter, s, self.tr) for s in t.state.seats
                ]
        messages.v2.card_view = real_card_view  # type: ignore[attr-defined]

    def seat_names(self, table: Any, presenter: Any) -> Any:
        """``seat_names`` as the payloads ask for it: kept in the presenter's bot's memos (a
        tree before them: in the process's)."""
        memos = getattr(presenter, "memos", None)
        if memos is None:
            return self.messages.seat_names(table, self.tr)
        return self.messages.seat_names(table, self.tr, memos.names)

    def each_state(self) -> Iterator[tuple[Any, Any, Any, Any, list[Any]]]:
        """(game, presenter, table, its public view, each seat's view) of every state."""
        for (game, presenter, tables), states in zip(self.rows, self.views, strict=True):
            for t, (public, private) in zip(tables, states, strict=True):
                yield game, presenter, t, public, private

    def public_payload(self) -> None:
        for _game, presenter, t, *_ in self.each_state():
            self.messages.public_payload(t, presenter, self.service, self.tr)

    def private_payloads(self) -> None:
        for _game, presenter, t, *_ in self.each_state():
            for s in t.state.seats:
                if self.build_private is None:  # (a tree without kept hands)
                    self.messages.private_payload(t, presenter, s, self.tr)
                else:
                    self.build_private(t, presenter, s, self.tr, 0, None, None)

    def edit_parameters_of_all(self) -> None:
        from bot.ui.payload import edit_parameters

        for payload in self.built:
            edit_parameters(payload.edit_kwargs(), None)

    def view_public(self) -> None:
        for game, _, t, *_ in self.each_state():
            game.view(t.state, None)

    def views_of_seats(self) -> None:
        for game, _, t, *_ in self.each_state():
            for s in t.state.seats:
                game.view(t.state, s)

    def to_act_and_outcome_per_payload(self) -> None:
        for game, _, t, *_ in self.each_state():
            for _ in range(len(t.state.seats) + 1):
                game.to_act(t.state)
                game.outcome(t.state)

    def legal_actions_of_seats(self) -> None:
        for game, _, t, *_ in self.each_state():
            for s in t.state.seats:
                game.legal_actions(t.state, s)

    def seat_names_per_payload(self) -> None:
        for _game, presenter, t, *_ in self.each_state():
            for _ in range(len(t.state.seats) + 1):
                names = self.seat_names(t, presenter)
                for s in t.state.seats:
                    names(s)

    def private_components_with_legal(self) -> None:
        for game, presenter, t, _, private in self.each_state():
            names = self.seat_names(t, presenter)
            for s, view in zip(t.state.seats, private, strict=True):
                legal = game.legal_actions(t.state, s)
                presenter.private_components(t.id, view, legal, {}, names, self.tr, {})

    def choices_layout_with_components(self) -> None:
        from bot.ui.layout import build_layout

        tr, choice = self.tr, self.messages._choice
        for game, presenter, t, _, private in self.each_state():
            names = self.seat_names(t, presenter)
            for s, view in zip(t.state.seats, private, strict=True):
                written: dict[int, Any] = {}
                legal = game.legal_actions(t.state, s)
                _, legal = presenter.private_components(t.id, view, legal, {}, names, tr, written)
                choices = [choice(written, a, presenter, view, names, tr) for a in legal]
                build_layout(
                    choices,
                    table_id=t.id,
                    version=t.state.version,
                    group_placeholders=presenter.group_placeholders(tr) if choices else None,
                    budget=30,
                )

    def private_and_draft_lines(self) -> None:
        for _game, presenter, _t, _, private in self.each_state():
            for view in private:
                presenter.private_lines(view, self.tr)
                presenter.draft_lines(view, {}, self.tr)

    def public_lines(self) -> None:
        for _game, presenter, t, public, _ in self.each_state():
            names = self.seat_names(t, presenter)
            presenter.status_lines(public, names, self.tr)
            for s in t.state.seats:
                presenter.seat_line(public, s, names, self.tr)
            presenter.summary(public, names, self.tr)

    def event_texts_public(self) -> None:
        for _game, presenter, t, public, _ in self.each_state():
            names = self.seat_names(t, presenter)
            self.messages._latest_texts(presenter.last_events(public), presenter, names, self.tr)

    def event_texts_of_seats(self) -> None:
        latest = self.messages._latest_texts
        for _game, presenter, t, _, private in self.each_state():
            names = self.seat_names(t, presenter)
            for s, view in zip(t.state.seats, private, strict=True):
                latest(presenter.last_events(view), presenter, names, self.tr, s)

    def card_view_of_all(self) -> None:
        for card in self.cards:
            self.v2.card_view(card)

    def v2_limits_of_all(self) -> None:
        for payload in self.built:
            self.v2.check_v2_limits(payload.view)

    def table_image_request(self) -> None:
        request = self.messages._image_request
        for _game, presenter, t, public, _ in self.each_state():
            names = self.seat_names(t, presenter)
            request(presenter, "render_table", public, self.tr, names, "table.png")


if __name__ == "__main__":
    raise SystemExit(main())
