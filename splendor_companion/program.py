"""The whole command line: the core's commands (:mod:`companion.cli`), the app's options
(with no command, the app runs: :mod:`ui.launch`), the RFID commands (:mod:`hardware.cli`),
the web page (:mod:`web.cli`) and ``doctor`` (:mod:`hardware.doctor`). None adds anything
at import: Kivy, pyserial, evdev, aiohttp and Jinja2 are imported only when what needs them
runs, which says what is missing and how to install it.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from companion import cli


def app(parser: argparse.ArgumentParser, sub: object) -> None:
    """The app's options on the program itself; with no command, the app."""
    from ui.launch import register

    register(parser)


def hardware(parser: argparse.ArgumentParser, sub: object) -> None:
    """``rfid monitor|enroll``."""
    from hardware.cli import register

    register(sub, cli.command)


def web(parser: argparse.ArgumentParser, sub: object) -> None:
    """``serve``: the table's read-only web page."""
    from web.cli import register

    register(sub, cli.command)


def doctor(parser: argparse.ArgumentParser, sub: object) -> None:
    """``doctor``: the display, touchscreen, reader, GPIO, journal and web page checked."""
    from hardware.doctor import register

    register(sub, cli.command)


EXTENSIONS: tuple[cli.Extension, ...] = (app, hardware, web, doctor)


def main(argv: Sequence[str] | None = None) -> int:
    return cli.main(argv, extensions=EXTENSIONS)


def build_parser() -> argparse.ArgumentParser:
    """The whole program's parser (for tests and the help)."""
    return cli.build_parser(EXTENSIONS)
