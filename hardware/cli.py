"""``splendor-companion rfid monitor|enroll``: set a reader up, and tag the cards.

:func:`register` adds the ``rfid`` command to the command line (the reader kinds from
:mod:`hardware.readers`); when it runs, ``companion.cli`` calls :func:`run` with the
parsed arguments: ``rfid_command`` (``monitor`` or ``enroll``), ``port``, ``reader``,
``baud``, and for ``enroll`` ``level`` and ``all``; ``data_dir`` is the global option.
This module imports pyserial and python-evdev only when the command runs.

Without ``--port``: a serial reader is on the Pi's GPIO UART (``/dev/ttyAMA0`` on a Pi 5,
``/dev/serial0`` before), a keyboard reader is the one keyboard under
``/dev/input/by-id`` (with several, the command lists them). Without ``--baud``: the
reader's own speed (115200 for a PN532, 9600 for the others).

Both print as they go, flushing each line, and read tags from the reader.
``monitor`` runs until Ctrl-C. ``enroll`` asks for each card in turn; Enter skips a card,
Ctrl-D (end of input) or Ctrl-C stops, and every tag recorded is saved at once.
"""

from __future__ import annotations

import argparse
import collections
import os
import queue
import select
import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TextIO

from companion.cli import data_folder
from companion.engine.cards import CARDS
from companion.engine.tokens import Tokens
from companion.i18n import _, localise, ngettext, number, translate

from .exc import DeviceCode, HardwareError, TagConflict
from .ports import gpio_uart, keyboard_devices
from .readers import DEFAULT, INPUT, NAMES, READERS, baud_of
from .tagmap import TagMap, default_path

if TYPE_CHECKING:
    from .rfid import RfidReader

EXIT_OK, EXIT_ERROR = 0, 2
RETRY = 2.0  # seconds between two tries of a port that cannot be read

Event = tuple[str, object, object]


# companion.cli's maker of a command's parser: (subparsers, name, help) -> parser, with the
# options every command takes and its defaults shown in --help.
Command = Callable[[Any, str, str], argparse.ArgumentParser]


def register(sub: Any, command: Command) -> None:
    """Add ``rfid monitor|enroll`` to the program's commands (``splendor_companion.program``
    asks)."""
    kinds = ", ".join(f"{r.name} ({translate(r.tags)})" for r in READERS.values())
    p = command(sub, "rfid", _("an RFID card reader: watch it, or tag the cards"))
    actions = p.add_subparsers(dest="rfid_command", metavar=_("ACTION"), required=True)
    for name, text in (
        ("monitor", _("print each tag read and its card, each dropped frame, until Ctrl-C")),
        ("enroll", _("ask for each card in turn and record the tag scanned for it")),
    ):
        q = command(actions, name, text)
        q.add_argument(
            "--port",
            metavar=_("PORT"),
            help=_(
                "the reader: /dev/ttyUSB0, /dev/ttyAMA0, a /dev/input/by-id name... "
                "(default: the Pi's GPIO serial port, or the one USB keyboard reader)"
            ),
        )
        q.add_argument("--reader", choices=NAMES, default=DEFAULT, help=kinds)
        q.add_argument("--baud", type=int, help=_("the reader's speed (default: its own)"))
        if name == "enroll":
            q.add_argument(
                "--level", type=int, choices=(1, 2, 3), help=_("only this level's cards")
            )
            q.add_argument("--all", action="store_true", help=_("cards that have a tag too"))
    p.set_defaults(func=run)


def default_port(reader: str) -> str:
    """The port of ``reader`` when none is given; :class:`HardwareError` when it is not
    clear which (several keyboards, or none)."""
    if READERS[reader].port != INPUT:
        return gpio_uart()
    found = keyboard_devices()
    if len(found) == 1:
        return found[0]
    if not found:
        raise HardwareError(
            DeviceCode.NOT_FOUND,
            _("no USB keyboard reader is plugged in (nothing in /dev/input/by-id)"),
        )
    raise HardwareError(
        DeviceCode.AMBIGUOUS,
        _(
            "several keyboards are plugged in: choose the reader with --port, one of: {ports}"
        ).format(ports=", ".join(found)),
    )


def run(args: argparse.Namespace) -> int:
    """The ``rfid`` command. Returns the exit code."""
    try:
        return _run(args)
    except ImportError as err:  # pyserial or python-evdev, imported when the reader starts
        print(
            _(
                "The RFID tools cannot start: {reason}. Install them with the first command "
                "of README.md."
            ).format(reason=err),
            file=sys.stderr,
        )
        return EXIT_ERROR


def _run(args: argparse.Namespace) -> int:
    # A --data-dir that does not exist: made by enroll (it writes the tags file there, and
    # says so), a typo for monitor (its cards' tags would all read as unknown).
    data_folder(args, writes=args.rfid_command == "enroll")
    try:
        tags = TagMap.load(default_path(getattr(args, "data_dir", None)))
        port = args.port or default_port(args.reader)
    except HardwareError as err:
        print(err.message, file=sys.stderr)
        return EXIT_ERROR
    baud = baud_of(args.reader, args.baud) or 0
    if args.rfid_command == "monitor":
        return monitor(port, args.reader, baud, tags)
    return enroll(port, args.reader, baud, tags, level=args.level, everything=args.all)


def _say(out: TextIO, text: str) -> None:
    print(text, file=out, flush=True)


class _Events:
    """The reader's callbacks, queued for the main thread, which a pipe wakes up."""

    def __init__(self) -> None:
        self.queue: queue.SimpleQueue[Event] = queue.SimpleQueue()
        self.pending: collections.deque[Event] = collections.deque()
        self.wake_r, self.wake_w = os.pipe()
        os.set_blocking(self.wake_r, False)
        self.closed = False
        self._lock = threading.Lock()

    def put(self, kind: str, a: object = None, b: object = None) -> None:
        self.queue.put((kind, a, b))
        with self._lock:
            if not self.closed:
                os.write(self.wake_w, b"x")

    def drain(self) -> collections.deque[Event]:
        """The events not handled yet (take them with ``popleft``: what is left stays)."""
        try:
            while os.read(self.wake_r, 512):
                pass
        except BlockingIOError:
            pass
        while True:
            try:
                self.pending.append(self.queue.get_nowait())
            except queue.Empty:
                return self.pending

    def close(self) -> None:
        with self._lock:
            self.closed = True
            os.close(self.wake_r)
            os.close(self.wake_w)

    def reader(self, port: str, kind: str, baud: int) -> RfidReader:
        from .rfid import RfidReader

        return RfidReader(
            port,
            kind,
            baudrate=baud,
            on_tag=lambda tag: self.put("tag", tag),
            on_status=lambda state, detail: self.put("status", state, detail),
            on_dropped=lambda item: self.put("dropped", item),
            retry=RETRY,
        )


def _stop(reader: RfidReader, events: _Events) -> None:
    """Stop the reader; a second Ctrl-C while it stops is not an error either."""
    try:
        reader.stop()
    except KeyboardInterrupt:
        pass
    finally:
        events.close()


def _status_line(state: object, detail: object) -> str | None:
    if state == "connected":
        return _("connected: {detail}").format(detail=detail)
    if state in ("disconnected", "blocked"):
        # The reader tries the port again by itself: say so, or the wait looks like a hang.
        return _("disconnected: {detail}. Trying again every {n} s (Ctrl-C stops).").format(
            detail=detail, n=number(RETRY if state == "disconnected" else max(RETRY, 5.0))
        )
    return None


def _dropped_line(item: object) -> str:
    return _("dropped: {reason}").format(reason=getattr(item, "message", item))


def monitor(port: str, kind: str, baud: int, tags: TagMap, out: TextIO | None = None) -> int:
    """Print each tag (and its card), each dropped frame and each change of the port,
    until Ctrl-C."""
    out = out or sys.stdout
    events = _Events()
    reader = events.reader(port, kind, baud)
    what = f"{kind}, {baud} baud" if baud else kind
    _say(
        out,
        _("Monitoring {port} ({reader}): put a card on the reader. Ctrl-C stops.").format(
            port=port, reader=what
        ),
    )
    reader.start()
    seen = 0
    try:
        while True:
            select.select([events.wake_r], [], [])
            pending = events.drain()
            while pending:
                kind_, a, b = pending.popleft()
                if kind_ == "tag":
                    seen += 1
                    card = tags.card(str(a))
                    if card is None:
                        _say(out, _("tag {tag}: not enrolled").format(tag=a))
                    else:
                        _say(out, _("tag {tag}: card {card}").format(tag=a, card=card))
                elif kind_ == "dropped":
                    _say(out, _dropped_line(a))
                else:
                    line = _status_line(a, b)
                    if line:
                        _say(out, line)
    except KeyboardInterrupt:
        pass
    finally:
        _stop(reader, events)
    dropped = reader.dropped
    summary = ", ".join(f"{reason} {n}" for reason, n in sorted(dropped.items())) or "0"
    _say(
        out,
        _("Stopped: {tags} read ({frames}), dropped: {dropped}.").format(
            tags=ngettext("{n} tag", "{n} tags", seen).format(n=seen),
            frames=ngettext("{n} valid frame", "{n} valid frames", reader.frames).format(
                n=reader.frames
            ),
            dropped=summary,
        ),
    )
    return EXIT_OK


def describe(card_id: str) -> str:
    """``level 1, white, cost 1 blue, 1 green, 1 red, 1 black`` (translated)."""
    card = CARDS[card_id]
    return _("level {level}, {colour}, cost {cost}").format(
        level=card.level,
        colour=translate(card.bonus.key),
        cost=localise(Tokens.of((*card.cost, 0))),
    )


def _stdin_fd() -> int | None:
    try:
        fd = sys.stdin.fileno()
        select.select([fd], [], [], 0)
    except (AttributeError, OSError, ValueError):
        return None
    return fd


def enroll(
    port: str,
    kind: str,
    baud: int,
    tags: TagMap,
    *,
    level: int | None = None,
    everything: bool = False,
    out: TextIO | None = None,
) -> int:
    """Ask for each card without a tag (of ``level``; every card if ``everything``) and
    record the tag scanned for it."""
    out = out or sys.stdout
    cards = [
        c.id
        for c in CARDS.values()
        if (level is None or c.level == level) and (everything or tags.tag_of(c.id) is None)
    ]
    if not cards:
        _say(out, _("Every card has a tag already (add --all to enroll them again)."))
        return EXIT_OK
    stdin = _stdin_fd()
    events = _Events()
    reader = events.reader(port, kind, baud)
    _say(
        out,
        ngettext(
            "Enrolling {n} card into {file}. Scan each card when asked; Enter skips a card, "
            "Ctrl-D or Ctrl-C stops (what is recorded stays saved).",
            "Enrolling {n} cards into {file}. Scan each card when asked; Enter skips a card, "
            "Ctrl-D or Ctrl-C stops (what is recorded stays saved).",
            len(cards),
        ).format(n=len(cards), file=tags.path),
    )
    reader.start()
    done = skipped = 0
    try:
        for number, card in enumerate(cards, start=1):
            _say(
                out,
                _("Scan card {card} ({description}) [{i}/{n}]").format(
                    card=card, description=describe(card), i=number, n=len(cards)
                ),
            )
            answer = _wait_for_tag(card, tags, events, stdin, out)
            if answer == "stop":
                break
            if answer == "skip":
                skipped += 1
            else:
                done += 1
    except KeyboardInterrupt:
        pass
    finally:
        _stop(reader, events)
    left = len(tags.missing(level))
    _say(
        out,
        _("Enrolled: {done}, skipped: {skipped}, cards still without a tag: {left}.").format(
            done=done, skipped=skipped, left=left
        ),
    )
    return EXIT_OK


def _wait_for_tag(card: str, tags: TagMap, events: _Events, stdin: int | None, out: TextIO) -> str:
    """Until a tag is recorded for ``card`` (``"saved"``), Enter (``"skip"``) or the end
    of input (``"stop"``)."""
    watched = [events.wake_r] if stdin is None else [events.wake_r, stdin]
    while True:
        pending = events.drain()
        if not pending:
            ready, _w, _x = select.select(watched, [], [])
            if stdin is not None and stdin in ready:
                data = os.read(stdin, 1024)
                if not data:
                    return "stop"
                _say(out, "  " + _("skipped {card}").format(card=card))
                return "skip"
            continue
        while pending:
            kind, a, b = pending.popleft()
            if kind == "dropped":
                _say(out, "  " + _dropped_line(a))
            elif kind == "status":
                line = _status_line(a, b)
                if line:
                    _say(out, "  " + line)
            else:
                tag = str(a)
                try:
                    changed = tags.assign(tag, card)
                except TagConflict as err:
                    _say(out, "  " + err.message)
                    continue
                except HardwareError as err:
                    _say(out, "  " + err.message)
                    return "stop"
                if changed:
                    _say(
                        out,
                        "  " + _("tag {tag} is now card {card}: saved").format(tag=tag, card=card),
                    )
                else:
                    _say(
                        out,
                        "  " + _("tag {tag} was card {card} already").format(tag=tag, card=card),
                    )
                return "saved"
