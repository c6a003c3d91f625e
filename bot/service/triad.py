"""Triple Triad's own lobby (its ``LobbyRules``): a challenge to a member or the computer,
Accept/Decline, each player's five picked cards, and the collections behind them.

State of a lobby lives in the table record's ``meta["triad"]`` (so it survives restarts):
``{"opponent": user id | None, "picks": {seat: [card ids]}, "ready": [seats]}``. The opponent
is seated only once they accept; a lobby with two seats (a rematch, a computer) is accepted.

Collections: the first time someone uses a Triad feature they get the starter set; anyone
holding fewer than 5 cards is topped up; every grant goes through ``CollectionsRepo`` (ledger).

Stakes: a game's start puts each player's five at stake in the same transaction
(``stake``, ``storage/collections.stake_cards``), so the cards free to pick are counted by the
database whichever process started the other games; two starts racing for the last copies
stake them once, and the loser of the race is asked to pick again.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from bot.errors import Notice, TableError
from bot.service.context import ServiceContext
from bot.service.lobby import Lobby, Place
from bot.service.models import Table, is_human_id
from games.core import GameState
from games.triad import Options, TriadState
from games.triad.cards import (
    HAND_SIZE,
    card,
    collection_levels,
    cpu_deck,
    is_card,
    matched_deck,
    starter_set,
    top_up,
)
from storage import (
    CardsAtStake,
    CardStake,
    CollectionsRepo,
    Database,
    StandingRow,
    StandingsRepo,
)

GAME = "triad"
META = "triad"


class TriadLobbyState(BaseModel):
    opponent: str | None = None  # the challenged member, until they accept
    picks: dict[str, list[str]] = Field(default_factory=dict)
    ready: list[str] = Field(default_factory=list)  # seats that confirmed their five


def lobby_state(table: Table) -> TriadLobbyState:
    return TriadLobbyState.model_validate(table.record.meta.get(META) or {})


def accepted(table: Table) -> bool:
    return len(table.record.seats) >= 2


def pending_opponent(table: Table) -> str | None:
    """The challenged member who has not accepted yet (None if open to anyone / accepted)."""
    if accepted(table):
        return None
    return lobby_state(table).opponent


def holds(cards: dict[str, int], picks: list[str]) -> bool:
    return len(picks) == HAND_SIZE and all(
        is_card(c) and picks.count(c) <= cards.get(c, 0) for c in picks
    )


async def ensure_collection(repo: CollectionsRepo, user_id: str) -> dict[str, int]:
    """The user's Triad collection after granting the starter set (once, to a new user) and
    topping it up to 5 cards; each grant is recorded in the ledger."""
    await repo.ensure_starter(user_id, GAME, starter_set(f"starter:{user_id}"))
    return await _topped_up(repo, user_id, await repo.cards(user_id, GAME))


def _full(cards: dict[str, int]) -> bool:
    """The collection holds a hand: ``top_up`` grants nothing, whatever its seed."""
    return sum(cards.values()) >= HAND_SIZE


async def _topped_up(repo: CollectionsRepo, user_id: str, cards: dict[str, int]) -> dict[str, int]:
    """``cards`` (the user's collection as read) after topping it up to 5 cards. The ledger,
    whose length seeds the grant, is read only when cards are missing (``_full``): a Triad
    pick read it whole every time (issue 29)."""
    if _full(cards):
        return cards
    grants = top_up(cards, f"top_up:{user_id}:{len(await repo.ledger(user_id, GAME))}")
    if grants:
        await repo.top_up(user_id, GAME, HAND_SIZE, grants)
        cards = await repo.cards(user_id, GAME)
    return cards


def cpu_hand(
    level: str,
    hands: dict[str, list[str]],
    collections: dict[str, dict[str, int]],
    seed: str,
    table_id: int,
) -> list[str]:
    """The computer's five, matched to its human opponent (``cards.matched_deck``): the levels
    of the five they chose, or under Mano mezclada their collection's level; with no human
    opponent (never, in the bot) the fixed per-difficulty deck."""
    if hands:
        levels = [card(c).level for c in next(iter(hands.values()))]
    elif collections:
        levels = collection_levels(next(iter(collections.values())))
    else:
        return cpu_deck(level, seed, table_id)
    return matched_deck(level, levels, seed, table_id)


class TriadProfile(BaseModel):
    """``/profile``: the Triad record and the standings of the other games."""

    played: int
    won: int
    drawn: int
    lost: int
    cards_won: int
    cards_lost: int
    cards: int
    others: list[StandingRow]

    def record(self) -> dict[str, int]:
        return self.model_dump(exclude={"others"})


PickChange = Literal["add", "remove", "clear"]


class TriadLobby:
    game_key = GAME
    meta_key = META

    def __init__(self, ctx: ServiceContext, lobby: Lobby, db: Database) -> None:
        self.ctx = ctx
        self.lobby = lobby
        self.collections = CollectionsRepo(db)
        self.standings = StandingsRepo(db)

    # ----- collections ----------------------------------------------------------------------
    async def collection(self, user: str) -> dict[str, int]:
        """The user's own collection (granting the starter set / top-up first)."""
        return await ensure_collection(self.collections, user)

    async def cards_of(self, user: str) -> dict[str, int]:
        """Someone else's collection, as it is (nothing granted)."""
        return await self.collections.cards(user, GAME)

    async def available(self, user: str) -> dict[str, int]:
        """The user's collection minus the cards their games in progress put at stake (a
        payout takes from the original five), so no card is staked twice at once: counted by
        the database, so a stake made by any process counts (``CollectionsRepo.free``)."""
        await self.collections.ensure_starter(user, GAME, starter_set(f"starter:{user}"))
        cards, free = await self.collections.holdings(user, GAME)
        if _full(cards):  # one read (a pick read the collection twice, the ledger and this)
            return free
        await _topped_up(self.collections, user, cards)
        return await self.collections.free(user, GAME)

    async def profile(self, guild_id: str, user: str) -> TriadProfile:
        rows = await self.standings.of_user(guild_id, user)
        triad_row = next((r for r in rows if r.game == GAME), None)
        draws = (await self.standings.stats_of(guild_id, user, GAME)).get("draws", 0)
        ledger = await self.collections.ledger(user, GAME)
        played = triad_row.played if triad_row else 0
        won = triad_row.won if triad_row else 0
        return TriadProfile(
            played=played,
            won=won,
            drawn=draws,
            lost=played - won - draws,
            cards_won=sum(r.delta for r in ledger if r.reason == "payout" and r.delta > 0),
            cards_lost=-sum(r.delta for r in ledger if r.reason == "payout" and r.delta < 0),
            cards=sum((await self.collections.cards(user, GAME)).values()),
            others=[r for r in rows if r.game != GAME],
        )

    # ----- the challenge lobby --------------------------------------------------------------
    def lobby_table(self, table_id: int) -> Table:
        table = self.ctx.get(table_id)
        if table.record.status != "lobby":
            raise TableError("not_in_lobby")
        return table

    async def challenge(
        self,
        *,
        guild_id: str,
        channel_id: str,
        host_id: str,
        host_name: str,
        locale: str,
        options: dict[str, Any],
        opponent: str | None,
        level: str,
        place: Place | None = None,
        interaction_only: bool = False,
    ) -> tuple[Table, bool]:
        """Open a challenge to ``opponent`` (None: the computer, seated at once); returns the
        table and whether the game already started. ``place``: into a thread of its own, like
        every other game's table (``LobbyService.open``)."""
        table = await self.lobby.open(
            guild_id=guild_id,
            channel_id=channel_id,
            game_key=GAME,
            host_id=host_id,
            host_name=host_name,
            locale=locale,
            options=options,
            place=place,
            interaction_only=interaction_only,
        )

        def set_opponent(current: dict[str, Any]) -> dict[str, Any]:
            state = TriadLobbyState.model_validate(current)
            state.opponent = opponent
            return state.model_dump()

        await self.lobby.update_meta(table.id, META, set_opponent)
        if opponent is not None:
            return table, False
        await self.lobby.add_cpu(table.id, host_id, level)
        return table, await self.start_if_ready(table.id)

    async def accept(self, table_id: int, user: str, name: str) -> bool:
        """The challenged member (or anyone, in an open challenge) takes the other seat;
        True if that started the game."""
        table = self.lobby_table(table_id)
        if table.seat(user) is not None:
            raise TableError("already_joined")
        wanted = pending_opponent(table)
        if wanted is not None and wanted != user:
            raise Notice("not_challenged")
        await self.available(user)  # their collection exists before they pick
        await self.lobby.join(table.id, user, name)
        return await self.start_if_ready(table.id)

    async def decline(self, table_id: int, user: str) -> None:
        table = self.lobby_table(table_id)
        if pending_opponent(table) != user:
            raise Notice("not_challenged")
        await self.lobby.cancel(table_id, table.record.host_id, may_manage=True)

    # ----- the 5-card picker ----------------------------------------------------------------
    async def picker(self, table_id: int, user: str) -> tuple[dict[str, int], list[str], bool]:
        """What ``user``'s picker shows: (available cards, picks so far, confirmed)."""
        table = self.ctx.get(table_id)
        self._require_seated(table, user)
        cards = await self.available(user)
        state = lobby_state(table)
        return cards, list(state.picks.get(user, [])), user in state.ready

    async def change_picks(
        self, table_id: int, user: str, change: PickChange, card: str = ""
    ) -> None:
        """Add one copy of ``card`` (if held and fewer than five are picked), remove one, or
        clear the selection; refused once the player confirmed."""
        table = self.lobby_table(table_id)
        self._require_seated(table, user)
        cards = await self.available(user) if change != "clear" else {}

        def edit(picks: list[str]) -> list[str]:
            if change == "clear":
                return []
            if change == "add":
                ok = len(picks) < HAND_SIZE and picks.count(card) < cards.get(card, 0)
                return [*picks, card] if ok else picks
            if card in picks:
                picks.remove(card)
            return picks

        def update(current: dict[str, Any]) -> dict[str, Any]:
            state = TriadLobbyState.model_validate(current)
            if user in state.ready:
                raise Notice("already_ready")
            state.picks = {**state.picks, user: edit(list(state.picks.get(user, [])))}
            return state.model_dump()

        await self.lobby.update_meta(table.id, META, update)

    async def confirm(self, table_id: int, user: str) -> None:
        """``user`` confirms their five (they must hold them); ``start_if_ready`` next."""
        table = self.lobby_table(table_id)
        self._require_seated(table, user)
        cards = await self.available(user)
        if not holds(cards, lobby_state(table).picks.get(user, [])):
            raise Notice("pick_five")

        def mark_ready(current: dict[str, Any]) -> dict[str, Any]:
            state = TriadLobbyState.model_validate(current)
            if user not in state.ready:
                state.ready = [*state.ready, user]
            return state.model_dump()

        await self.lobby.update_meta(table.id, META, mark_ready)

    async def start_if_ready(self, table_id: int) -> bool:
        """Start once both sides are ready. A player whose picks are no longer free (another
        game, maybe in another process, staked them meanwhile: the start's transaction
        refused) is asked to pick again."""
        try:
            return await self.lobby.start_when_ready(table_id, self)
        except CardsAtStake as exc:
            await self._unready(table_id, exc.user_id)
            raise Notice("pick_five") from exc

    async def _unready(self, table_id: int, user: str) -> None:
        def update(current: dict[str, Any]) -> dict[str, Any]:
            state = TriadLobbyState.model_validate(current)
            state.ready = [seat for seat in state.ready if seat != user]
            return state.model_dump()

        await self.lobby.update_meta(table_id, META, update)

    # ----- LobbyRules -----------------------------------------------------------------------
    async def setup(self, table: Table) -> dict[str, Any] | None:
        """Ready once both sides are seated and every human has confirmed five cards (or,
        under Mano mezclada, at once: the engine draws from the free cards); the computer's
        five are matched to its opponent's (``cpu_hand``). Whether the
        cards are still free is the start's transaction to say (``stake``)."""
        if len(table.record.seats) < 2:
            return None
        options = table.game.parse_options(self.ctx.game_options(table))
        state = lobby_state(table)
        hands: dict[str, list[str]] = {}
        collections: dict[str, dict[str, int]] = {}
        for seat in table.record.seats:
            if seat.is_cpu:
                continue
            if isinstance(options, Options) and options.random_hand:
                collections[seat.id] = await self.available(seat.id)
            elif seat.id in state.ready and len(state.picks.get(seat.id, [])) == HAND_SIZE:
                # Confirmed while free; the start's transaction checks they still are.
                hands[seat.id] = list(state.picks[seat.id])
            else:
                return None
        for seat in table.record.seats:
            if seat.is_cpu:
                hands[seat.id] = cpu_hand(
                    seat.cpu_level or "normal", hands, collections, table.record.seed, table.id
                )
        setup: dict[str, Any] = {"hands": hands}
        if collections:
            setup["collections"] = collections
        return setup

    def stake(self, table: Table, state: GameState, setup: dict[str, Any]) -> CardStake | None:
        """Each person's original five when they came from their collection (picked, or drawn
        from it under Mano mezclada); a seeded deck (no setup for that seat: tests, benches)
        and the computer's stake nothing."""
        if not isinstance(state, TriadState):
            return None
        chosen = set(setup.get("hands") or {}) | set(setup.get("collections") or {})
        cards = {
            seat: list(state.originals[i])
            for i, seat in enumerate(state.seats)
            if is_human_id(seat) and seat in chosen
        }
        return CardStake(game=GAME, cards=cards) if cards else None

    @staticmethod
    def _require_seated(table: Table, user: str) -> None:
        if table.seat(user) is None:
            raise TableError("not_seated")
