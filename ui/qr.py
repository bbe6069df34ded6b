"""A QR code drawn by the app: crisp square modules, as large as its place allows.

segno makes the code; its modules become a texture of one pixel per module, drawn with
nearest-neighbour scaling at a whole number of screen pixels per module, so every module
is the same size and edges stay sharp: what a phone's camera needs to read it from a chair.

A phone reads a code from a screenshot-sized picture only at three screen pixels a module
or more (:data:`MIN_MODULE_PX`; tests/gui reads every code back with zxing-cpp). Where the
place a screen gives a code is too small for that (a long BG Stats link on a 3.5-inch
screen), the code is not drawn as a blur of single pixels: its place becomes a button,
"Show the QR code", that opens it over the whole screen (:func:`enlarge`), where it reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import segno
from kivy.clock import Clock
from kivy.graphics import Color, Rectangle
from kivy.graphics.texture import Texture
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.widget import Widget

from . import theme
from .i18n import tr
from .layout import fit_font
from .scale import SCALE

QUIET_ZONE = 4  # modules of white around the code, as the QR standard asks
MIN_MODULE_PX = 3  # screen pixels a module, the least a phone's camera reads reliably


@lru_cache(maxsize=16)
def modules(text: str, border: int = QUIET_ZONE) -> tuple[tuple[bool, ...], ...]:
    """The code's dark (``True``) and light modules, quiet zone included, top row first.

    The lowest error correction that fits keeps the code small; segno raises it for free
    when the data leaves room in the same version. Kept for the texts last drawn: the
    end screen draws its code again whenever the window changes.
    """
    code = segno.make(text, error="l", micro=False, boost_error=True)
    return tuple(tuple(bool(m) for m in row) for row in code.matrix_iter(scale=1, border=border))


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
    # Modules of white drawn around the code: the standard's four, fewer where the code's
    # surroundings are white already (:func:`enlarge`).
    border = NumericProperty(QUIET_ZONE)

    def __init__(self, **kw: Any) -> None:
        self._texture: Texture | None = None
        self._size = 0
        self.redraw_soon = Clock.create_trigger(lambda dt: self.redraw(), -1)
        # The words shown instead of a code too small to read (a button's look).
        self.instead = Label(halign="center", valign="middle", color=theme.TEXT, bold=True)
        super().__init__(**kw)
        self.bind(
            pos=self.redraw_soon, size=self.redraw_soon, text=self._rebuild, border=self._rebuild
        )
        self._rebuild()

    def _rebuild(self, *_: Any) -> None:
        self._texture, self._size = None, 0
        if self.text:
            try:
                rows = modules(self.text, int(self.border))
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
    def readable(self) -> bool:
        """The code is drawn at :data:`MIN_MODULE_PX` or more: a phone reads it here."""
        return self.module_px >= MIN_MODULE_PX

    def least_side(self) -> int:
        """The smallest square in which the code reads (0: nothing to draw)."""
        return MIN_MODULE_PX * self._size

    @property
    def side(self) -> int:
        """The code's side on the screen, in pixels, as drawn now (0: nothing drawn)."""
        return self.module_px * self._size

    def on_release(self) -> None:
        """A code too small to read here opens over the whole screen."""
        if self._texture is not None and not self.readable:
            enlarge(self.text)

    def redraw(self, *_: Any) -> None:
        self.canvas.clear()
        if self.instead.parent is self:
            self.remove_widget(self.instead)
        if self._texture is None:
            return
        if not self.readable:
            self._button_instead()
            return
        side = self.side
        # Whole pixels: a module that straddles two screen pixels would blur its edge.
        x = int(self.center_x - side / 2)
        y = int(self.center_y - side / 2)
        with self.canvas:
            Color(1, 1, 1, 1)
            Rectangle(texture=self._texture, pos=(x, y), size=(side, side))

    def _button_instead(self) -> None:
        """A button's look where the code would be, saying a tap shows it."""
        with self.canvas:
            Color(*theme.BUTTON)
            Rectangle(pos=self.pos, size=self.size)
        words = self.instead
        words.text = tr("Show the QR code")
        words.pos, words.size = self.pos, self.size
        words.text_size = (self.width * 0.9, None)
        words.font_size = fit_font(
            words.text, self.width * 0.9, self.height * 0.9, SCALE.font(18), True
        )
        self.add_widget(words)


def enlarge(text: str) -> ModalView:
    """``text``'s code over the whole screen, for a phone further away (or a code too small
    to read where it was); a tap closes it. The view is white from edge to edge, so the
    code's quiet zone is the white around it: two modules drawn, and the rest of the screen
    beside them, which lets a long link (four long names) reach three pixels a module on
    a 3.5-inch screen."""
    view = ModalView(
        size_hint=(1, 1),
        background="",  # plain white to the screen's edges: no frame around the code
        background_color=(1, 1, 1, 1),
        overlay_color=(1, 1, 1, 1),
    )
    view._anim_duration = 0
    big = QRCode(text=text, border=2)
    big.bind(on_release=lambda *_: view.dismiss())
    view.add_widget(big)
    view.open()
    return view
