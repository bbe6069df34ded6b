"""The table's web page, found from the kiosk: its address and a small QR code holding
only that address, on the start and end screens (``web.address`` says whether it is
served, and where)."""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout

from web.address import page_url

from . import theme
from .i18n import tr
from .layout import fit_label, gap, row_height
from .qr import QRCode
from .scale import SCALE

HEIGHT = 76  # px at 800x480: a code a phone reads from a chair, two lines beside it


def address(enabled: bool) -> str | None:
    """The page's address when it is ``enabled`` (the ``web`` setting) and served."""
    return page_url(enabled)


class WebAddress(BoxLayout):
    """``url`` as a QR code, and the words that say what it is."""

    def __init__(self, url: str, **kw: Any) -> None:
        self.url = url
        self.qr = QRCode(text=url, size_hint=(None, None))
        # The code at the least size a phone reads it (``ui/qr.py``), where that leaves the
        # screen's buttons their room (a quarter of the height); else a button in its place
        # that shows it over the whole screen.
        side = row_height(HEIGHT)
        least = self.qr.least_side()
        if least <= SCALE.height / 4:
            side = max(side, least)
            self.qr.size = (side, side)
        else:
            self.qr.size = (2 * side, side)
        super().__init__(spacing=gap(8), size_hint_y=None, height=side, **kw)
        self.add_widget(self.qr)
        words = BoxLayout(orientation="vertical")
        words.add_widget(fit_label(tr("The table on your phone:"), font=16, color=theme.TEXT_DIM))
        words.add_widget(fit_label(url, font=18, color=theme.ACCENT, bold=True))
        self.add_widget(words)
