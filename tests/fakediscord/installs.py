"""Apps installed to a user (issue 30.2): group DMs, servers without the bot, and what Discord
refuses there.

Discord lets a person install an app to their own account (integration type ``USER_INSTALL``)
and use its global commands where the bot itself is absent: in group DMs (interaction context
``PRIVATE_CHANNEL``) and in servers that never added it (context ``GUILD``). There the app
only answers interactions:

- a command is offered only if it is global, its ``integration_types`` include
  ``USER_INSTALL``, its ``contexts`` include the place's context (``None``: every context), and
  the person installed the app (``fake.installs.install_for(alice)``);
- the interaction carries ``context`` (0 guild, 1 bot DM, 2 private channel) and
  ``authorizing_integration_owners`` ``{"1": "<installer's id>"}``; a click on a message the
  app sent there carries the owners of the interaction that made that message (anyone who
  sees the message may click, installed or not); in a server with the bot, a command of a user
  who also installed the app carries both ``{"0": guild, "1": user}``;
- ``app_permissions`` there is ``ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE`` (Discord's
  documented value for DMs with other users; Discord documents none for a server without the
  bot, and the fake uses the same);
- every bot-token request about such a channel or server answers **403 / 50001 Missing
  Access**, and nothing there reaches the bot's gateway (no MESSAGE_CREATE, no GUILD_CREATE);
- in a server without the bot whose member lacks ``USE_EXTERNAL_APPS`` (bit 50) every response
  and follow-up is **forced ephemeral** (Discord: "Allows user-installed apps to send public
  responses. When disabled, users will still be allowed to use their apps but the responses
  will be ephemeral. This only applies to apps not also installed to the server.").

Registering ``integration_types`` / ``contexts`` is checked against the OpenAPI spec (values
0–1 and 0–2, at least one, no repeats) like every other body field.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .errors import DiscordError
from .model import DEFAULT_MEMBER_PERMISSIONS, Channel, Guild, Member, Role, User

if TYPE_CHECKING:
    from .server import FakeDiscord

GUILD_INSTALL, USER_INSTALL = 0, 1  # application integration types
GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2  # interaction context types
GROUP_DM = 3  # channel type
APPLICATION_COMMAND = 2  # interaction type
USE_EXTERNAL_APPS = 1 << 50
EMBED_LINKS, ATTACH_FILES, MENTION_EVERYONE = 1 << 14, 1 << 15, 1 << 17
APP_PERMISSIONS_ELSEWHERE = ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE
ALL_CONTEXTS = (GUILD, BOT_DM, PRIVATE_CHANNEL)
_CHANNEL_PATH = re.compile(r"^/channels/(\d+)")
_GUILD_PATH = re.compile(r"^/guilds/(\d+)")


@dataclass(eq=False)
class GroupDM(Channel):
    """A group DM (channel type 3) among people; the bot is never one of them."""

    recipients: list[User] = field(default_factory=list)

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "type": GROUP_DM,
            "name": self.name,
            "icon": None,
            "owner_id": str(self.owner_id) if self.owner_id is not None else None,
            "last_message_id": None,
            "flags": 0,
            "recipients": [u.payload() for u in self.recipients],
        }


def _user_of(who: Any) -> User:
    return who.model if hasattr(who, "model") else who


class Installs:
    """Who installed the app to their account, and the places the bot is not in."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.users: set[int] = set()  # ids of the people who installed the app
        self.botless: dict[int, Guild] = {}  # servers without the bot, by id
        self._owners: dict[int, dict[str, str]] = {}  # interaction id -> its owners

    # --- the world -----------------------------------------------------------------------------

    def install_for(self, *people: Any) -> None:
        """The app installed to these people's accounts (``FakeUser`` or ``User``)."""
        self.users.update(_user_of(p).id for p in people)

    def uninstall_for(self, *people: Any) -> None:
        self.users.difference_update(_user_of(p).id for p in people)

    def group_dm(self, *people: Any, name: str | None = None) -> GroupDM:
        """A group DM of ``people`` (the first one owns it)."""
        members = [_user_of(p) for p in people]
        channel = GroupDM(
            id=self.fake.ids.next(),
            type=GROUP_DM,
            name=name,
            owner_id=members[0].id if members else None,
            recipients=members,
        )
        self.fake.channels[channel.id] = channel
        self.fake._bump()
        return channel

    def add_guild_without_bot(
        self,
        name: str,
        channels: tuple[str, ...] = ("general",),
        *,
        members: tuple[Any, ...] = (),
        external_apps: bool = True,
    ) -> Guild:
        """A server that never added the bot, with these members; ``external_apps=False``:
        its @everyone lacks USE_EXTERNAL_APPS (the app's answers there are forced ephemeral).
        The bot hears nothing of it (no GUILD_CREATE, no member or message events)."""
        fake = self.fake
        guild = Guild(id=fake.ids.next(), name=name, owner_id=fake.owner.id, joined_at="")
        permissions = DEFAULT_MEMBER_PERMISSIONS | (USE_EXTERNAL_APPS if external_apps else 0)
        guild.roles.append(Role(id=guild.id, name="@everyone", permissions=permissions))
        for user in (fake.owner, *(_user_of(m) for m in members)):
            guild.members[user.id] = Member(user=user, joined_at=fake.clock.iso())
        for channel_name in channels:
            channel = Channel(
                id=fake.ids.next(),
                type=0,
                name=channel_name,
                guild_id=guild.id,
                position=len(guild.channels),
            )
            guild.channels.append(channel)
            fake.channels[channel.id] = channel
        self.botless[guild.id] = guild
        fake._bump()
        return guild

    # --- where the bot is ----------------------------------------------------------------------

    def guild_of(self, channel: Channel) -> Guild | None:
        """The server without the bot that ``channel`` belongs to, if any."""
        return self.botless.get(channel.guild_id) if channel.guild_id is not None else None

    def bot_absent(self, channel: Channel) -> bool:
        """Whether the bot is not in ``channel`` (a group DM, a server without the bot, or a
        thread of one)."""
        while channel.parent is not None:
            channel = channel.parent
        return isinstance(channel, GroupDM) or self.guild_of(channel) is not None

    def check_bot_access(self, path: str) -> None:
        """403 / 50001 for a bot-token request about a channel or server the bot is not in."""
        if m := _CHANNEL_PATH.match(path):
            channel = self.fake.channels.get(int(m.group(1)))
            if channel is not None and self.bot_absent(channel):
                raise DiscordError(403, 50001, "Missing Access")
        elif (m := _GUILD_PATH.match(path)) and int(m.group(1)) in self.botless:
            raise DiscordError(403, 50001, "Missing Access")

    def bot_requests_to(self, channel: Channel) -> list[Any]:
        """The bot-token requests made about ``channel`` (``fake.requests``)."""
        prefix = f"/channels/{channel.id}"
        return [
            r
            for r in self.fake.requests
            if r.kind == "bot" and (r.path == prefix or r.path.startswith(prefix + "/"))
        ]

    # --- commands ------------------------------------------------------------------------------

    def context_of(self, channel: Channel) -> int:
        if isinstance(channel, GroupDM):
            return PRIVATE_CHANNEL
        return BOT_DM if channel.is_dm else GUILD

    def find_command(self, name: str, channel: Channel, user: User) -> dict[str, Any]:
        """The synced command ``user`` may run as ``/name`` in ``channel``: where the bot is,
        as before (``FakeDiscord.find_command``); elsewhere a global command the user installed
        that allows the place's context."""
        if not self.bot_absent(channel):
            return self.fake.find_command(name, self.fake.guild_of(channel))
        if isinstance(channel, GroupDM) and user not in channel.recipients:
            raise PermissionError(f"{user.name} is not in the group DM {channel.id}")
        context = self.context_of(channel)
        for command in self.fake.commands.get(None, []):
            if command["type"] != 1 or command["name"] != name:
                continue
            if USER_INSTALL not in (command.get("integration_types") or [GUILD_INSTALL]):
                raise LookupError(f"/{name} is not installable to a user (integration_types)")
            if context not in (command.get("contexts") or ALL_CONTEXTS):
                raise LookupError(f"/{name} is not offered in context {context} (contexts)")
            if user.id not in self.users:
                raise LookupError(f"{user.name} has not installed the app: no /{name} here")
            return command
        raise LookupError(f"no global slash command /{name}: the bot is not here")

    # --- interactions --------------------------------------------------------------------------

    def forget(self, inter: Any) -> None:
        """A forgotten interaction's owners (forgetting.py)."""
        self._owners.pop(inter.id, None)

    def shape(self, inter: Any, data: dict[str, Any]) -> None:
        """Give an interaction from a place without the bot its context, owners and app
        permissions (interactions where the bot is keep theirs)."""
        channel = inter.channel
        if not self.bot_absent(channel):
            owners = dict(data["authorizing_integration_owners"])
            if channel.guild_id is not None and self._user_installed_command(inter):
                owners[str(USER_INSTALL)] = str(inter.user.id)  # both installs authorize it
            data["authorizing_integration_owners"] = owners
            self._owners[inter.id] = owners
            return
        origin = inter.message.interaction if inter.message is not None else None
        inherited = self._owners.get(origin.id) if origin is not None else None
        elsewhere = inherited or {str(USER_INSTALL): str(inter.user.id)}
        data["authorizing_integration_owners"] = elsewhere
        data["context"] = self.context_of(channel)
        data["app_permissions"] = str(APP_PERMISSIONS_ELSEWHERE)
        self._owners[inter.id] = elsewhere

    def _user_installed_command(self, inter: Any) -> bool:
        """A command the user runs through their own install too (they installed the app and
        the global command allows user installs)."""
        if inter.type != APPLICATION_COMMAND or inter.user.id not in self.users:
            return False
        command_id = str(inter.data.get("id"))
        for command in self.fake.commands.get(None, []):
            if command["id"] == command_id:
                return USER_INSTALL in (command.get("integration_types") or [GUILD_INSTALL])
        return False

    def owners_of(self, inter: Any) -> dict[str, str]:
        """The ``authorizing_integration_owners`` the interaction carried."""
        return (
            self._owners.get(inter.id)
            or self.fake.interactions.payload(inter)["authorizing_integration_owners"]
        )

    def forces_ephemeral(self, inter: Any) -> bool:
        """Whether the app's answers to ``inter`` are forced ephemeral: a server without the
        bot where the member lacks USE_EXTERNAL_APPS."""
        guild = self.guild_of(inter.channel.parent or inter.channel)
        return guild is not None and not guild.permissions_of(inter.user) & USE_EXTERNAL_APPS
