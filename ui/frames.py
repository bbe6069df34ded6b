"""The app's frame times while a game is played at its table, headless.

    python -m ui.frames DATA_DIR [--players 4] [--seed 9] [--moves 40] [--pace 0.5]

The web page's benchmark (``python -m web.bench``) runs this as the kiosk's app, once with
the page's server and its live clients beside it and once without. The real app, at the
kiosk's 800x480, drawn at Kivy's usual clock (60 frames a second; SDL's offscreen driver
where there is no display), starts the seeded simulation's game (as the setup screen's
Start does) and plays its moves through taps on the table (``ui/taps.py``): a tap every
0.2 s, the next move ``--pace`` seconds after the last one. From the first tap to a
second after the last move, every turn of the app's loop is timed.

It prints one line of JSON: ``fps`` (the clock's limit), ``intervals`` (seconds from one
frame to the next: what the eye sees), ``busy`` (each frame's own work: input, the
clock's events, layout, drawing and the flip; the wait for the next frame left out),
``cpu`` (the CPU time the app's process used in each frame, its renderer's threads
included: the work without the waits for a processor another program held), ``drawn``
(whether each frame was drawn: the others had nothing new to show) and ``journaled`` (the
``time.monotonic()`` at which each move's commit returned: the same clock in every
process of the machine).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Iterator
from typing import Any

from companion import scratch
from companion.arguments import command_line, whole_number
from companion.i18n import _
from ui.launch import prepare_kivy

SIZE = "800x480"
SETTLE = 2.0  # after the game starts: the table laid out, the page's first fetch done
HOLD = 0.08  # a finger on the glass
BETWEEN_TAPS = 0.2
AFTER = 1.0  # frames still timed after the last move (its redraw, the page's fetches)


def arguments(argv: list[str] | None) -> argparse.Namespace:
    """The command line; its help and errors in the reader's language (the figures it
    prints are JSON, for ``web.bench``)."""
    with command_line(
        "python -m ui.frames",
        _(
            "The app's frame times while it plays a seeded game through taps on its "
            "table, headless; one line of JSON (for python -m web.bench)."
        ),
    ) as parser:
        parser.add_argument("data_dir", help=_("the games folder the app plays in"))
        parser.add_argument(
            "--players",
            type=whole_number(2, 4),
            default=4,
            help=_("players in the simulated game"),
        )
        parser.add_argument("--seed", type=int, default=9, help=_("the simulated game's seed"))
        parser.add_argument("--moves", type=int, default=40, help=_("moves the app plays"))
        parser.add_argument("--pace", type=float, default=0.5, help=_("seconds between two moves"))
        return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = arguments(argv)
    # The folder it was given, not SPLENDOR_DATA_DIR's (which the app would put first),
    # and Kivy's files in a scratch home.
    args.data_dir = os.path.abspath(args.data_dir)
    scratch.enter("splendor-frames-")
    prepare_kivy(SIZE, fullscreen=False)
    from kivy.base import EventLoop
    from kivy.clock import Clock
    from kivy.core.window import Window
    from kivy.tests.common import UnitTestTouch
    from kivy.uix.widget import Widget

    from companion.engine.simulate import simulate

    from .application import CompanionApp
    from .taps import move_taps

    game = simulate(players=args.players, seed=args.seed)
    moves = list(game.moves[: args.moves])
    intervals: list[float] = []
    busy: list[float] = []
    cpu: list[float] = []
    journaled: list[float] = []
    drawn: list[bool] = []
    flips = [0]
    timing = [False]

    def counted_draw(*_: Any) -> None:
        flips[0] += 1

    loop_idle = EventLoop.idle

    def timed_idle() -> Any:
        """One turn of the app's loop; the clock's tick sleeps first, until the frame is
        due, and notes when it woke (``get_time``): the rest is the frame's own work."""
        before, used = flips[0], time.process_time()
        done = loop_idle()
        if timing[0]:
            intervals.append(float(Clock.frametime))
            busy.append(float(Clock.time() - Clock.get_time()))
            cpu.append(time.process_time() - used)
            drawn.append(flips[0] != before)
        return done

    EventLoop.idle = timed_idle  # the loop calls it by its name, on this object

    class Table(CompanionApp):
        taps: Iterator[Widget]

        def on_start(self) -> None:
            super().on_start()
            Window.bind(on_flip=counted_draw)
            original = self.store.append_move

            def append_move(*a: Any, **kw: Any) -> Any:
                result = original(*a, **kw)
                journaled.append(time.monotonic())  # the commit returned: journaled
                return result

            setattr(self.store, "append_move", append_move)  # noqa: B010 (on the object)
            Clock.schedule_once(self.start_playing, 0.5)

        def start_playing(self, _dt: float) -> None:
            self.start_game(game.setup)
            Clock.schedule_once(self.first_move, SETTLE)

        def first_move(self, _dt: float) -> None:
            timing[0] = True
            self.next_move(0)

        def next_move(self, _dt: float) -> None:
            session = self.table_screen.session
            played = len(session.game.moves) if session is not None else 0
            if played >= len(moves) or self.manager.current != "table":
                Clock.schedule_once(self.report, AFTER)
                return
            self.taps = move_taps(self, moves[played])
            self.tap(0)

        def tap(self, _dt: float) -> None:
            widget = next(self.taps, None)
            if widget is None:
                Clock.schedule_once(self.next_move, args.pace)
                return
            touch = UnitTestTouch(*widget.to_window(*widget.center))
            touch.touch_down()

            def lift(_dt: float) -> None:
                touch.touch_up()
                Clock.schedule_once(self.tap, BETWEEN_TAPS)

            Clock.schedule_once(lift, HOLD)

        def report(self, _dt: float) -> None:
            timing[0] = False
            figures = {
                "fps": float(Clock._max_fps),
                "intervals": intervals,
                "busy": busy,
                "cpu": cpu,
                "drawn": drawn,
                "journaled": journaled,
            }
            print(json.dumps(figures), flush=True)
            self.stop()

    Table(data_dir=args.data_dir, language="en").run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
