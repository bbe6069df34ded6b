"""From a tag on the reader to the card in the game's journal: ``python -m hardware.bench``.

A figure, not a test (tests never assert timings). Goal (the card shows as the player lifts
their hand): under 50 ms from the last byte of a frame to the declared card reaching the game
store, debounce included.

What runs is the real path, on a pseudo-terminal instead of a serial cable: RDM6300 frames
are written to the terminal's master side; :class:`~hardware.rfid.RfidReader` (pyserial's
reader thread, the frame protocol, the debounce) reports the tag; the tag crosses to the
"app's thread" through a queue (as it would through Kivy's clock);
:class:`~hardware.scanner.CardScanner` looks it up and declares it to a real
:class:`~companion.journal.declaring.Turn`: the card revealed to refill the slot of a reserved card;
the turn is committed, which journals the move in SQLite (a temporary folder). Then the
move is undone, and the next frame reveals another card.

Debounce: the debounce lets a tag through on its first frame, so it costs a dictionary
lookup, never a wait; it only drops the repeats of a tag that stays on the reader. Each
measured frame carries a tag that has been away for longer than the debounce time (1 s),
so every frame measured is one the table would see.
"""

from __future__ import annotations

import functools
import os
import queue
import statistics
import sys
import tempfile
import textwrap
import threading
import time
from collections.abc import Callable
from pathlib import Path

from companion import scratch
from companion.arguments import command_line
from companion.engine.cards import LEVELS
from companion.engine.moves import Reserve
from companion.engine.setup import Setup
from companion.figures import percentile
from companion.i18n import _, ngettext, number
from companion.journal.declaring import Turn
from companion.journal.session import Session
from companion.journal.store import Store

from .rfid import CONNECTED, RDM6300, RfidReader
from .scanner import CardScanner, ScanResult
from .tagmap import TagMap

GOAL_MS = 50.0
MARKET = ("1W1 1U1 1G1 1R1", "2W1 2U1 2G1 2R1", "3W1 3U1 3G1 3R1")


def rdm6300_frame(tag: str) -> bytes:
    """The frame an RDM6300 sends for ``tag`` (10 hex characters)."""
    check = functools.reduce(lambda a, b: a ^ b, bytes.fromhex(tag))
    return b"\x02" + tag.encode("ascii") + f"{check:02X}".encode("ascii") + b"\x03"


def measure(frames: int = 100, away: float = 1.0) -> tuple[list[float], list[float]]:
    """Milliseconds from the last byte of each frame to the tag reported by the reader, and
    to the declared card journaled."""
    master, slave = os.openpty()
    app_thread: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
    reported: dict[str, float] = {}
    connected = threading.Event()

    def on_tag(tag: str) -> None:
        reported[tag] = time.perf_counter()
        scanner.feed(tag)

    with tempfile.TemporaryDirectory() as folder:
        store = Store(Path(folder) / "games.sqlite3")
        session = Session.start(store, Setup.of(["Ada", "Ben"], ["N1", "N2", "N3"], MARKET))
        turn = Turn(session)
        game = session.game
        reveals = [(level, c.id) for level in LEVELS for c in game.unseen(level)]
        tags = TagMap(
            Path(folder) / "rfid-tags.json",
            {f"1A{i:08X}": card for i, (_level, card) in enumerate(reveals)},
        )
        tag_of = {card: tag for tag, card in tags.items()}
        results: list[ScanResult] = []
        scanner = CardScanner(tags, turn, on_result=results.append, dispatch=app_thread.put)
        reader = RfidReader(
            os.ttyname(slave),
            RDM6300,
            on_tag=on_tag,
            on_status=lambda state, detail: connected.set() if state == CONNECTED else None,
            away=away,
        )
        to_reader: list[float] = []
        to_store: list[float] = []
        last_sent: dict[str, float] = {}
        reader.start()
        try:
            if not connected.wait(5):
                raise RuntimeError(
                    _("the reader did not connect: {reason}").format(reason=reader.detail)
                )
            for i in range(frames):
                level, card = reveals[i % len(reveals)]
                tag = tag_of[card]
                # The tag must have been away longer than the debounce time, like a card
                # put on the reader again.
                wait = last_sent.get(tag, -away) + away * 1.05 - time.perf_counter()
                if wait > 0:
                    time.sleep(wait)
                market_card = game.market[level - 1][0]
                assert market_card is not None
                turn.start(Reserve(card=market_card.id, player=game.to_act))  # a tap
                frame = rdm6300_frame(tag)
                # Stamped before the write: once the bytes are in the terminal the reader's
                # thread may take the GIL and report the tag before this thread runs again,
                # and a stamp taken after would make that latency negative. The write to a
                # pseudo-terminal itself takes microseconds.
                sent = time.perf_counter()
                os.write(master, frame)
                last_sent[tag] = sent
                app_thread.get(timeout=5)()  # the app's thread runs the scan
                if not results or results[-1].result != "reveal":
                    said = results[-1].message if results else "?"
                    raise RuntimeError(
                        _("frame {n} was not taken as the reveal: {reason}").format(
                            n=i + 1, reason=said
                        )
                    )
                turn.commit()  # journaled in SQLite
                done = time.perf_counter()
                to_reader.append((reported[tag] - sent) * 1000)
                to_store.append((done - sent) * 1000)
                session.undo()  # back to the same position for the next frame
        finally:
            reader.stop()
            store.close()
            os.close(master)
            os.close(slave)
    return to_reader, to_store


def report(frames: int, to_reader: list[float], to_store: list[float]) -> str:
    """The figures in the reader's language (``SPLENDOR_LANG``, else the locale's)."""
    lines = [
        ngettext(
            "RFID scan to journaled move, {n} RDM6300 frame over a pseudo-terminal:",
            "RFID scan to journaled move, {n} RDM6300 frames over a pseudo-terminal:",
            frames,
        ).format(n=number(frames))
    ]
    labels = (
        _("last byte to the tag reported (reader thread)"),
        _("last byte to the card declared and journaled"),
    )
    width = max(len(label) for label in labels)  # the figures line up in every language
    for label, values in zip(labels, (to_reader, to_store), strict=True):
        figures = _("median {median} ms, p99 {p99} ms, max {max} ms").format(
            median=number(statistics.median(values), 2),
            p99=number(percentile(values, 0.99), 2),
            max=number(max(values), 2),
        )
        lines.append(f"  {label.ljust(width)}  {figures}")
    goal = number(GOAL_MS)
    if percentile(to_store, 0.99) < GOAL_MS:
        lines.append("  " + _("goal: under {goal} ms at p99: met").format(goal=goal))
    else:
        lines.append("  " + _("goal: under {goal} ms at p99: NOT met").format(goal=goal))
    note = _(
        "Debounce included: a tag is let through on its first frame (no wait); repeats "
        "while it stays on the reader are dropped. Not included: the frame's time on the "
        "wire ({wire} ms for 14 bytes at 9600 baud, before the last byte) and, in the app, "
        "the hop through Kivy's clock (up to one frame, {frame} ms at 60 fps)."
    ).format(wire=number(14 * 10 / 9600 * 1000, 1), frame=number(1000 / 60))
    lines.append(textwrap.fill(note, width=88, initial_indent="  ", subsequent_indent="  "))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    with command_line(
        "python -m hardware.bench",
        _(
            "The time from an RFID tag's frame to the card in the game's journal, through "
            "the real reader, scanner and journal, on a pseudo-terminal."
        ),
    ) as parser:
        parser.add_argument("--frames", type=int, default=100, help=_("how many frames to measure"))
        parser.add_argument("--quick", action="store_true", help=_("20 frames"))
        args = parser.parse_args(argv)
        frames = 20 if args.quick else args.frames
        if frames < 1:
            parser.error(_("--frames must be 1 or more"))
    scratch.enter("splendor-hardware-bench-")  # never a kiosk's folders, whatever is set
    to_reader, to_store = measure(frames)
    print(report(frames, to_reader, to_store))
    return 0


if __name__ == "__main__":
    sys.exit(main())
