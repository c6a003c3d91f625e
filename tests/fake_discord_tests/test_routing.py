"""Finding a request's operation (the spec's) and handler (the fake's) by the path's shape gives
what trying every pattern in order gave, for every path of every operation and some that match
none."""

from __future__ import annotations

import re

from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.spec import load_spec


def concrete_paths(template: str) -> list[str]:
    """The template with its parameters filled in two ways, and a few near misses."""
    filled = re.sub(r"\{[^/}]+\}", "123", template)
    tokened = re.sub(r"\{[^/}]+\}", "@original", template)
    return [filled, tokened, filled + "/x", filled.rsplit("/", 1)[0], filled.replace("/", "//", 1)]


def test_an_operation_is_found_as_by_trying_every_pattern():
    spec = load_spec()
    paths = {p for op in spec.operations for p in concrete_paths(op.template)}
    paths |= {"/", "", "/nowhere", "/users/@me", "//channels"}
    checked = 0
    for method in ("GET", "PUT", "POST", "PATCH", "DELETE", "HEAD"):
        for path in sorted(paths):
            expected = next(
                (op for op in spec.operations if op.method == method and op.regex.fullmatch(path)),
                None,
            )
            assert spec.match(method, path) is expected, (method, path)
            checked += expected is not None
    assert checked > len(spec.operations)


def test_a_handler_is_found_as_by_trying_every_route():
    fake = FakeDiscord()
    paths = {p for op in fake.spec.operations for p in concrete_paths(op.template)}
    found = 0
    for method in ("GET", "PUT", "POST", "PATCH", "DELETE"):
        for path in sorted(paths | {"/", "/nowhere"}):
            expected: tuple = (None, {})
            for route_method, regex, _, handler, _ in fake._routes:
                m = regex.fullmatch(path) if route_method == method else None
                if m:
                    expected = (handler, m.groupdict())
                    break
            assert fake._find_handler(method, path) == expected, (method, path)
            found += expected[0] is not None
    assert found > 40
