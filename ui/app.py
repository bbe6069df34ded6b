"""The touchscreen app: ``splendor-companion`` with no command.

Kivy is imported only here and below, and only once the window options are known: Kivy
reads its configuration at import time.
"""

from __future__ import annotations

import argparse
import os
import sys


def window_size(text: str | None) -> tuple[int, int]:
    """``"800x480"`` as numbers; ``ValueError`` for anything else."""
    width, height = (text or "800x480").lower().split("x")
    size = int(width), int(height)
    if min(size) < 100:
        raise ValueError(text)
    return size


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
        # No keyboard at the kiosk: a text field in the settings brings up Kivy's own.
        Config.set("kivy", "keyboard_mode", "dock")
    else:
        Config.set("input", "mouse", "mouse,multitouch_on_demand")  # no red dots on right-click
        Config.set("graphics", "fullscreen", "0")
        Config.set("graphics", "width", str(int(width)))
        Config.set("graphics", "height", str(int(height)))


def register(parser: argparse.ArgumentParser) -> None:
    """The app's options on the program itself: with no command, the app runs
    (``companion.cli`` asks; nothing of Kivy is imported until the app starts)."""
    from companion.i18n import translate as _

    parser.add_argument("--fullscreen", action="store_true", help=_("app: fill the screen"))
    parser.add_argument(
        "--size", metavar=_("WIDTHxHEIGHT"), help=_("app: window size (default: 800x480)")
    )
    parser.add_argument("--demo", action="store_true", help=_("app: open a game in progress"))
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Start the app (called by the command line)."""
    from companion.i18n import translate

    try:
        prepare_kivy(args.size, args.fullscreen)
    except ValueError:
        message = translate("--size takes WIDTHxHEIGHT, like 800x480, not {size}")
        print(message.format(size=args.size), file=sys.stderr)
        return 2
    except ImportError as err:  # Kivy is not installed
        message = translate(
            "The touchscreen app cannot start: {reason}. Install it with the first command "
            "of README.md."
        )
        print(message.format(reason=err), file=sys.stderr)
        return 2
    from .application import CompanionApp

    app = CompanionApp(data_dir=args.data_dir, language=args.lang, demo=args.demo)
    app.run()
    return 0
