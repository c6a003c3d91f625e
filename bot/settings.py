"""Settings from the environment (and a ``.env`` file), validated by pydantic-settings.

The class reads no ``.env`` by itself: the entry point (``python -m bot``) passes the file it
chose (``--env-file``, ``.env`` in the folder the bot is started from by default), and tests
build their settings explicitly. A blank value (``DEV_GUILD_ID=`` as in ``.env.example``)
means "unset": the default applies.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from storage.sql import PgTuning

WORKER_NICENESS = 5  # issue 25: measured in bench/load.py runs (see the closing note)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=None, env_file_encoding="utf-8", extra="ignore")

    discord_token: str | None = None  # from the developer portal; see .env.example
    database_path: Path = Field(default=Path("./data/bot.db"))
    # postgresql://user:password@host:port/database selects PostgreSQL (several processes may
    # share it); unset: the SQLite file at database_path.
    database_url: str | None = Field(default=None, pattern=r"^postgres(ql)?://")
    # PostgreSQL only: a statement running longer than this is cancelled, one waiting longer
    # for a lock fails (milliseconds; 0: no limit); connections of the read pool.
    database_statement_timeout_ms: int = Field(default=15_000, ge=0, le=3_600_000)
    database_lock_timeout_ms: int = Field(default=5_000, ge=0, le=3_600_000)
    database_read_connections: int = Field(default=4, ge=1, le=100)
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    default_locale: Literal["es", "en"] = "es"
    dev_guild_id: int | None = None  # sync commands to this guild only (instant) in development
    turn_timeout_seconds: int = Field(default=120, ge=10, le=3600)
    timeouts_before_replacement: int = Field(default=3, ge=1, le=10)
    cpu_delay_seconds: float = Field(default=1.0, ge=0, le=10)
    cpu_think_seconds: float = Field(default=2.0, gt=0, le=30)
    # How long a click may wait for its new view to answer it in place (UPDATE_MESSAGE, one
    # call) before it is acknowledged and edited after. None: the built-in 50 ms; 0: always
    # acknowledge first (the crash soak uses it so that every click goes through the intent log).
    answer_in_place_ms: int | None = Field(default=None, ge=0, le=2500)
    # Processes drawing table and hand images (None: one per core; 0: draw on the event loop).
    render_processes: int | None = Field(default=None, ge=0, le=64)
    # Processes for computer searches (bot/workers.py; images have their own pool). None: one per
    # core; 0: no child processes, the work runs in a thread of the bot (tools, small hosts).
    worker_processes: int | None = Field(default=None, ge=0, le=64)
    # OS niceness added to both pools' processes (images, searches): on a busy machine the
    # bot's own loop (acks, the mover's view) gets the CPU first. 0: the bot's priority.
    worker_niceness: int = Field(default=WORKER_NICENESS, ge=0, le=19)
    # Bot-token REST calls per second at most (bot/ui/pacer.py): Discord's global limit is 50
    # per bot (interaction callbacks and their webhooks are exempt). 45 leaves room for calls
    # that start on time but reach Discord late (measured: 52 in one second at 50). Raise it
    # only if Discord raised your bot's limit; 0 turns pacing off. Shard processes share it
    # (``request_budget``).
    global_requests_per_second: int = Field(default=45, ge=0, le=10_000)
    # Least seconds between two bot-token edits of one public table while it is played (DM
    # play: nobody clicks the table, so no interaction token may edit it). Changes meanwhile
    # are coalesced: the table then shows its newest version, at most this many seconds (plus
    # the pacer's queue) behind. Edits through a table token (someone pressed one of its
    # buttons in the last 14 minutes), the lobby and the game's end are never held. 0: every
    # change at once.
    public_edit_every_seconds: float = Field(default=5.0, ge=0, le=60)
    # ...but only while the bot token's budget is contested: callers queue for it, or the last
    # second's bot-token calls reached this share of ``global_requests_per_second`` (of all
    # shard processes: their shared budget ran short). With budget to spare a played table's
    # change goes at once. 0: always coalesce. Four fifths, not half: at 300 tables whose DM
    # players' table tokens all aged out (21 bot-token calls/s) half held DM-played public
    # edits to a p99 of 4.3 s, four fifths to 2.1 s (the tables' tokens aging out together).
    public_edit_coalesce_share: float = Field(default=0.8, ge=0, le=1)
    # A DM hand is posted when its player first has something to act on (not at Start), and a
    # DM hand that has nothing to act on before or after a change is brought up to date with
    # the bot token only once it has again (or the game ends): through the token of its
    # player's last click on it, always at once. False: every change of every DM hand.
    dm_views_when_needed: bool = True
    # A table that lives on interaction tokens alone (a group DM, a server without the bot:
    # bot/ui/anywhere.py) is paused this many seconds after the last press of its buttons
    # (Discord's tokens live 15 minutes); any press resumes it.
    interaction_pause_seconds: float = Field(default=14 * 60.0, gt=0, le=14 * 60.0)
    # Seconds between two event-loop lag samples (bot/metrics.py, DEBUG lines on mesa.metrics).
    loop_lag_interval_seconds: float = Field(default=1.0, gt=0, le=60)
    # Shards (Discord requires them from 2,500 guilds). SHARD_COUNT: how many in total;
    # SHARD_IDS: those this process runs ("0-3", "0,2"; empty: all of them). Shards split over
    # several processes need PostgreSQL (DATABASE_URL); SQLite serves one process only.
    shard_count: int | None = Field(default=None, ge=1, le=65536)
    shard_ids: str | None = None
    # Health and Prometheus metrics over HTTP (bot/ops/): off unless a port is set.
    metrics_port: int | None = Field(default=None, ge=0, le=65535)
    metrics_host: str = "127.0.0.1"
    log_format: Literal["text", "json"] = "text"  # json: one JSON object per log line
    # Only tests set these: they point an unmodified discord.py at a local fake Discord.
    discord_api_base: str | None = None
    discord_gateway_url: str | None = None

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        if self.shard_ids is None:
            return self
        if self.shard_count is None:
            raise ValueError("SHARD_IDS needs SHARD_COUNT")
        ids = parse_shard_ids(self.shard_ids)
        if ids[-1] >= self.shard_count:
            raise ValueError(f"shard {ids[-1]} is not below SHARD_COUNT={self.shard_count}")
        return self

    def request_budget(self) -> int:
        """Bot-token calls per second for THIS process: the global limit is per bot token, so
        shard processes split it in proportion to the shards each runs (0: unpaced)."""
        rate, shards = self.global_requests_per_second, self.shards()
        if rate <= 0 or shards is None or self.shard_count is None:
            return rate
        return max(1, rate * len(shards) // self.shard_count)

    def intent_origin(self) -> str:
        """Names this process among shard processes sharing one database: its shards and the
        count ("0,1/4"); "" when one process runs them all (or the bot is unsharded)."""
        shards = self.shards()
        if shards is None or self.shard_count is None or len(shards) == self.shard_count:
            return ""
        return ",".join(map(str, shards)) + f"/{self.shard_count}"

    def shards(self) -> tuple[int, ...] | None:
        """The shard ids this process runs; None when the bot is not sharded."""
        if self.shard_count is None:
            return None
        if self.shard_ids is None:
            return tuple(range(self.shard_count))
        return parse_shard_ids(self.shard_ids)

    def pg_tuning(self) -> PgTuning:
        """The PostgreSQL connection settings (unused on SQLite)."""
        return PgTuning(
            statement_timeout_ms=self.database_statement_timeout_ms,
            lock_timeout_ms=self.database_lock_timeout_ms,
            read_connections=self.database_read_connections,
        )

    @property
    def database(self) -> str | Path:
        """What the bot opens: the PostgreSQL URL if set, else the SQLite path."""
        return self.database_url or self.database_path

    @model_validator(mode="before")
    @classmethod
    def _blank_is_unset(cls, data: object) -> object:
        """Drop blank values (from the environment, the file or the caller): defaults apply."""
        if not isinstance(data, dict):
            return data
        return {
            key: value.strip() if isinstance(value, str) else value
            for key, value in data.items()
            if not (isinstance(value, str) and not value.strip())
        }


def parse_shard_ids(text: str) -> tuple[int, ...]:
    """``"0-3"``, ``"0,2"``, ``"1"``, ``"0-1,4"`` -> sorted, distinct shard ids."""
    ids: set[int] = set()
    for part in text.split(","):
        low, dash, high = part.strip().partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            raise ValueError(f"shard ids are numbers or ranges like 0-3, not {text!r}")
        first, last = int(low), int(high or low)
        if last < first:
            raise ValueError(f"an empty shard range: {part.strip()!r}")
        ids.update(range(first, last + 1))
    return tuple(sorted(ids))
