"""Screenshots of the real app and what is read from them: the QR code a phone's camera
reads, the tag of a picture's window and language, and legibility at the kiosk's size."""

from __future__ import annotations

import re
from pathlib import Path

import zxingcpp
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.slider import Slider
from PIL import Image

from companion import i18n
from ui.screens.listing import Row

from .conftest import WINDOW
from .driver import Driver


def screenshot(d: Driver, folder: Path, name: str) -> Path:
    """The window as a PNG in ``folder`` (a test's own: the suite writes no tracked file)."""
    return d.screenshot_to(folder / f"{name}.png")


def decode_qr(png: Path) -> str:
    """What a phone's camera reads from the screenshot: exactly one QR code."""
    found = zxingcpp.read_barcodes(Image.open(png).convert("L"))
    codes = [b.text for b in found if b.format == zxingcpp.BarcodeFormat.QRCode]
    assert len(codes) == 1, f"QR codes read from {png.name}: {codes}"
    return codes[0]


def tag() -> str:
    """``800x480-fr``: the window and the language of a screenshot."""
    return f"{WINDOW}-{i18n.language()}"


def assert_legible(d: Driver) -> None:
    """At the kiosk's size: no text under 14 px, every tap target 44x44 px or more."""
    for widget in d.walk():
        if isinstance(widget, Label) and widget.text and widget.opacity:
            assert widget.font_size >= 14, (widget.text, widget.font_size)
        if isinstance(widget, Button | Row | Slider) and not widget.disabled:
            assert min(widget.width, widget.height) >= 44, (widget, widget.size)


def row_text(row: Row) -> list[str]:
    """The texts of a listing's row, cell by cell."""
    return [label.text for label in row.cells]


def figures(row: Row) -> list[str]:
    """A statistics row's name, then its figures without the titles a card gives them
    ("Wins: 3" on a portrait or 3.5-inch screen reads ``3``), each on one line."""
    first, *rest = row_text(row)
    return [first, *(re.sub(r"^[^:]*?\s?:\s", "", t).replace("\n", ", ") for t in rest)]
