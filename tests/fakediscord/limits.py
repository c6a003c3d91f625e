"""Discord's documented limits that the OpenAPI description does not encode (docs/discord.md).

Each check returns `SchemaError`s located like Discord's 50035 `errors` (a path of keys and indices).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from .spec import SchemaError

CONTENT_MAX = 2000
EMBEDS_MAX = 10
EMBEDS_TOTAL_CHARS = 6000
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
EMBED_FIELD_NAME = 256
EMBED_FIELD_VALUE = 1024
EMBED_FOOTER = 2048
EMBED_AUTHOR = 256
ACTION_ROWS_MAX = 5
BUTTONS_PER_ROW = 5
V2_COMPONENTS_MAX = 40
V2_TEXT_MAX = 4000
SECTION_TEXTS = (1, 3)
GALLERY_ITEMS = (1, 10)
CUSTOM_ID_MAX = 100
BUTTON_LABEL_MAX = 80
SELECT_OPTIONS_MAX = 25
SELECT_OPTION_TEXT_MAX = 100
SELECT_PLACEHOLDER_MAX = 150
SELECT_VALUES_MAX = 25
MODAL_TITLE_MAX = 45
MODAL_COMPONENTS_MAX = 5
TEXT_INPUT_LABEL_MAX = 45
TEXT_INPUT_VALUE_MAX = 4000
FILE_MAX_BYTES = 10 * 1024 * 1024
REQUEST_FILES_MAX_BYTES = 25 * 1024 * 1024
COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")
COMMAND_OPTIONS_MAX = 25
COMMAND_CHOICES_MAX = 25
COMMAND_DESCRIPTION_MAX = 100

FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_COMPONENTS_V2 = 1 << 15
SELECT_TYPES = {3, 5, 6, 7, 8}
BUTTON = 2
ACTION_ROW = 1
SECTION = 9
TEXT_DISPLAY = 10
THUMBNAIL = 11
MEDIA_GALLERY = 12
FILE_COMPONENT = 13
CONTAINER = 17
CALLBACK_DEFER = 5
LINK_STYLE = 5
PREMIUM_STYLE = 6

Path = tuple[str | int, ...]


def _err(path: Path, code: str, message: str) -> SchemaError:
    return SchemaError(path=path, code=code, message=message)


def _too_long(value: Any, limit: int, path: Path) -> list[SchemaError]:
    if isinstance(value, str) and len(value) > limit:
        return [_err(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")]
    return []


@dataclass(frozen=True)
class Before:
    """What an edit starts from: the message as it is before the edit."""

    flags: int = 0
    content: str = ""
    embeds: int = 0
    attachments: tuple[tuple[int, str], ...] = ()  # (id, filename)


def check_message(
    payload: dict[str, Any] | None,
    *,
    before: Before | None = None,
    uploads: Sequence[str] = (),
) -> list[SchemaError]:
    """Content, embeds and components of a message create/edit (or interaction message) body.

    ``before``: the message an edit changes (None for a new message); ``uploads``: the names of
    the files uploaded with this request."""
    if not isinstance(payload, dict):
        return []
    errors = _too_long(payload.get("content"), CONTENT_MAX, ("content",))
    errors += check_embeds(payload.get("embeds"))
    v2, flag_errors = _components_v2(payload, before)
    errors += flag_errors
    components = payload.get("components")
    # One walk of the tree serves every component check (it was walked six times per body:
    # the load driver's largest share of calls, session 26).
    found = _walk_list(components)
    if v2:
        errors += _v2_message_rules(payload, before, uploads, found)
    errors += _check_components(components, found, v2=v2)
    return errors


def _components_v2(
    payload: dict[str, Any], before: Before | None
) -> tuple[bool, list[SchemaError]]:
    """Whether the message is (or becomes) a Components V2 one. Discord: once a message has been
    sent with IS_COMPONENTS_V2 the flag cannot be removed; an edit may add it to a classic
    message (discord.py's `edit(view=LayoutView)` asks to clear content/embeds/attachments for
    that), and the edit must then leave no content nor embeds."""
    was_v2 = before is not None and bool(before.flags & FLAG_COMPONENTS_V2)
    flags = payload.get("flags")
    if not isinstance(flags, int):
        return was_v2, []
    if was_v2 and not flags & FLAG_COMPONENTS_V2:
        return True, [
            _err(
                ("flags",),
                "MESSAGE_FLAGS_CANNOT_REMOVE_COMPONENTS_V2",
                "The IS_COMPONENTS_V2 flag cannot be removed from a message",
            )
        ]
    return was_v2 or bool(flags & FLAG_COMPONENTS_V2), []


def _v2_message_rules(
    payload: dict[str, Any],
    before: Before | None,
    uploads: Sequence[str],
    found: list[tuple[Path, dict[str, Any]]],
) -> list[SchemaError]:
    errors: list[SchemaError] = []
    content = payload["content"] if "content" in payload else (before.content if before else "")
    if content:
        errors.append(
            _err(
                ("content",),
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "The 'content' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
            )
        )
    embeds = (
        len(payload["embeds"] or ()) if "embeds" in payload else (before.embeds if before else 0)
    )
    if embeds:
        errors.append(
            _err(
                ("embeds",),
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "The 'embeds' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
            )
        )
    for legacy in ("sticker_ids", "poll"):
        if payload.get(legacy) not in (None, []):
            errors.append(
                _err(
                    (legacy,),
                    "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                    f"The '{legacy}' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
                )
            )
    if isinstance(payload.get("components"), list):
        errors += _check_v2_tree(found, _available_files(payload, before, uploads))
    return errors


def _available_files(
    payload: dict[str, Any], before: Before | None, uploads: Sequence[str]
) -> set[str]:
    """File names an ``attachment://`` reference may name: the files uploaded with the request
    and the attachments the message keeps."""
    names = set(uploads)
    kept = dict(before.attachments) if before is not None else {}
    specs = payload.get("attachments")
    if isinstance(specs, list):
        for spec in specs:
            if not isinstance(spec, dict):
                continue
            ref = spec.get("id")
            ref = int(ref) if isinstance(ref, int | str) and str(ref).isdigit() else None
            if ref is not None and ref in kept:
                names.add(kept[ref])
            elif isinstance(spec.get("filename"), str):
                names.add(spec["filename"])
    else:
        names.update(kept.values())
    return names


def _media_urls(path: Path, comp: dict[str, Any]) -> Iterator[tuple[Path, Any]]:
    kind = comp.get("type")
    if kind == MEDIA_GALLERY:
        for i, item in enumerate(comp.get("items") or ()):
            if isinstance(item, dict):
                yield path + ("items", i, "media", "url"), (item.get("media") or {}).get("url")
    elif kind == THUMBNAIL:
        yield path + ("media", "url"), (comp.get("media") or {}).get("url")
    elif kind == FILE_COMPONENT:
        yield path + ("file", "url"), (comp.get("file") or {}).get("url")


def media_descriptions(components: Any) -> dict[str, str]:
    """``{file name: description}`` of the gallery items and thumbnails showing an
    ``attachment://`` file: their description is that image's alt text."""
    found: dict[str, str] = {}
    for _path, comp in walk_components(components):
        items = comp.get("items") if comp.get("type") == MEDIA_GALLERY else [comp]
        if comp.get("type") not in (MEDIA_GALLERY, THUMBNAIL):
            continue
        for item in items or ():
            if not isinstance(item, dict):
                continue
            url = (item.get("media") or {}).get("url")
            text = item.get("description")
            if isinstance(url, str) and url.startswith("attachment://") and isinstance(text, str):
                found.setdefault(url.removeprefix("attachment://"), text)
    return found


def v2_text_length(components: Any) -> int:
    """Characters of every TextDisplay of a tree (Discord allows 4,000 per message)."""
    return sum(
        len(comp.get("content") or "")
        for _, comp in walk_components(components)
        if comp.get("type") == TEXT_DISPLAY
    )


def _check_v2_tree(
    found: list[tuple[Path, dict[str, Any]]], available: set[str]
) -> list[SchemaError]:
    """Components V2 rules of a walked tree: the text of every TextDisplay together, sections,
    galleries, and ``attachment://`` references to the ``available`` files. Errors in that
    order, each kind in the tree's order."""
    shape: list[SchemaError] = []
    missing: list[SchemaError] = []
    text_length = 0
    for path, comp in found:
        kind = comp.get("type")
        if kind == TEXT_DISPLAY:
            text_length += len(comp.get("content") or "")
            continue
        if kind == SECTION:
            texts = [c for c in comp.get("components") or () if isinstance(c, dict)]
            low, high = SECTION_TEXTS
            if not low <= len(texts) <= high or any(c.get("type") != TEXT_DISPLAY for c in texts):
                shape.append(
                    _err(
                        path + ("components",),
                        "BASE_TYPE_BAD_LENGTH",
                        f"A section holds {low} to {high} text displays.",
                    )
                )
            accessory = comp.get("accessory")
            if not isinstance(accessory, dict) or accessory.get("type") not in (BUTTON, THUMBNAIL):
                shape.append(
                    _err(
                        path + ("accessory",),
                        "BASE_TYPE_REQUIRED",
                        "A section needs an accessory (a thumbnail or a button)",
                    )
                )
            continue
        if kind == MEDIA_GALLERY:
            low, high = GALLERY_ITEMS
            if not low <= len(comp.get("items") or ()) <= high:
                shape.append(
                    _err(
                        path + ("items",),
                        "BASE_TYPE_BAD_LENGTH",
                        f"Must be between {low} and {high} in length.",
                    )
                )
        elif kind != THUMBNAIL and kind != FILE_COMPONENT:
            continue
        for upath, url in _media_urls(path, comp):
            if isinstance(url, str) and url.startswith("attachment://"):
                if url.removeprefix("attachment://") not in available:
                    missing.append(
                        _err(
                            upath,
                            "UNFURLED_MEDIA_ATTACHMENT_NOT_FOUND",
                            f"Unknown attachment {url!r}: upload it with the message or keep it",
                        )
                    )
    if text_length > V2_TEXT_MAX:
        shape.insert(
            0,
            _err(
                ("components",),
                "BASE_TYPE_MAX_LENGTH",
                f"The text of all text displays must be {V2_TEXT_MAX} or fewer in length.",
            ),
        )
    return shape + missing


def check_callback(body: dict[str, Any], *, before: Before | None) -> list[SchemaError]:
    """The ``data`` of an interaction callback that shows a message (types 4, 5, 7)."""
    data = body.get("data")
    errors = [
        SchemaError(("data",) + p.path, p.code, p.message)
        for p in check_message(data, before=before if body.get("type") == 7 else None)
    ]
    flags = data.get("flags") if isinstance(data, dict) else None
    if body.get("type") == CALLBACK_DEFER and isinstance(flags, int) and flags & FLAG_COMPONENTS_V2:
        errors.append(
            _err(
                ("data", "flags"),
                "INTERACTION_DEFERRED_CANNOT_USE_COMPONENTS_V2",
                "A deferred response cannot carry IS_COMPONENTS_V2 (edit @original with it later)",
            )
        )
    return errors


def embed_chars(embed: dict[str, Any]) -> int:
    total = 0
    for key in ("title", "description"):
        total += len(embed.get(key) or "")
    for field in embed.get("fields") or ():
        total += len(field.get("name") or "") + len(field.get("value") or "")
    total += len((embed.get("footer") or {}).get("text") or "")
    total += len((embed.get("author") or {}).get("name") or "")
    return total


def check_embeds(embeds: Any) -> list[SchemaError]:
    if not isinstance(embeds, list):
        return []
    errors: list[SchemaError] = []
    if len(embeds) > EMBEDS_MAX:
        errors.append(
            _err(("embeds",), "BASE_TYPE_MAX_LENGTH", f"Must be {EMBEDS_MAX} or fewer in length.")
        )
    total = 0
    for i, embed in enumerate(embeds):
        if not isinstance(embed, dict):
            continue
        path: Path = ("embeds", i)
        errors += _too_long(embed.get("title"), EMBED_TITLE, path + ("title",))
        errors += _too_long(embed.get("description"), EMBED_DESCRIPTION, path + ("description",))
        fields = embed.get("fields") or []
        if len(fields) > EMBED_FIELDS:
            errors.append(
                _err(
                    path + ("fields",),
                    "BASE_TYPE_MAX_LENGTH",
                    f"Must be {EMBED_FIELDS} or fewer in length.",
                )
            )
        for j, field in enumerate(fields):
            errors += _too_long(field.get("name"), EMBED_FIELD_NAME, path + ("fields", j, "name"))
            errors += _too_long(
                field.get("value"), EMBED_FIELD_VALUE, path + ("fields", j, "value")
            )
        errors += _too_long(
            (embed.get("footer") or {}).get("text"), EMBED_FOOTER, path + ("footer", "text")
        )
        errors += _too_long(
            (embed.get("author") or {}).get("name"), EMBED_AUTHOR, path + ("author", "name")
        )
        total += embed_chars(embed)
    if total > EMBEDS_TOTAL_CHARS:
        errors.append(
            _err(
                ("embeds",),
                "MAX_EMBED_SIZE_EXCEEDED",
                f"Embed size exceeds maximum size of {EMBEDS_TOTAL_CHARS}",
            )
        )
    return errors


def walk_components(
    components: Any, path: Path = ("components",)
) -> Iterator[tuple[Path, dict[str, Any]]]:
    """Every component of a tree (rows, sections, containers, labels, accessories) with its path,
    parents before their children. Collected into a list by plain recursion: nested generators
    passed each component up through every level (the fake's checks walk each message body
    several times: the load driver's largest share of calls, session 26)."""
    return iter(_walk_list(components, path))


def _walk_list(components: Any, path: Path = ("components",)) -> list[tuple[Path, dict[str, Any]]]:
    found: list[tuple[Path, dict[str, Any]]] = []
    _collect(components, path, found)
    return found


def _collect(components: Any, path: Path, found: list[tuple[Path, dict[str, Any]]]) -> None:
    if not isinstance(components, list):
        return
    for i, comp in enumerate(components):
        if not isinstance(comp, dict):
            continue
        here = path + (i,)
        found.append((here, comp))
        inner = comp.get("components")
        if inner and isinstance(inner, list):
            _collect(inner, here + ("components",), found)
        # Written out, not looped over the two keys: every component of every body comes here.
        child = comp.get("accessory")
        if child is not None and isinstance(child, dict):
            found.append((here + ("accessory",), child))
            inner = child.get("components")
            if inner and isinstance(inner, list):
                _collect(inner, here + ("accessory", "components"), found)
        child = comp.get("component")
        if child is not None and isinstance(child, dict):
            found.append((here + ("component",), child))
            inner = child.get("components")
            if inner and isinstance(inner, list):
                _collect(inner, here + ("component", "components"), found)


def _custom_id_error(custom_id: Any, path: Path, seen: set[str]) -> SchemaError | None:
    """A custom_id's length, and its uniqueness among those ``seen`` (which it joins)."""
    error = None
    if not isinstance(custom_id, str) or not 1 <= len(custom_id) <= CUSTOM_ID_MAX:
        error = _err(
            path + ("custom_id",),
            "BASE_TYPE_BAD_LENGTH",
            f"Must be between 1 and {CUSTOM_ID_MAX} in length.",
        )
    elif custom_id in seen:
        error = _err(
            path + ("custom_id",),
            "COMPONENT_CUSTOM_ID_DUPLICATED",
            "Component custom id cannot be duplicated",
        )
    seen.add(custom_id)
    return error


def _check_custom_ids(found: list[tuple[Path, dict[str, Any]]]) -> list[SchemaError]:
    errors: list[SchemaError] = []
    seen: set[str] = set()
    for path, comp in found:
        custom_id = comp.get("custom_id")
        if custom_id is not None:
            error = _custom_id_error(custom_id, path, seen)
            if error is not None:
                errors.append(error)
    return errors


def check_components(components: Any, *, v2: bool = False) -> list[SchemaError]:
    if not isinstance(components, list):
        return []
    return _check_components(components, _walk_list(components), v2=v2)


def _check_components(
    components: Any, found: list[tuple[Path, dict[str, Any]]], *, v2: bool
) -> list[SchemaError]:
    """Custom ids, then the tree's size and top level, then each row, button and select: one
    pass over the walked tree, errors in that order."""
    if not isinstance(components, list):
        return []
    id_errors: list[SchemaError] = []
    errors: list[SchemaError] = []
    seen: set[str] = set()
    for path, comp in found:
        custom_id = comp.get("custom_id")
        if custom_id is not None:
            error = _custom_id_error(custom_id, path, seen)
            if error is not None:
                id_errors.append(error)
        kind = comp.get("type")
        if kind == ACTION_ROW:
            errors += _check_row(comp, path)
        elif kind == BUTTON:
            errors += _check_button(comp, path)
        elif kind in SELECT_TYPES:
            errors += _check_select(comp, path)
    if v2:
        if len(found) > V2_COMPONENTS_MAX:
            id_errors.append(
                _err(
                    ("components",),
                    "BASE_TYPE_MAX_LENGTH",
                    f"Must be {V2_COMPONENTS_MAX} or fewer in length.",
                )
            )
    else:
        if len(components) > ACTION_ROWS_MAX:
            id_errors.append(
                _err(
                    ("components",),
                    "BASE_TYPE_MAX_LENGTH",
                    f"Must be {ACTION_ROWS_MAX} or fewer in length.",
                )
            )
        for i, row in enumerate(components):
            if isinstance(row, dict) and row.get("type") != ACTION_ROW:
                id_errors.append(
                    _err(
                        ("components", i, "type"),
                        "COMPONENT_TYPE_INVALID",
                        "Only action rows are allowed at the top level without the IS_COMPONENTS_V2 flag",
                    )
                )
    return id_errors + errors


def _check_row(row: dict[str, Any], path: Path) -> list[SchemaError]:
    children = [c for c in row.get("components") or () if isinstance(c, dict)]
    kinds = [c.get("type") for c in children]
    selects = sum(1 for k in kinds if k in SELECT_TYPES)
    if selects and len(children) > 1:
        return [
            _err(
                path + ("components",),
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "The specified component exceeds the maximum width (a select fills a row)",
            )
        ]
    if len(children) > BUTTONS_PER_ROW:
        return [
            _err(
                path + ("components",),
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {BUTTONS_PER_ROW} or fewer in length.",
            )
        ]
    return []


def _check_button(button: dict[str, Any], path: Path) -> list[SchemaError]:
    errors = _too_long(button.get("label"), BUTTON_LABEL_MAX, path + ("label",))
    style = button.get("style")
    if style == LINK_STYLE:
        if not button.get("url"):
            errors.append(_err(path + ("url",), "BASE_TYPE_REQUIRED", "This field is required"))
        if button.get("custom_id") is not None:
            errors.append(
                _err(
                    path + ("custom_id",),
                    "COMPONENT_INVALID_FIELD",
                    "Link buttons cannot have a custom_id",
                )
            )
    elif style == PREMIUM_STYLE:
        if not button.get("sku_id"):
            errors.append(_err(path + ("sku_id",), "BASE_TYPE_REQUIRED", "This field is required"))
    else:
        if not button.get("custom_id"):
            errors.append(
                _err(path + ("custom_id",), "BASE_TYPE_REQUIRED", "This field is required")
            )
        if not button.get("label") and not button.get("emoji"):
            errors.append(
                _err(
                    path + ("label",),
                    "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED",
                    "A label or an emoji is required",
                )
            )
    return errors


def _check_select(select: dict[str, Any], path: Path) -> list[SchemaError]:
    errors = _too_long(select.get("placeholder"), SELECT_PLACEHOLDER_MAX, path + ("placeholder",))
    min_values = select.get("min_values", 1)
    max_values = select.get("max_values", 1)
    if isinstance(min_values, int) and isinstance(max_values, int):
        if not 0 <= min_values <= SELECT_VALUES_MAX:
            errors.append(
                _err(
                    path + ("min_values",),
                    "NUMBER_TYPE_MAX",
                    f"min_values must be between 0 and {SELECT_VALUES_MAX}",
                )
            )
        if not 1 <= max_values <= SELECT_VALUES_MAX:
            errors.append(
                _err(
                    path + ("max_values",),
                    "NUMBER_TYPE_MAX",
                    f"max_values must be between 1 and {SELECT_VALUES_MAX}",
                )
            )
        if min_values > max_values:
            errors.append(
                _err(
                    path + ("min_values",),
                    "SELECT_COMPONENT_MIN_VALUES_EXCEEDS_MAX",
                    "min_values exceeds max_values",
                )
            )
    if select.get("type") != 3:
        return errors
    options = select.get("options") or []
    if not 1 <= len(options) <= SELECT_OPTIONS_MAX:
        errors.append(
            _err(
                path + ("options",),
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between 1 and {SELECT_OPTIONS_MAX} in length.",
            )
        )
    if isinstance(max_values, int) and options and max_values > len(options):
        errors.append(
            _err(
                path + ("max_values",),
                "SELECT_COMPONENT_MAX_VALUES_EXCEEDS_OPTIONS",
                "max_values exceeds the number of options",
            )
        )
    values: set[str] = set()
    for j, option in enumerate(options):
        if not isinstance(option, dict):
            continue
        opath = path + ("options", j)
        for key in ("label", "value"):
            text = option.get(key)
            if not isinstance(text, str) or not 1 <= len(text) <= SELECT_OPTION_TEXT_MAX:
                errors.append(
                    _err(
                        opath + (key,),
                        "BASE_TYPE_BAD_LENGTH",
                        f"Must be between 1 and {SELECT_OPTION_TEXT_MAX} in length.",
                    )
                )
        errors += _too_long(
            option.get("description"), SELECT_OPTION_TEXT_MAX, opath + ("description",)
        )
        value = option.get("value")
        if value in values:
            errors.append(
                _err(
                    opath + ("value",),
                    "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                    "Option values must be unique",
                )
            )
        values.add(value)
    return errors


def check_modal(data: Any) -> list[SchemaError]:
    """The `data` of a type-9 (modal) interaction callback."""
    if not isinstance(data, dict):
        return []
    base: Path = ("data",)
    errors = _too_long(data.get("title"), MODAL_TITLE_MAX, base + ("title",))
    components = data.get("components") or []
    if len(components) > MODAL_COMPONENTS_MAX:
        errors.append(
            _err(
                base + ("components",),
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {MODAL_COMPONENTS_MAX} or fewer in length.",
            )
        )
    found = _walk_list(components)
    for error in _check_custom_ids(found):
        errors.append(SchemaError(base + error.path, error.code, error.message))
    for path, comp in found:
        if comp.get("type") == 4:
            errors += _too_long(comp.get("label"), TEXT_INPUT_LABEL_MAX, base + path + ("label",))
            errors += _too_long(comp.get("value"), TEXT_INPUT_VALUE_MAX, base + path + ("value",))
        elif comp.get("type") in SELECT_TYPES:
            errors += [
                SchemaError(base + e.path, e.code, e.message) for e in _check_select(comp, path)
            ]
    return errors


def check_files(sizes: list[int]) -> list[SchemaError]:
    errors = []
    for i, size in enumerate(sizes):
        if size > FILE_MAX_BYTES:
            errors.append(
                _err((f"files[{i}]",), "BASE_TYPE_MAX_LENGTH", "Request entity too large")
            )
    if sum(sizes) > REQUEST_FILES_MAX_BYTES:
        errors.append(_err(("files",), "BASE_TYPE_MAX_LENGTH", "Request entity too large"))
    return errors


def check_commands(commands: Any) -> list[SchemaError]:
    """A bulk-overwrite body of application commands (names, descriptions, option counts, order)."""
    if not isinstance(commands, list):
        return []
    errors: list[SchemaError] = []
    seen: set[tuple[int, str]] = set()
    for i, command in enumerate(commands):
        if not isinstance(command, dict):
            continue
        path: Path = (i,)
        kind = command.get("type", 1)
        name = command.get("name") or ""
        if (kind, name) in seen:
            errors.append(
                _err(
                    path + ("name",),
                    "APPLICATION_COMMAND_ALREADY_EXISTS",
                    "Application command names must be unique",
                )
            )
        seen.add((kind, name))
        if kind == 1:
            errors += _check_chat_input(command, path)
    return errors


def _check_chat_input(node: dict[str, Any], path: Path) -> list[SchemaError]:
    errors: list[SchemaError] = []
    name = node.get("name") or ""
    if not COMMAND_NAME.match(name) or name != name.lower():
        errors.append(
            _err(path + ("name",), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
        )
    description = node.get("description") or ""
    if not 1 <= len(description) <= COMMAND_DESCRIPTION_MAX:
        errors.append(
            _err(
                path + ("description",),
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between 1 and {COMMAND_DESCRIPTION_MAX} in length.",
            )
        )
    options = node.get("options") or []
    if len(options) > COMMAND_OPTIONS_MAX:
        errors.append(
            _err(
                path + ("options",),
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {COMMAND_OPTIONS_MAX} or fewer in length.",
            )
        )
    names: set[str] = set()
    seen_optional = False
    for j, option in enumerate(options):
        opath = path + ("options", j)
        if option.get("name") in names:
            errors.append(
                _err(
                    opath + ("name",),
                    "APPLICATION_COMMAND_OPTION_NAME_DUPLICATED",
                    "Option names must be unique",
                )
            )
        names.add(option.get("name"))
        if option.get("type") in (1, 2):
            errors += _check_chat_input(option, opath)
            continue
        if option.get("required"):
            if seen_optional:
                errors.append(
                    _err(
                        opath + ("required",),
                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                        "Required options must be placed before non-required options",
                    )
                )
        else:
            seen_optional = True
        errors += _check_chat_input({**option, "options": []}, opath)
        choices = option.get("choices") or []
        if len(choices) > COMMAND_CHOICES_MAX:
            errors.append(
                _err(
                    opath + ("choices",),
                    "BASE_TYPE_MAX_LENGTH",
                    f"Must be {COMMAND_CHOICES_MAX} or fewer in length.",
                )
            )
    return errors
