"""What a reader's protocol reports: a frame or line it threw away (:class:`Dropped`, with
its bytes shown as a person can read them), and the three callbacks it reports to
(:class:`Reporter`).

The serial protocols of :mod:`hardware.rfid` and the PN532's (:mod:`hardware.pn532`) share
these; they sit apart from both so that each imports them at the top.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from companion.i18n import _, ngettext


def shown(data: bytes, limit: int = 40) -> str:
    """Bytes as a person can read them: printable ASCII as is, the rest as ``\\xNN``.

    >>> shown(b"\\x020A1B\\xff")
    '\\\\x020A1B\\\\xff'
    """
    text = "".join(chr(b) if 0x20 <= b < 0x7F else f"\\x{b:02x}" for b in data[:limit])
    return text + ("..." if len(data) > limit else "")


# Why a frame or line is thrown away: each reason's stable word, and its words for a
# person given the count of bytes thrown away (made when read, in the language of then).
_SAID: dict[str, Callable[[int], str]] = {
    "checksum": lambda n: _("bad checksum: frame {data} carries {got}, its data gives {expected}"),
    "length": lambda n: ngettext(
        "wrong length: {data} has {n} character, a frame has 12",
        "wrong length: {data} has {n} characters, a frame has 12",
        n,
    ),
    "not-hex": lambda n: _("not a hex tag id: {data}"),
    "noise": lambda n: ngettext(
        "{n} stray byte between frames: {data}",
        "{n} stray bytes between frames: {data}",
        n,
    ),
    "truncated": lambda n: _("frame cut short by the next one: {data}"),
    "too-long": lambda n: ngettext(
        "{n} byte without the end of a frame or line: {data}",
        "{n} bytes without the end of a frame or line: {data}",
        n,
    ),
    "typed": lambda n: _("not a tag id: {data} was typed"),
    "uid-size": lambda n: _("a tag's id of {size} bytes in {data}: a tag's id has 4, 7 or 10"),
}

REASONS = tuple(_SAID)
"""Why a frame or line is thrown away: the stable words a :class:`Dropped` carries."""


@dataclass(frozen=True, slots=True)
class Dropped:
    """A frame or line thrown away: ``reason`` is a stable word of :data:`REASONS`, and
    :attr:`message` says it in words.

    The words are made when read, not when the frame is dropped: a noisy line drops
    thousands a minute, and the reader's thread only counts them (the log shows them at
    debug level).

    >>> Dropped.of("noise", b"\\x15\\xff").message
    '2 stray bytes between frames: \\\\x15\\\\xff'
    """

    reason: str
    data: bytes
    details: tuple[tuple[str, str], ...] = ()
    """What the message names besides the bytes (a checksum's ``got`` and ``expected``)."""

    @classmethod
    def of(cls, reason: str, data: bytes, **details: str) -> Dropped:
        if reason not in REASONS:
            raise ValueError(f"unknown drop reason {reason!r}")
        return cls(reason, data, tuple(details.items()))

    @property
    def message(self) -> str:
        """What was thrown away and why, in the language of the moment."""
        n = len(self.data)
        message = _SAID[self.reason](n)
        return message.format(data=shown(self.data), n=n, **dict(self.details))

    def __str__(self) -> str:
        return self.message


TagSink = Callable[[str], None]
DropSink = Callable[[Dropped], None]
LostSink = Callable[[BaseException | None], None]


class Reporter:
    """The callbacks of a reader's protocol (a pyserial ``Protocol``, listed first among
    its bases), as the reader thread gives them: each tag read, each frame or line
    dropped, and the port lost."""

    def __init__(
        self,
        on_tag: TagSink,
        on_dropped: DropSink,
        on_lost: LostSink,
    ) -> None:
        self.on_tag = on_tag
        self.on_dropped = on_dropped
        self.on_lost = on_lost
        super().__init__()
