"""The app's figures: time from process start to the first frame, and peak memory with a
4-player game in progress. ``python -m ui.bench`` (it starts the real app, headless).

Goals (a kiosk that starts at once on a small Pi), on the development machine: first frame
under 1.5 s, peak RSS under 200 MB.
The figures are printed in the reader's language, like ``splendor-companion bench``.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from companion import scratch
from companion.arguments import command_line
from companion.i18n import _, ngettext, number

CHILD = """
import os, resource, sys, time
from ui.launch import prepare_kivy
prepare_kivy("800x480", False)
from kivy.clock import Clock
from kivy.core.window import Window
from ui.application import CompanionApp

class Bench(CompanionApp):
    drawn = False
    def on_start(self):
        Window.bind(on_draw=self.drawn_once)
    def drawn_once(self, *_):
        if self.drawn:
            return
        self.drawn = True
        print("first-frame", flush=True)
        game = self.store.latest_unfinished()
        self.resume(game.id)  # the table of a 4-player game in progress
        Clock.schedule_once(self.report, 1.0)
    def report(self, dt):
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        print("peak-rss-kb", rss, flush=True)
        self.stop()

Bench(data_dir=sys.argv[1]).run()
"""


def prepare_data(folder: Path) -> None:
    from companion.engine.simulate import simulate
    from companion.journal.store import GameState, Store
    from companion.records.record import Record

    game = simulate(players=4, seed=9, max_moves=60)
    with Store(folder / "games.sqlite3") as store:
        store.import_record(Record.of(game), GameState.of(game))


def headless(folder: Path) -> dict[str, str]:
    """The environment of the app run as a benchmark: no log, Kivy's files in ``folder``,
    SDL's offscreen window where there is no display."""
    env = {**os.environ, "KIVY_NO_ARGS": "1", "KIVY_NO_CONSOLELOG": "1", "KIVY_NO_FILELOG": "1"}
    env.setdefault("KIVY_HOME", str(folder / "kivy"))
    if not env.get("DISPLAY"):
        env["SDL_VIDEODRIVER"] = "offscreen"
    return env


def run_once(folder: Path) -> tuple[float, float]:
    env = headless(folder)
    start = time.perf_counter()
    script = folder / "bench_child.py"
    script.write_text(CHILD, encoding="utf-8")  # Kivy's App wants a real script, not -c
    child = subprocess.Popen(
        [sys.executable, str(script), str(folder)], stdout=subprocess.PIPE, text=True, env=env
    )
    assert child.stdout is not None
    first = rss = 0.0
    for line in child.stdout:
        if line.startswith("first-frame"):
            first = time.perf_counter() - start
        elif line.startswith("peak-rss-kb"):
            rss = int(line.split()[1]) / 1024
    child.wait(timeout=60)
    return first, rss


def report(firsts: list[float], rss: float) -> str:
    """The figures in the reader's language (``SPLENDOR_LANG``, else the locale's)."""
    lines = [
        _("Splendor Companion app benchmark (headless, {size})").format(size="800x480"),
        ngettext(
            "process start to the first frame, {n} start: median {median} s, max {max} s",
            "process start to the first frame, {n} starts: median {median} s, max {max} s",
            len(firsts),
        ).format(
            n=number(len(firsts)),
            median=number(statistics.median(firsts), 2),
            max=number(max(firsts), 2),
        ),
        _("peak memory (RSS) with a 4-player game on screen: {rss} MB").format(rss=number(rss)),
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    # Its options first: ``--help`` says what it does instead of running it for a minute.
    with command_line(
        "python -m ui.bench",
        _(
            "The app's start (process start to the first frame, 5 starts) and its peak "
            "memory with a 4-player game on screen, headless."
        ),
    ) as parser:
        parser.parse_args(argv)
    # The app it starts reads Kivy's files and its data folder from the environment: a
    # kiosk's SPLENDOR_DATA_DIR would have it play in the family's journal.
    scratch.enter("splendor-ui-bench-")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        prepare_data(folder)
        run_once(folder)  # the first start compiles and caches: not what a kiosk sees daily
        runs = [run_once(folder) for _start in range(5)]
    print(report([r[0] for r in runs], max(r[1] for r in runs)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
