"""Text that comes from strangers: players' names checked on the way in, made harmless on
the way out (a terminal, a text file, a spreadsheet).

A name is refused when it holds what no one types as a name and what would forge or hide
text where it is shown: control characters (NUL, ESC, CR, newline...), line and paragraph
separators, the bidirectional overrides that reorder what a reader sees, and lone
surrogates (which are not characters: no file or terminal can hold them). A name has at most
:data:`MAX_NAME_LENGTH` characters.

>>> check_name("Zoë O'Neil")
>>> check_name("Ada\\x1b[2J")
Traceback (most recent call last):
...
companion.errors.RecordError: a name cannot hold control characters (U+001B at position 4)
>>> printable("Ada\\x1b[31mBen\\x07")
'AdaBen'
>>> csv_cell("=cmd|' /C calc'!A0")
"'=cmd|' /C calc'!A0"
"""

from __future__ import annotations

import json
import re
import unicodedata

from .errors import RecordError
from .i18n import short_number

MAX_NAME_LENGTH = 40
"""Room for a first name and a surname; the new-game keyboard stops sooner."""

# Explicit embeddings, overrides and isolates: they reorder the text around them.
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# Terminal escape sequences: CSI (colours, cursor, clear), OSC (titles, links, clipboard)
# and the two-character ones; then every other control character on its own.
_ESCAPES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]?"
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"
    r"|\x1b[PX^_][^\x1b]*(?:\x1b\\)?"
    r"|\x1b[ -~]?"
    r"|\x9b[0-?]*[ -/]*[@-~]?"
)
# What a spreadsheet reads as the start of a formula (OWASP: CSV injection).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n")


def _unwanted(char: str) -> str | None:
    """Why a character has no place in a name (``surrogate``, ``control``), or ``None``."""
    category = unicodedata.category(char)
    if category == "Cs":
        return "surrogate"
    if category in ("Cc", "Zl", "Zp") or char in _BIDI_CONTROLS:
        return "control"
    return None


def normal_name(name: str) -> str:
    """A name as it is stored and compared: Unicode's composed form (NFC), without spaces
    around it. ``Zoé`` typed on the kiosk (one character é) and ``Zoé`` from a file written
    on a Mac (e and a combining accent) look the same and are the same name: two seats of
    one game cannot hold them both, and they count as one player.

    >>> normal_name(" Zoe\u0301 ") == "Zo\u00e9"
    True
    """
    return unicodedata.normalize("NFC", name).strip()


def quoted(value: object, limit: int = 32) -> str:
    """A value from a stranger as a message quotes it: as JSON writes it, at most ``limit``
    characters (then an ellipsis), never failing (a number of 4,300 digits, a list nested
    a thousand deep). A message stays one short line whatever the file held.

    >>> quoted("x" * 100, 10), quoted(-(10**5000))[:6], quoted([1, "a"]), quoted(True)
    ('"xxxxxxxx…', '-10000', '[1, "a"]', 'true')
    """
    if isinstance(value, int) and not isinstance(value, bool):
        return short_number(value)
    try:
        text = json.dumps(value)
    except (ValueError, TypeError, RecursionError):
        # A huge number or a deep nesting inside a list or an object: its shape only.
        text = "[…]" if isinstance(value, list) else "{…}" if isinstance(value, dict) else "…"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def check_name(name: object, path: str = "") -> None:
    """Refuse a player's name no one could have typed; :class:`RecordError` says why.

    ``path`` is where the name is (``players[2]`` in a record; empty on the new-game screen).
    """
    if not isinstance(name, str):
        raise RecordError(path, "a player's name is text, not {value}", value=type(name).__name__)
    if not name.strip():
        raise RecordError(path, "a player needs a name")
    if len(name) > MAX_NAME_LENGTH:
        raise RecordError(
            path,
            "a name has at most {limit} characters, not {n}",
            limit=MAX_NAME_LENGTH,
            n=len(name),
        )
    for at, char in enumerate(name, start=1):
        kind = _unwanted(char)
        code = f"U+{ord(char):04X}"
        if kind == "surrogate":
            raise RecordError(
                path,
                "a name cannot hold {char} at position {at}: it is not a character",
                char=code,
                at=at,
            )
        if kind == "control":
            raise RecordError(
                path,
                "a name cannot hold control characters ({char} at position {at})",
                char=code,
                at=at,
            )


def printable(line: str) -> str:
    """One line safe to show on a terminal or in a text file: escape sequences and control
    characters removed (newlines too: a line cannot forge the next), a lone surrogate shown
    as U+FFFD."""
    out = []
    for char in _ESCAPES.sub("", line):
        if unicodedata.category(char) == "Cs":
            out.append("\ufffd")
        elif _unwanted(char) is None:
            out.append(char)
    return "".join(out)


def csv_cell(text: str) -> str:
    """A text cell a spreadsheet shows as text, never runs as a formula (a ``'`` before it)."""
    return "'" + text if text.startswith(_FORMULA_START) else text
