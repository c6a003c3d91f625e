"""The test API: users who run slash commands, click, select and fill modals, and read what they see."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .limits import SELECT_TYPES
from .model import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    CB_DEFER,
    CB_DEFER_UPDATE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    Channel,
    Guild,
    Interaction,
    Message,
    Modal,
    Role,
    User,
)

if TYPE_CHECKING:
    from .server import FakeDiscord

# Application command option types
(
    SUB_COMMAND,
    SUB_COMMAND_GROUP,
    STRING,
    INTEGER,
    BOOLEAN,
    USER,
    CHANNEL,
    ROLE,
    MENTIONABLE,
    NUMBER,
    ATTACHMENT,
) = range(1, 12)


# How long a test waits, with nothing changing on the fake, for what the bot sends after it
# deferred (Discord allows 15 minutes): a hang bound. A GIF or a search in the workers may keep
# a slowed-down bot quiet for a while.
DEFERRED_WAIT = 60.0


class InteractionFailed(AssertionError):
    """The bot did not answer in time: the user saw "This interaction failed"."""


class InteractionHandle:
    """One interaction a user started. `await handle` gives the bot's response:
    the new message (4), the completed deferred message (5), the edited message (6, once it
    changed), the updated message (7), the `Modal` (9) or the autocomplete choices (8)."""

    def __init__(self, fake: FakeDiscord, interaction: Interaction):
        self.fake = fake
        self.interaction = interaction

    def __await__(self) -> Generator[Any, None, Any]:
        return self.response().__await__()

    @property
    def callback_type(self) -> int | None:
        return self.interaction.callback_type

    @property
    def original(self) -> Message | None:
        return self.interaction.original

    @property
    def followups(self) -> list[Message]:
        return list(self.interaction.followups)

    @property
    def ephemeral(self) -> bool:
        return bool(self.interaction.original is not None and self.interaction.original.ephemeral)

    async def acknowledged(self, timeout: float | None = None) -> int:
        """Wait for the bot's callback (within the deadline) and return its type."""
        inter = self.interaction
        await self.fake.wait_until(
            lambda: inter.callback_type is not None or inter.failed,
            timeout=timeout if timeout is not None else self.fake.interaction_deadline + 5,
            what=f"the answer to interaction {inter.id}",
        )
        if inter.callback_type is None:
            raise InteractionFailed(f"the bot did not answer interaction {inter.id} in time")
        return inter.callback_type

    async def response(self, timeout: float = DEFERRED_WAIT) -> Any:
        inter = self.interaction
        await self.acknowledged()
        if inter.callback_type in (CB_DEFER, CB_DEFER_UPDATE):
            await self.fake.wait_until(
                lambda: inter.completed or inter.failed,
                timeout=timeout,
                what=f"the deferred response to interaction {inter.id}",
            )
            if not inter.completed:
                raise InteractionFailed(
                    f"the deferred interaction {inter.id} never got its response"
                )
        return inter.result

    async def followup(self, index: int = 0, timeout: float = DEFERRED_WAIT) -> Message:
        """The `index`-th follow-up message (a follow-up that replaced a "thinking" placeholder is not one)."""
        inter = self.interaction
        await self.fake.wait_until(
            lambda: len(inter.followups) > index, timeout=timeout, what=f"follow-up #{index}"
        )
        return inter.followups[index]


@dataclass(frozen=True)
class RawValue:
    """An option value sent exactly as given (a forged or malformed one, e.g. a user option
    holding ``"abc"`` or the id of nobody): `alice.slash("kick", player=RawValue("abc"))`."""

    value: Any


class FakeUser:
    """A user of the fake Discord (`fake.user("alice")`)."""

    def __init__(self, fake: FakeDiscord, user: User):
        self.fake = fake
        self.model = user
        self.handles: list[InteractionHandle] = []

    @property
    def id(self) -> int:
        return self.model.id

    @property
    def name(self) -> str:
        return self.model.name

    @property
    def dms_open(self) -> bool:
        return self.model.dms_open

    @dms_open.setter
    def dms_open(self, value: bool) -> None:
        self.model.dms_open = value

    def __repr__(self) -> str:
        return f"<FakeUser {self.name} {self.id}>"

    def forget_handles(self, through: int) -> None:
        """Let go of the handles of interactions the fake forgot (ids up to ``through``;
        forgetting.py): they are the oldest."""
        handles = self.handles
        kept = 0
        while kept < len(handles) and handles[kept].interaction.id <= through:
            kept += 1
        del handles[:kept]

    def join(self, guild: Guild, roles: list[Role] = ()) -> None:  # type: ignore[assignment]
        self.fake.join(self.model, guild, list(roles))

    # --- acting ----------------------------------------------------------------------------------

    def _start(self, **kwargs: Any) -> InteractionHandle:
        inter = self.fake.interactions.create(user=self.model, **kwargs)
        handle = InteractionHandle(self.fake, inter)
        self.handles.append(handle)
        return handle

    def _channel_for(self, channel: Channel | int | str | None, dm: bool) -> Channel:
        if dm:
            return self.fake.dm_channel(self.model)
        ch = self.fake.resolve_channel(channel)
        guild = self.fake.guild_of(ch)
        if guild is not None and self.model.id not in guild.members:
            raise PermissionError(f"{self.name} is not a member of {guild.name!r}")
        return ch

    def _command_data(
        self, command: str, ch: Channel
    ) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        """(interaction data, the data node that takes the options, the declared command/subcommand)."""
        name, *path = command.split()
        spec = self.fake.installs.find_command(name, ch, self.model)  # installs.py
        data: dict[str, Any] = {"id": spec["id"], "name": name, "type": 1}
        if "guild_id" in spec:
            data["guild_id"] = spec["guild_id"]
        node, target = spec, data
        for sub in path:
            child = next(
                (
                    o
                    for o in node.get("options") or []
                    if o["name"] == sub and o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)
                ),
                None,
            )
            if child is None:
                raise LookupError(f"/{name} has no subcommand {sub!r}")
            entry: dict[str, Any] = {"name": sub, "type": child["type"], "options": []}
            target.setdefault("options", []).append(entry)
            node, target = child, entry
        if any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in node.get("options") or []):
            raise LookupError(
                f"/{command} needs a subcommand: {[o['name'] for o in node['options']]}"
            )
        return data, target, node

    async def slash(
        self,
        command: str,
        *,
        channel: Channel | int | str | None = None,
        dm: bool = False,
        **options: Any,
    ) -> InteractionHandle:
        """Run `/command` ("table join" for subcommands) with options checked against the synced tree."""
        ch = self._channel_for(channel, dm)
        data, target, node = self._command_data(command, ch)
        resolved: dict[str, dict[str, Any]] = {}
        target["options"] = self._build_options(
            command, node.get("options") or [], options, resolved, self.fake.guild_of(ch)
        )
        if resolved:
            data["resolved"] = resolved
        return self._start(type=APPLICATION_COMMAND, channel=ch, data=data, command_name=command)

    def _build_options(
        self,
        command: str,
        declared: list[dict[str, Any]],
        given: dict[str, Any],
        resolved: dict[str, dict[str, Any]],
        guild: Guild | None,
    ) -> list[dict[str, Any]]:
        by_name = {o["name"]: o for o in declared}
        out = []
        for key, value in given.items():
            option = by_name.get(key) or by_name.get(key.replace("_", "-"))
            if option is None:
                raise TypeError(f"/{command} has no option {key!r}; it has {list(by_name)}")
            out.append(
                {
                    "name": option["name"],
                    "type": option["type"],
                    "value": self._option_value(command, option, value, resolved, guild),
                }
            )
        missing = [
            o["name"]
            for o in declared
            if o.get("required") and o["name"] not in {e["name"] for e in out}
        ]
        if missing:
            raise TypeError(f"/{command} requires option(s) {missing}")
        return out

    def _option_value(
        self,
        command: str,
        option: dict[str, Any],
        value: Any,
        resolved: dict[str, dict[str, Any]],
        guild: Guild | None,
    ) -> Any:
        kind = option["type"]
        where = f"/{command} {option['name']}"
        if isinstance(value, RawValue):  # sent as is: no check, nothing resolved
            return value.value
        if kind == STRING:
            if not isinstance(value, str):
                raise TypeError(f"{where} takes a string, not {value!r}")
            if not option.get("min_length", 0) <= len(value) <= option.get("max_length", 6000):
                raise ValueError(f"{where}: length out of range")
        elif kind == INTEGER:
            if not isinstance(value, int) or isinstance(value, bool):
                raise TypeError(f"{where} takes an integer, not {value!r}")
        elif kind == NUMBER:
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                raise TypeError(f"{where} takes a number, not {value!r}")
        elif kind == BOOLEAN:
            if not isinstance(value, bool):
                raise TypeError(f"{where} takes a bool, not {value!r}")
        elif kind in (USER, MENTIONABLE):
            user = value.model if isinstance(value, FakeUser) else value
            if not isinstance(user, User):
                raise TypeError(f"{where} takes a user, not {value!r}")
            resolved.setdefault("users", {})[str(user.id)] = user.payload()
            if guild is not None and user.id in guild.members:
                member = guild.members[user.id].payload()
                member.pop("user")
                member["permissions"] = str(guild.permissions_of(user))
                resolved.setdefault("members", {})[str(user.id)] = member
            return str(user.id)
        elif kind == CHANNEL:
            channel = self.fake.resolve_channel(value)
            resolved.setdefault("channels", {})[str(channel.id)] = {
                "id": str(channel.id),
                "type": channel.type,
                "name": channel.name,
                "permissions": "0",
                "guild_id": str(channel.guild_id),
            }
            return str(channel.id)
        elif kind == ROLE:
            if not isinstance(value, Role):
                raise TypeError(f"{where} takes a Role, not {value!r}")
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
            return str(value.id)
        else:
            raise TypeError(f"{where}: option type {kind} is not supported by the fake")
        if kind in (INTEGER, NUMBER):
            if "min_value" in option and value < option["min_value"]:
                raise ValueError(f"{where}: {value} < min {option['min_value']}")
            if "max_value" in option and value > option["max_value"]:
                raise ValueError(f"{where}: {value} > max {option['max_value']}")
        choices = option.get("choices")
        if choices:
            values = [c["value"] for c in choices]
            if value not in values:
                names = {c["name"]: c["value"] for c in choices}
                if value in names:
                    return names[value]
                raise ValueError(f"{where}: {value!r} is not one of the choices {values}")
        return value

    async def autocomplete(
        self,
        command: str,
        focused: str,
        *,
        channel: Channel | int | str | None = None,
        dm: bool = False,
        **options: Any,
    ) -> list[dict[str, Any]]:
        """Type into option `focused` (the partial text of each option in `options`) and return the
        bot's suggestions (callback type 8)."""
        ch = self._channel_for(channel, dm)
        data, target, node = self._command_data(command, ch)
        declared = {o["name"]: o for o in node.get("options") or []}
        if focused not in declared or not declared[focused].get("autocomplete"):
            raise LookupError(f"/{command} has no autocomplete option {focused!r}")
        entries = []
        for key, value in {focused: "", **options}.items():
            entry: dict[str, Any] = {"name": key, "type": declared[key]["type"], "value": value}
            if key == focused:
                entry["focused"] = True
            entries.append(entry)
        target["options"] = entries
        handle = self._start(type=AUTOCOMPLETE, channel=ch, data=data, command_name=command)
        return await handle

    def _visible_message(self, message: Message) -> Message:
        if message.deleted:
            raise LookupError(f"message {message.id} was deleted")
        if not message.visible_for(self.model):
            raise PermissionError(f"{self.name} cannot see message {message.id}")
        return message

    async def click(
        self, message: Message, label: str | None = None, *, custom_id: str | None = None
    ) -> InteractionHandle:
        """Click the (enabled) button with this label and/or custom_id on a message this user can see."""
        msg = self._visible_message(message)
        button = msg.button(label, custom_id=custom_id)
        if button.disabled:
            raise PermissionError(f"button {button.label!r} is disabled")
        if button.custom_id is None:
            raise TypeError(f"button {button.label!r} is a link/premium button")
        data = {"custom_id": button.custom_id, "component_type": 2}
        return self._start(type=MESSAGE_COMPONENT, channel=msg.channel, data=data, message=msg)

    async def select(
        self, message: Message, values: list[str] | str, *, custom_id: str | None = None
    ) -> InteractionHandle:
        """Choose option values (or labels) in a select of a message this user can see."""
        msg = self._visible_message(message)
        selects = [s for s in msg.selects if custom_id is None or s.custom_id == custom_id]
        if len(selects) != 1:
            raise LookupError(
                f"{len(selects)} selects match custom_id={custom_id!r} on message {msg.id}"
            )
        select = selects[0]
        if select.disabled:
            raise PermissionError(f"select {select.custom_id!r} is disabled")
        chosen = [values] if isinstance(values, str) else list(values)
        if select.type == 3:
            by_label = {o["label"]: o["value"] for o in select.options}
            chosen = [v if v in select.values else by_label.get(v, v) for v in chosen]
            unknown = [v for v in chosen if v not in select.values]
            if unknown:
                raise ValueError(
                    f"{unknown} are not options of select {select.custom_id!r}: {select.values}"
                )
        if not select.min_values <= len(chosen) <= select.max_values:
            raise ValueError(
                f"select {select.custom_id!r} takes {select.min_values}..{select.max_values} values"
            )
        data = {"custom_id": select.custom_id, "component_type": select.type, "values": chosen}
        return self._start(type=MESSAGE_COMPONENT, channel=msg.channel, data=data, message=msg)

    async def forge_click(
        self,
        message: Message,
        custom_id: str,
        *,
        component_type: int = 2,
        values: list[str] | None = None,
    ) -> InteractionHandle:
        """A component interaction with a crafted custom_id (and select values) on a message this
        user can see. The message in the interaction carries the forged component, so the bot's
        routing reaches it (discord.py silently drops custom_ids absent from the message): this
        tests that the bot validates everything it parses from a custom_id. The stored message
        is not changed."""
        msg = self._visible_message(message)
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
        if component_type == 2:
            forged: dict[str, Any] = {
                "type": 2,
                "style": 2,
                "label": "forged",
                "custom_id": custom_id,
            }
        else:
            chosen = list(values or [])
            data["values"] = chosen
            options = [{"label": v[:100], "value": v} for v in chosen] or [
                {"label": "-", "value": "-"}
            ]
            forged = {
                "type": component_type,
                "custom_id": custom_id,
                "options": options,
                "max_values": len(options),
            }
        payload = msg.payload()
        rows = [r for r in payload["components"] if r.get("type") == 1][:4]
        payload["components"] = [*rows, {"type": 1, "components": [forged]}]
        return self._start(
            type=MESSAGE_COMPONENT,
            channel=msg.channel,
            data=data,
            message=msg,
            message_payload=payload,
        )

    def modals(self) -> list[Modal]:
        """Modals the bot opened for this user and that were not submitted yet, oldest first."""
        inters = self.fake.interactions.all.values()
        return [
            i.modal
            for i in inters
            if i.user is self.model and i.modal is not None and not i.modal.submitted
        ]

    async def submit_modal(
        self,
        values: dict[str, Any] | None = None,
        *,
        modal: Modal | None = None,
        **by_custom_id: Any,
    ) -> InteractionHandle:
        """Fill the latest open modal (inputs by custom_id or label) and submit it."""
        if modal is None:
            open_modals = self.modals()
            if not open_modals:
                raise LookupError(f"{self.name} has no open modal")
            modal = open_modals[-1]
        given = {**(values or {}), **by_custom_id}
        inputs = modal.inputs
        known = {c["custom_id"] for c in inputs}
        by_label = {_label_of(modal, c): c["custom_id"] for c in inputs}
        answers: dict[str, Any] = {}
        for key, value in given.items():
            cid = key if key in known else by_label.get(key)
            if cid is None:
                raise LookupError(
                    f"modal {modal.custom_id!r} has no input {key!r}; it has {sorted(known)}"
                )
            answers[cid] = value
        for comp in inputs:
            if (
                comp.get("type") == 4
                and comp.get("required", True)
                and comp["custom_id"] not in answers
                and not comp.get("value")
            ):
                raise ValueError(f"modal input {comp['custom_id']!r} is required")
            if comp.get("type") == 3 and comp["custom_id"] in answers:
                chosen = answers[comp["custom_id"]]
                chosen = [chosen] if isinstance(chosen, str) else list(chosen)
                allowed = {o["value"] for o in comp.get("options") or []}
                if not set(chosen) <= allowed:
                    raise ValueError(
                        f"{chosen} are not options of {comp['custom_id']!r}: {sorted(allowed)}"
                    )
                if not comp.get("min_values", 1) <= len(chosen) <= comp.get("max_values", 1):
                    raise ValueError(
                        f"{comp['custom_id']!r} takes {comp.get('min_values', 1)}..{comp.get('max_values', 1)} values"
                    )
        modal.submitted = True
        data = {
            "custom_id": modal.custom_id,
            "components": _submitted_components(modal.components, answers),
        }
        source = modal.interaction
        return self._start(
            type=MODAL_SUBMIT, channel=source.channel, data=data, message=source.message
        )

    # --- reading ---------------------------------------------------------------------------------

    def dms(self) -> list[Message]:
        """The DM conversation with the bot as it is now, oldest first."""
        channel = self.fake.dm_channels.get(self.model.id)
        if channel is None:
            return []
        return [
            m
            for m in self.fake.message_index.in_channel(channel.id)
            if m.channel is channel and not m.deleted and m.visible_to is None
        ]

    def ephemerals(self) -> list[Message]:
        """Ephemeral replies and follow-ups only this user sees, oldest first (deleted ones excluded)."""
        return [
            m
            for m in self.fake.message_index.concerning(self.model)
            if m.visible_to is self.model and not m.deleted
        ]

    def replies(self) -> list[Message]:
        """Every message the bot created answering one of this user's interactions (originals and
        follow-ups, ephemeral or not), oldest first."""
        return [
            m
            for m in self.fake.message_index.concerning(self.model)
            if m.interaction is not None and m.interaction.user is self.model and not m.deleted
        ]

    def last_reply(self) -> Message | None:
        """The bot's latest answer to this user: the newest follow-up, else the response message
        (new, updated or edited) of this user's latest answered interaction."""
        for handle in reversed(self.handles):
            inter = handle.interaction
            live = [m for m in inter.followups if not m.deleted]
            if live:
                return live[-1]
            if isinstance(inter.result, Message) and not inter.result.deleted:
                return inter.result
            if (
                inter.original is not None
                and not inter.original.deleted
                and inter.callback_type != CB_DEFER_UPDATE
            ):
                return inter.original
        return None

    async def wait_for_dm(self, predicate=None, timeout: float = 30.0) -> Message:
        def find() -> Message | None:
            for msg in self.dms():
                if predicate is None or predicate(msg):
                    return msg
            return None

        return await self.fake.wait_until(find, timeout=timeout, what=f"a DM to {self.name}")


def _label_of(modal: Modal, component: dict[str, Any]) -> str | None:
    """A text input's label: its own (legacy rows) or its Label wrapper's (type 18)."""
    if component.get("label"):
        return component["label"]
    for wrapper in modal.components:
        if wrapper.get("type") == 18 and wrapper.get("component") is component:
            return wrapper.get("label")
    return None


def _submitted_components(
    components: list[dict[str, Any]], answers: dict[str, Any]
) -> list[dict[str, Any]]:
    """Mirror the modal's layout with the user's values, as Discord's MODAL_SUBMIT data does."""

    def answer(comp: dict[str, Any]) -> dict[str, Any]:
        cid = comp["custom_id"]
        if comp.get("type") == 4:
            return {
                "type": 4,
                "custom_id": cid,
                "value": str(answers.get(cid, comp.get("value") or "")),
            }
        value = answers.get(cid, [])
        return {
            "type": comp["type"],
            "custom_id": cid,
            "values": [value] if isinstance(value, str) else list(value),
        }

    out = []
    for comp in components:
        kind = comp.get("type")
        if kind == 1:
            out.append(
                {
                    "type": 1,
                    "components": [
                        answer(c) for c in comp.get("components") or [] if "custom_id" in c
                    ],
                }
            )
        elif kind == 18 and isinstance(comp.get("component"), dict):
            out.append({"type": 18, "component": answer(comp["component"])})
        elif kind == 4 or kind in SELECT_TYPES:
            out.append(answer(comp))
    return out
