"""The on-screen keyboards' rows: each language's own keyboard (AZERTY in French), every
letter of the five languages reachable on each, and the shipped layout files in step."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from companion.i18n import LANGUAGES
from ui import keyboard_layouts as kl

ROOT = Path(__file__).resolve().parent.parent
# Every letter the five languages write, with the neighbours' the accent layer adds.
LETTERS = "abcdefghijklmnopqrstuvwxyz" + "àâæçéèêëîïôœùûüÿ" + "àèéìòù" + "áâãàçéêíóôõú" + "åäöé"


def typed(layout: dict[str, object], mode: str) -> set[str]:
    return {
        key[1]
        for name, row in layout.items()
        if name.startswith(f"{mode}_") and name[len(mode) + 1 :].isdigit()
        for key in row  # type: ignore[attr-defined]
        if key[1]
    }


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_keyboard_types_every_letter_of_the_five_languages(language: str) -> None:
    layout = kl.layout(language)
    small = typed(layout, "normal") | typed(layout, "special")
    capitals = typed(layout, "shift") | typed(layout, "special_shift")
    assert set(LETTERS) <= small
    assert set(LETTERS.upper()) <= capitals
    assert set("0123456789/-_.:") <= small | capitals  # a port: /dev/ttyUSB0
    for name in layout:
        if name[-1].isdigit():  # every row as wide as the keyboard: no ragged edge
            assert sum(key[3] for key in layout[name]) == kl.COLUMNS, (language, name)


@pytest.mark.parametrize(
    ("language", "first"),
    [("en", "qwertyuiop"), ("fr", "azertyuiop"), ("it", "qwertyuiop"), ("sv", "qwertyuiopå")],
)
def test_the_letters_are_where_the_language_has_them(language: str, first: str) -> None:
    row = "".join(key[1] for key in kl.layout(language)["normal_2"] if key[1].isalpha())
    assert row == first
    names = kl.name_rows(language)
    assert names[0].startswith(first[:10].upper())


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_new_game_keys_reach_every_capital_in_ten_keys_a_row(language: str) -> None:
    plain, accents = kl.name_rows(language), kl.name_rows(language, accents=True)
    assert all(len(row) <= 10 for row in plain + accents)  # 44 px keys at 800x480
    assert len(plain[-1]) <= 8  # and the key to every accent, two keys wide
    assert set(LETTERS.upper()) <= set("".join(plain + accents))
    assert "'" in "".join(plain) and "-" in "".join(plain)  # d'Artagnan, Jean-Luc


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_shipped_layout_files_are_the_rows_above(language: str) -> None:
    shipped = kl.path(language)
    assert shipped.read_text(encoding="utf-8") == kl.layout_text(language), (
        "run python -m ui.keyboard_layouts"
    )
    assert json.loads(shipped.read_text(encoding="utf-8")) == kl.layout(language)


def test_the_layout_files_are_installed_with_the_package() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    data = project["tool"]["setuptools"]["package-data"]["ui"]
    assert kl.FOLDER.name + "/*.json" in data
