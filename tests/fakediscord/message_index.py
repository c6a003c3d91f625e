"""The fake's messages by channel and by user, so that reading a channel or what a user sees
costs what that channel or user holds, not every message of the run (``fake.messages`` stays
the one store; these only point into it)."""

from __future__ import annotations

from collections.abc import Iterable

from .model import Message, User


class MessageIndex:
    """Kept up to date by the fake as messages are stored, shown to one user only, and
    forgotten; each view is in creation (id) order, as a scan of ``fake.messages`` is."""

    def __init__(self) -> None:
        self._by_channel: dict[int, dict[int, Message]] = {}
        # By user id: the messages answering their interactions, and those only they see.
        self._by_user: dict[int, dict[int, Message]] = {}

    def add(self, msg: Message) -> None:
        self._by_channel.setdefault(msg.channel.id, {})[msg.id] = msg
        if msg.interaction is not None:
            self._add_for(msg.interaction.user, msg)
        if msg.visible_to is not None:
            self._add_for(msg.visible_to, msg)

    def shown_only_to(self, msg: Message, user: User) -> None:
        """``msg`` became visible to ``user`` only (an ephemeral answer)."""
        msg.visible_to = user
        self._add_for(user, msg)

    def remove(self, msg: Message) -> None:
        in_channel = self._by_channel.get(msg.channel.id)
        if in_channel is not None:
            in_channel.pop(msg.id, None)
            if not in_channel:
                del self._by_channel[msg.channel.id]
        for user in (msg.interaction.user if msg.interaction else None, msg.visible_to):
            if user is None:
                continue
            mine = self._by_user.get(user.id)
            if mine is not None:
                mine.pop(msg.id, None)
                if not mine:
                    del self._by_user[user.id]

    def in_channel(self, channel_id: int) -> Iterable[Message]:
        """Every message stored in the channel (ephemeral and deleted ones too), oldest first."""
        return self._by_channel.get(channel_id, {}).values()

    def concerning(self, user: User) -> Iterable[Message]:
        """Every message answering one of ``user``'s interactions or visible to them only
        (deleted ones too), oldest first."""
        return self._by_user.get(user.id, {}).values()

    def _add_for(self, user: User, msg: Message) -> None:
        mine = self._by_user.setdefault(user.id, {})
        if msg.id in mine:
            return
        newest = next(reversed(mine), None)
        mine[msg.id] = msg
        if newest is not None and newest > msg.id:  # added late: keep creation order
            self._by_user[user.id] = dict(sorted(mine.items()))
