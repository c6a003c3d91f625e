"""argparse's own messages ("usage:", "options:", its error lines) through the catalogues.

argparse looks its texts up with ``gettext`` at the moment it prints them. ``argparse_in``
swaps the module's lookup for one that maps each English message to a catalogue key
(``cli.argparse.*``), for the duration of a ``with`` block only.
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Callable, Iterator

from bot.i18n import tr

# argparse's message -> catalogue key. A message not listed is printed as argparse wrote it.
MESSAGES = {
    "usage: ": "cli.argparse.usage",
    "options": "cli.argparse.options",
    "positional arguments": "cli.argparse.positional",
    "show this help message and exit": "cli.argparse.help",
    "%(prog)s: error: %(message)s\n": "cli.argparse.error",
    "argument %(argument_name)s: %(message)s": "cli.argparse.argument",
    "invalid choice: %(value)r (choose from %(choices)s)": "cli.argparse.invalid_choice",
    "invalid %(type)s value: %(value)r": "cli.argparse.invalid_value",
    "expected one argument": "cli.argparse.expected_one",
    "unrecognized arguments: %s": "cli.argparse.unrecognized",
    "the following arguments are required: %s": "cli.argparse.required",
    "ambiguous option: %(option)s could match %(matches)s": "cli.argparse.ambiguous",
    "ignored explicit argument %r": "cli.argparse.ignored_explicit",
    "not allowed with argument %s": "cli.argparse.not_allowed_with",
}


def argparse_gettext(locale: str) -> Callable[[str], str]:
    def lookup(message: str) -> str:
        key = MESSAGES.get(message)
        return tr(locale, key) if key else message

    return lookup


@contextlib.contextmanager
def argparse_in(locale: str) -> Iterator[None]:
    """argparse speaks ``locale`` inside the block (building a parser, parsing, printing)."""
    original = argparse._  # type: ignore[attr-defined]
    argparse._ = argparse_gettext(locale)  # type: ignore[attr-defined]
    try:
        yield
    finally:
        argparse._ = original  # type: ignore[attr-defined]
