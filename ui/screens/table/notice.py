"""What the table says (a refusal, a hint, the move just made), where the eyes are.

A refusal appears next to what was tapped; a word that comes from elsewhere (a scan, the
reader, an undo) under the bank, where the players look for the next move. It stays until
the next tap, which still does what it was meant to (the notice never swallows a touch).
"""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.core.window import Window
from kivy.lang import Builder
from kivy.properties import BooleanProperty
from kivy.uix.widget import Widget

from ... import theme
from ...scale import SCALE
from ...widgets.framed import FramedBox
from ...widgets.text import wrapping_label

TEXT = 19  # px at 800x480: a refusal is read from a chair (18 px at the least)
RECENT = 1.5  # s: a word said within this of a tap answers it, and is said beside it


Builder.load_string("""
#:import theme ui.theme

<Notice>:
    size_hint: None, None
    opacity: 0
    frame_width: 2
    frame_colour: theme.ERROR if self.error else theme.ACCENT
""")


class Notice(FramedBox):
    """A framed message floating over the table, near a point, inside the window."""

    error = BooleanProperty(False)  # a refusal: framed and written in the error colour

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.label = wrapping_label("", font=SCALE.font(TEXT), bold=True, color=theme.TEXT)
        self.label.bind(height=self._fit)
        self.add_widget(self.label)
        self.anchor: tuple[float, float] | None = None
        self.touched_at: tuple[float, float] | None = None  # the last tap, and when
        self.touched_when = 0.0
        SCALE.bind(unit=self._rescale)
        # A message stays until the next tap, which still does what it was for.
        Window.bind(on_touch_down=self._touched)

    def _touched(self, _window: object, touch: object) -> bool:
        if self.opacity:
            self.hide()
        self.touched_at = getattr(touch, "pos", None)
        self.touched_when = Clock.get_time()
        return False

    @property
    def text(self) -> str:
        return str(self.label.text)

    def _rescale(self, *_: Any) -> None:
        self.label.font_size = max(18.0, SCALE.font(TEXT))
        self.place()

    def _fit(self, *_: Any) -> None:
        self.height = self.label.height + self.padding[1] + self.padding[3]
        self.place()

    def say(self, message: str, error: bool, home: Widget) -> None:
        """``message`` next to what was just tapped, or under ``home`` (a scan, a word of
        the reader, a move that was not tapped here); until the next tap."""
        if not message:
            self.hide()
            return
        near = self.touched_at if self.touched_at is not None and self._recent() else None
        self.show(message, error, near)
        if near is None:
            self.place(home=home)

    def _recent(self) -> bool:
        """Whether the last tap was a moment ago (this message answers it), not a scan's
        or the reader's word long after it."""
        return float(Clock.get_time()) - self.touched_when < RECENT

    def show(self, text: str, error: bool, near: tuple[float, float] | None) -> None:
        """``text`` near the point ``near`` (window coordinates), or under the bank."""
        self.error = error
        self.label.color = theme.ERROR if error else theme.TEXT
        self.anchor = near
        self.padding = [SCALE.px(10), SCALE.px(6)]
        self.label.font_size = max(18.0, SCALE.font(TEXT))
        self.width = min(SCALE.width * (0.9 if SCALE.portrait else 0.5), SCALE.px(420))
        self.label.text = text
        self.opacity = 1 if text else 0
        self.place()

    def hide(self) -> None:
        self.label.text = ""
        self.opacity = 0

    def place(self, *_: Any, home: Widget | None = None) -> None:
        """Below the point (above it when the window has no room), inside the window."""
        if home is not None and self.anchor is None:
            hx, hy = home.to_window(home.center_x, home.y)
            point = (hx, hy)
        elif self.anchor is not None:
            point = self.anchor
        else:
            return
        gap = SCALE.px(26)
        x = min(max(4.0, point[0] - self.width / 2), SCALE.width - self.width - 4)
        y = point[1] - gap - self.height
        if y < 4:
            y = min(point[1] + gap, SCALE.height - self.height - 4)
        self.pos = (x, max(4.0, y))
