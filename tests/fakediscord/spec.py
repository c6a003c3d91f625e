"""Request validation against Discord's OpenAPI description.

The spec is loaded and prepared once per process; one jsonschema validator per operation
and content type is built lazily and cached, so validating a request costs one schema walk.
"""

from __future__ import annotations

import copy
import functools
import gzip
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema
import referencing
from referencing.jsonschema import DRAFT202012

# The issue's layout: the shared folder sits next to the repository checkout.
DEFAULT_SPEC_PATH = (
    Path(__file__).resolve().parents[3] / "shared" / "discord-api-spec" / "openapi.json"
)
# A copy (discord/discord-api-spec commit 74fda0fa, MIT: discord-openapi.LICENSE) for fresh clones.
BUNDLED_SPEC_PATH = Path(__file__).resolve().parent / "discord-openapi.json.gz"
SPEC_ENV_VAR = "FAKE_DISCORD_OPENAPI"
_SPEC_URI = "urn:fakediscord:openapi"
_METHODS = ("get", "put", "post", "patch", "delete")


def spec_path() -> Path:
    """Where the OpenAPI file is: `$FAKE_DISCORD_OPENAPI` if set, else
    `../shared/discord-api-spec/openapi.json` next to the repository, else the bundled copy."""
    override = os.environ.get(SPEC_ENV_VAR)
    if override:
        return Path(override)
    return DEFAULT_SPEC_PATH if DEFAULT_SPEC_PATH.exists() else BUNDLED_SPEC_PATH


@dataclass(frozen=True)
class Operation:
    method: str
    template: str  # the spec's path template, e.g. "/channels/{channel_id}/messages"
    regex: re.Pattern[str]
    literal_segments: int
    request_content_types: tuple[str, ...]
    body_required: bool


@dataclass(frozen=True)
class SchemaError:
    """One validation failure: where in the body (path of keys / indices), a Discord-style code, a message."""

    path: tuple[str | int, ...]
    code: str
    message: str


class OpenAPISpec:
    """Discord's OpenAPI document prepared for fast request validation."""

    def __init__(self, document: dict[str, Any]):
        document = copy.deepcopy(document)
        schemas = document["components"]["schemas"]
        # discord.py sends some snowflakes (recipient_id, attachment ids) as integers; Discord accepts both.
        schemas["SnowflakeType"] = {
            "anyOf": [
                {"type": "string", "pattern": r"^(0|[1-9][0-9]*)$"},
                {"type": "integer", "minimum": 0},
            ]
        }
        _tag_unions(document, schemas)
        document["$id"] = _SPEC_URI
        document["x-fake-request-schemas"] = {}
        self._document = document
        self._registry = referencing.Registry().with_resource(
            _SPEC_URI, DRAFT202012.create_resource(document)
        )
        self.operations: list[Operation] = []
        for template, item in document["paths"].items():
            for method in _METHODS:
                op = item.get(method)
                if op is None:
                    continue
                body = op.get("requestBody") or {}
                self.operations.append(
                    Operation(
                        method=method.upper(),
                        template=template,
                        regex=_template_regex(template),
                        literal_segments=sum(
                            1 for seg in template.split("/") if seg and not seg.startswith("{")
                        ),
                        request_content_types=tuple(body.get("content", {})),
                        body_required=bool(body.get("required")),
                    )
                )
        # Literal segments win over parameters ("/messages/@original" before "/messages/{message_id}").
        self.operations.sort(key=lambda o: (-o.literal_segments, o.template))
        self._validators: dict[tuple[str, str, str], jsonschema.protocols.Validator | None] = {}
        self._by_shape: dict[tuple[str, int, str], list[Operation]] = {}
        self._valid_bodies: set[tuple[str, str, bytes]] = set()

    def match(self, method: str, path: str) -> Operation | None:
        """The operation a request's method and path (without the `/api/v10` prefix) belong to."""
        for op in self._candidates(method, path):
            if op.regex.fullmatch(path):
                return op
        return None

    def _candidates(self, method: str, path: str) -> list[Operation]:
        """The operations, in their order, that a path of this shape may match: the method's,
        with as many segments and the same first one (a parameter never holds a slash), so
        a request tries a handful of patterns instead of every operation's."""
        segments = path.split("/")
        key = (method, len(segments), segments[1] if len(segments) > 1 else "")
        found = self._by_shape.get(key)
        if found is None:
            found = self._by_shape[key] = [
                op for op in self.operations if op.method == method and _same_shape(op, key)
            ]
        return found

    def validate(
        self, op: Operation, content_type: str, body: Any, raw: bytes | None = None
    ) -> list[SchemaError]:
        """Validate a decoded request body (multipart: its `payload_json`) for `op`.
        `raw` (the body's JSON text) lets identical payloads skip the walk."""
        cache_key = (op.method, op.template, raw) if raw is not None else None
        if cache_key is not None and cache_key in self._valid_bodies:
            return []
        validator = self._validator(op, content_type)
        if validator is None:
            return []
        errors = [_describe(_most_relevant(error)) for error in validator.iter_errors(body)]
        if not errors and cache_key is not None:
            if len(self._valid_bodies) > 4096:
                self._valid_bodies.clear()
            self._valid_bodies.add(cache_key)
        return errors

    def _validator(self, op: Operation, content_type: str):
        key = (op.method, op.template, content_type)
        if key in self._validators:
            return self._validators[key]
        body = self._document["paths"][op.template][op.method.lower()].get("requestBody") or {}
        content = body.get("content", {})
        # Multipart bodies are validated through their JSON part against the JSON schema.
        media = content.get("application/json") or content.get(content_type)
        validator = None
        if media is not None and "schema" in media:
            name = f"{op.method} {op.template}"
            self._document["x-fake-request-schemas"][name] = media["schema"]
            pointer = "/x-fake-request-schemas/" + name.replace("~", "~0").replace("/", "~1")
            validator = jsonschema.Draft202012Validator(
                {"$ref": f"{_SPEC_URI}#{pointer}"}, registry=self._registry
            )
        self._validators[key] = validator
        return validator


def _type_tags(schemas: dict[str, Any], ref: str) -> tuple[Any, ...] | None:
    """The values of the `type` discriminator a referenced schema accepts, if it is a tagged one."""
    prefix = "#/components/schemas/"
    if not ref.startswith(prefix):
        return None
    target = schemas.get(ref[len(prefix) :], {})
    tag = target.get("properties", {}).get("type", {})
    if "type" not in target.get("required", ()):
        return None
    if "enum" in tag:
        return tuple(tag["enum"])
    if "const" in tag:
        return (tag["const"],)
    return None


def _tag_unions(node: Any, schemas: dict[str, Any]) -> None:
    """Rewrite unions of `type`-tagged schemas (components, callbacks, command options) from
    oneOf/anyOf into if/then dispatch on the tag: same acceptance, a fraction of the work,
    and errors come from the branch the sender meant."""
    if isinstance(node, list):
        for item in node:
            _tag_unions(item, schemas)
        return
    if not isinstance(node, dict):
        return
    for key in ("oneOf", "anyOf"):
        alternatives = node.get(key)
        if not isinstance(alternatives, list) or len(alternatives) < 2:
            continue
        if all(
            isinstance(a, dict) and "const" in a and set(a) <= {"const", "title", "description"}
            for a in alternatives
        ):
            # Named enums (MessageComponentTypes, ButtonStyleTypes, ...) are a oneOf of consts.
            del node[key]
            node["enum"] = [a["const"] for a in alternatives]
            continue
        if not all(isinstance(a, dict) and set(a) == {"$ref"} for a in alternatives):
            continue
        tags = [_type_tags(schemas, a["$ref"]) for a in alternatives]
        if any(t is None for t in tags):
            continue
        flat = [v for t in tags for v in t]  # type: ignore[union-attr]
        if len(flat) != len(set(flat)):
            continue  # overlapping tags: keep the union as written
        del node[key]
        node.setdefault("allOf", []).extend(
            [
                {"type": "object", "required": ["type"], "properties": {"type": {"enum": flat}}},
                *(
                    {
                        "if": {"properties": {"type": {"enum": list(t)}}, "required": ["type"]},
                        "then": alt,
                    }
                    for t, alt in zip(tags, alternatives, strict=True)
                ),
            ]
        )
    for value in node.values():
        _tag_unions(value, schemas)


def _same_shape(op: Operation, key: tuple[str, int, str]) -> bool:
    _, count, first = key
    segments = op.template.split("/")
    if len(segments) != count:
        return False
    head = segments[1] if count > 1 else ""
    return head == first or (head.startswith("{") and head.endswith("}") and first != "")


def _template_regex(template: str) -> re.Pattern[str]:
    parts = []
    for seg in template.split("/"):
        if seg.startswith("{") and seg.endswith("}"):
            parts.append(r"[^/]+")
        else:
            parts.append(re.escape(seg))
    return re.compile("/".join(parts))


def _branch_index(error: jsonschema.ValidationError) -> Any:
    return error.relative_schema_path[0] if error.relative_schema_path else None


def _most_relevant(error: jsonschema.ValidationError) -> jsonschema.ValidationError:
    """Descend into anyOf/oneOf failures, preferring the branch whose discriminating
    `type` matched (Discord unions are tagged by a `type` integer)."""
    while error.context:
        by_branch: dict[Any, list[jsonschema.ValidationError]] = {}
        for sub in error.context:
            by_branch.setdefault(_branch_index(sub), []).append(sub)

        def discriminator_failed(errs: list[jsonschema.ValidationError]) -> bool:
            for e in errs:
                if e.validator in ("enum", "const") and list(e.relative_path)[-1:] == ["type"]:
                    return True
                if e.validator == "type" and len(e.relative_path) == 0:
                    return True
            return False

        candidates = [errs for errs in by_branch.values() if not discriminator_failed(errs)]
        if not candidates:
            candidates = list(by_branch.values())
        # The branch that got deepest into the body is the one the sender meant.
        best_branch = max(candidates, key=lambda errs: max(len(e.absolute_path) for e in errs))
        best = jsonschema.exceptions.best_match(best_branch)
        if best is None or best is error:
            break
        error = best
    return error


_CODES = {
    "maxLength": ("BASE_TYPE_MAX_LENGTH", "Must be {limit} or fewer in length."),
    "minLength": ("BASE_TYPE_MIN_LENGTH", "Must be {limit} or more in length."),
    "maxItems": ("BASE_TYPE_MAX_LENGTH", "Must be {limit} or fewer in length."),
    "minItems": ("BASE_TYPE_MIN_LENGTH", "Must be {limit} or more in length."),
    "maximum": ("NUMBER_TYPE_MAX", "int value should be less than or equal to {limit}."),
    "minimum": ("NUMBER_TYPE_MIN", "int value should be greater than or equal to {limit}."),
    "required": ("BASE_TYPE_REQUIRED", "This field is required"),
    "enum": ("BASE_TYPE_CHOICES", "Value must be one of {limit}."),
    "type": ("BASE_TYPE_BAD_TYPE", "Must be of type {limit}."),
    "pattern": ("STRING_TYPE_REGEX", "String value did not match validation regex."),
}


def _describe(error: jsonschema.ValidationError) -> SchemaError:
    path = tuple(error.absolute_path)
    code, template = _CODES.get(error.validator, ("BASE_TYPE_INVALID", "Invalid value."))
    if error.validator == "required":
        missing = re.findall(r"'([^']+)' is a required property", error.message)
        if missing:
            path = path + (missing[0],)
    message = template.format(limit=error.validator_value)
    return SchemaError(path=path, code=code, message=f"{message} ({error.message[:200]})")


@functools.lru_cache(maxsize=4)
def _load(path: str) -> OpenAPISpec:
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as fh:
        return OpenAPISpec(json.load(fh))


def load_spec() -> OpenAPISpec:
    """The prepared spec, loaded once per process (per distinct path)."""
    return _load(str(spec_path()))
