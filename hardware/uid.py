"""What a tag id looks like when a reader sends it as text: the ``lines`` readers (a line)
and the ``keyboard`` readers (what they type before Enter). Anything else such a reader
sends (its speed, its own id, a count, a time, a memory dump) is chatter, never a tag.

A tag id is one run of hex digits of one of these lengths:

- 8, 14 or 20 digits: an ISO 14443 UID (NTAG stickers, MIFARE cards) of 4, 7 or 10 bytes;
- 10 digits: a 125 kHz EM4100 id (5 bytes, as an RDM6300 sketch prints it), or the
  10-digit decimal form of a 4-byte UID that most USB keyboard readers type
  (``0004346362``);
- 8 digits is also the Wiegand-26 decimal form some 125 kHz readers type (``06617914``:
  the facility code in 3 digits, then the card number in 5): it has the shape of a
  4-byte UID in hex.

A ``lines`` reader may also separate the bytes (``04 A3 2B 1C``, ``04:A3:2B:1C``,
``04-A3-2B-1C``) and put a label naming the UID before them: see
:meth:`hardware.rfid.LineTags.parse`.

>>> run("0004346362"), run("04a32b1c"), run("9600"), run("115200"), run("0A1B2C3D4E5F")
('0004346362', '04A32B1C', None, None, None)
>>> clock_time(["13", "45", "10", "22"]), clock_time(["04", "A3", "2B", "1C"])
(True, False)
"""

from __future__ import annotations

import re
import string
from collections.abc import Sequence

DIGITS = (8, 10, 14, 20)
"""The lengths of a tag id, in hex digits (see the module)."""
LONGEST = max(DIGITS)
"""More characters than this before the end of the line: not a tag, whatever follows."""
UID_BYTES = (4, 7, 10)
"""ISO 14443 UIDs: single, double and triple size."""
TAG_BYTES = (4, 5, 7, 10)
"""A UID, or a 125 kHz tag (5 bytes)."""

HEX = frozenset(string.hexdigits)
_WORDS = re.compile(r"[a-z]+")
_NAMES_UID = frozenset({"uid", "nuid", "id", "tag", "serial"})
_NAMES_ELSE = frozenset(
    {"reader", "firmware", "version", "chip", "count", "speed", "baud", "length", "size"}
    | {"type", "sak", "atqa", "block", "page", "sector", "time", "date"}
)
"""Words of a label about something other than the tag: ``Reader ID``, ``Tag count``."""


def run(text: str) -> str | None:
    """``text`` in upper case if it is one run of hex digits of a tag id's length."""
    if len(text) in DIGITS and HEX.issuperset(text):
        return text.upper()
    return None


def names_uid(label: str) -> bool:
    """Whether ``label`` (what comes before a colon) names a tag's id: ``Card UID``,
    ``UID Value``, ``Tag ID``, ``Serial``; not ``Serial speed``, ``Reader ID``, ``Tag count``.

    >>> [names_uid(x) for x in ("Card UID", "Tag ID", "Serial speed", "Reader ID", "Tag count")]
    [True, True, False, False, False]
    """
    words = set(_WORDS.findall(label.lower()))
    return bool(words & _NAMES_UID) and not words & _NAMES_ELSE


def clock_time(parts: Sequence[str]) -> bool:
    """Whether colon-separated ``parts`` read as a time of day (``13:45:10:22``: hours,
    minutes, seconds, hundredths): a reader's clock, not a tag."""
    if len(parts) not in (3, 4) or not all(p.isdigit() for p in parts):
        return False
    hours, minutes, seconds = (int(p) for p in parts[:3])
    return hours < 24 and minutes < 60 and seconds < 60
