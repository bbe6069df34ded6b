"""The QR codes on screen, read back as a phone's camera would: each code's square cut from
a screenshot of the window and decoded by zxing-cpp. A code drawn at fewer than three
pixels a module is no code at all but a button (``ui/qr.py``): it is tapped, and the code
it opens over the screen is read instead."""

from __future__ import annotations

from pathlib import Path

import zxingcpp
from kivy.core.window import Window
from kivy.uix.modalview import ModalView
from PIL import Image

from ui.qr import MIN_MODULE_PX, QRCode

from .driver import Driver
from .legible import shown


def on_screen(d: Driver) -> list[QRCode]:
    return [w for w in d.top().walk(restrict=True) if isinstance(w, QRCode) and shown(w)]


def decoded(png: Path, code: QRCode) -> list[str]:
    """The QR codes zxing-cpp reads in ``code``'s square of the screenshot ``png``."""
    picture = Image.open(png).convert("L")
    assert picture.size == tuple(Window.size), (picture.size, Window.size)
    x, y = code.to_window(code.x, code.y)
    box = (
        int(x),
        int(Window.height - y - code.height),
        int(x + code.width),
        int(Window.height - y),
    )
    found = zxingcpp.read_barcodes(picture.crop(box))
    return [b.text for b in found if b.format == zxingcpp.BarcodeFormat.QRCode]


def faults(d: Driver, folder: Path, where: str) -> list[str]:
    """What a phone cannot read among the codes shown now: each code is decoded from a
    screenshot at :data:`MIN_MODULE_PX` or more, or is a button whose code, opened over the
    screen, is."""
    size = f"{Window.width}x{Window.height}"
    name = f"{where}-{size}".replace(" ", "-").replace(",", "")
    found: list[str] = []
    codes = [c for c in on_screen(d) if c.text and c.fits]
    png = d.screenshot_to(folder / f"{name}.png") if codes else None
    for n, code in enumerate(codes):
        if code.readable:
            assert png is not None
            read = decoded(png, code)
            if read != [code.text]:
                found.append(f"{where} at {size}: {code.text[:40]!r} read as {read}")
            continue
        code.dispatch("on_release")  # a button: the code over the whole screen
        d.frames(2)
        view = d.top()
        big = [c for c in view.walk(restrict=True) if isinstance(c, QRCode)]
        if not isinstance(view, ModalView) or len(big) != 1:
            found.append(f"{where} at {size}: the code's button opens no code")
            continue
        if big[0].module_px < MIN_MODULE_PX:
            found.append(f"{where} at {size}: enlarged, {big[0].module_px} px a module")
        read = decoded(d.screenshot_to(folder / f"{name}-{n}-enlarged.png"), big[0])
        if read != [code.text]:
            found.append(f"{where} at {size}: enlarged {code.text[:40]!r} read as {read}")
        view.dismiss()
        d.frames(2)
    return found
