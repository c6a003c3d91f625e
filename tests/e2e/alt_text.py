"""Issue 28 item 4, "100 % of images with alt text": every image attachment the fake holds (public
tables, DM and ephemeral hands, replays; deleted messages too) carries a description. The fake
also flags each image uploaded without one as a `missing_alt_text` violation the moment it
arrives, so an edit that replaced an image is covered as well."""

from __future__ import annotations

from tests.fakediscord.server import FakeDiscord


def image_alt_texts(fake: FakeDiscord) -> list[tuple[str, str | None]]:
    """(filename, description) of every image on every message the fake holds."""
    return [
        (a.filename, a.description)
        for m in fake.messages.values()
        for a in m.attachments
        if a.content_type.startswith("image/")
    ]


def assert_alt_text_everywhere(fake: FakeDiscord) -> int:
    """Every image has a non-blank description; returns how many images were checked."""
    images = image_alt_texts(fake)
    missing = [name for name, text in images if not (text or "").strip()]
    assert images, "no image was sent: nothing to check"
    assert missing == [], f"{len(missing)} of {len(images)} images without alt text: {missing}"
    assert fake.take_violations("missing_alt_text") == []
    return len(images)
