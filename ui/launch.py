"""Launching the touchscreen app: ``splendor-companion`` with no command. Its options
(``--size``, ``--fullscreen``, ``--demo``), Kivy's settings made before Kivy is imported,
and the start of :class:`ui.application.CompanionApp` (the app itself: its screens,
settings and hardware).

Kivy is imported only here and below, and only once the window options are known: Kivy
reads its configuration at import time.
"""

from __future__ import annotations

import argparse
import os
import sys

from companion.cli import data_folder
from companion.errors import CompanionError, ErrorCode, TextError

SMALLEST = 100
"""The fewest pixels of a window's side: below, no screen of the app can be laid out."""


def _whole(text: str) -> bool:
    """A whole number of pixels, as a person writes one (ASCII digits, five at most)."""
    return text.isascii() and text.isdigit() and len(text) <= 5


def window_size(text: str | None) -> tuple[int, int]:
    """``"800x480"`` as numbers; :class:`TextError` (:attr:`~ErrorCode.BAD_SETTING`) saying
    the rule for anything else."""
    parts = (text or "800x480").lower().split("x")
    if len(parts) != 2 or not all(_whole(p.strip()) for p in parts):
        raise TextError(
            ErrorCode.BAD_SETTING,
            "write the window's size as WIDTHxHEIGHT in pixels, like 800x480, not {size}",
            size=(text or "")[:20],
        )
    size = int(parts[0]), int(parts[1])
    if min(size) < SMALLEST:
        raise TextError(
            ErrorCode.BAD_SETTING,
            "{size} is too small: a window is at least {least} pixels wide and high",
            size=(text or "")[:20],
            least=SMALLEST,
        )
    return size


def size_option(text: str) -> str:
    """``--size``, checked as the command line is read (with a command too, which then
    refuses it): the rule it breaks, said whole.

    >>> size_option("1024x600")
    '1024x600'
    """
    try:
        window_size(text)
    except TextError as err:
        raise argparse.ArgumentTypeError(err.message) from None
    return text


def prepare_kivy(size: str | None, fullscreen: bool) -> None:
    """Set what Kivy must know before its first import (window size, no argv parsing)."""
    width, height = window_size(size)
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    from kivy.config import Config

    Config.set("kivy", "exit_on_escape", "0")
    if fullscreen:
        # The kiosk's touch input is configured by deploy.sh ([input] of Kivy's config);
        # adding a mouse provider here would make every tap arrive twice.
        Config.set("graphics", "fullscreen", "auto")
        Config.set("graphics", "show_cursor", "0")
        # No keyboard at the kiosk: a text field in the settings brings up Kivy's own, in
        # the app's language (ui/keyboard.py).
        Config.set("kivy", "keyboard_mode", "dock")
    else:
        Config.set("input", "mouse", "mouse,multitouch_on_demand")  # no red dots on right-click
        Config.set("graphics", "fullscreen", "0")
        Config.set("graphics", "width", str(int(width)))
        Config.set("graphics", "height", str(int(height)))


def register(parser: argparse.ArgumentParser) -> None:
    """The app's options on the program itself: with no command, the app runs
    (``splendor_companion.program`` asks; nothing of Kivy is imported until the app starts)."""
    from companion.i18n import translate as _

    parser.add_argument("--fullscreen", action="store_true", help=_("app: fill the screen"))
    parser.add_argument(
        "--size",
        type=size_option,
        metavar=_("WIDTHxHEIGHT"),
        help=_("app: window size (default: 800x480)"),
    )
    parser.add_argument(
        "--demo",
        nargs="?",
        const=3,
        type=int,
        choices=(2, 3, 4),
        metavar=_("PLAYERS"),
        help=_("app: open a game in progress (3 players, or 2 or 4)"),
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Start the app (called by the command line)."""
    from companion.i18n import translate

    try:
        if not args.demo:  # the demo plays in a journal of its own
            # The app stores every move: a --data-dir that does not exist is made, and
            # said (a typo shows as a line, not as a table with "No games yet."); a
            # file there is refused as the commands refuse it. Said before Kivy is
            # prepared: Kivy takes stderr for its log.
            data_folder(args, writes=True)
        prepare_kivy(args.size, args.fullscreen)
    except CompanionError as err:
        print(err.message, file=sys.stderr)
        return 2
    except ImportError as err:  # Kivy is not installed
        message = translate(
            "The touchscreen app cannot start: {reason}. Install it with the first command "
            "of README.md."
        )
        print(message.format(reason=err), file=sys.stderr)
        return 2
    # Kivy's own log goes to a file only: say where, and what a silent terminal means,
    # before the window is made (which can take seconds where there is no display).
    # (sys.__stderr__: Kivy sends sys.stderr to its log file once imported.)
    terminal = sys.__stderr__ or sys.stderr
    print(starting(args.fullscreen), file=terminal, flush=True)
    try:
        from .application import CompanionApp

        app = CompanionApp(data_dir=args.data_dir, language=args.lang, demo=args.demo or 0)
        app.run()
    except KeyboardInterrupt:  # Ctrl-C in the terminal: every move is already journaled
        said = (
            # The demo plays in a temporary journal, dropped when it ends.
            translate("Stopped. The demo's game is not kept.")
            if args.demo
            else translate("Stopped. Every move was saved as it was played.")
        )
        print(said, file=terminal)
        return 130  # 128 + SIGINT, as every command (companion.interrupt)
    return 0


def starting(fullscreen: bool) -> str:
    """What the terminal says as the app starts: where its log is, how to stop it, and,
    with no display to show it on, that the window is drawn where nobody sees it."""
    import kivy
    from kivy.config import Config

    from companion.i18n import translate

    folder = os.path.join(kivy.kivy_home_dir, Config.get("kivy", "log_dir"))
    lines = [
        translate("The touchscreen app is running (Ctrl-C stops it); its log: {folder}").format(
            folder=folder
        )
    ]
    graphical = os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    console = fullscreen or os.environ.get("SDL_VIDEODRIVER") in ("kmsdrm", "offscreen")
    if not graphical and not console:
        lines.append(
            translate(
                "No desktop display was found (DISPLAY is not set): the window is drawn where "
                "nobody sees it. On the Pi, add --fullscreen to draw on its screen; to look at "
                "it elsewhere, see README.md (a first look, headless)."
            )
        )
    return "\n".join(lines)
