"""The rows of the on-screen keyboards, in the reader's language: AZERTY in French, Å Ä Ö on the
Swedish rows, and every accented letter of the five languages one tap away.

Two keyboards use these rows. The new-game screen's own keys (names, in capitals:
:func:`name_rows`), and Kivy's VKeyboard, which a text field brings up at the kiosk
(``keyboard_mode = dock``): :mod:`ui.keyboard` shows the layout of the app's language,
``ui/keyboards/<language>.json`` in Kivy's layout format, written from the rows below by
``python -m ui.keyboard_layouts`` (no Kivy needed; a test checks the files agree).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion import i18n

FOLDER = Path(__file__).with_name("keyboards")

# The letter rows of each keyboard a table's players know, small letters.
LETTERS: dict[str, tuple[str, ...]] = {
    "qwerty": ("qwertyuiop", "asdfghjkl", "zxcvbnm"),
    "azerty": ("azertyuiop", "qsdfghjklm", "wxcvbn"),
    "swedish": ("qwertyuiopå", "asdfghjklöä", "zxcvbnm"),
}
KEYBOARD_OF = {"en": "qwerty", "fr": "azerty", "it": "qwerty", "pt": "qwerty", "sv": "swedish"}

# Every accented letter of French, Italian, Portuguese and Swedish words and names (with
# the neighbours' æ ø ñ): the accent layer, three rows as the letters'.
ACCENTS = ("àáâãäåæçèé", "êëìíîïñòóô", "õöøœùúûüÿ")
# The new-game screen's letters: ten keys a row, with the ' and - of names. A Swedish
# table finds Å Ä Ö first in the row of its own accents.
NAME_LETTERS = {
    "qwerty": ("QWERTYUIOP", "ASDFGHJKL'", "ZXCVBNM-"),
    "azerty": ("AZERTYUIOP", "QSDFGHJKLM", "WXCVBN'-"),
}
# The language's own accents, in the new-game screen's fourth row, one tap each: eight,
# beside the key to every accent (two keys wide).
OWN_ACCENTS = {
    "en": "ÉÈÇÑÜÖÄÅ",
    "fr": "ÉÈÀÇÊËÏÔ",
    "it": "ÀÈÉÌÒÙÍÓ",
    "pt": "ÃÇÉÊÁÍÓÚ",
    "sv": "ÅÄÖÉÜÆØ",
}

COLUMNS = 11  # key widths per row: 11 keys fit 480 px at the 36 px floor
SHIFTED = {"-": "_", "'": '"', ".": ":", "/": "\\", ",": ";"}
# Each letter row is filled to the full width with these, in this order.
FILL = (("-", "_"), ("'", ":"), (".", "/", ","))
SHIFT_WIDTH = 2
BACKSPACE, ENTER, SHIFT, SPACE = "\u232b", "\u23ce", "\u21e7", " "
ACCENT_KEY, LETTER_KEY = "àé", "abc"


def keyboard_of(language: str) -> str:
    return KEYBOARD_OF.get(language, "qwerty")


# ---------------------------------------------------------------- the new-game screen


def name_rows(language: str, accents: bool = False) -> list[str]:
    """The new-game screen's keys for ``language``, in capitals as names start: three
    rows of letters (or of every accent, ``accents``), then the language's own accents."""
    if accents:
        rows = [row.upper() for row in ACCENTS]
    else:
        rows = list(NAME_LETTERS.get(keyboard_of(language), NAME_LETTERS["qwerty"]))
    return [*rows, OWN_ACCENTS.get(language, OWN_ACCENTS["en"])]


# ---------------------------------------------------------------- Kivy's VKeyboard


def _key(text: str, width: float = 1) -> list[Any]:
    return [text, text, None, width]


def _rows(letters: tuple[str, ...], shifted: bool) -> list[list[list[Any]]]:
    """The five rows of one mode: digits, three rows of letters, space."""
    digits = [_key(d) for d in "1234567890"] + [[BACKSPACE, None, "backspace", 1]]
    rows: list[list[list[Any]]] = [digits]
    for n, row in enumerate(letters, start=1):
        keys: list[list[Any]] = []
        if n == 3:
            keys.append([SHIFT, None, "shift", SHIFT_WIDTH])
        keys += [_key(c.upper() if shifted else c) for c in row]
        fill = iter(FILL[n - 1])
        while sum(k[3] for k in keys) < COLUMNS:
            mark = next(fill)
            keys.append(_key(SHIFTED.get(mark, mark) if shifted else mark))
        rows.append(keys)
    return rows


def _bottom(toggle: str) -> list[list[Any]]:
    return [
        [toggle, None, "special", 2],
        [SPACE, SPACE, "spacebar", COLUMNS - 4],
        [ENTER, None, "enter", 2],
    ]


def layout(language: str) -> dict[str, Any]:
    """The VKeyboard layout of ``language``: letters (``normal``, ``shift``) and the
    accent layer (``special``, ``special_shift``), five rows of 11 keys each."""
    letters = LETTERS[keyboard_of(language)]
    found: dict[str, Any] = {
        "title": i18n.language_name(language),
        "description": f"{keyboard_of(language)} with the accents of every language",
        "cols": COLUMNS,
        "rows": 5,
    }
    for mode, rows, shifted, toggle in (
        ("normal", letters, False, ACCENT_KEY),
        ("shift", letters, True, ACCENT_KEY.upper()),
        ("special", ACCENTS, False, LETTER_KEY),
        ("special_shift", ACCENTS, True, LETTER_KEY.upper()),
    ):
        for n, row in enumerate([*_rows(rows, shifted), _bottom(toggle)], start=1):
            found[f"{mode}_{n}"] = row
    return found


def path(language: str) -> Path:
    return FOLDER / f"{language}.json"


def write_layouts() -> None:
    """Write ``ui/keyboards/<language>.json`` for every language (``python -m ui.keyboard``)."""
    FOLDER.mkdir(exist_ok=True)
    for language in i18n.LANGUAGES:
        path(language).write_text(layout_text(language), encoding="utf-8")


def layout_text(language: str) -> str:
    """The layout file's text: one row a line, to read and to compare."""
    fields = (
        f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}"
        for k, v in layout(language).items()
    )
    return "{\n" + ",\n".join(fields) + "\n}\n"


if __name__ == "__main__":
    write_layouts()
