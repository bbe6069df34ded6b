"""A QR code drawn by the app: crisp square modules, as large as its place allows.

segno makes the code; its modules become a texture of one pixel per module, drawn with
nearest-neighbour scaling at a whole number of screen pixels per module, so every module
is the same size and edges stay sharp: what a phone's camera needs to read it from a chair.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import segno
from kivy.clock import Clock
from kivy.graphics import Color, Rectangle
from kivy.graphics.texture import Texture
from kivy.properties import StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.widget import Widget

QUIET_ZONE = 4  # modules of white around the code, as the QR standard asks


@lru_cache(maxsize=16)
def modules(text: str) -> tuple[tuple[bool, ...], ...]:
    """The code's dark (``True``) and light modules, quiet zone included, top row first.

    The lowest error correction that fits keeps the code small; segno raises it for free
    when the data leaves room in the same version. Kept for the texts last drawn: the
    end screen draws its code again whenever the window changes.
    """
    code = segno.make(text, error="l", micro=False, boost_error=True)
    return tuple(
        tuple(bool(m) for m in row) for row in code.matrix_iter(scale=1, border=QUIET_ZONE)
    )


def texture_of(rows: Sequence[Sequence[bool]]) -> Texture:
    size = len(rows)
    texture = Texture.create(size=(size, size), colorfmt="rgba")
    texture.mag_filter = "nearest"
    texture.min_filter = "nearest"
    data = bytearray()
    for row in reversed(rows):  # a texture's first row is the bottom one
        for dark in row:
            data += b"\x00\x00\x00\xff" if dark else b"\xff\xff\xff\xff"
    texture.blit_buffer(bytes(data), colorfmt="rgba", bufferfmt="ubyte")
    return texture


class QRCode(ButtonBehavior, Widget):
    """``text`` as a QR code, centred, at the largest whole scale that fits."""

    text = StringProperty("")

    def __init__(self, **kw: Any) -> None:
        self._texture: Texture | None = None
        self._size = 0
        self.redraw_soon = Clock.create_trigger(lambda dt: self.redraw(), -1)
        super().__init__(**kw)
        self.bind(pos=self.redraw_soon, size=self.redraw_soon, text=self._rebuild)
        self._rebuild()

    def _rebuild(self, *_: Any) -> None:
        self._texture, self._size = None, 0
        if self.text:
            try:
                rows = modules(self.text)
            except segno.DataOverflowError:
                # More than a QR code holds (names from a stranger's record, say): no
                # code, and ``fits`` lets the screen say what to do instead.
                pass
            else:
                self._texture, self._size = texture_of(rows), len(rows)
        self.redraw_soon()

    @property
    def fits(self) -> bool:
        """The text is drawn: it was short enough for a QR code."""
        return self._texture is not None or not self.text

    @property
    def module_px(self) -> int:
        """Screen pixels per module, as drawn now (0: nothing to draw)."""
        if not self._size:
            return 0
        return max(1, int(min(self.width, self.height) // self._size))

    @property
    def side(self) -> int:
        """The code's side on the screen, in pixels, as drawn now (0: nothing drawn)."""
        return self.module_px * self._size

    def redraw(self, *_: Any) -> None:
        self.canvas.clear()
        if self._texture is None:
            return
        side = self.side
        # Whole pixels: a module that straddles two screen pixels would blur its edge.
        x = int(self.center_x - side / 2)
        y = int(self.center_y - side / 2)
        with self.canvas:
            Color(1, 1, 1, 1)
            Rectangle(texture=self._texture, pos=(x, y), size=(side, side))
