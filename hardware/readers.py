"""The kinds of RFID reader, in one place: the command line, the settings, the app and
deploy.sh all take their list from :data:`READERS`.

Pure standard library, and one ``ReaderKind("name", ...)`` a line: ``deploy.sh`` reads the
names from those lines (it runs before any Python package is installed), and
``python3 hardware/readers.py`` prints one kind a line (name, baud or ``-``, port kind).

>>> [r.name for r in READERS.values()]
['rdm6300', 'lines', 'pn532', 'keyboard']
>>> READERS["pn532"].baud, READERS["keyboard"].baud
(115200, None)
"""

from __future__ import annotations

from dataclasses import dataclass

SERIAL, INPUT = "serial", "input"


@dataclass(frozen=True, slots=True)
class ReaderKind:
    """A kind of reader: its name (the ``--reader`` value), its default speed (``None``
    for a reader that is not on a serial port), and where it is plugged: ``serial`` (a
    serial port: the Pi's UART or a USB-serial adapter) or ``input`` (a USB keyboard
    device under ``/dev/input/by-id``)."""

    name: str
    baud: int | None
    port: str
    tags: str
    """Which tags it reads, for the help texts."""


READERS: dict[str, ReaderKind] = {
    r.name: r
    for r in (
        ReaderKind("rdm6300", 9600, SERIAL, "125 kHz EM4100 cards and fobs"),
        ReaderKind("lines", 9600, SERIAL, "one UID a line: an Arduino with an MFRC522, ..."),
        ReaderKind("pn532", 115200, SERIAL, "13.56 MHz NTAG213 stickers, MIFARE cards"),
        ReaderKind("keyboard", None, INPUT, "USB readers that type the tag like a keyboard"),
    )
}
NAMES = tuple(READERS)
DEFAULT = "rdm6300"


def kind(name: str) -> ReaderKind:
    """The reader called ``name``; ``ValueError`` naming the kinds when there is none."""
    try:
        return READERS[name]
    except KeyError:
        raise ValueError(f"unknown reader {name!r}: choose one of {', '.join(NAMES)}") from None


def baud_of(name: str, baud: int | str | None = None) -> int | None:
    """The speed to use: ``baud`` when given, else the reader's own (``None``: no serial)."""
    reader = kind(name)
    if reader.baud is None:
        return None
    if baud in (None, ""):
        return reader.baud
    return int(baud)


if __name__ == "__main__":
    for reader in READERS.values():
        print(reader.name, reader.baud or "-", reader.port)
