"""The command line's parser in the reader's language: argparse's own words, the defaults
shown in ``--help``, and the options every command takes (before or after its name).

argparse looks its words up through ``gettext`` in its own module at the moment it speaks;
:func:`in_language` points those look-ups at our catalogs while the command line is read,
so "usage:", "options" and its errors read in the language of ``--lang``.
"""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from . import i18n
from .i18n import N_, _, ngettext
from .paths import DATA_DIR_VARIABLE

# argparse's words a person reads (Python 3.11 to 3.13), for the catalogs.
ARGPARSE_WORDS = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("unrecognized arguments: %s"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("can't open '%(filename)s': %(error)s"),
)


def _argparse_ngettext(singular: str, plural: str, n: int) -> str:
    # The one plural argparse says ("expected 2 arguments"), named here for the catalogs.
    if singular == "expected %s argument":
        return ngettext("expected %s argument", "expected %s arguments", n)
    return ngettext(singular, plural, n)


@contextmanager
def in_language() -> Iterator[None]:
    """argparse speaks through our catalogs (in the current language) inside the block."""
    saved = argparse._, argparse.ngettext  # type: ignore[attr-defined]
    argparse._ = i18n.translate  # type: ignore[attr-defined]
    argparse.ngettext = _argparse_ngettext  # type: ignore[attr-defined]
    try:
        yield
    finally:
        argparse._, argparse.ngettext = saved  # type: ignore[attr-defined]


class Formatter(argparse.HelpFormatter):
    """Help that shows each option's default (translated), as ``--help`` readers expect,
    and headings written the language's way ("options :" in French)."""

    def start_section(self, heading: str | None) -> None:
        # argparse writes "heading:" itself; the catalogs say how a heading meets its
        # colon ("{heading}\u00a0:" in French), and argparse's own colon ends it.
        if heading:
            heading = _("{heading}:").format(heading=heading).removesuffix(":")
        super().start_section(heading)

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        default = action.default
        shown = default not in (None, False, argparse.SUPPRESS) and action.option_strings
        if shown and "%(default)" not in text:
            # argparse fills %(default)s in; a literal % of a translation must be doubled.
            text = f"{text} ({_('default: {value}').format(value='%(default)s')})"
        return text


@contextmanager
def command_line(prog: str, description: str) -> Iterator[argparse.ArgumentParser]:
    """The parser of a module run on its own (``python -m ui.bench``: the benchmarks and
    their helpers), to fill and read inside the block: its help and its errors, argparse's
    own words (usage, -h) too, in the reader's language, each default shown."""
    with in_language():
        yield argparse.ArgumentParser(prog=prog, description=description, formatter_class=Formatter)


def language_in(argv: Sequence[str]) -> str | None:
    """The ``--lang`` of a command line, wherever it stands (the last one, as argparse
    keeps), so that the parser itself (its help texts) is built in that language. An
    unknown one is left to argparse to refuse.

    >>> language_in(["--lang", "fr", "export", "--lang=it", "1"]), language_in(["games"])
    ('it', None)
    """
    found = None
    for i, word in enumerate(argv):
        if word == "--":
            break
        value = None
        if word == "--lang" and i + 1 < len(argv):
            value = i18n.language_code(argv[i + 1])
        elif word.startswith("--lang="):
            value = i18n.language_code(word.split("=", 1)[1])
        if value in i18n.LANGUAGES:
            found = value
    return found


THINK_RANGE = (0.01, 60.0)
"""``simulate --think``: seconds of a Raspberry Pi 4 per decision. From 0.015 s down, the
hard level searches its fewest playouts (6) all the same; above a minute a decision, a
simulated game takes hours."""


def think_seconds(text: str) -> float:
    """The ``--think`` of ``simulate``: a number of seconds within :data:`THINK_RANGE` (not
    ``nan``, ``inf``, 0 or below, which would end in a traceback, a record that cannot be
    played again, or a game that never ends).

    >>> think_seconds("0.5")
    0.5
    >>> think_seconds("nan")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: give a number of seconds from 0.01 to 60, not 'nan'
    """
    low, high = THINK_RANGE
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not low <= value <= high:  # false for nan too
        raise argparse.ArgumentTypeError(
            _("give a number of seconds from {low} to {high}, not {text}").format(
                low=i18n.number(low, 2), high=i18n.number(high), text=repr(text[:20])
            )
        )
    return value


def whole_number(low: int, high: int) -> Callable[[str], int]:
    """An option's type: a whole number from ``low`` to ``high``, refused in one line that
    says the range (argparse's ``choices=range(...)`` would list every allowed value).

    >>> whole_number(1, 100)("20")
    20
    >>> whole_number(1, 100)("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: give a whole number from 1 to 100, not '0'
    """

    def read(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = low - 1
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(
                _("give a whole number from {low} to {high}, not {text}").format(
                    low=i18n.number(low), high=i18n.number(high), text=repr(text[:20])
                )
            )
        return value

    return read


def add_common(parser: argparse.ArgumentParser, *, top: bool) -> None:
    """``--lang`` and ``--data-dir``: on the program, and again on each command (so they
    may follow its name) without a default there, which would hide the program's."""
    default: Any = None if top else argparse.SUPPRESS
    parser.add_argument(
        "--lang",
        # pt_BR, pt-BR and pt_BR.UTF-8 are pt, as a locale names it.
        type=i18n.language_code,
        choices=i18n.LANGUAGES,
        default=default,
        help=_("language of messages"),
    )
    parser.add_argument(
        "--data-dir",
        default=default,
        metavar=_("FOLDER"),
        help=_("where games are kept (overrides the SPLENDOR_DATA_DIR environment variable)"),
    )


@contextmanager
def common_options(args: argparse.Namespace) -> Iterator[None]:
    """What the common options change, for the run of one command."""
    if args.lang:
        i18n.set_language(args.lang)
    saved = os.environ.get(DATA_DIR_VARIABLE)
    if args.data_dir:
        # An explicit option beats the environment: every part of the run (the store, the
        # RFID tag map, the app) finds its folder through this variable.
        os.environ[DATA_DIR_VARIABLE] = os.path.abspath(os.path.expanduser(args.data_dir))
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop(DATA_DIR_VARIABLE, None)
        else:
            os.environ[DATA_DIR_VARIABLE] = saved
