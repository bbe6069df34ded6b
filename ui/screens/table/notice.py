"""What the table says (a refusal, the take's hint, the move just made), on a line of its
own under the take bar, beside the bank where the eyes are.

The line is part of the action column's layout, not drawn over it: it covers no button
and never the active player's name and points (the players give it the room while it
shows, issue 34). It stays until the next tap, which still does what it was meant to: it
goes when that tap is lifted, so nothing moves under the finger while it is down.
"""

from __future__ import annotations

from typing import Any

from kivy.core.window import Window
from kivy.lang import Builder
from kivy.properties import BooleanProperty

from ... import theme
from ...scale import SCALE
from ...widgets.framed import FramedBox
from ...widgets.text import wrapped_lines, wrapping_label

TEXT = 19  # px at 800x480: a refusal is read from a chair (18 px at the least)
WORDS = 16  # px at 800x480: a hint or the move just made, on one line where it can
REFUSAL_LEAST = 18  # px: a refusal from a chair; the 3.5-inch screen, held close, goes to
# its floor (12 px) before it takes more than two lines of its players' little room


Builder.load_string("""
#:import theme ui.theme

<Notice>:
    size_hint_y: None
    height: 0
    opacity: 0
    frame_width: 2
    frame_colour: theme.ERROR if self.error else theme.ACCENT
""")


class Notice(FramedBox):
    """A framed line in the action column, as tall as its words (none: no room at all)."""

    error = BooleanProperty(False)  # a refusal: framed and written in the error colour

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.label = wrapping_label("", font=SCALE.font(WORDS), bold=True, color=theme.TEXT)
        self.label.bind(height=self._fit)
        self.add_widget(self.label)
        SCALE.bind(unit=self._rescale)
        self.bind(width=self._rescale)
        # A message stays until the next tap, which still does what it was for.
        Window.bind(on_touch_up=self._touched)

    def _touched(self, _window: object, _touch: object) -> bool:
        if self.opacity:
            self.hide()
        return False

    @property
    def text(self) -> str:
        return str(self.label.text)

    def _sizes(self) -> tuple[float, float, int]:
        """The font wanted, the least it may shrink to, and the most lines it may take."""
        if not self.error:
            return SCALE.font(WORDS), SCALE.min_text, 2
        if SCALE.small:
            return SCALE.min_text + 2, SCALE.min_text, 2
        return max(REFUSAL_LEAST, SCALE.font(TEXT)), REFUSAL_LEAST, 3

    def _rescale(self, *_: Any) -> None:
        """The words as large as they may be on at most their lines."""
        self.padding = [SCALE.px(8), SCALE.px(2)]
        size, least, lines = self._sizes()
        width = max(1.0, float(self.width) - self.padding[0] * 2 - 2)
        text = self.label.text
        while size > least and len(wrapped_lines(text, size, width, bold=True)) > lines:
            size = max(least, size - 1)
        self.label.font_size = size

    def _fit(self, *_: Any) -> None:
        shown = bool(self.label.text)
        self.height = self.label.height + self.padding[1] + self.padding[3] if shown else 0

    def say(self, message: str, error: bool = False) -> None:
        """``message`` on the line until the next tap ("": the line goes)."""
        if not message:
            self.hide()
            return
        self.error = error
        self.label.color = theme.ERROR if error else theme.TEXT
        self.label.text = message
        self._rescale()
        self.opacity = 1
        self._fit()

    def hide(self) -> None:
        self.label.text = ""
        self.opacity = 0
        self._fit()
